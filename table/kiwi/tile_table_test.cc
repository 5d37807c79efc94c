// KiWi's delete tiles in a DB: tables written with tiles read exactly like
// tables without them (every read, against a model and against a DB that
// writes no tiles), live beside them, and let secondary range deletes skip
// and drop whole blocks unread.

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "db/db_test_util.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "file/filename.h"
#include "file/sequence_file_reader.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/secondary_delete.h"
#include "rocksdb/table.h"
#include "table/kiwi/tile_map.h"
#include "table/sst_file_dumper.h"
#include "utilities/merge_operators.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Delete keys are the value's first two bytes, "d00".."d99"-like: "00".."99".
std::string Value(std::mt19937_64& rng, int d) {
  char prefix[8];
  snprintf(prefix, sizeof(prefix), "%02d", d);
  return std::string(prefix) + "-" + std::string(10 + rng() % 40, 'v');
}

std::string KeyOf(int i) {
  char key[16];
  snprintf(key, sizeof(key), "key%06d", i);
  return key;
}

}  // namespace

class TileTableTest : public DBTestBase {
 public:
  TileTableTest() : DBTestBase("tile_table_test", /*env_do_fsync=*/false) {}

  Options TiledOptions(uint32_t h) {
    Options options = CurrentOptions();
    options.create_if_missing = true;
    options.delete_key_extractor = NewValuePrefixDeleteKeyExtractor(2);
    options.delete_tile_blocks = h;
    options.statistics = CreateDBStatistics();
    options.disable_auto_compactions = true;
    BlockBasedTableOptions table;
    table.block_size = 256;  // Many blocks, and tiles of several.
    options.table_factory.reset(NewBlockBasedTableFactory(table));
    return options;
  }

