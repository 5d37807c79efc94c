// The location cache under DB::Get and MultiGet: hits return exactly what
// the full search returns, and every event that makes a newer version
// visible (flush, range tombstone, ingestion, reopen, another DB sharing
// the cache) keeps a remembered location from answering.

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <set>
#include <thread>

#include "cache/location/location_cache_impl.h"
#include "db/db_test_util.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/sst_file_writer.h"

namespace ROCKSDB_NAMESPACE {

class LocationCacheDBTest : public DBTestBase {
 public:
  LocationCacheDBTest()
      : DBTestBase("location_cache_db_test", /*env_do_fsync=*/false) {}

 protected:
  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "k%05d", i);
    return buf;
  }

  Options LocationOptions(size_t capacity = 1 << 20) {
    Options options = CurrentOptions();
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.statistics = CreateDBStatistics();
    options.location_cache = LocationCache::Create({capacity});
    return options;
  }

  uint64_t Ticker(Tickers t) { return options_.statistics->getTickerCount(t); }

  void Open(const Options& options) {
    options_ = options;
    DestroyAndReopen(options_);
  }

  // Get twice: the first populates, the second should hit.
  void ExpectHit(const std::string& key, const std::string& value) {
    ASSERT_EQ(Get(key), value);
    const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
    ASSERT_EQ(Get(key), value);
    ASSERT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 1) << key;
  }

  // Writes `owner_key`'s remembered location into `other_key`'s slot as if
  // it had been written for `other_key` (a fingerprint collision, which the
  // check makes a 2^-28 event): the hit must still refuse it in the block.
  void PlantForeignDescriptor(const std::string& owner_key,
                              const std::string& other_key, bool bytewise) {
    LocationCacheBinding* b =
        dbfull()->GetDBOptions().location_cache->binding();
    uint32_t owner_print = 0;
    uint32_t other_print = 0;
    LocationSlot* from = b->Slot(0, owner_key, &owner_print);
    LocationSlot* to = b->Slot(0, other_key, &other_print);
    LocationDescriptor loc;
    ASSERT_TRUE(LocationDescriptor::Decode(
        {from->head.load(), from->tail.load()}, owner_print, &loc));
    const uint32_t tag =
        bytewise ? other_print & LocationDescriptor::kTagMask : loc.tag;
    const uint64_t value_offset =
        (uint64_t{loc.value_offset_words} << 2) | (bytewise ? 0 : loc.tag);
    LocationSlotWords words;
    ASSERT_TRUE(LocationDescriptor::Encode(
        loc.owner, loc.file_number, loc.block_offset, loc.block_size,
        value_offset, tag, other_print, &words));
    to->tail.store(words.tail);
    to->head.store(words.head);
  }

  // An external SST file of what `fill` adds, for ingestion.
  std::string ExternalFile(const std::function<void(SstFileWriter*)>& fill) {
    const std::string file = dbname_ + "/ingest.sst";
    SstFileWriter writer(EnvOptions(), options_);
    EXPECT_OK(writer.Open(file));
    fill(&writer);
    EXPECT_OK(writer.Finish());
    return file;
  }

  Options options_;
};

