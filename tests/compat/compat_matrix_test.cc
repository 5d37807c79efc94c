// The format compatibility matrix (docs/compatibility.md says which
// directions are promised). Every writer below makes a DB; every reader
// opens it with this build, reads it whole (forward, backward, point reads,
// bounded scans, VerifyChecksum), compacts it, reads it again, reopens it
// and reads it a third time. A writer is one of:
//  - stock RocksDB 9.10.0 (a committed fixture, make_stock_fixture.sh);
//  - this build, live: features off, each CRaFT partition format (1-4),
//    initial puts in the WAL, in flushed tables and in compacted tables,
//    tombstone statistics in the MANIFEST, everything at once, KiWi delete
//    tiles;
//  - earlier Lodestone formats (committed fixtures written by this test's
//    WriteFixtures at the time, fixtures/lodestone-*): each later version
//    keeps reading them, and a new format adds its own directory.
// A reader is this build with features off (as a user who turns them all
// off again), with CRaFT, or with every feature on.
//
// The other direction, stock 9.10.0 reading what Lodestone writes, needs a
// stock build: tools/compat_check.sh, run by the main job (tools/bench.sh).

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "db/db_test_util.h"
#include "file/random_access_file_reader.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/location_cache.h"
#include "table/craft/craft_file_inspection.h"
#include "table/craft/craft_range_filter_policy.h"
#include "table/craft/craft_table_writer.h"
#include "table/format.h"
#include "table/kiwi/tile_map.h"
#include "table/meta_blocks.h"
#include "test_util/testharness.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {

namespace fs = std::filesystem;
using Contents = std::map<std::string, std::string>;

const std::string kFixtures = LODESTONE_COMPAT_FIXTURES;
// The committed fixtures of the formats this build writes.
const char kThisVersion[] = "lodestone-2026-12-03";

// A CRaFT policy writing partition format 1 (a byte per label, uncoded
// keys), which Lodestone wrote before format 2 and every reader decodes.
class Format1CraftPolicy : public CraftRangeFilterPolicy {
 public:
  Format1CraftPolicy() : CraftRangeFilterPolicy(Knobs()) {}
  std::unique_ptr<RangeFilterBuilder> NewBuilder(
      const RangeFilterBuildContext&) const override {
    CraftFilterOptions filter;
    filter.partition_size = 256;
    filter.trie.compact_labels = false;
    filter.key_coding = false;
    return std::make_unique<CraftTableWriter>(builders_, filter);
  }

 private:
  const std::shared_ptr<CraftBuilderPool> builders_ =
      std::make_shared<CraftBuilderPool>();
  static CraftRangeFilterOptions Knobs() {
    CraftRangeFilterOptions knobs;
    knobs.partition_size = 256;
    return knobs;
  }
};

std::shared_ptr<RangeFilterPolicy> Craft(uint32_t range_hash_bits) {
  CraftRangeFilterOptions knobs;
  knobs.partition_size = 256;
  knobs.range_hash_bits = range_hash_bits;
  std::shared_ptr<RangeFilterPolicy> policy;
  EXPECT_OK(NewCraftRangeFilterPolicy(knobs, &policy));
  return policy;
}

void SetRangeFilter(Options* o, std::shared_ptr<RangeFilterPolicy> policy) {
  BlockBasedTableOptions table;
  table.block_size = 512;  // Several data blocks per table.
  table.range_filter = std::move(policy);
  o->table_factory.reset(NewBlockBasedTableFactory(table));
}

void AllFeatures(Options* o) {
  SetRangeFilter(o, Craft(/*range_hash_bits=*/14));
  o->min_tombstones_for_range_conversion = 3;
  o->tombstone_density_trigger = 0.5;
  o->compaction_overlap_by_keys = true;
  o->location_cache = LocationCache::Create({/*capacity=*/64 << 10});
}

