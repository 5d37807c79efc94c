// Key counts that guide compaction: which file of a level the leveled
// picker would take first, with compaction_overlap_by_keys off and on.

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/version_set.h"
#include "env/composite_env_wrapper.h"
#include "file/filename.h"
#include "monitoring/thread_status_util.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/file_system.h"
#include "rocksdb/listener.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "test_util/testharness.h"
#include "util/cast_util.h"

namespace ROCKSDB_NAMESPACE {

class OverlapByKeysTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::PerThreadDBPath("overlap_by_keys_test");
    ASSERT_OK(Env::Default()->CreateDirIfMissing(dir_));
  }

  // Three levels, no automatic compaction (the test reads the picker's order
  // and runs nothing), small CRaFT partitions so that the end partitions of a
  // range hold few keys.
  Options TestOptions(bool craft) const {
    Options options;
    options.create_if_missing = true;
    options.num_levels = 3;
    options.level_compaction_dynamic_level_bytes = false;
    options.disable_auto_compactions = true;
    options.statistics = CreateDBStatistics();
    BlockBasedTableOptions table;
    table.block_size = 1024;
    if (craft) {
      CraftRangeFilterOptions policy;
      policy.partition_size = 256;
      EXPECT_OK(NewCraftRangeFilterPolicy(policy, &table.range_filter));
    }
    options.table_factory.reset(NewBlockBasedTableFactory(table));
    return options;
  }

  struct KeyRun {
    char prefix;
    int from, to;  // Keys prefix + "%05d" of [from, to).
  };

  // Ingests one file of the runs' keys with 100-byte values; an ingested
  // file goes to the lowest level where it overlaps nothing.
  void Ingest(DB* db, const Options& options, const std::string& name,
              const std::vector<KeyRun>& runs) {
    const std::string path = dir_ + "/" + name + ".sst";
    SstFileWriter writer(EnvOptions(), options);
    ASSERT_OK(writer.Open(path));
    char key[32];
    for (const KeyRun& run : runs) {
      for (int i = run.from; i < run.to; ++i) {
        snprintf(key, sizeof(key), "%c%05d", run.prefix, i);
        ASSERT_OK(writer.Put(key, std::string(100, 'v')));
      }
    }
    ASSERT_OK(writer.Finish());
    ASSERT_OK(db->IngestExternalFile({path}, IngestExternalFileOptions()));
  }

  // The L1 of this test: F1 ("a03990".."b00989") overlaps the last ten keys
  // of G1 ("a00000".."a03999", 4,000 keys in L2); F2 ("c00000".."c00999")
  // covers all of G2 ("c00000".."c00999", 1,000 keys in L2). Upstream counts
  // G1 whole for F1, so F2 has less overlap; by keys F1 overlaps ten of G1's.
  std::unique_ptr<DB> OpenLayered(const Options& options) {
    EXPECT_OK(DestroyDB(dir_ + "/db", options));
    DB* raw = nullptr;
    EXPECT_OK(DB::Open(options, dir_ + "/db", &raw));
    std::unique_ptr<DB> db(raw);
    Ingest(db.get(), options, "g1", {{'a', 0, 4000}});
    Ingest(db.get(), options, "g2", {{'c', 0, 1000}});
    Ingest(db.get(), options, "f2", {{'c', 0, 1000}});
    Ingest(db.get(), options, "f1", {{'a', 3990, 4000}, {'b', 0, 990}});
    return db;
  }

  // L1's files (by smallest key: F1 = 0, F2 = 1) in the order the leveled
  // picker would try them.
  static std::vector<int> LevelOneOrder(DB* db) {
    auto* impl = static_cast_with_check<DBImpl>(db->GetRootDB());
    ColumnFamilyData* cfd =
        impl->GetVersionSet()->GetColumnFamilySet()->GetDefault();
    const VersionStorageInfo* vstorage = cfd->current()->storage_info();
    EXPECT_EQ(vstorage->NumLevelFiles(1), 2);
    EXPECT_EQ(vstorage->NumLevelFiles(2), 2);
    return vstorage->FilesByCompactionPri(1);
  }

  // A new version, whose ranking reads the options in force: one key flushed
  // to L0, away from every range of the test.
  static void NewVersion(DB* db) {
    ASSERT_OK(db->Put(WriteOptions(), "z", "z"));
    ASSERT_OK(db->Flush(FlushOptions()));
  }

  std::string dir_;
};