TEST_F(LocationCacheDBTest, HitReturnsTheValue) {
  Open(LocationOptions());
  for (int i = 0; i < 1000; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  for (int i = 0; i < 1000; i += 7) {
    ExpectHit(Key(i), "v" + std::to_string(i));
  }
  EXPECT_GT(Ticker(LOCATION_CACHE_POPULATE), 100u);
  // A missing key is never remembered and never wrong.
  EXPECT_EQ(Get("k99999x"), "NOT_FOUND");
  EXPECT_EQ(Get("k99999x"), "NOT_FOUND");

  std::string report;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.location-cache", &report));
  EXPECT_NE(report.find("capacity_bytes: 1048576"), std::string::npos)
      << report;
  EXPECT_NE(report.find("slots: 65536"), std::string::npos) << report;
  EXPECT_NE(report.find("hits: "), std::string::npos) << report;
}

// Where users run RocksDB the block cache holds a fraction of the data: a
// hit whose data block was evicted still goes straight to that block, one
// data block read with no index or filter partition lookup, and caches it
// as the full search would.
TEST_F(LocationCacheDBTest, HitOnAnEvictedBlockReadsOnlyThatBlock) {
  Options options = LocationOptions();
  BlockBasedTableOptions table;
  table.index_type = BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.partition_filters = true;
  table.filter_policy.reset(NewBloomFilterPolicy(10));
  table.cache_index_and_filter_blocks = true;
  table.metadata_block_size = 256;  // several index and filter partitions
  table.block_size = 1024;
  table.block_cache = NewLRUCache(16 << 20);
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  Open(options);
  for (int i = 0; i < 4000; i++) {
    ASSERT_OK(Put(Key(i), std::string(100, static_cast<char>('a' + i % 26))));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  auto tickers = [&] {
    return std::vector<uint64_t>{
        Ticker(LOCATION_CACHE_HIT),     Ticker(BLOCK_CACHE_DATA_ADD),
        Ticker(BLOCK_CACHE_INDEX_MISS), Ticker(BLOCK_CACHE_FILTER_MISS),
        Ticker(BLOCK_CACHE_INDEX_HIT),  Ticker(BLOCK_CACHE_FILTER_HIT),
        Ticker(BLOCK_CACHE_DATA_HIT),
    };
  };
  int tested = 0;
  for (int i = 0; i < 4000; i += 37) {
    const std::string value(100, static_cast<char>('a' + i % 26));
    // Remembered, unless a later key took the slot (slots collide).
    ExpectHit(Key(i), value);
    table.block_cache->EraseUnRefEntries();
    const std::vector<uint64_t> before = tickers();
    ASSERT_EQ(Get(Key(i)), value);
    const std::vector<uint64_t> after = tickers();
    ASSERT_EQ(after[0], before[0] + 1) << "hit " << Key(i);
    EXPECT_EQ(after[1], before[1] + 1) << "one data block read and cached";
    for (size_t t = 2; t < 6; t++) {
      EXPECT_EQ(after[t], before[t]) << "no index or filter partition, " << t;
    }
    // The block it read is cached: the next hit finds it there.
    ASSERT_EQ(Get(Key(i)), value);
    EXPECT_EQ(tickers()[6], after[6] + 1);
    ++tested;
  }
  EXPECT_EQ(tested, 109);

  // A read that may not do I/O gets Incomplete, as from the full search.
  table.block_cache->EraseUnRefEntries();
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  std::string value;
  const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  EXPECT_TRUE(db_->Get(cache_only, Key(37), &value).IsIncomplete());
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits);

  // Without checksums nothing would vouch for the remembered block size:
  // an evicted block takes the full search.
  ReadOptions no_checksums;
  no_checksums.verify_checksums = false;
  const uint64_t index_misses = Ticker(BLOCK_CACHE_INDEX_MISS);
  ASSERT_OK(db_->Get(no_checksums, Key(74), &value));
  EXPECT_EQ(value, std::string(100, static_cast<char>('a' + 74 % 26)));
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits);
  EXPECT_GT(Ticker(BLOCK_CACHE_INDEX_MISS), index_misses);
}

// The shapes production tables have: 16 KiB blocks (most entries' values
// start past 4 KiB in their block) and tables past 64 MiB. Every key is
// remembered and hits.
TEST_F(LocationCacheDBTest, LargeBlocksAndLargeTablesAreRemembered) {
  Options options = LocationOptions();
  options.write_buffer_size = 128 << 20;
  options.compression = kNoCompression;
  BlockBasedTableOptions table;
  table.block_size = 16 << 10;
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  Open(options);
  Random rnd(301);
  // 70 MiB: a 512 KiB value every 64 keys, each in one block with the 63
  // small values before it.
  const int kKeys = 140 * 64;
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(Put(Key(i), i % 64 == 0 ? rnd.RandomString(512 << 10) : "small"));
  }
  ASSERT_OK(Flush());
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_GT(files[0].size, uint64_t{70} << 20);
  // Small values past 4 KiB in their blocks, and a block past 64 MiB.
  for (int i = 1; i < 64; i++) {
    ExpectHit(Key(i), "small");
  }
  for (int i = kKeys - 63; i < kKeys; i++) {
    ExpectHit(Key(i), "small");
  }
  EXPECT_EQ(Ticker(LOCATION_CACHE_POPULATE_SKIPPED), 0u);
}

TEST_F(LocationCacheDBTest, OffByDefault) {
  Options options = CurrentOptions();
  options.statistics = CreateDBStatistics();
  options_ = options;
  DestroyAndReopen(options_);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ASSERT_EQ(Get("a"), "1");
  ASSERT_EQ(Get("a"), "1");
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT) + Ticker(LOCATION_CACHE_MISS) +
                Ticker(LOCATION_CACHE_POPULATE),
            0u);
  std::string report;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.location-cache", &report));
  EXPECT_EQ(report, "location_cache: off\n");
}