// Keys: 8-byte big-endian integers (binary: partition formats 1, 2, 4) or
// text the key code fits (format 3).
std::string BinaryKey(int i) {
  std::string k(8, '\0');
  for (int b = 0; b < 8; ++b) {
    k[b] = static_cast<char>((uint64_t{7919} * i + 3) >> (56 - 8 * b));
  }
  return k;
}
std::string TextKey(int i) {
  static const char* kWords[] = {"alpha", "bravo", "charlie", "delta"};
  return std::string("user:") + kWords[i % 4] + "." + kWords[(i / 4) % 4] +
         "@" + std::to_string(100000 + i);
}

struct Writer {
  const char* name;
  std::function<void(Options*)> configure;
  std::function<std::string(int)> key;
  // Which writes are initial puts: none, those that reach the WAL only,
  // those flushed, those compacted.
  enum InitialPuts { kNone, kInWal, kInFlushed, kInCompacted } initial = kNone;
  int craft_format = 0;  // The partition format the tables hold, 0: none.
  // The KiWi tile map version the tables hold (table/kiwi/FORMAT.md), 0:
  // none.
  int tile_map_format = 0;
};

std::vector<Writer> Writers() {
  auto off = [](Options*) {};
  auto craft = [](uint32_t bits) {
    return [bits](Options* o) { SetRangeFilter(o, Craft(bits)); };
  };
  return {
      {"features_off", off, BinaryKey},
      {"craft_format_1",
       [](Options* o) {
         SetRangeFilter(o, std::make_shared<Format1CraftPolicy>());
       },
       BinaryKey, Writer::kNone, 1},
      {"craft_format_2", craft(0), BinaryKey, Writer::kNone, 2},
      {"craft_format_3", craft(0), TextKey, Writer::kNone, 3},
      {"craft_format_4", craft(14), BinaryKey, Writer::kNone, 4},
      {"initial_puts_in_wal", off, TextKey, Writer::kInWal},
      {"initial_puts_in_flushed_tables", off, TextKey, Writer::kInFlushed},
      {"initial_puts_in_compacted_tables", off, TextKey, Writer::kInCompacted},
      {"tombstone_statistics",
       [](Options* o) {
         o->tombstone_density_trigger = 0.25;
         o->tombstone_density_window = 16;
         o->delete_persistence_threshold = 3600;
       },
       BinaryKey},
      {"all_features", AllFeatures, TextKey, Writer::kInFlushed, 4},
      {"delete_tiles",
       [](Options* o) {
         // Delete keys uncorrelated with the keys: tiles of several blocks.
         o->delete_key_extractor = NewKeySuffixDeleteKeyExtractor(1);
         o->delete_tile_blocks = 4;
         BlockBasedTableOptions table;
         table.block_size = 256;
         o->table_factory.reset(NewBlockBasedTableFactory(table));
       },
       BinaryKey, Writer::kNone, 0, /*tile_map_format=*/2},
  };
}

struct Reader {
  const char* name;
  std::function<void(Options*)> configure;
};

std::vector<Reader> Readers() {
  return {{"features_off", [](Options*) {}},
          {"craft", [](Options* o) { SetRangeFilter(o, Craft(0)); }},
          {"all_features", AllFeatures}};
}

Options BaseOptions() {
  Options o;
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 1 << 20;
  return o;
}