TEST_F(OverlapByKeysTest, StraddlingFilesCountByTheirKeysInRange) {
  const Options options = TestOptions(/*craft=*/true);
  std::unique_ptr<DB> db = OpenLayered(options);
  Statistics* stats = options.statistics.get();

  // Off: upstream's order, and the feature counts nothing.
  NewVersion(db.get());
  EXPECT_EQ(LevelOneOrder(db.get()), (std::vector<int>{1, 0}));
  EXPECT_EQ(stats->getTickerCount(COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER), 0u);

  // On (through SetOptions): F1's ten overlapped keys of G1 rank it first.
  ASSERT_OK(db->SetOptions({{"compaction_overlap_by_keys", "true"}}));
  NewVersion(db.get());
  EXPECT_EQ(LevelOneOrder(db.get()), (std::vector<int>{0, 1}));
  EXPECT_GT(stats->getTickerCount(COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER), 0u);
  EXPECT_EQ(stats->getTickerCount(COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE), 0u);

  // Off again: upstream's order again.
  ASSERT_OK(db->SetOptions({{"compaction_overlap_by_keys", "false"}}));
  NewVersion(db.get());
  EXPECT_EQ(LevelOneOrder(db.get()), (std::vector<int>{1, 0}));
  db.reset();
  ASSERT_OK(DestroyDB(dir_ + "/db", options));
}

TEST_F(OverlapByKeysTest, FilesWithoutFiltersCountWhole) {
  Options options = TestOptions(/*craft=*/false);
  options.compaction_overlap_by_keys = true;
  std::unique_ptr<DB> db = OpenLayered(options);
  NewVersion(db.get());
  EXPECT_EQ(LevelOneOrder(db.get()), (std::vector<int>{1, 0}));
  EXPECT_GT(
      options.statistics->getTickerCount(COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE),
      0u);
  EXPECT_EQ(options.statistics->getTickerCount(
                COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER),
            0u);
  db.reset();
  ASSERT_OK(DestroyDB(dir_ + "/db", options));
}

// A file system whose reads check, as db_stress's does, that a read's I/O
// activity is the one its thread's operation expects (e.g. kDBOpen while the
// DB opens), and count those that are not.
class IOActivityCheckingFS : public FileSystemWrapper {
 public:
  explicit IOActivityCheckingFS(const std::shared_ptr<FileSystem>& target)
      : FileSystemWrapper(target) {}
  static const char* kClassName() { return "IOActivityCheckingFS"; }
  const char* Name() const override { return kClassName(); }

  IOStatus NewRandomAccessFile(const std::string& fname,
                               const FileOptions& options,
                               std::unique_ptr<FSRandomAccessFile>* result,
                               IODebugContext* dbg) override {
    IOStatus s = target()->NewRandomAccessFile(fname, options, result, dbg);
    if (s.ok()) {
      result->reset(new CheckedFile(std::move(*result), &mismatches_));
    }
    return s;
  }

  int mismatches() const { return mismatches_.load(); }

 private:
  class CheckedFile : public FSRandomAccessFileOwnerWrapper {
   public:
    CheckedFile(std::unique_ptr<FSRandomAccessFile>&& target,
                std::atomic<int>* mismatches)
        : FSRandomAccessFileOwnerWrapper(std::move(target)),
          mismatches_(mismatches) {}
    IOStatus Read(uint64_t offset, size_t n, const IOOptions& options,
                  Slice* result, char* scratch,
                  IODebugContext* dbg) const override {
      const Env::IOActivity expected =
          ThreadStatusUtil::TEST_GetExpectedIOActivity(
              ThreadStatusUtil::GetThreadOperation());
      if (expected != Env::IOActivity::kUnknown &&
          expected != options.io_activity) {
        mismatches_->fetch_add(1);
      }
      return target()->Read(offset, n, options, result, scratch, dbg);
    }