TEST_F(LocationCacheDBTest, FlushOfANewerVersionInvalidates) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "old"));
  ASSERT_OK(Flush());
  ExpectHit("a", "old");
  ASSERT_OK(Put("a", "new"));
  ASSERT_EQ(Get("a"), "new");  // memtable
  ASSERT_OK(Flush());
  EXPECT_GT(Ticker(LOCATION_CACHE_INVALIDATE), 0u);
  ASSERT_EQ(Get("a"), "new");
  ExpectHit("a", "new");
  // A delete flushed over it.
  ASSERT_OK(Delete("a"));
  ASSERT_OK(Flush());
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("a"), "NOT_FOUND");
}

TEST_F(LocationCacheDBTest, HashCollisionsNeverReturnAnotherKey) {
  // One slot: every key collides with every other.
  Open(LocationOptions(/*capacity=*/16));
  for (int i = 0; i < 300; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 300; i++) {
      // The first Get finds the previous key's descriptor, the second its own.
      ASSERT_EQ(Get(Key(i)), "v" + std::to_string(i));
      ASSERT_EQ(Get(Key(i)), "v" + std::to_string(i));
    }
  }
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), 900u);
  // The key's fingerprint in the descriptor's check sends every foreign
  // descriptor away without a block read.
  EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), 0u);
  EXPECT_EQ(Ticker(LOCATION_CACHE_MISS), 900u);
  // Should the fingerprint collide, the block still tells the keys apart.
  for (int i = 1; i < 300; i += 10) {
    ASSERT_EQ(Get(Key(i - 1)), "v" + std::to_string(i - 1));
    PlantForeignDescriptor(Key(i - 1), Key(i), /*bytewise=*/true);
    const uint64_t false_hits = Ticker(LOCATION_CACHE_FALSE_HIT);
    ASSERT_EQ(Get(Key(i)), "v" + std::to_string(i));
    EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), false_hits + 1) << i;
  }
}

// Under another comparator a key may be a prefix of the one before it, so
// descriptors keep exact value offsets in their tags; the key's fingerprint
// is in the check all the same, and a foreign descriptor that passed it
// still answers for no other key.
TEST_F(LocationCacheDBTest, OtherComparatorsCheckExactOffsets) {
  Options options = LocationOptions(/*capacity=*/16);
  options.comparator = ReverseBytewiseComparator();
  Open(options);
  // Keys that are prefixes of each other, and empty values.
  std::vector<std::string> keys;
  for (int i = 0; i < 100; i++) {
    keys.push_back(std::string(1 + i % 7, static_cast<char>('a' + i / 7)));
  }
  for (size_t i = 0; i < keys.size(); i++) {
    ASSERT_OK(Put(keys[i], i % 2 ? "" : "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  for (int round = 0; round < 2; round++) {
    for (size_t i = 0; i < keys.size(); i++) {
      const std::string want = i % 2 ? "" : "v" + std::to_string(i);
      ASSERT_EQ(Get(keys[i]), want);
      ASSERT_EQ(Get(keys[i]), want);
    }
  }
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), 200u);
  EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), 0u);
  for (size_t i = 1; i < keys.size(); i++) {
    const std::string want = i % 2 ? "" : "v" + std::to_string(i);
    ASSERT_EQ(Get(keys[i - 1]).size(),
              i % 2 ? 1 + std::to_string(i - 1).size() : 0);
    PlantForeignDescriptor(keys[i - 1], keys[i], /*bytewise=*/false);
    const uint64_t false_hits = Ticker(LOCATION_CACHE_FALSE_HIT);
    ASSERT_EQ(Get(keys[i]), want);
    EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), false_hits + 1) << i;
  }
}

TEST_F(LocationCacheDBTest, StaleFileAfterCompaction) {
  Open(LocationOptions());
  for (int i = 0; i < 200; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  ExpectHit(Key(5), "v5");
  // The remembered file is compacted away (with an overwrite of another
  // key so that the output is a new file).
  ASSERT_OK(Put(Key(6), "v6b"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  const uint64_t stale = Ticker(LOCATION_CACHE_STALE);
  ASSERT_EQ(Get(Key(5)), "v5");
  EXPECT_EQ(Ticker(LOCATION_CACHE_STALE), stale + 1);
  ExpectHit(Key(5), "v5");
  ExpectHit(Key(6), "v6b");
}

TEST_F(LocationCacheDBTest, TrivialMoveKeepsTheLocation) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ExpectHit("a", "1");
  MoveFilesToLevel(3);
  ExpectHit("a", "1");
}

TEST_F(LocationCacheDBTest, SnapshotOlderThanTheCachedVersion) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "v1"));
  ASSERT_OK(Flush());
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Put("a", "v2"));
  ASSERT_OK(Flush());
  ExpectHit("a", "v2");
  ReadOptions ro;
  ro.snapshot = snap;
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(Get("a", snap), "v1");
  }
  // A snapshot that sees the cached version may use it.
  const Snapshot* snap2 = db_->GetSnapshot();
  const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  ASSERT_EQ(Get("a", snap2), "v2");
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 1);
  db_->ReleaseSnapshot(snap);
  db_->ReleaseSnapshot(snap2);
}