// Writes `writer`'s DB into `dir` and returns what it holds: a load
// compacted into the last level, overwrites, deletes and a range delete
// flushed into L0, and writes only in the WAL; the DB's files are copied
// while it is open (as a crash leaves them), so the WAL is not replayed.
Contents Write(const Writer& writer, const std::string& dir) {
  Options options = BaseOptions();
  writer.configure(&options);
  const std::string live = dir + ".live";
  EXPECT_OK(DestroyDB(live, options));
  fs::remove_all(dir);
  DB* raw = nullptr;
  EXPECT_OK(DB::Open(options, live, &raw));
  std::unique_ptr<DB> db(raw);
  Contents expected;
  auto put = [&](int i, const std::string& value, bool initial) {
    const std::string k = writer.key(i);
    if (initial && expected.count(k) == 0) {
      EXPECT_OK(db->PutInitial(WriteOptions(), k, value));
    } else {
      EXPECT_OK(db->Put(WriteOptions(), k, value));
    }
    expected[k] = value;
  };
  const int kKeys = 1000;
  for (int i = 0; i < kKeys; ++i) {
    put(i, "value" + std::to_string(i),
        writer.initial == Writer::kInCompacted && i % 3 == 0);
  }
  EXPECT_OK(db->Flush(FlushOptions()));
  CompactRangeOptions bottommost;
  bottommost.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  EXPECT_OK(db->CompactRange(bottommost, nullptr, nullptr));
  for (int i = 0; i < kKeys; i += 10) {
    put(i, "new" + std::to_string(i), false);
  }
  for (int i = 5; i < kKeys; i += 13) {
    EXPECT_OK(db->Delete(WriteOptions(), writer.key(i)));
    expected.erase(writer.key(i));
  }
  {
    // A range delete over the keys between two stored ones.
    std::string lo = writer.key(400), hi = writer.key(460);
    if (hi < lo) {
      std::swap(lo, hi);
    }
    EXPECT_OK(
        db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), lo, hi));
    expected.erase(expected.lower_bound(lo), expected.lower_bound(hi));
  }
  for (int i = kKeys; i < kKeys + 100; ++i) {
    put(i, "flushed" + std::to_string(i),
        writer.initial == Writer::kInFlushed && i % 2 == 0);
  }
  EXPECT_OK(db->Flush(FlushOptions()));
  for (int i = kKeys + 100; i < kKeys + 150; ++i) {
    put(i, "wal" + std::to_string(i),
        writer.initial == Writer::kInWal && i % 2 == 0);
  }
  EXPECT_OK(db->Delete(WriteOptions(), writer.key(1)));
  expected.erase(writer.key(1));
  EXPECT_OK(db->FlushWAL(/*sync=*/true));
  fs::copy(live, dir);
  fs::remove(dir + "/LOCK");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("LOG", 0) == 0) {
      fs::remove(entry.path());
    }
  }
  db.reset();
  EXPECT_OK(DestroyDB(live, options));
  return expected;
}

std::string Hex(const std::string& s) {
  return "0x" + Slice(s).ToString(/*hex=*/true);
}

std::string Unhex(const std::string& s) {
  std::string out;
  EXPECT_TRUE(s.rfind("0x", 0) == 0) << s;
  EXPECT_TRUE(Slice(s.substr(2)).DecodeHex(&out)) << s;
  return out;
}

// expected.txt: `ldb --hex scan` lines, "0xKEY ==> 0xVALUE".
Contents ReadExpected(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  Contents contents;
  std::string line;
  while (std::getline(in, line)) {
    const size_t arrow = line.find(" ==> ");
    EXPECT_NE(arrow, std::string::npos) << line;
    contents[Unhex(line.substr(0, arrow))] = Unhex(line.substr(arrow + 5));
  }
  return contents;
}

void WriteExpected(const Contents& contents, const std::string& path) {
  std::ofstream out(path);
  for (const auto& [k, v] : contents) {
    out << Hex(k) << " ==> " << Hex(v) << "\n";
  }
}