  // Writes `n` keys in random order with random delete keys, some updated
  // and deleted, into the model as well; flushes into several tables.
  void Fill(int n, std::mt19937_64& rng) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) {
      order[i] = i;
    }
    std::shuffle(order.begin(), order.end(), rng);
    for (int i = 0; i < n; ++i) {
      const std::string key = KeyOf(order[i]);
      if (rng() % 10 == 0) {
        ASSERT_OK(Delete(key));
        model_.erase(key);
      } else {
        const std::string value = Value(rng, static_cast<int>(rng() % 100));
        ASSERT_OK(Put(key, value));
        model_[key] = value;
      }
      if (i % (n / 4) == n / 4 - 1) {
        ASSERT_OK(Flush());
      }
    }
    ASSERT_OK(Flush());
  }

  // A secondary range delete of the delete keys below `hi` (from "00"),
  // in the DB and in the model.
  void DeleteBelow(const std::string& hi) {
    ASSERT_OK(
        DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "00", hi));
    for (auto it = model_.begin(); it != model_.end();) {
      it = it->second.compare(0, 2, hi) < 0 ? model_.erase(it) : ++it;
    }
  }

  // Every read agrees with the model: Get, MultiGet, a full scan both ways
  // and a seek to each key.
  void CheckAgainstModel() {
    for (int i = 0; i < 2100; i += 7) {
      const std::string key = KeyOf(i);
      auto it = model_.find(key);
      EXPECT_EQ(Get(key), it == model_.end() ? "NOT_FOUND" : it->second) << key;
    }
    std::vector<std::string> keys;
    for (int i = 0; i < 2100; i += 13) {
      keys.push_back(KeyOf(i));
    }
    const std::vector<std::string> values = MultiGet(keys);
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = model_.find(keys[i]);
      EXPECT_EQ(values[i], it == model_.end() ? "NOT_FOUND" : it->second);
    }
    std::unique_ptr<Iterator> iter(db_->NewIterator(ReadOptions()));
    auto m = model_.begin();
    for (iter->SeekToFirst(); iter->Valid(); iter->Next(), ++m) {
      ASSERT_NE(m, model_.end());
      ASSERT_EQ(iter->key().ToString(), m->first);
      ASSERT_EQ(iter->value().ToString(), m->second);
    }
    EXPECT_EQ(m, model_.end());
    ASSERT_OK(iter->status());
    auto r = model_.rbegin();
    for (iter->SeekToLast(); iter->Valid(); iter->Prev(), ++r) {
      ASSERT_NE(r, model_.rend());
      ASSERT_EQ(iter->key().ToString(), r->first);
    }
    EXPECT_EQ(r, model_.rend());
    for (int i = 0; i < 2100; i += 11) {
      iter->Seek(KeyOf(i));
      auto ge = model_.lower_bound(KeyOf(i));
      ASSERT_EQ(iter->Valid(), ge != model_.end());
      if (iter->Valid()) {
        ASSERT_EQ(iter->key().ToString(), ge->first);
      }
    }
  }

  // The raw dumps (sst_dump --command=raw) of the live tables: whether
  // each prints a tile map, and all of them ReadSequential-verified.
  int TablesWithTileMaps() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    int tiled = 0;
    for (const LiveFileMetaData& f : files) {
      const std::string path = f.directory + "/" + f.relative_filename;
      SstFileDumper dumper(last_options_, path, Temperature::kUnknown,
                           /*readahead_size=*/0, /*verify_checksum=*/true,
                           /*output_hex=*/false, /*decode_blob_index=*/false);
      EXPECT_OK(dumper.getStatus());
      EXPECT_OK(dumper.VerifyChecksum());
      EXPECT_OK(
          dumper.ReadSequential(/*print_kv=*/false, 0, false, "", false, ""));
      const std::string out = dbname_ + "/dump.txt";
      EXPECT_OK(dumper.DumpTable(out));
      std::string dump;
      EXPECT_OK(ReadFileToString(env_, out, &dump));
      tiled += dump.find("KiWi delete tiles") != std::string::npos ? 1 : 0;
    }
    return tiled;
  }

  // The secondary range tombstone records in the DB's current MANIFEST:
  // stock RocksDB refuses a MANIFEST that holds one (its tag is not
  // ignorable).
  int TombstoneRecordsInManifest() {
    std::string current;
    EXPECT_OK(ReadFileToString(env_, CurrentFileName(dbname_), &current));
    EXPECT_FALSE(current.empty());
    const std::string manifest =
        dbname_ + "/" + current.substr(0, current.size() - 1);
    std::unique_ptr<SequentialFileReader> file;
    EXPECT_OK(SequentialFileReader::Create(env_->GetFileSystem(), manifest,
                                           FileOptions(), &file, nullptr,
                                           nullptr));
    struct FailingReporter : public log::Reader::Reporter {
      void Corruption(size_t /*bytes*/, const Status& s) override {
        ADD_FAILURE() << "MANIFEST corrupt: " << s.ToString();
      }
    } reporter;
    log::Reader reader(nullptr, std::move(file), &reporter,
                       /*checksum=*/true, /*log_num=*/0);
    Slice record;
    std::string scratch;
    int tombstones = 0, records = 0;
    while (reader.ReadRecord(&record, &scratch)) {
      VersionEdit edit;
      EXPECT_OK(edit.DecodeFrom(record));
      tombstones += static_cast<int>(edit.GetSecondaryRangeTombstones().size());
      ++records;
    }
    EXPECT_GT(records, 0);
    return tombstones;
  }

  uint64_t Ticker(Tickers t) {
    return last_options_.statistics->getTickerCount(t);
  }

  std::map<std::string, std::string> model_;
};

TEST_F(TileTableTest, TiledTablesReadLikeAnyOther) {
  for (uint32_t h : {1u, 4u, 8u}) {
    SCOPED_TRACE("h " + std::to_string(h));
    model_.clear();
    std::mt19937_64 rng(h);
    DestroyAndReopen(TiledOptions(h));
    Fill(2000, rng);
    if (h == 1) {
      EXPECT_EQ(TablesWithTileMaps(), 0);
    } else {
      EXPECT_GT(TablesWithTileMaps(), 0);
    }
    CheckAgainstModel();
    ASSERT_OK(db_->VerifyChecksum());
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    CheckAgainstModel();
    ASSERT_OK(db_->VerifyChecksum());
    // A copy: TryReopen resets last_options_' table factory first.
    const Options options = last_options_;
    Reopen(options);
    CheckAgainstModel();
  }
}

// Tables with tiles and tables without them live in one DB, whatever the
// option says when they are read.
TEST_F(TileTableTest, TiledAndUntiledTablesTogether) {
  std::mt19937_64 rng(7);
  DestroyAndReopen(TiledOptions(4));
  Fill(1000, rng);
  ASSERT_OK(db_->SetOptions({{"delete_tile_blocks", "1"}}));
  Fill(1000, rng);
  CheckAgainstModel();
  Options untiled = last_options_;
  untiled.delete_tile_blocks = 1;
  Reopen(untiled);
  CheckAgainstModel();
  ASSERT_OK(db_->VerifyChecksum());
}