TEST_F(LocationCacheDBTest, RangeTombstoneFlushedOverACachedKey) {
  Open(LocationOptions());
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  ExpectHit(Key(10), "v10");
  ExpectHit(Key(50), "v50");
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), Key(5),
                             Key(20)));
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");  // the memtable's tombstone
  ASSERT_OK(Flush());
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");  // the flushed tombstone
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");
  ASSERT_EQ(Get(Key(50)), "v50");
  ExpectHit(Key(50), "v50");
}

TEST_F(LocationCacheDBTest, RangeTombstoneCostsOnlyTheKeysItCovers) {
  Open(LocationOptions());
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  ExpectHit(Key(10), "v10");
  ExpectHit(Key(50), "v50");
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), Key(5),
                             Key(20)));
  ASSERT_OK(Flush());
  // A key outside the range keeps its hit through the flush.
  uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  ASSERT_EQ(Get(Key(50)), "v50");
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 1);
  // A key under it: the hit turns stale, and its slot is let go.
  const uint64_t stale = Ticker(LOCATION_CACHE_STALE);
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");
  EXPECT_EQ(Ticker(LOCATION_CACHE_STALE), stale + 1);
  const uint64_t misses = Ticker(LOCATION_CACHE_MISS);
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");
  EXPECT_EQ(Ticker(LOCATION_CACHE_MISS), misses + 1);
  // The tombstone's file moves down, still above the key's: still covered.
  MoveFilesToLevel(1);
  EXPECT_EQ(Get(Key(10)), "NOT_FOUND");
  ExpectHit(Key(50), "v50");
  // A newer version under the tombstone is served again.
  ASSERT_OK(Put(Key(10), "again"));
  ASSERT_OK(Flush());
  ExpectHit(Key(10), "again");
  EXPECT_EQ(Get(Key(12)), "NOT_FOUND");
}

TEST_F(LocationCacheDBTest, RangeTombstoneNextToItsKeyUnderASnapshot) {
  Open(LocationOptions());
  ASSERT_OK(Put(Key(1), "old"));
  ASSERT_OK(Put(Key(2), "kept"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  ExpectHit(Key(1), "old");
  // One flush holds both the key's newer version, kept by a snapshot, and
  // a tombstone over it.
  ASSERT_OK(Put(Key(1), "newer"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), Key(1),
                             Key(2)));
  ASSERT_OK(Flush());
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(Get(Key(1)), "NOT_FOUND");
    EXPECT_EQ(Get(Key(1), snap), "newer");
  }
  ExpectHit(Key(2), "kept");
  db_->ReleaseSnapshot(snap);
  EXPECT_EQ(Get(Key(1)), "NOT_FOUND");
}

TEST_F(LocationCacheDBTest, IngestionOverACachedKey) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "old"));
  ASSERT_OK(Put("b", "kept"));
  ASSERT_OK(Flush());
  ExpectHit("a", "old");
  ExpectHit("b", "kept");

  const std::string file = ExternalFile(
      [](SstFileWriter* w) { ASSERT_OK(w->Put("a", "ingested")); });
  ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));
  ASSERT_EQ(Get("a"), "ingested");
  ExpectHit("a", "ingested");
  ASSERT_EQ(Get("b"), "kept");
}

// A reader that starts after the ingestion cleared the slots but takes its
// SuperVersion before the ingested file is installed finds the older
// version; it must not leave that location behind for later readers.
TEST_F(LocationCacheDBTest, ReaderDuringIngestionLeavesNoOlderLocation) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "old"));
  ASSERT_OK(Flush());
  ExpectHit("a", "old");

  const std::string file = ExternalFile(
      [](SstFileWriter* w) { ASSERT_OK(w->Put("a", "ingested")); });

  // The ingestion waits in the MANIFEST write of its new version (DB mutex
  // released, slots already cleared, the file not yet visible) while a
  // reader runs. (Its first MANIFEST write reserves file numbers.)
  std::promise<void> paused;
  std::promise<void> resume;
  std::atomic<int> manifest_writes{0};
  SyncPoint::GetInstance()->SetCallBack("VersionSet::LogAndApply:WriteManifest",
                                        [&](void*) {
                                          if (++manifest_writes == 2) {
                                            paused.set_value();
                                            resume.get_future().wait();
                                          }
                                        });
  SyncPoint::GetInstance()->EnableProcessing();
  std::thread ingestion([&]() {
    ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));
  });
  paused.get_future().wait();
  ASSERT_EQ(Get("a"), "old");  // concurrent with the ingestion
  resume.set_value();
  ingestion.join();
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  ASSERT_EQ(manifest_writes.load(), 2);

  ASSERT_EQ(Get("a"), "ingested");
  ExpectHit("a", "ingested");
}