   private:
    std::atomic<int>* mismatches_;
  };

  std::atomic<int> mismatches_{0};
};

// Regression (crash test, seed 3201006, a verification-only invocation):
// the ranking read a straddling file's metadata with default read options
// while the DB opened, and db_stress's file system asserted that the read's
// I/O activity was kDBOpen. The metadata is read with the version's read
// options (OverlapByKeys::LoadMetadata), the ranking reads nothing.
TEST_F(OverlapByKeysTest, MetadataIsReadWithTheVersionsReadOptions) {
  Options options = TestOptions(/*craft=*/true);
  options.compaction_overlap_by_keys = true;
  { std::unique_ptr<DB> layered = OpenLayered(options); }

  auto fs = std::make_shared<IOActivityCheckingFS>(FileSystem::Default());
  std::unique_ptr<Env> env = NewCompositeEnv(fs);
  options.env = env.get();
  options.enable_thread_tracking = true;
  options.statistics = CreateDBStatistics();
  // This thread reports its operations (as db_stress's threads do), so the
  // open's reads are expected to say kDBOpen.
  ThreadStatusUtil::RegisterThread(env.get(), ThreadStatus::USER);
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dir_ + "/db", &raw));
  std::unique_ptr<DB> db(raw);
  // The versions the open installed were ranked by keys.
  EXPECT_GT(options.statistics->getTickerCount(
                COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER),
            0u);
  EXPECT_EQ(LevelOneOrder(db.get()), (std::vector<int>{0, 1}));
  NewVersion(db.get());
  EXPECT_EQ(fs->mismatches(), 0);
  db.reset();
  ThreadStatusUtil::UnregisterThread();
  ASSERT_OK(DestroyDB(dir_ + "/db", options));
}

// The picker's compaction, not only its order: the first compaction out of
// L1 takes F2 with the option off and F1 with it on.
class FirstCompactionInputs : public EventListener {
 public:
  void OnCompactionBegin(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_.empty()) {
      for (const CompactionFileInfo& f : info.input_file_infos) {
        first_.insert(f.file_number);
      }
    }
  }
  // The input files of the first compaction.
  std::set<uint64_t> first() {
    std::lock_guard<std::mutex> lock(mu_);
    return first_;
  }

 private:
  std::mutex mu_;
  std::set<uint64_t> first_;
};

TEST_F(OverlapByKeysTest, PickerCompactsTheFirstRankedFile) {
  for (bool by_keys : {false, true}) {
    SCOPED_TRACE(by_keys ? "by keys" : "by bytes");
    Options options = TestOptions(/*craft=*/true);
    options.compaction_overlap_by_keys = by_keys;
    options.max_bytes_for_level_base = 1;  // L1 always over its target.
    auto listener = std::make_shared<FirstCompactionInputs>();
    options.listeners.push_back(listener);
    std::unique_ptr<DB> db = OpenLayered(options);
    uint64_t f1 = 0, f2 = 0;
    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    for (const LiveFileMetaData& f : files) {
      if (f.level == 1) {
        (f.smallestkey == "a03990" ? f1 : f2) = f.file_number;
      }
    }
    ASSERT_NE(f1, 0u);
    ASSERT_NE(f2, 0u);
    ASSERT_OK(db->SetOptions({{"disable_auto_compactions", "false"}}));
    ASSERT_OK(static_cast_with_check<DBImpl>(db.get())->TEST_WaitForCompact());
    const std::set<uint64_t> first = listener->first();
    EXPECT_EQ(first.count(f1), by_keys ? 1u : 0u);
    EXPECT_EQ(first.count(f2), by_keys ? 0u : 1u);
    db.reset();
    ASSERT_OK(DestroyDB(dir_ + "/db", options));
  }
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