// Reads `db` whole and checks it against `expected`.
void CheckContents(DB* db, const Contents& expected) {
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  auto e = expected.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++e) {
    ASSERT_TRUE(e != expected.end())
        << "extra key " << Hex(it->key().ToString());
    ASSERT_EQ(Hex(it->key().ToString()), Hex(e->first));
    ASSERT_EQ(it->value().ToString(), e->second) << Hex(e->first);
  }
  ASSERT_OK(it->status());
  ASSERT_TRUE(e == expected.end()) << "missing key " << Hex(e->first);
  auto r = expected.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    ASSERT_TRUE(r != expected.rend());
    ASSERT_EQ(Hex(it->key().ToString()), Hex(r->first));
  }
  ASSERT_OK(it->status());
  ASSERT_TRUE(r == expected.rend());
  it.reset();

  std::string value;
  int i = 0;
  for (const auto& [k, v] : expected) {
    if (i++ % 7 != 0) {
      continue;
    }
    ASSERT_OK(db->Get(ReadOptions(), k, &value)) << Hex(k);
    ASSERT_EQ(value, v);
    // Just past the key: absent unless it is the next stored key.
    const std::string next = k + '\0';
    const Status s = db->Get(ReadOptions(), next, &value);
    ASSERT_EQ(s.IsNotFound(), expected.count(next) == 0) << s.ToString();
  }

  // Bounded scans, which ask range filters: from each 9th stored key
  // (and from just past it) to the key 3 or 0 places on.
  std::vector<std::string> keys;
  for (const auto& kv : expected) {
    keys.push_back(kv.first);
  }
  for (size_t at = 0; at + 3 < keys.size(); at += 9) {
    for (const std::string& lo : {keys[at], keys[at] + '\0'}) {
      for (size_t width : {size_t{0}, size_t{3}}) {
        const Slice upper(keys[at + width]);
        ReadOptions bounded;
        bounded.iterate_upper_bound = &upper;
        std::unique_ptr<Iterator> scan(db->NewIterator(bounded));
        size_t seen = 0;
        for (scan->Seek(lo); scan->Valid(); scan->Next()) {
          ++seen;
        }
        ASSERT_OK(scan->status());
        const std::string hi = upper.ToString();
        const size_t want = lo < hi ? std::distance(expected.lower_bound(lo),
                                                    expected.lower_bound(hi))
                                    : 0;
        ASSERT_EQ(seen, want) << "scan from " << Hex(lo);
      }
    }
  }
}

// Opens a copy of `dir` with `options`, reads, compacts, reads, reopens,
// reads.
void ReadCompactReopen(const std::string& dir, Options options,
                       const Contents& expected) {
  const std::string copy = dir + ".read";
  fs::remove_all(copy);
  fs::copy(dir, copy);
  options.create_if_missing = false;
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, copy, &raw));
  std::unique_ptr<DB> db(raw);
  ASSERT_NO_FATAL_FAILURE(CheckContents(db.get(), expected));
  ASSERT_OK(db->VerifyChecksum());
  CompactRangeOptions bottommost;
  bottommost.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db->CompactRange(bottommost, nullptr, nullptr));
  ASSERT_NO_FATAL_FAILURE(CheckContents(db.get(), expected));
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(options, copy, &raw));
  db.reset(raw);
  ASSERT_NO_FATAL_FAILURE(CheckContents(db.get(), expected));
  db.reset();
  ASSERT_OK(DestroyDB(copy, options));
}

// The partition format of the first table in `dir` with a CRaFT filter, 0
// if none has one.
int CraftFormatIn(const std::string& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".sst") {
      continue;
    }
    CraftFileFilter filter;
    if (!ReadCraftFilterFromFile(path, Options(), &filter).ok() ||
        filter.metadata.partitions().empty()) {
      continue;
    }
    std::string bytes;
    EXPECT_OK(ReadFileToString(Env::Default(), path, &bytes));
    return static_cast<uint8_t>(bytes[filter.metadata.partitions()[0].offset]);
  }
  return 0;
}

// The tile map version of the first table in `dir` with a tile of several
// blocks, 0 if none has one.
int TileMapFormatIn(const std::string& dir) {
  const Options options;
  const ImmutableOptions ioptions(options);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".sst") {
      continue;
    }
    std::unique_ptr<FSRandomAccessFile> raw;
    uint64_t size = 0;
    EXPECT_OK(options.env->GetFileSystem()->NewRandomAccessFile(
        path, FileOptions(), &raw, nullptr));
    EXPECT_OK(options.env->GetFileSize(path, &size));
    RandomAccessFileReader file(std::move(raw), path);
    BlockContents map;
    if (!ReadMetaBlock(&file, /*prefetch_buffer=*/nullptr, size,
                       kBlockBasedTableMagicNumber, ioptions, ReadOptions(),
                       kiwi::kTileMapBlockName, BlockType::kInvalid, &map)
             .ok()) {
      continue;  // No tile map.
    }
    std::vector<kiwi::Tile> tiles;
    EXPECT_OK(kiwi::DecodeTileMap(map.data, &tiles));
    for (const kiwi::Tile& tile : tiles) {
      if (tile.blocks.size() > 1) {
        Slice in = map.data;
        uint32_t version = 0;
        EXPECT_TRUE(GetVarint32(&in, &version));
        return static_cast<int>(version);
      }
    }
  }
  return 0;
}