// A small ingestion forgets only its own keys.
TEST_F(LocationCacheDBTest, IngestionForgetsOnlyTheIngestedKeys) {
  Open(LocationOptions());
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  for (int i = 0; i < 100; ++i) {
    ExpectHit(Key(i), "v" + std::to_string(i));
  }
  const std::string file = ExternalFile([](SstFileWriter* w) {
    ASSERT_OK(w->Put(Key(10), "ingested"));
    ASSERT_OK(w->Delete(Key(20)));
  });
  const uint64_t invalidated = Ticker(LOCATION_CACHE_INVALIDATE);
  ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));
  ASSERT_EQ(Ticker(LOCATION_CACHE_INVALIDATE), invalidated + 2);
  ASSERT_EQ(Get(Key(10)), "ingested");
  ASSERT_EQ(Get(Key(20)), "NOT_FOUND");
  // The other keys' locations were kept.
  const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  ASSERT_EQ(Get(Key(30)), "v30");
  ASSERT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 1);
  ExpectHit(Key(10), "ingested");
}

// An ingested range deletion covers keys nobody can list: all slots go.
TEST_F(LocationCacheDBTest, IngestedRangeDeletionForgetsEverything) {
  Open(LocationOptions());
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("m", "2"));
  ASSERT_OK(Flush());
  ExpectHit("a", "1");
  ExpectHit("m", "2");
  const std::string file = ExternalFile(
      [](SstFileWriter* w) { ASSERT_OK(w->DeleteRange("k", "n")); });
  ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));
  ASSERT_EQ(Get("m"), "NOT_FOUND");
  const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  ASSERT_EQ(Get("a"), "1");
  ASSERT_EQ(Ticker(LOCATION_CACHE_HIT), hits);
}

TEST_F(LocationCacheDBTest, MultiGetMixesHitsAndMisses) {
  Open(LocationOptions());
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  // Remember the even keys.
  for (int i = 0; i < 100; i += 2) {
    ASSERT_EQ(Get(Key(i)), "v" + std::to_string(i));
  }
  ASSERT_OK(Put(Key(4), "memtable"));
  std::vector<std::string> keys;
  for (int i = 0; i < 20; i++) {
    keys.push_back(Key(i));
  }
  keys.push_back("absent");
  const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
  std::vector<std::string> values = MultiGet(keys, nullptr);
  ASSERT_EQ(values.size(), keys.size());
  for (int i = 0; i < 20; i++) {
    EXPECT_EQ(values[i], i == 4 ? "memtable" : "v" + std::to_string(i)) << i;
  }
  EXPECT_EQ(values[20], "NOT_FOUND");
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 9);  // evens but k00004
}

TEST_F(LocationCacheDBTest, MultiGetPopulates) {
  Open(LocationOptions());
  std::vector<std::string> keys;
  for (int i = 0; i < 30; i++) {
    keys.push_back(Key(i));
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  ASSERT_OK(Put(Key(3), "newer"));
  ASSERT_OK(Flush());  // L0 now answers k00003
  auto data_block_reads = [&]() {
    return Ticker(BLOCK_CACHE_DATA_HIT) + Ticker(BLOCK_CACHE_DATA_MISS);
  };
  const uint64_t reads_before = data_block_reads();
  std::vector<std::string> values = MultiGet(keys, nullptr);
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), 0u);
  EXPECT_EQ(Ticker(LOCATION_CACHE_POPULATE), 30u);
  // The batch reported each entry it found: no second lookup per key (the
  // keys share a block or two).
  EXPECT_LT(data_block_reads() - reads_before, 10u);
  values = MultiGet(keys, nullptr);
  EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), 30u);
  for (int i = 0; i < 30; i++) {
    EXPECT_EQ(values[i], i == 3 ? "newer" : "v" + std::to_string(i)) << i;
    EXPECT_EQ(Get(Key(i)), values[i]);
  }
  // A snapshot read does not populate.
  ASSERT_OK(Put(Key(40), "x"));
  ASSERT_OK(Flush());
  const Snapshot* snap = db_->GetSnapshot();
  const uint64_t populated = Ticker(LOCATION_CACHE_POPULATE);
  values = MultiGet({Key(40)}, snap);
  EXPECT_EQ(values[0], "x");
  EXPECT_EQ(Ticker(LOCATION_CACHE_POPULATE), populated);
  db_->ReleaseSnapshot(snap);
}

