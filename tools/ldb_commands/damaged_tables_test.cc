// sst_dump and ldb, the binaries users run, pointed at Lodestone tables
// written without checksums (nothing vouches for any byte) whose CRaFT
// blocks are damaged or which are truncated: each run must end with an
// exit code, never a signal or a sanitizer report, and where only the
// filter is damaged an unbounded scan (which never asks the filter) must
// print what the undamaged table prints. The in-process fuzz target
// craft_table_damage drives the same damage through the read paths for
// hours; this test runs the tools themselves over a fixed set of it.
//
//   damaged_tables_test --sst_dump=<binary> --ldb=<binary>   (ctest passes
//                                                             both)
//
// Damage outside the filter is upstream's (craft_table_damage_fuzz.cc
// says why), so the flips stay inside the filter's blocks; truncations cut
// anywhere past the first data block.

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "file/file_util.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/table.h"
#include "table/craft/craft_file_inspection.h"
#include "table/craft/craft_test_filters.h"
#include "test_util/testharness.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace {

std::string sst_dump_binary;
std::string ldb_binary;

struct ToolRun {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  std::string output;  // stdout and stderr
};

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `args` (the binary first) with the shell, output to `log`.
ToolRun RunTool(const std::vector<std::string>& args, const std::string& log) {
  std::string command;
  for (const std::string& arg : args) command += "'" + arg + "' ";
  command += "> '" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  ToolRun run;
  run.output = ReadWhole(log);
  if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    // The shell reports its child's death by signal n as 128 + n.
    run.exit_code = WEXITSTATUS(status);
    if (run.exit_code > 128) {
      run.signal = run.exit_code - 128;
      run.exit_code = -1;
    }
  }
  return run;
}

// A crash, a sanitizer report or a failed assertion: what no input may
// cause. An exit code, whatever it is, is the tool refusing the input.
std::string Crashed(const ToolRun& run) {
  if (run.signal != 0) return "killed by signal " + std::to_string(run.signal);
  for (const char* report : {"Sanitizer", "runtime error:", "Assertion"}) {
    if (run.output.find(report) != std::string::npos) return report;
  }
  return "";
}

// The lines of a scan's output that are entries ("key => value" from
// sst_dump, "key ==> value" from ldb; the tools print a header naming the
// file or the options first).
std::string Entries(const std::string& output) {
  std::stringstream in(output);
  std::string line, entries;
  while (std::getline(in, line)) {
    if (line.find("=>") != std::string::npos) {
      entries += line + "\n";
    }
  }
  return entries;
}

struct Table {
  std::string db_dir;      // The clean DB: the table is its only one.
  std::string table_name;  // "000009.sst"
  std::string bytes;
  uint64_t filter_offset = 0;  // Partitions and metadata, with trailers.
  uint64_t filter_size = 0;
  std::string from, to;  // A range inside the table, for craft_query.
};

class DamagedTablesTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(sst_dump_binary.empty() || ldb_binary.empty())
        << "run with --sst_dump=<binary> --ldb=<binary> (ctest passes both)";
    root_ = test::PerThreadDBPath("damaged_tables");
    ASSERT_OK(DestroyDir(Env::Default(), root_));
    ASSERT_OK(Env::Default()->CreateDirIfMissing(root_));
  }

  void TearDown() override {
    if (!HasFailure()) {
      // A failure leaves the tables and the tools' logs to look at.
      EXPECT_OK(DestroyDir(Env::Default(), root_));
    }
  }

  Options TableOptions(uint32_t range_hash_bits) {
    Options options;
    options.create_if_missing = true;
    BlockBasedTableOptions table;
    table.checksum = kNoChecksum;
    table.block_size = 512;
    CraftRangeFilterOptions knobs;
    knobs.partition_size = 256;
    knobs.range_hash_bits = range_hash_bits;
    EXPECT_OK(NewCraftRangeFilterPolicy(knobs, &table.range_filter));
    options.table_factory.reset(NewBlockBasedTableFactory(table));
    return options;
  }

  // One flushed table of puts, initial puts, deletes and a range delete.
  Table MakeTable(const std::string& name, uint32_t range_hash_bits,
                  bool text_keys) {
    Table t;
    t.db_dir = root_ + "/" + name;
    const Options options = TableOptions(range_hash_bits);
    DB* raw = nullptr;
    EXPECT_OK(DB::Open(options, t.db_dir, &raw));
    std::unique_ptr<DB> db(raw);
    std::vector<std::string> keys;
    for (int i = 0; i < 600; ++i) {
      keys.push_back(text_keys ? "user:" + std::to_string(100000 + i * 7) +
                                     "@example.com"
                               : CraftTestFixedWidthKey(uint64_t{40503} * i));
      const std::string value = "value" + std::to_string(i);
      EXPECT_OK(i % 3 == 0 ? db->PutInitial(WriteOptions(), keys[i], value)
                           : db->Put(WriteOptions(), keys[i], value));
      if (i % 7 == 0) {
        EXPECT_OK(db->Delete(WriteOptions(), keys[i]));
      }
    }
    EXPECT_OK(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(),
                              keys[100], keys[110]));
    EXPECT_OK(db->Flush(FlushOptions()));
    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    EXPECT_EQ(files.size(), 1u);
    EXPECT_OK(db->Close());
    t.table_name = files.at(0).relative_filename;
    EXPECT_OK(ReadFileToString(Env::Default(), t.db_dir + "/" + t.table_name,
                               &t.bytes));
    CraftFileFilter filter;
    EXPECT_OK(ReadCraftFilterFromFile(t.db_dir + "/" + t.table_name, options,
                                      &filter));
    constexpr uint64_t kTrailer = 5;
    t.filter_offset = filter.metadata.partitions().at(0).offset;
    t.filter_size =
        filter.bytes + kTrailer * (filter.metadata.partitions().size() + 1);
    // Hex, as ldb's --hex reads them: binary keys pass through a shell.
    t.from = "0x" + Slice(keys[200]).ToString(/*hex=*/true);
    t.to = "0x" + Slice(keys[203]).ToString(/*hex=*/true);
    return t;
  }

  // A copy of the table's DB whose table is `damaged`.
  std::string DamagedDb(const Table& t, const std::string& damaged, int n) {
    const std::string dir = t.db_dir + "_damaged" + std::to_string(n);
    EXPECT_OK(DestroyDir(Env::Default(), dir));
    EXPECT_OK(Env::Default()->CreateDir(dir));
    std::vector<std::string> children;
    EXPECT_OK(Env::Default()->GetChildren(t.db_dir, &children));
    for (const std::string& child : children) {
      if (child == "LOCK" || child.rfind("LOG", 0) == 0) continue;
      std::string contents;
      EXPECT_OK(
          ReadFileToString(Env::Default(), t.db_dir + "/" + child, &contents));
      EXPECT_OK(WriteStringToFile(Env::Default(),
                                  child == t.table_name ? damaged : contents,
                                  dir + "/" + child));
    }
    return dir;
  }

  // The tools' runs over one table and its DB; counts what they said.
  void RunTools(const Table& t, const std::string& dir, bool filter_only,
                const std::string& clean_sst_scan,
                const std::string& clean_ldb_scan) {
    const std::string file = dir + "/" + t.table_name;
    const std::string log = dir + ".log";
    const std::vector<std::vector<std::string>> runs = {
        {sst_dump_binary, "--file=" + file, "--command=scan", "--output_hex"},
        {sst_dump_binary, "--file=" + file, "--command=check"},
        {sst_dump_binary, "--file=" + file, "--command=verify"},
        {sst_dump_binary, "--file=" + file, "--command=raw"},
        {sst_dump_binary, "--file=" + file, "--show_properties",
         "--command=none"},
        {ldb_binary, "--db=" + dir, "--try_load_options", "--hex",
         "craft_query", "--from=" + t.from, "--to=" + t.to},
        {ldb_binary, "--db=" + dir, "--try_load_options", "--hex", "scan"},
        {ldb_binary, "--db=" + dir, "--try_load_options", "--hex", "scan",
         "--from=" + t.from, "--to=" + t.to},
        {ldb_binary, "--db=" + dir, "--try_load_options", "checkconsistency"},
        {ldb_binary, "--db=" + dir, "--try_load_options", "compact"},
    };
    for (size_t i = 0; i < runs.size(); ++i) {
      const ToolRun run = RunTool(runs[i], log);
      ++tool_runs_;
      const std::string crash = Crashed(run);
      std::string line;
      for (const std::string& arg : runs[i]) line += arg + " ";
      ASSERT_EQ(crash, "") << line << "\n" << run.output;
      if (run.output.find("filter unreadable") != std::string::npos) {
        ++filters_refused_;
      }
      if (run.output.find("CRaFT range filter") != std::string::npos) {
        ++filters_described_;
      }
      if (filter_only && i == 0) {
        EXPECT_EQ(run.exit_code, 0) << line << "\n" << run.output;
        EXPECT_EQ(Entries(run.output), clean_sst_scan) << line;
      }
      if (filter_only && i == 6) {
        EXPECT_EQ(run.exit_code, 0) << line << "\n" << run.output;
        EXPECT_EQ(Entries(run.output), clean_ldb_scan) << line;
      }
    }
  }

  std::string root_;
  int tool_runs_ = 0;
  int filters_refused_ = 0;    // craft_query said "filter unreadable"
  int filters_described_ = 0;  // sst_dump printed the filter
};