// A point lookup in a tile reads only its key's entries of each block
// (tile_table_reader.h): every version of a key, spread over a tile's
// blocks by their delete keys, is seen at its own snapshot, merge operands
// included, and keys between the written ones are absent.
TEST_F(TileTableTest, PointLookupsSeeEveryVersionInATile) {
  std::mt19937_64 rng(11);
  Options options = TiledOptions(8);
  options.merge_operator = MergeOperators::CreateStringAppendOperator();
  DestroyAndReopen(options);
  constexpr int kKeys = 300, kRounds = 5;
  std::vector<std::map<std::string, std::string>> rounds;
  std::vector<const Snapshot*> snapshots;
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < kKeys; ++i) {
      const std::string key = KeyOf(2 * i);
      const uint64_t op = rng() % 10;
      if (op == 0) {
        ASSERT_OK(Delete(key));
        model_.erase(key);
      } else if (op == 1 && model_.count(key) > 0) {
        const std::string operand = Value(rng, static_cast<int>(rng() % 100));
        ASSERT_OK(db_->Merge(WriteOptions(), key, operand));
        model_[key] += "," + operand;
      } else {
        const std::string value = Value(rng, static_cast<int>(rng() % 100));
        ASSERT_OK(Put(key, value));
        model_[key] = value;
      }
    }
    rounds.push_back(model_);
    snapshots.push_back(db_->GetSnapshot());
  }
  ASSERT_OK(Flush());
  ASSERT_GT(TablesWithTileMaps(), 0);
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < 2 * kKeys; ++i) {
      const std::string key = KeyOf(i);
      auto it = rounds[r].find(key);
      EXPECT_EQ(Get(key, snapshots[r]),
                it == rounds[r].end() ? "NOT_FOUND" : it->second)
          << key << " at round " << r;
    }
  }
  for (const Snapshot* snapshot : snapshots) {
    db_->ReleaseSnapshot(snapshot);
  }
  CheckAgainstModel();
}

// A point lookup reads the blocks of its tile whose key filter may hold
// its key: about one, not h (tile_table_reader.h), and still finds every
// key and no other.
TEST_F(TileTableTest, PointLookupsReadAboutOneBlockOfATile) {
  std::mt19937_64 rng(3);
  DestroyAndReopen(TiledOptions(8));
  Fill(2000, rng);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_GT(files.size(), 0);
  ASSERT_EQ(TablesWithTileMaps(), static_cast<int>(files.size()));
  auto data_block_reads = [&] {
    return Ticker(BLOCK_CACHE_DATA_HIT) + Ticker(BLOCK_CACHE_DATA_MISS);
  };
  // Tiles a lookup opens: one, and the next only for a key that is its
  // tile's last (without the stop entry a lookup would open every later
  // tile of the table, reading none of their blocks).
  int tiles_opened = 0;
  SyncPoint::GetInstance()->SetCallBack("kiwi::OpenTile:Tile",
                                        [&](void*) { ++tiles_opened; });
  SyncPoint::GetInstance()->EnableProcessing();
  const uint64_t before = data_block_reads();
  int lookups = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::string key = KeyOf(i);
    auto it = model_.find(key);
    if (it != model_.end()) {
      ASSERT_EQ(Get(key), it->second) << key;
      ++lookups;
    }
  }
  ASSERT_GT(lookups, 1500);
  const double per_lookup =
      static_cast<double>(data_block_reads() - before) / lookups;
  // Keys between the written ones (no table filter here: they reach the
  // tiles, whose key filters pass over every block).
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(Get(KeyOf(i) + "+"), "NOT_FOUND");
  }
  const int absent_lookups = 2000;
  // With h = 8 and no filters a lookup reads 8 blocks.
  EXPECT_GE(per_lookup, 1.0);
  EXPECT_LT(per_lookup, 1.3);
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  EXPECT_LT(static_cast<double>(tiles_opened) / (lookups + absent_lookups),
            1.3);
  CheckAgainstModel();
}

TEST_F(TileTableTest, TilesRefuseWhatTheyCannotWrite) {
  Options options = TiledOptions(4);
  options.compression_opts.max_dict_bytes = 4096;
  options.compression = kZSTD;
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options = TiledOptions(4);
  options.compression_opts.parallel_threads = 2;
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options = TiledOptions(4);
  BlockBasedTableOptions table;
  table.data_block_index_type = BlockBasedTableOptions::kDataBlockBinaryAndHash;
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options = TiledOptions(4);
  options.delete_key_extractor = nullptr;
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
}