// A hit serves plain values only, so an entity is never remembered: its
// probes would all be false hits, each a block visit (or a block read).
TEST_F(LocationCacheDBTest, EntitiesAreNotRemembered) {
  Open(LocationOptions());
  WideColumns columns{{kDefaultWideColumnName, "v"}, {"c", "w"}};
  ASSERT_OK(
      db_->PutEntity(WriteOptions(), db_->DefaultColumnFamily(), "e", columns));
  ASSERT_OK(Put("p", "plain"));
  ASSERT_OK(Flush());
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(Get("e"), "v");
  }
  EXPECT_EQ(Ticker(LOCATION_CACHE_POPULATE), 0u);
  EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), 0u);
  // MultiGet learns the entry's type from the batch's own report: no
  // second table search for a key it will not remember (one data block
  // access per key, as without the cache).
  std::vector<std::string> values;
  SetPerfLevel(PerfLevel::kEnableCount);
  get_perf_context()->Reset();
  std::vector<Status> statuses =
      db_->MultiGet(ReadOptions(), {Slice("e")}, &values);
  EXPECT_EQ(values[0], "v");
  EXPECT_EQ(get_perf_context()->block_cache_hit_count +
                get_perf_context()->block_read_count,
            1u);
  SetPerfLevel(PerfLevel::kDisable);
  EXPECT_EQ(Ticker(LOCATION_CACHE_POPULATE), 0u);
  EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), 0u);
  ExpectHit("p", "plain");
}

// GetEntity and MultiGetEntity of remembered plain keys, without a
// snapshot: hits serve them, the value as the default column; a newer
// entity over the key wins in the memtable and after its flush.
TEST_F(LocationCacheDBTest, EntityReadsOfARememberedPlainKey) {
  Open(LocationOptions());
  ASSERT_OK(Put("p", "plain"));
  ASSERT_OK(Put("q", "other"));
  ASSERT_OK(Flush());
  ExpectHit("p", "plain");
  ExpectHit("q", "other");
  const WideColumns plain{{kDefaultWideColumnName, "plain"}};
  ColumnFamilyHandle* cf = db_->DefaultColumnFamily();
  for (int i = 0; i < 2; i++) {
    PinnableWideColumns entity;
    const uint64_t hits = Ticker(LOCATION_CACHE_HIT);
    ASSERT_OK(db_->GetEntity(ReadOptions(), cf, "p", &entity));
    EXPECT_EQ(entity.columns(), plain);
    EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 1);
    std::array<Slice, 3> keys{{"p", "q", "absent"}};
    std::array<PinnableWideColumns, 3> results;
    std::array<Status, 3> statuses;
    db_->MultiGetEntity(ReadOptions(), cf, keys.size(), keys.data(),
                        results.data(), statuses.data());
    EXPECT_EQ(Ticker(LOCATION_CACHE_HIT), hits + 3);  // p and q served too.
    ASSERT_OK(statuses[0]);
    ASSERT_OK(statuses[1]);
    EXPECT_TRUE(statuses[2].IsNotFound());
    EXPECT_EQ(results[0].columns(), plain);
    EXPECT_EQ(results[1].columns(),
              (WideColumns{{kDefaultWideColumnName, "other"}}));
  }
  EXPECT_EQ(Ticker(LOCATION_CACHE_FALSE_HIT), 0u);

  const WideColumns newer{{kDefaultWideColumnName, "v2"}, {"c", "w"}};
  ASSERT_OK(db_->PutEntity(WriteOptions(), cf, "p", newer));
  for (int flushed = 0; flushed < 2; flushed++) {
    PinnableWideColumns entity;
    ASSERT_OK(db_->GetEntity(ReadOptions(), cf, "p", &entity));
    EXPECT_EQ(entity.columns(), newer) << flushed;
    std::array<Slice, 1> keys{{"p"}};
    std::array<PinnableWideColumns, 1> results;
    std::array<Status, 1> statuses;
    db_->MultiGetEntity(ReadOptions(), cf, keys.size(), keys.data(),
                        results.data(), statuses.data());
    ASSERT_OK(statuses[0]);
    EXPECT_EQ(results[0].columns(), newer) << flushed;
    EXPECT_EQ(Get("p"), "v2") << flushed;
    ASSERT_OK(Flush());
  }
}