TEST_F(DamagedTablesTest, ToolsSurviveDamagedFilters) {
  std::mt19937 rng(20261129);
  const std::vector<Table> tables = {
      MakeTable("fixed_width", 0, /*text_keys=*/false),
      MakeTable("text", 0, /*text_keys=*/true),
      MakeTable("range_hash", 14, /*text_keys=*/false)};
  int n = 0;
  for (const Table& t : tables) {
    const std::string clean = DamagedDb(t, t.bytes, n++);
    const std::string sst_scan = Entries(
        RunTool({sst_dump_binary, "--file=" + clean + "/" + t.table_name,
                 "--command=scan", "--output_hex"},
                clean + ".log")
            .output);
    const std::string ldb_scan =
        Entries(RunTool({ldb_binary, "--db=" + clean, "--try_load_options",
                         "--hex", "scan"},
                        clean + ".log")
                    .output);
    ASSERT_GT(sst_scan.size(), 1000u) << "the clean table scans";
    ASSERT_GT(ldb_scan.size(), 1000u) << "the clean DB scans";
    for (int variant = 0; variant < 8; ++variant) {
      std::string damaged = t.bytes;
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int f = 0; f < flips; ++f) {
        damaged[t.filter_offset + rng() % t.filter_size] ^=
            static_cast<char>(1 + rng() % 255);
      }
      const bool truncated = variant % 4 == 3;
      if (truncated) {
        damaged.resize(512 + rng() % (damaged.size() - 512));
      }
      const std::string dir = DamagedDb(t, damaged, n++);
      RunTools(t, dir, !truncated, sst_scan, ldb_scan);
      if (HasFatalFailure()) return;
    }
  }
  fprintf(stderr,
          "%d tool runs over 24 damaged tables: craft_query refused %d "
          "filters, sst_dump described %d\n",
          tool_runs_, filters_refused_, filters_described_);
  // The damage reached the filter's decoder both ways: some filters were
  // refused, some read (a run where neither happened tested nothing).
  EXPECT_GT(filters_refused_, 0);
  EXPECT_GT(filters_described_, 0);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--sst_dump=", 11) == 0) {
      ROCKSDB_NAMESPACE::sst_dump_binary = argv[i] + 11;
    } else if (strncmp(argv[i], "--ldb=", 6) == 0) {
      ROCKSDB_NAMESPACE::ldb_binary = argv[i] + 6;
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_argc = static_cast<int>(rest.size());
  ::testing::InitGoogleTest(&rest_argc, rest.data());
  return RUN_ALL_TESTS();
}