class CompatMatrixTest : public testing::Test {
 protected:
  std::string Dir(const std::string& name) {
    return test::PerThreadDBPath("compat_" + name);
  }

  void ReadEveryWay(const std::string& dir, const Contents& expected) {
    for (const Reader& reader : Readers()) {
      SCOPED_TRACE(std::string("reader ") + reader.name);
      Options options = BaseOptions();
      reader.configure(&options);
      ASSERT_NO_FATAL_FAILURE(ReadCompactReopen(dir, options, expected));
    }
  }
};

TEST_F(CompatMatrixTest, Stock9_10_0) {
  const std::string fixture = kFixtures + "/stock-9.10.0";
  const Contents expected = ReadExpected(fixture + "/expected.txt");
  ASSERT_GT(expected.size(), 1000u);
  ASSERT_NO_FATAL_FAILURE(ReadEveryWay(fixture + "/db", expected));
}

TEST_F(CompatMatrixTest, ThisBuild) {
  for (const Writer& writer : Writers()) {
    SCOPED_TRACE(std::string("writer ") + writer.name);
    const std::string dir = Dir(writer.name);
    const Contents expected = Write(writer, dir);
    ASSERT_EQ(CraftFormatIn(dir), writer.craft_format);
    ASSERT_EQ(TileMapFormatIn(dir), writer.tile_map_format);
    ASSERT_NO_FATAL_FAILURE(ReadEveryWay(dir, expected));
    fs::remove_all(dir);
  }
}

// Every committed Lodestone fixture directory, this version's and earlier
// ones: each writer's DB and what it holds.
TEST_F(CompatMatrixTest, EarlierLodestoneFormats) {
  int read = 0;
  for (const auto& version : fs::directory_iterator(kFixtures)) {
    if (version.path().filename().string().rfind("lodestone-", 0) != 0) {
      continue;
    }
    for (const auto& writer : fs::directory_iterator(version.path())) {
      SCOPED_TRACE(writer.path().string());
      const Contents expected =
          ReadExpected(writer.path().string() + "/expected.txt");
      // Copied out first: reading writes into a DB's directory.
      const std::string dir = Dir("fixture");
      fs::remove_all(dir);
      fs::copy(writer.path().string() + "/db", dir);
      ASSERT_NO_FATAL_FAILURE(ReadEveryWay(dir, expected));
      fs::remove_all(dir);
      ++read;
    }
  }
  // This version's fixtures are committed: one per writer.
  ASSERT_GE(read, static_cast<int>(Writers().size()));
}

// With LODESTONE_COMPAT_WRITE_FIXTURES=1, (re)writes this version's
// fixtures into the source tree, to commit with a format change.
TEST_F(CompatMatrixTest, WriteFixtures) {
  if (getenv("LODESTONE_COMPAT_WRITE_FIXTURES") == nullptr) {
    ROCKSDB_GTEST_BYPASS("LODESTONE_COMPAT_WRITE_FIXTURES not set");
    return;
  }
  const std::string root = kFixtures + "/" + kThisVersion;
  for (const Writer& writer : Writers()) {
    const std::string out = root + "/" + writer.name;
    fs::remove_all(out);
    fs::create_directories(out);
    const Contents expected = Write(writer, out + "/db");
    WriteExpected(expected, out + "/expected.txt");
  }
}

}  // namespace

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