// A wide secondary range delete covers blocks whole: point lookups skip
// them unread, a compaction drops them unread (their bytes reclaimed), and
// every read agrees with the model throughout.
TEST_F(TileTableTest, SecondaryDeleteDropsWholeBlocks) {
  std::mt19937_64 rng(41);
  DestroyAndReopen(TiledOptions(8));
  Fill(2000, rng);
  DeleteBelow("60");
  CheckAgainstModel();
  EXPECT_GT(Ticker(SECONDARY_DELETE_BLOCKS_SKIPPED), 0);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_GT(Ticker(SECONDARY_DELETE_BLOCKS_DROPPED_FULL), 0);
  EXPECT_GT(Ticker(SECONDARY_DELETE_BYTES_RECLAIMED), 0);
  EXPECT_GT(Ticker(SECONDARY_DELETE_BLOCKS_DROPPED_PARTIAL), 0);
  CheckAgainstModel();
  ASSERT_OK(db_->VerifyChecksum());
}

// The way back to stock RocksDB (docs/kiwi.md): with delete_tile_blocks at
// 1, a full compaction rewrites every table without tiles and applies every
// tombstone, which then retire; the next open writes a MANIFEST without
// them. What is left is what stock writes, and nothing covered comes back.
TEST_F(TileTableTest, WayBackToStock) {
  std::mt19937_64 rng(5);
  DestroyAndReopen(TiledOptions(8));
  Fill(2000, rng);
  DeleteBelow("30");
  ASSERT_GT(TablesWithTileMaps(), 0);
  ASSERT_GT(TombstoneRecordsInManifest(), 0);

  Options untiled = last_options_;
  untiled.delete_tile_blocks = 1;
  Reopen(untiled);
  CompactRangeOptions everything;
  everything.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(everything, nullptr, nullptr));
  EXPECT_EQ(TablesWithTileMaps(), 0);
  std::string property;
  ASSERT_TRUE(
      db_->GetProperty("rocksdb.lodestone.secondary-deletes", &property));
  EXPECT_NE(property.find("live_tombstones: 0\n"), std::string::npos)
      << property;
  CheckAgainstModel();

  Reopen(untiled);
  EXPECT_EQ(TombstoneRecordsInManifest(), 0);
  CheckAgainstModel();
  // Without the extractor too, as stock opens it.
  Options plain = untiled;
  plain.delete_key_extractor = nullptr;
  Reopen(plain);
  CheckAgainstModel();
}

// Without tiles the same delete drops nothing whole: every covered entry
// is read and dropped one by one.
TEST_F(TileTableTest, WithoutTilesNothingIsDroppedWhole) {
  std::mt19937_64 rng(41);
  DestroyAndReopen(TiledOptions(1));
  Fill(2000, rng);
  DeleteBelow("60");
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Ticker(SECONDARY_DELETE_BLOCKS_DROPPED_FULL), 0);
  EXPECT_EQ(Ticker(SECONDARY_DELETE_BLOCKS_SKIPPED), 0);
  EXPECT_GT(Ticker(SECONDARY_DELETE_ENTRIES_DROPPED), 0);
}

// CRaFT numbers the range filter's blocks by index entry: one per tile.
TEST_F(TileTableTest, RangeFilterOverTiles) {
  std::mt19937_64 rng(3);
  Options options = TiledOptions(4);
  BlockBasedTableOptions table;
  table.block_size = 256;
  CraftRangeFilterOptions craft;
  craft.partition_size = 512;
  ASSERT_OK(NewCraftRangeFilterPolicy(craft, &table.range_filter));
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  DestroyAndReopen(options);
  Fill(2000, rng);
  CheckAgainstModel();
  // Bounded seeks, which the filters answer.
  for (int i = 0; i < 2000; i += 37) {
    const std::string lower = KeyOf(i), upper = KeyOf(i + 3);
    Slice upper_slice(upper);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<Iterator> iter(db_->NewIterator(ro));
    iter->Seek(lower);
    auto ge = model_.lower_bound(lower);
    const bool expected = ge != model_.end() && ge->first < upper;
    ASSERT_EQ(iter->Valid(), expected) << lower;
    ASSERT_OK(iter->status());
  }
  EXPECT_GT(Ticker(CRAFT_FILTER_CHECKED), 0);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  RegisterCustomObjects(argc, argv);
  return RUN_ALL_TESTS();
}