TEST_F(LocationCacheDBTest, MergeOperandsTakeTheFullPath) {
  Options options = LocationOptions();
  options.merge_operator = MergeOperators::CreateStringAppendOperator(',');
  Open(options);
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(Flush());
  ExpectHit("a", "x");
  ASSERT_OK(Merge("a", "y"));
  ASSERT_EQ(Get("a"), "x,y");
  ASSERT_OK(Flush());
  ASSERT_EQ(Get("a"), "x,y");
  ASSERT_EQ(Get("a"), "x,y");
}

TEST_F(LocationCacheDBTest, ReopenDoesNotTrustOldDescriptors) {
  Options options = LocationOptions();
  Open(options);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ExpectHit("a", "1");
  // Close, change the DB without the cache, reopen with the same cache.
  Close();
  Options plain = options;
  plain.location_cache = nullptr;
  ASSERT_OK(TryReopen(plain));
  ASSERT_OK(Put("a", "2"));
  ASSERT_OK(Flush());
  Close();
  ASSERT_OK(TryReopen(options));
  ASSERT_EQ(Get("a"), "2");
  ExpectHit("a", "2");
}

TEST_F(LocationCacheDBTest, SharedCacheKeepsDBsApart) {
  // Two DBs with the same keys in the same layout share one cache; one of
  // them then gets a newer version of every key.
  Options options = LocationOptions();
  Open(options);
  const std::string other_path = dbname_ + "_other";
  ASSERT_OK(DestroyDB(other_path, options));
  DB* other = nullptr;
  ASSERT_OK(DB::Open(options, other_path, &other));
  for (DB* db : {db_, other}) {
    for (int i = 0; i < 50; i++) {
      ASSERT_OK(db->Put(WriteOptions(), Key(i), "v" + std::to_string(i)));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
  }
  for (int i = 0; i < 50; i++) {
    ExpectHit(Key(i), "v" + std::to_string(i));
    std::string v;
    ASSERT_OK(other->Get(ReadOptions(), Key(i), &v));
    ASSERT_OK(other->Get(ReadOptions(), Key(i), &v));
    ASSERT_EQ(v, "v" + std::to_string(i));
  }
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Put(Key(i), "w" + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  for (int i = 0; i < 50; i++) {
    std::string v;
    ASSERT_OK(other->Get(ReadOptions(), Key(i), &v));
    ASSERT_EQ(v, "v" + std::to_string(i));
    ASSERT_EQ(Get(Key(i)), "w" + std::to_string(i));
  }
  delete other;
  ASSERT_OK(DestroyDB(other_path, options));
}

TEST_F(LocationCacheDBTest, BlockCacheFraction) {
  Options options = LocationOptions();
  BlockBasedTableOptions table;
  table.block_cache = NewLRUCache(8 << 20);
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  LocationCacheOptions lco;
  lco.block_cache_fraction = 0.1;
  options.location_cache = LocationCache::Create(lco);
  Open(options);
  EXPECT_EQ(options.location_cache->GetCapacity(),
            size_t{8 << 20} / 10 / 16 * 16);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ExpectHit("a", "1");
}

// Readers, writers, ingestions, flushes and compactions at once: every Get
// returns a version at least as new as the newest acknowledged before it
// began.
TEST_F(LocationCacheDBTest, ConcurrentReadersNeverSeeAStaleVersion) {
  Options options = LocationOptions(/*capacity=*/64 << 10);
  options.disable_auto_compactions = false;
  options.write_buffer_size = 32 << 10;
  options.target_file_size_base = 32 << 10;
  options.max_bytes_for_level_base = 128 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.max_background_jobs = 4;
  Open(options);
  constexpr int kKeys = 400;
  std::vector<std::atomic<uint64_t>> acked(kKeys);
  for (int i = 0; i < kKeys; i++) {
    acked[i].store(0);
    ASSERT_OK(Put(Key(i), "0"));
  }
  ASSERT_OK(Flush());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> errors{0};
  std::vector<std::thread> threads;
  // Keys are split between the writers so versions grow per key: two
  // write and flush, the third ingests files.
  constexpr int kWriters = 3;
  for (int w = 0; w < 2; w++) {
    threads.emplace_back([&, w] {
      Random rnd(301 + w);
      for (uint64_t n = 1; !stop.load(); n++) {
        const int i =
            static_cast<int>(rnd.Uniform(kKeys / kWriters)) * kWriters + w;
        const uint64_t version = acked[i].load() + 1;
        Status s = db_->Put(WriteOptions(), Key(i), std::to_string(version));
        if (!s.ok() && errors++ < 5) {
          fprintf(stderr, "Put: %s\n", s.ToString().c_str());
        }
        acked[i].store(version);
        if (n % 500 == 0) {
          db_->Flush(FlushOptions()).PermitUncheckedError();
        }
      }
    });
  }
  threads.emplace_back([&] {
    Random rnd(305);
    for (uint64_t n = 1; !stop.load(); n++) {
      std::set<int> keys;
      for (int k = 0; k < 4; k++) {
        keys.insert(static_cast<int>(rnd.Uniform(kKeys / kWriters)) * kWriters +
                    2);
      }
      const std::string file = dbname_ + "/ingest" + std::to_string(n) + ".sst";
      SstFileWriter writer(EnvOptions(), options_);
      Status s = writer.Open(file);
      for (int i : keys) {
        if (s.ok()) {
          s = writer.Put(Key(i), std::to_string(acked[i].load() + 1));
        }
      }
      if (s.ok()) {
        s = writer.Finish();
      }
      if (s.ok()) {
        s = db_->IngestExternalFile({file}, IngestExternalFileOptions());
      }
      if (!s.ok() && errors++ < 5) {
        fprintf(stderr, "Ingest: %s\n", s.ToString().c_str());
      }
      for (int i : keys) {
        acked[i].store(acked[i].load() + 1);
      }
      env_->DeleteFile(file).PermitUncheckedError();
    }
  });
  for (int r = 0; r < 2; r++) {
    threads.emplace_back([&, r] {
      Random rnd(17 + r);
      while (!stop.load()) {
        const int i = static_cast<int>(rnd.Uniform(kKeys));
        const uint64_t floor = acked[i].load();
        std::string v;
        Status s = db_->Get(ReadOptions(), Key(i), &v);
        if (!s.ok() || std::stoull(v) < floor) {
          if (errors++ < 3) {
            fprintf(stderr, "%s: got %s (%s), acknowledged %" PRIu64 "\n",
                    Key(i).c_str(), v.c_str(), s.ToString().c_str(), floor);
            LocationCacheBinding* b =
                dbfull()->GetDBOptions().location_cache->binding();
            uint32_t fingerprint = 0;
            LocationSlot* slot = b->Slot(0, Key(i), &fingerprint);
            LocationDescriptor loc;
            LocationDescriptor::Decode({slot->head.load(), slot->tail.load()},
                                       fingerprint, &loc);
            fprintf(stderr,
                    "  slot: owner %u file %" PRIu64 " block %" PRIu64
                    " value at %u\n",
                    loc.owner, loc.file_number, loc.block_offset,
                    loc.value_offset_words << 2);
            std::vector<LiveFileMetaData> files;
            db_->GetLiveFilesMetaData(&files);
            for (const auto& f : files) {
              if (f.smallestkey <= Key(i) && Key(i) <= f.largestkey) {
                fprintf(
                    stderr, "  L%d #%" PRIu64 " seq %" PRIu64 "..%" PRIu64 "\n",
                    f.level, f.file_number, f.smallest_seqno, f.largest_seqno);
              }
            }
          }
        }
      }
    });
  }
  // At least 4 s, and on until the cache has served enough hits to have
  // been exercised: a loaded machine serves far fewer per second (ingestions
  // then take longer, and nobody populates while one runs).
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed >= std::chrono::seconds(30) ||
        (elapsed >= std::chrono::seconds(4) &&
         Ticker(LOCATION_CACHE_HIT) > 1000u)) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop.store(true);
  for (auto& t : threads) {
    t.join();
  }
  EXPECT_EQ(errors.load(), 0u);
  EXPECT_GT(Ticker(LOCATION_CACHE_HIT), 1000u);
  EXPECT_GT(Ticker(LOCATION_CACHE_INVALIDATE), 0u);
  fprintf(stderr,
          "hits %" PRIu64 " stale %" PRIu64 " populate %" PRIu64
          " skipped %" PRIu64 "\n",
          Ticker(LOCATION_CACHE_HIT), Ticker(LOCATION_CACHE_STALE),
          Ticker(LOCATION_CACHE_POPULATE),
          Ticker(LOCATION_CACHE_POPULATE_SKIPPED));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  RegisterCustomObjects(argc, argv);
  return RUN_ALL_TESTS();
}
