// CRaFT inside real tables: written by BlockBasedTableBuilder (SstFileWriter,
// flush, compaction), readable by a reader that knows nothing of it, and
// without false negatives when read back.

#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "db/db_test_util.h"
#include "env/composite_env_wrapper.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/file_system.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "table/block_based/block_based_table_builder.h"
#include "table/craft/craft_file_inspection.h"
#include "table/craft/craft_range_filter_policy.h"
#include "table/craft/craft_seek_decision.h"
#include "table/meta_blocks.h"
#include "table/table_builder.h"

namespace ROCKSDB_NAMESPACE {

class CraftTableTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::PerThreadDBPath("craft_table_test");
    ASSERT_OK(Env::Default()->CreateDirIfMissing(dir_));
  }

  static std::shared_ptr<RangeFilterPolicy> CraftPolicy(
      uint32_t partition_size, uint32_t range_hash_bits = 0) {
    CraftRangeFilterOptions craft;
    craft.partition_size = partition_size;
    craft.range_hash_bits = range_hash_bits;
    std::shared_ptr<RangeFilterPolicy> policy;
    EXPECT_OK(NewCraftRangeFilterPolicy(craft, &policy));
    return policy;
  }

  // 512-byte blocks; `adjust` changes further table options.
  Options CraftOptions(
      bool on, uint32_t partition_size = 1024,
      const std::function<void(BlockBasedTableOptions*)>& adjust = nullptr) {
    Options options;
    BlockBasedTableOptions table;
    table.block_size = 512;
    if (on) {
      table.range_filter = CraftPolicy(partition_size);
    }
    if (adjust) {
      adjust(&table);
    }
    options.table_factory.reset(NewBlockBasedTableFactory(table));
    return options;
  }

  // A DB with the filter on (2 KiB partitions by default), statistics, and
  // tables staying where the test puts them.
  Options SeekTestOptions(
      uint32_t partition_size = 2048,
      const std::function<void(BlockBasedTableOptions*)>& adjust = nullptr) {
    Options options = CraftOptions(true, partition_size, adjust);
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.statistics = CreateDBStatistics();
    return options;
  }

  Status ReadFilter(const std::string& path, const Options& options,
                    CraftMetadata* metadata,
                    std::vector<CraftPartition>* partitions) {
    CraftFileFilter filter;
    Status s = ReadCraftFilterFromFile(path, options, &filter);
    *metadata = filter.metadata;
    *partitions = std::move(filter.partitions);
    return s;
  }

  // Orders in even regions only ("region-RR/order-OOOOOO", order i in
  // region 2 * (i % 10)), as a Kafka Streams store of a sparse key space
  // holds them (tests/ecosystem/kafka-cluster), flushed into one table.
  static std::string RegionKey(int region, int order) {
    char k[32];
    snprintf(k, sizeof(k), "region-%02d/order-%06d", region, order);
    return std::string(k);
  }

  static void FillRegions(DB* db, int orders) {
    for (int i = 0; i < orders; ++i) {
      ASSERT_OK(db->Put(WriteOptions(), RegionKey(2 * (i % 10), i), "v"));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
  }

  // A bounded seek over a whole region finds a key exactly in even ones.
  static void ExpectRegionSeek(DB* db, int region) {
    const std::string lo = RegionKey(region, 0);
    const std::string hi = RegionKey(region, 999999) + '\0';
    EXPECT_EQ(BoundedSeekFinds(db, lo, hi), region % 2 == 0) << lo;
  }

  // Whether a seek to `lo` bounded above by `hi` finds a key in [lo, hi).
  static bool BoundedSeekFinds(DB* db, const std::string& lo,
                               const std::string& hi) {
    Slice upper(hi);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<Iterator> it(db->NewIterator(ro));
    it->Seek(lo);
    EXPECT_OK(it->status());
    return it->Valid();
  }

  // A fresh DB at dir_/name; ASSERT-fails (and leaves *db null) on error.
  void OpenFresh(const Options& options, const std::string& name,
                 std::unique_ptr<DB>* db) {
    const std::string dbname = dir_ + "/" + name;
    ASSERT_OK(DestroyDB(dbname, options));
    DB* raw = nullptr;
    ASSERT_OK(DB::Open(options, dbname, &raw));
    db->reset(raw);
  }

  // A fresh DB at dir_/name holding `orders` keys in the even regions
  // (FillRegions); ASSERT-fails (and leaves *db null) on error.
  void OpenFilledRegions(const Options& options, const std::string& name,
                         int orders, std::unique_ptr<DB>* db) {
    OpenFresh(options, name, db);
    ASSERT_NE(*db, nullptr);
    FillRegions(db->get(), orders);
  }

  // Keys k000000, k000020, ... k199980 (the even multiples of 10).
  static void PutEvenKeys(DB* db) {
    for (int i = 0; i < 20000; i += 2) {
      char key[16];
      snprintf(key, sizeof(key), "k%06d", i * 10);
      ASSERT_OK(db->Put(WriteOptions(), key, "v"));
    }
  }

  // OpenFresh, then PutEvenKeys flushed to one L0 table.
  void OpenWithEvenKeys(const Options& options, const std::string& name,
                        std::unique_ptr<DB>* db) {
    OpenFresh(options, name, db);
    if (*db == nullptr) {
      return;
    }
    PutEvenKeys(db->get());
    ASSERT_OK((*db)->Flush(FlushOptions()));
  }

  // The closed DB's LOG says a table's filter was refused as damaged.
  static void ExpectFilterRefusedInLog(const Options& options,
                                       const std::string& dbname) {
    std::string log;
    ASSERT_OK(ReadFileToString(options.env, dbname + "/LOG", &log));
    EXPECT_NE(log.find("CRaFT filter of a table ignored: Corruption"),
              std::string::npos);
  }

  // OpenWithEvenKeys, then closes the DB; *path is its one table file.
  void WriteEvenKeysTable(const Options& options, const std::string& name,
                          std::string* path) {
    std::unique_ptr<DB> db;
    OpenWithEvenKeys(options, name, &db);
    ASSERT_NE(db, nullptr);
    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    ASSERT_EQ(files.size(), 1u);
    *path = files[0].directory + "/" + files[0].relative_filename;
  }

  // Bounded seeks between those keys, all empty: returns how many found one.
  static int SeekBetweenEvenKeys(DB* db) {
    int found = 0;
    for (int i = 1; i < 20000; i += 2) {
      char lo[16], hi[16];
      snprintf(lo, sizeof(lo), "k%06d", i * 10);
      snprintf(hi, sizeof(hi), "k%06d", i * 10 + 5);
      Slice upper(hi);
      ReadOptions ro;
      ro.iterate_upper_bound = &upper;
      std::unique_ptr<Iterator> it(db->NewIterator(ro));
      it->Seek(lo);
      found += it->Valid() ? 1 : 0;
      EXPECT_OK(it->status());
    }
    return found;
  }

  // The first row of rocksdb.lodestone.craft-filter (level 0).
  struct CraftReportRow {
    std::string level;
    uint64_t files = 0, with_filter = 0, unopened = 0, keys = 0, bytes = 0;
    double bits_per_key = 0;
    uint64_t checked = 0, empty = 0;
    double empty_pct = 0;
    uint64_t false_positive = 0, not_loaded = 0;
  };
  static CraftReportRow Level0Report(DB* db) {
    std::string report;
    EXPECT_TRUE(db->GetProperty("rocksdb.lodestone.craft-filter", &report));
    std::istringstream lines(report);
    std::string header;
    std::getline(lines, header);
    CraftReportRow r;
    lines >> r.level >> r.files >> r.with_filter >> r.unopened >> r.keys >>
        r.bytes >> r.bits_per_key >> r.checked >> r.empty >> r.empty_pct >>
        r.false_positive >> r.not_loaded;
    EXPECT_EQ(r.level, "L0") << report;
    return r;
  }

  // The keys in [lo, hi), by a forward scan from Seek(lo) or a backward
  // one from SeekToLast, with both bounds set.
  // SeekTestOptions with index blocks in the block cache, so that index
  // lookups are counted.
  Options IndexCountingOptions() {
    return SeekTestOptions(2048, [](BlockBasedTableOptions* table) {
      table->cache_index_and_filter_blocks = true;
    });
  }

  static uint64_t IndexLookups(const Options& options) {
    return options.statistics->getTickerCount(BLOCK_CACHE_INDEX_HIT) +
           options.statistics->getTickerCount(BLOCK_CACHE_INDEX_MISS);
  }

  // "k%05d" of i * 10: keys with room for empty ranges between them.
  static std::string TenthKey(int i) {
    char key[16];
    snprintf(key, sizeof(key), "k%05d", i * 10);
    return key;
  }

  // Random bounded scans of widths 1..max_width over k00000..k39999, both
  // directions, against `keys`.
  static void CheckRandomScans(DB* db, const std::set<std::string>& keys,
                               uint64_t seed, int queries, int max_width) {
    std::mt19937_64 rng(seed);
    for (int q = 0; q < queries; ++q) {
      const int start = static_cast<int>(rng() % 40000);
      const int width = 1 + static_cast<int>(rng() % max_width);
      char lo[16], hi[16];
      snprintf(lo, sizeof(lo), "k%05d", start);
      snprintf(hi, sizeof(hi), "k%05d", start + width);
      std::vector<std::string> want(keys.lower_bound(lo), keys.lower_bound(hi));
      ASSERT_EQ(BoundedScan(db, lo, hi, false), want) << lo << " " << hi;
      ASSERT_EQ(BoundedScan(db, lo, hi, true), want) << lo << " " << hi;
    }
  }

  static std::vector<std::string> BoundedScan(DB* db, const std::string& lo,
                                              const std::string& hi,
                                              bool reverse) {
    Slice upper(hi), lower(lo);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper;
    ro.iterate_lower_bound = &lower;
    std::unique_ptr<Iterator> it(db->NewIterator(ro));
    std::vector<std::string> got;
    if (!reverse) {
      for (it->Seek(lo); it->Valid(); it->Next()) {
        got.push_back(it->key().ToString());
      }
    } else {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        got.insert(got.begin(), it->key().ToString());
      }
    }
    EXPECT_OK(it->status());
    return got;
  }

  std::string dir_;
};

TEST_F(CraftTableTest, SstFileWriterTablesCarryAFilterAndStayReadable) {
  std::mt19937_64 rng(5);
  std::set<std::string> keys;
  while (keys.size() < 5000) {
    keys.insert("key" + std::to_string(rng() % 1000000000));
  }
  const Options options = CraftOptions(true);
  const std::string path = dir_ + "/craft.sst";
  SstFileWriter writer(EnvOptions(), options);
  ASSERT_OK(writer.Open(path));
  int i = 0;
  for (const std::string& k : keys) {
    // Tombstones are keys of the table too.
    ASSERT_OK(i++ % 7 == 0 ? writer.Delete(k) : writer.Put(k, "v" + k));
  }
  ASSERT_OK(writer.Finish());

  // A reader that does not know the filter reads every entry.
  SstFileReader reader(options);
  ASSERT_OK(reader.Open(path));
  ASSERT_OK(reader.VerifyChecksum());
  std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  ASSERT_OK(it->status());
  EXPECT_EQ(n, keys.size() - (keys.size() + 6) / 7);
  const std::string description = DescribeCraftFilter(path, options);
  EXPECT_NE(description.find("keys: 5000"), std::string::npos) << description;
  // Decimal keys use ten byte values: their tries hold them coded.
  EXPECT_NE(description.find("order-preserving key code: yes"),
            std::string::npos)
      << description;

  CraftMetadata metadata;
  std::vector<CraftPartition> partitions;
  ASSERT_OK(ReadFilter(path, options, &metadata, &partitions));
  EXPECT_EQ(metadata.num_keys(), keys.size());
  EXPECT_GT(partitions.size(), 3u);
  CraftFilterReader filter(metadata);
  auto loader = [&partitions](size_t index, const CraftPartition** trie,
                              Cleanable*) {
    *trie = &partitions.at(index);
    return Status::OK();
  };
  for (const std::string& k : keys) {
    ASSERT_TRUE(filter.RangeMayExist(k, k + '\0', loader)) << k;
  }
  int empty = 0, filtered = 0;
  for (int q = 0; q < 3000; ++q) {
    const std::string lo = "key" + std::to_string(rng() % 1000000000);
    const std::string hi = lo + "\x01";
    auto at = keys.lower_bound(lo);
    if (at != keys.end() && *at < hi) continue;
    ++empty;
    filtered += filter.RangeMayExist(lo, hi, loader) ? 0 : 1;
  }
  EXPECT_GT(filtered, empty * 9 / 10);
}

// Regression (crash test, seed 51005, prefix seeks with async reads): a
// table iterator's seek could end (its prefix filter rejected the target,
// or it was an async read's second pass) before it took the decision the
// level iterator handed it, and a later seek of the same iterator then took
// that stale decision as its own. Every seek takes what was handed before
// it (craft_seek_decision.h).
TEST_F(CraftTableTest, HandedDecisionNeverOutlivesItsSeek) {
  Options options = CraftOptions(true, 1024, [](BlockBasedTableOptions* t) {
    t->filter_policy.reset(NewBloomFilterPolicy(10));
    t->whole_key_filtering = false;
  });
  options.prefix_extractor.reset(NewFixedPrefixTransform(2));
  const std::string path = dir_ + "/prefix.sst";
  {
    SstFileWriter writer(EnvOptions(), options);
    ASSERT_OK(writer.Open(path));
    for (const char* prefix : {"a0", "c0"}) {
      for (int i = 0; i < 100; i++) {
        char key[16];
        snprintf(key, sizeof(key), "%s%03d", prefix, i);
        ASSERT_OK(writer.Put(key, "v"));
      }
    }
    ASSERT_OK(writer.Finish());
  }
  const ImmutableOptions ioptions(options);
  const InternalKeyComparator icmp(options.comparator);
  const EnvOptions env_options;
  std::unique_ptr<RandomAccessFileReader> file;
  ASSERT_OK(RandomAccessFileReader::Create(options.env->GetFileSystem(), path,
                                           FileOptions(env_options), &file,
                                           nullptr));
  uint64_t size = 0;
  ASSERT_OK(options.env->GetFileSize(path, &size));
  std::unique_ptr<TableReader> table;
  ASSERT_OK(options.table_factory->NewTableReader(
      TableReaderOptions(ioptions, options.prefix_extractor, env_options, icmp,
                         /*block_protection_bytes_per_key=*/0),
      std::move(file), size, &table));

  Slice upper("z");
  ReadOptions ro;  // A prefix seek: total_order_seek is off.
  ro.iterate_upper_bound = &upper;
  std::unique_ptr<InternalIterator> it(table->NewIterator(
      ro, options.prefix_extractor.get(), /*arena=*/nullptr,
      /*skip_filters=*/false, TableReaderCaller::kUserIterator));
  const std::string absent =
      InternalKey("b0005", kMaxSequenceNumber, kValueTypeForSeek)
          .Encode()
          .ToString();
  const std::string present =
      InternalKey("c0050", kMaxSequenceNumber, kValueTypeForSeek)
          .Encode()
          .ToString();
  CraftSeekDecision maybe;
  maybe.decided = true;
#ifndef NDEBUG
  maybe.target = absent;
#endif
  it->SetCraftSeekDecision(maybe);
  it->Seek(absent);  // The prefix filter knows no b0 key.
  ASSERT_FALSE(it->Valid());
  ASSERT_OK(it->status());
  it->Seek(present);  // Nothing was handed for this seek.
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(ExtractUserKey(it->key()).ToString(), "c0050");
}

TEST_F(CraftTableTest, OffMeansNoFilterBlock) {
  const Options options = CraftOptions(false);
  const std::string path = dir_ + "/plain.sst";
  SstFileWriter writer(EnvOptions(), options);
  ASSERT_OK(writer.Open(path));
  ASSERT_OK(writer.Put("a", "1"));
  ASSERT_OK(writer.Finish());
  CraftMetadata metadata;
  std::vector<CraftPartition> partitions;
  EXPECT_FALSE(ReadFilter(path, options, &metadata, &partitions).ok());
}

TEST_F(CraftTableTest, FlushedAndCompactedTablesVerify) {
  Options options = CraftOptions(true, 4096);
  options.create_if_missing = true;
  const std::string dbname = dir_ + "/db";
  std::unique_ptr<DB> db;
  OpenFresh(options, "db", &db);
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < 3000; ++i) {
    ASSERT_OK(db->Put(WriteOptions(), "k" + std::to_string(i * 7), "v"));
    if (i % 1000 == 999) {
      ASSERT_OK(db->Flush(FlushOptions()));
    }
  }
  ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(db->VerifyChecksum());
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    CraftMetadata metadata;
    std::vector<CraftPartition> partitions;
    ASSERT_OK(ReadFilter(f.db_path + f.name, options, &metadata, &partitions));
    EXPECT_EQ(metadata.num_keys(), f.num_entries);
  }
  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), "k70", &value));
  // Key counts from the filters' metadata and edge partitions: exact here
  // up to a key per bound.
  uint64_t all = 0, none = 0, some = 0;
  ASSERT_OK(EstimateKeysInRange(db.get(), nullptr, "k", "l", &all));
  EXPECT_GE(all, 3000u - 2);
  EXPECT_LE(all, 3000u);
  // k7000 .. k9999: every seventh number of 7000..9999 below 3000 * 7.
  ASSERT_OK(EstimateKeysInRange(db.get(), nullptr, "k7000", "k9999", &some));
  uint64_t truth = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string k = "k" + std::to_string(i * 7);
    truth += k >= "k7000" && k < "k9999" ? 1 : 0;
  }
  EXPECT_GE(some + 2, truth);
  EXPECT_LE(some, truth);
  ASSERT_OK(EstimateKeysInRange(db.get(), nullptr, "x", "y", &none));
  EXPECT_EQ(none, 0u);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// min_level 1: a flush writes no filter (seeks read the table as stock
// does), a compaction's output at L1 or below does.
TEST_F(CraftTableTest, MinLevelLeavesUpperLevelTablesWithoutFilters) {
  Options options = SeekTestOptions(2048, [](BlockBasedTableOptions* table) {
    CraftRangeFilterOptions craft;
    craft.partition_size = 2048;
    craft.min_level = 1;
    ASSERT_OK(NewCraftRangeFilterPolicy(craft, &table->range_filter));
  });
  std::unique_ptr<DB> db;
  OpenWithEvenKeys(options, "minleveldb", &db);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Level0Report(db.get()).files, 1u);
  EXPECT_EQ(Level0Report(db.get()).with_filter, 0u);
  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_CHECKED), 0u);

  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(Level0Report(db.get()).files, 0u);
  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  EXPECT_GT(options.statistics->getTickerCount(CRAFT_FILTER_EMPTY), 5000u);
}

TEST_F(CraftTableTest, BoundedSeeksSkipEmptyTables) {
  Options options = SeekTestOptions();
  const std::string dbname = dir_ + "/seekdb";
  std::unique_ptr<DB> db;
  OpenFresh(options, "seekdb", &db);
  ASSERT_NE(db, nullptr);
  // Four L0 tables, each spanning the whole key space with every fourth of
  // the keys k00000, k00010, ...: most short ranges are empty in each.
  std::set<std::string> keys;
  for (int t = 0; t < 4; ++t) {
    for (int i = t; i < 4000; i += 4) {
      char key[16];
      snprintf(key, sizeof(key), "k%05d", i * 10);
      keys.insert(key);
      ASSERT_OK(db->Put(WriteOptions(), key, "v"));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
  }
  auto scan = [&](const std::string& lo, const std::string& hi, bool reverse) {
    return BoundedScan(db.get(), lo, hi, reverse);
  };
  std::mt19937_64 rng(17);
  for (int q = 0; q < 2000; ++q) {
    const int start = static_cast<int>(rng() % 40000);
    const int width = 1 + static_cast<int>(rng() % 30);
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", start);
    snprintf(hi, sizeof(hi), "k%05d", start + width);
    std::vector<std::string> want(keys.lower_bound(lo), keys.lower_bound(hi));
    ASSERT_EQ(scan(lo, hi, /*reverse=*/false), want) << lo << " " << hi;
    ASSERT_EQ(scan(lo, hi, /*reverse=*/true), want) << lo << " " << hi;
  }
  const uint64_t checked =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  const uint64_t empty = options.statistics->getTickerCount(CRAFT_FILTER_EMPTY);
  fprintf(stderr, "CRaFT: %llu checks, %llu tables skipped\n",
          static_cast<unsigned long long>(checked),
          static_cast<unsigned long long>(empty));
  EXPECT_GT(checked, 4000u);
  EXPECT_GT(empty, checked / 2);

  // False positives: forward scans alone, where each checks every table
  // once, except where the metadata expects a key in range (decimal keys:
  // a range across a "999" -> "000" carry looks wide). A check the filter
  // let through is a true positive when the table holds a key in range,
  // else a false positive.
  const uint64_t false_positives_before =
      options.statistics->getTickerCount(CRAFT_FILTER_FALSE_POSITIVE);
  ASSERT_OK(options.statistics->Reset());
  uint64_t true_positives = 0;
  for (int q = 0; q < 2000; ++q) {
    const int start = static_cast<int>(rng() % 40000);
    const int width = 1 + static_cast<int>(rng() % 30);
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", start);
    snprintf(hi, sizeof(hi), "k%05d", start + width);
    scan(lo, hi, /*reverse=*/false);
    for (int t = 0; t < 4; ++t) {
      bool holds = false;
      for (int k = (start + 9) / 10; k * 10 < start + width; ++k) {
        holds = holds || (k % 4 == t && k < 4000);
      }
      true_positives += holds;
    }
  }
  const uint64_t passed =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED) -
      options.statistics->getTickerCount(CRAFT_FILTER_EMPTY);
  const uint64_t false_positives =
      options.statistics->getTickerCount(CRAFT_FILTER_FALSE_POSITIVE);
  const uint64_t forward_checks =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  EXPECT_LE(forward_checks, 8000u);
  EXPECT_GT(forward_checks, 7600u);
  EXPECT_LE(passed - false_positives, true_positives);
  EXPECT_GE(passed - false_positives + (8000u - forward_checks),
            true_positives);
  fprintf(stderr, "CRaFT forward: %llu let through, %llu false positives\n",
          static_cast<unsigned long long>(passed),
          static_cast<unsigned long long>(false_positives));

  // The per-level property counts the same seeks since the tables opened.
  const CraftReportRow row = Level0Report(db.get());
  EXPECT_EQ(row.files, 4u);
  EXPECT_EQ(row.with_filter, 4u);
  EXPECT_EQ(row.keys, keys.size());
  EXPECT_GT(row.bits_per_key, 1.0);
  EXPECT_EQ(row.checked, checked + forward_checks);
  EXPECT_EQ(row.false_positive, false_positives_before + false_positives);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// Levels 1+: a level iterator asks the filter before it builds a file's
// iterator, so an empty file costs no index lookup; a file with range
// tombstones is always searched, since they may hide older levels' keys.
TEST_F(CraftTableTest, LevelIteratorsPassOverEmptyFiles) {
  Options options = IndexCountingOptions();
  options.num_levels = 3;
  options.target_file_size_base = 16 << 10;  // Several files per level.
  const std::string dbname = dir_ + "/leveldb";
  std::unique_ptr<DB> db;
  OpenFresh(options, "leveldb", &db);
  ASSERT_NE(db, nullptr);
  std::set<std::string> keys;
  auto key_of = TenthKey;
  // L2: keys 0, 4, 8, ...; L1: keys 1, 5, 9, ...; each written in four
  // flushed chunks so that each level has several files.
  const std::string value(100, 'v');
  for (int i = 0; i < 4000; i += 4) {
    keys.insert(key_of(i));
    ASSERT_OK(db->Put(WriteOptions(), key_of(i), value));
    if (i % 1000 == 996) {
      ASSERT_OK(db->Flush(FlushOptions()));
    }
  }
  CompactRangeOptions to_l2;
  to_l2.change_level = true;
  to_l2.target_level = 2;
  ASSERT_OK(db->CompactRange(to_l2, nullptr, nullptr));
  auto flush_to_l1 = [&]() {
    ASSERT_OK(db->Flush(FlushOptions()));
    std::vector<std::string> l0;
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    for (const auto& f : meta.levels[0].files) {
      l0.push_back(f.name);
    }
    CompactionOptions compact;
    compact.output_file_size_limit = 16 << 10;
    ASSERT_OK(db->CompactFiles(compact, l0, 1));
  };
  for (int i = 1; i < 4000; i += 4) {
    keys.insert(key_of(i));
    ASSERT_OK(db->Put(WriteOptions(), key_of(i), value));
    if (i % 1000 == 997) {
      ASSERT_OK(db->Flush(FlushOptions()));
    }
  }
  flush_to_l1();
  {
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    ASSERT_EQ(meta.levels[0].files.size(), 0u);
    ASSERT_GT(meta.levels[1].files.size(), 1u);
    ASSERT_GT(meta.levels[2].files.size(), 1u);
  }
  auto scan = [&](const std::string& lo, const std::string& hi, bool reverse) {
    return BoundedScan(db.get(), lo, hi, reverse);
  };
  auto index_lookups = [&]() { return IndexLookups(options); };
  CheckRandomScans(db.get(), keys, 23, 2000, 30);

  // Ranges between stored keys (k..2 to k..8) are empty in both levels:
  // no file iterator is built, so no index block is looked up.
  const uint64_t lookups_before = index_lookups();
  const uint64_t checked_before =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  for (int i = 0; i < 4000; i += 7) {
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", i * 10 + 2);
    snprintf(hi, sizeof(hi), "k%05d", i * 10 + 8);
    ASSERT_TRUE(scan(lo, hi, /*reverse=*/false).empty());
  }
  const uint64_t seeks = (4000 + 6) / 7;
  const uint64_t checked =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED) - checked_before;
  // One check per level and seek, a few false positives searched.
  EXPECT_LE(checked, 2 * seeks);
  EXPECT_GT(checked, seeks);
  EXPECT_LT(index_lookups() - lookups_before, seeks / 10);

  // Ranges holding one L1 key and nothing of L2: L1's level iterator gets a
  // "maybe" and hands it to the table iterator it builds, which does not ask
  // again (craft_seek_decision.h), so each level asks once per seek.
  const uint64_t checked_before_hits =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  uint64_t hit_seeks = 0;
  for (int i = 1; i < 4000; i += 4 * 9) {
    char hi[16];
    snprintf(hi, sizeof(hi), "k%05d", i * 10 + 3);
    ASSERT_EQ(scan(key_of(i), hi, /*reverse=*/false),
              std::vector<std::string>{key_of(i)});
    hit_seeks++;
  }
  const uint64_t checked_hits =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED) -
      checked_before_hits;
  EXPECT_LE(checked_hits, 2 * hit_seeks);
  EXPECT_GT(checked_hits, hit_seeks);

  // A range tombstone in L1 over L2's keys: its files are searched whatever
  // the filter says, and the deleted keys stay deleted.
  ASSERT_OK(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(),
                            key_of(1000), key_of(3000)));
  for (auto it = keys.lower_bound(key_of(1000));
       it != keys.end() && *it < key_of(3000);) {
    it = keys.erase(it);
  }
  ASSERT_OK(db->Put(WriteOptions(), key_of(3001), "new"));
  keys.insert(key_of(3001));
  flush_to_l1();
  CheckRandomScans(db.get(), keys, 29, 2000, 30);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// L0: a bounded iterator puts each L0 file behind a one-file level
// iterator, so an empty L0 file gets no table iterator (no index lookup)
// either; answers match a model in both directions, with an L0 range
// tombstone too, and unbounded iterators are built as upstream builds them.
TEST_F(CraftTableTest, LevelZeroFilesOpenOnlyWhereTheFilterAllows) {
  Options options = IndexCountingOptions();
  std::unique_ptr<DB> db;
  OpenFresh(options, "l0db", &db);
  ASSERT_NE(db, nullptr);
  auto key_of = TenthKey;
  // Four L0 files over the whole key range: file f holds keys 4i + f.
  std::set<std::string> keys;
  for (int f = 0; f < 4; ++f) {
    for (int i = f; i < 4000; i += 4) {
      keys.insert(key_of(i));
      ASSERT_OK(db->Put(WriteOptions(), key_of(i), "v"));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
  }
  CheckRandomScans(db.get(), keys, 31, 1000, 40);

  auto index_lookups = [&]() { return IndexLookups(options); };
  // Between stored keys every L0 file is empty: without the one-file level
  // iterators each seek would look up four index blocks. The random scans
  // above mostly held keys, so the files' recent shares first have to
  // climb back (their sampled checks count eightfold): a few hundred seeks.
  for (int i = 0; i < 300; ++i) {
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", i * 70 + 3);
    snprintf(hi, sizeof(hi), "k%05d", i * 70 + 7);
    ASSERT_TRUE(BoundedScan(db.get(), lo, hi, false).empty());
  }
  uint64_t before = index_lookups();
  const int seeks = 500;
  for (int i = 0; i < seeks; ++i) {
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", i * 70 + 2);
    snprintf(hi, sizeof(hi), "k%05d", i * 70 + 8);
    ASSERT_TRUE(BoundedScan(db.get(), lo, hi, false).empty());
  }
  EXPECT_LT(index_lookups() - before, seeks / 10u);
  // An unbounded iterator builds every L0 table iterator up front.
  before = index_lookups();
  {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    it->Seek(key_of(7) + "5");
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key().ToString(), key_of(8));
  }
  EXPECT_GE(index_lookups() - before, 4u);

  // A range tombstone in a fifth L0 file hides keys of the other four.
  ASSERT_OK(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(),
                            key_of(1000), key_of(3000)));
  ASSERT_OK(db->Put(WriteOptions(), key_of(3001) + "x", "v"));
  keys.insert(key_of(3001) + "x");
  ASSERT_OK(db->Flush(FlushOptions()));
  keys.erase(keys.lower_bound(key_of(1000)), keys.lower_bound(key_of(3000)));
  CheckRandomScans(db.get(), keys, 37, 1000, 40);
  db.reset();
  ASSERT_OK(DestroyDB(dir_ + "/l0db", options));
}

// A table whose checks keep coming out non-empty is asked on one seek in
// eight; once seeks turn empty again, sampled checks notice and every seek
// is checked again. Answers stay exact throughout.
TEST_F(CraftTableTest, FilterIsSampledWhereItRarelyHelps) {
  Options options = SeekTestOptions();
  const std::string dbname = dir_ + "/sampledb";
  std::unique_ptr<DB> db;
  OpenFresh(options, "sampledb", &db);
  ASSERT_NE(db, nullptr);
  // One table holding every key k00000..k39990 (step 10).
  for (int i = 0; i < 4000; ++i) {
    char key[16];
    snprintf(key, sizeof(key), "k%05d", i * 10);
    ASSERT_OK(db->Put(WriteOptions(), key, "v"));
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  auto seek = [&](int start, int width) {
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%05d", start);
    snprintf(hi, sizeof(hi), "k%05d", start + width);
    const bool want = (start + 9) / 10 * 10 < start + width && start < 39991;
    EXPECT_EQ(BoundedSeekFinds(db.get(), lo, hi), want) << lo << " " << hi;
  };
  auto checked = [&]() {
    return options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  };
  // Ranges of 8 where keys are 10 apart: the metadata expects 0.8 keys, so
  // they are asked, and 8 in 10 hold a key. After the first checks, one
  // seek in eight is checked.
  for (int q = 0; q < 4000; ++q) seek((q * 7919) % 39000, 8);
  const uint64_t nonempty_checks = checked();
  EXPECT_LT(nonempty_checks, 1000u);
  EXPECT_GT(nonempty_checks, 64u + 3936u / 8 - 40);
  // Empty ranges (between stored keys): checks come back to every seek.
  for (int q = 0; q < 4000; ++q) seek((q * 7919) % 3900 * 10 + 1, 8);
  const uint64_t empty_checks = checked() - nonempty_checks;
  EXPECT_GT(empty_checks, 2500u);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// A table reader reads its filter's metadata at the first bounded seek that
// asks, not at open: Gets, unbounded scans and seeks at the block cache
// tier leave it unread (rocksdb.lodestone.craft-filter's not_loaded), and
// concurrent first seeks agree.
TEST_F(CraftTableTest, MetadataIsReadByTheFirstSeekThatAsks) {
  Options options = SeekTestOptions();
  const std::string dbname = dir_ + "/lazydb";
  std::unique_ptr<DB> db;
  OpenWithEvenKeys(options, "lazydb", &db);
  ASSERT_NE(db, nullptr);
  auto still_unread = [&]() {
    const CraftReportRow l = Level0Report(db.get());
    EXPECT_EQ(l.with_filter, 1u);
    EXPECT_EQ(l.not_loaded, 1u);
    EXPECT_EQ(l.keys, 0u);
    EXPECT_EQ(l.bytes, 0u);
  };
  still_unread();

  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), "k000020", &value));
  ASSERT_TRUE(db->Get(ReadOptions(), "k000010", &value).IsNotFound());
  {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    int n = 0;
    for (it->Seek("k000010"); it->Valid(); it->Next()) {
      ++n;
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(n, 9999);
  }
  {
    Slice upper("k000015");
    ReadOptions ro;
    ro.read_tier = kBlockCacheTier;
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<Iterator> it(db->NewIterator(ro));
    it->Seek("k000010");
    EXPECT_FALSE(it->Valid());
  }
  still_unread();
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_CHECKED), 0u);

  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  CraftReportRow loaded = Level0Report(db.get());
  EXPECT_EQ(loaded.not_loaded, 0u);
  EXPECT_EQ(loaded.keys, 10000u);
  EXPECT_GT(loaded.bytes, 0u);
  EXPECT_GT(options.statistics->getTickerCount(CRAFT_FILTER_EMPTY), 9000u);

  // Reopened, the table reader starts unread again; threads racing to ask
  // first each get the filter's answers.
  db.reset();
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  db.reset(raw);
  still_unread();
  std::vector<std::thread> threads;
  std::atomic<int> found{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&]() { found += SeekBetweenEvenKeys(db.get()); });
  }
  for (std::thread& t : threads) {
    t.join();
  }
  EXPECT_EQ(found.load(), 0);
  loaded = Level0Report(db.get());
  EXPECT_EQ(loaded.not_loaded, 0u);
  EXPECT_EQ(loaded.keys, 10000u);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// A metadata block that fails its checksum leaves the table without a
// filter, found at the first seek that asks: the table stays readable and
// seeks answer as without the filter.
TEST_F(CraftTableTest, DamagedMetadataLeavesTheTableReadable) {
  Options options = SeekTestOptions();
  const std::string dbname = dir_ + "/damageddb";
  std::string path;
  WriteEvenKeysTable(options, "damageddb", &path);

  // Flip a byte in the middle of the metadata block.
  BlockHandle handle;
  {
    std::unique_ptr<RandomAccessFileReader> file;
    ASSERT_OK(RandomAccessFileReader::Create(options.env->GetFileSystem(), path,
                                             FileOptions(), &file, nullptr));
    uint64_t size = 0;
    ASSERT_OK(options.env->GetFileSize(path, &size));
    ASSERT_OK(FindMetaBlockInFile(file.get(), size, kBlockBasedTableMagicNumber,
                                  ImmutableOptions(options), ReadOptions(),
                                  CraftRangeFilterPolicy::kMetaBlockName(),
                                  &handle));
  }
  std::string bytes;
  ASSERT_OK(ReadFileToString(options.env, path, &bytes));
  ASSERT_LT(handle.offset() + handle.size(), bytes.size());
  bytes[handle.offset() + handle.size() / 2] ^= 0x55;
  ASSERT_OK(WriteStringToFile(options.env, bytes, path, /*should_sync=*/true));

  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  std::unique_ptr<DB> db(raw);
  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_CHECKED), 0u);
  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), "k000020", &value));
  const CraftReportRow row = Level0Report(db.get());
  EXPECT_EQ(row.with_filter, 1u);
  EXPECT_EQ(row.not_loaded, 1u);
  db.reset();  // Closing flushes the LOG.
  ExpectFilterRefusedInLog(options, dbname);
  ASSERT_OK(DestroyDB(dbname, options));
}

// Without checksums nothing below the filter catches damage: a partition's
// first key in the metadata moved up past a stored key would send that
// key's seeks to the partition before, which answers "no". The reader checks
// every partition against the metadata before the filter answers and
// refuses the filter; every key stays findable.
TEST_F(CraftTableTest, DamagedFilterWithoutChecksumsIsRefused) {
  Options options = SeekTestOptions(2048, [](BlockBasedTableOptions* table) {
    table->checksum = kNoChecksum;
  });
  const std::string dbname = dir_ + "/nochecksumdb";
  std::string path;
  WriteEvenKeysTable(options, "nochecksumdb", &path);

  CraftMetadata metadata;
  std::vector<CraftPartition> partitions;
  ASSERT_OK(ReadFilter(path, options, &metadata, &partitions));
  ASSERT_GT(metadata.partitions().size(), 2u);
  const std::string first_key = metadata.partitions()[1].first_key;
  std::string bytes;
  ASSERT_OK(ReadFileToString(options.env, path, &bytes));
  const size_t at = bytes.rfind(first_key);
  ASSERT_NE(at, std::string::npos);
  bytes[at + first_key.size() - 1]++;  // k...0 -> k...1: stored by no one
  ASSERT_OK(WriteStringToFile(options.env, bytes, path, /*should_sync=*/true));

  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  std::unique_ptr<DB> db(raw);
  for (int i = 0; i < 20000; i += 2) {
    char key[16];
    snprintf(key, sizeof(key), "k%06d", i * 10);
    ASSERT_EQ(BoundedScan(db.get(), key, std::string(key) + '\0', false),
              std::vector<std::string>{key});
  }
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_EMPTY), 0u);
  db.reset();  // Closing flushes the LOG.
  ExpectFilterRefusedInLog(options, dbname);
  ASSERT_OK(DestroyDB(dbname, options));
}

// Partitions are read through the table's block cache, once, and still
// answered without one (no_block_cache).
TEST_F(CraftTableTest, PartitionsAreReadThroughTheBlockCache) {
  for (const bool use_block_cache : {true, false}) {
    std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
    Options options = SeekTestOptions(1024, [&](BlockBasedTableOptions* table) {
      table->block_cache = use_block_cache ? cache : nullptr;
      table->no_block_cache = !use_block_cache;
    });
    const std::string dbname = dir_ + "/cachedb";
    std::unique_ptr<DB> db;
    OpenWithEvenKeys(options, "cachedb", &db);
    ASSERT_NE(db, nullptr);
    auto empty_seeks = [&]() { return SeekBetweenEvenKeys(db.get()); };
    EXPECT_EQ(empty_seeks(), 0);
    const uint64_t bytes =
        options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ);
    EXPECT_GT(bytes, 0u);
    EXPECT_GT(options.statistics->getTickerCount(CRAFT_FILTER_EMPTY), 9000u);
    // Every partition is read from the file once, then found in the cache
    // (or, without one, kept by the table reader).
    EXPECT_EQ(empty_seeks(), 0);
    EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ),
              bytes);
    if (use_block_cache) {
      // Charged to the cache as filter blocks.
      EXPECT_GT(cache->GetUsage(), bytes);
      // Evicted partitions are read again, with the same answers.
      cache->EraseUnRefEntries();
      EXPECT_EQ(empty_seeks(), 0);
      EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ),
                2 * bytes);
    }
    db.reset();
    ASSERT_OK(DestroyDB(dbname, options));
  }
}

// A partition read is the iterator's read: it carries the iterator's I/O
// activity, and at read_tier kBlockCacheTier there is none (the filter then
// answers "may exist"). Found by db_stress, whose file system asserts that
// every read carries the activity of the operation that made it.
TEST_F(CraftTableTest, PartitionReadsFollowTheIteratorsReadOptions) {
  // Records the I/O activity of every random-access read.
  class ActivityFile : public FSRandomAccessFileOwnerWrapper {
   public:
    ActivityFile(std::unique_ptr<FSRandomAccessFile>&& target,
                 std::set<Env::IOActivity>* seen, std::mutex* mu)
        : FSRandomAccessFileOwnerWrapper(std::move(target)),
          seen_(seen),
          mu_(mu) {}
    IOStatus Read(uint64_t offset, size_t n, const IOOptions& options,
                  Slice* result, char* scratch,
                  IODebugContext* dbg) const override {
      {
        std::lock_guard<std::mutex> lock(*mu_);
        seen_->insert(options.io_activity);
      }
      return target()->Read(offset, n, options, result, scratch, dbg);
    }

   private:
    std::set<Env::IOActivity>* seen_;
    std::mutex* mu_;
  };
  class ActivityFs : public FileSystemWrapper {
   public:
    explicit ActivityFs(const std::shared_ptr<FileSystem>& base)
        : FileSystemWrapper(base) {}
    const char* Name() const override { return "ActivityFs"; }
    IOStatus NewRandomAccessFile(const std::string& fname,
                                 const FileOptions& opts,
                                 std::unique_ptr<FSRandomAccessFile>* result,
                                 IODebugContext* dbg) override {
      std::unique_ptr<FSRandomAccessFile> file;
      IOStatus s = target()->NewRandomAccessFile(fname, opts, &file, dbg);
      if (s.ok()) {
        result->reset(new ActivityFile(std::move(file), &seen, &mu));
      }
      return s;
    }
    std::set<Env::IOActivity> seen;
    std::mutex mu;
  };
  auto fs = std::make_shared<ActivityFs>(Env::Default()->GetFileSystem());
  std::unique_ptr<Env> env = NewCompositeEnv(fs);
  std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
  Options options = SeekTestOptions(
      1024, [&](BlockBasedTableOptions* table) { table->block_cache = cache; });
  options.env = env.get();
  const std::string dbname = dir_ + "/activitydb";
  std::unique_ptr<DB> db;
  OpenWithEvenKeys(options, "activitydb", &db);
  ASSERT_NE(db, nullptr);
  cache->EraseUnRefEntries();

  // No file reads at the block cache tier: no partition is read.
  for (int i = 1; i < 200; i += 2) {
    char lo[16], hi[16];
    snprintf(lo, sizeof(lo), "k%06d", i * 10);
    snprintf(hi, sizeof(hi), "k%06d", i * 10 + 5);
    Slice upper(hi);
    ReadOptions ro;
    ro.read_tier = kBlockCacheTier;
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<Iterator> it(db->NewIterator(ro));
    it->Seek(lo);
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().ok() || it->status().IsIncomplete())
        << it->status().ToString();
  }
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ), 0u);

  // Reads for an iterator, partitions included, are the iterator's.
  {
    std::lock_guard<std::mutex> lock(fs->mu);
    fs->seen.clear();
  }
  EXPECT_EQ(SeekBetweenEvenKeys(db.get()), 0);
  EXPECT_GT(options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ), 0u);
  {
    std::lock_guard<std::mutex> lock(fs->mu);
    EXPECT_EQ(fs->seen,
              std::set<Env::IOActivity>{Env::IOActivity::kDBIterator});
  }
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

TEST_F(CraftTableTest, PartitionsArePinnedAsFilterPartitionsWouldBe) {
  // partition_pinning, and its fallback pin_l0_filter_and_index_blocks_in_
  // cache for L0 tables, keep the partitions in the table reader: held cache
  // entries that eviction cannot drop.
  struct Case {
    PinningTier partition_pinning;
    bool pin_l0;
    bool compact_to_l1;
    bool pinned;
  };
  for (const Case& c :
       {Case{PinningTier::kFallback, false, false, false},
        Case{PinningTier::kFallback, true, false, true},
        Case{PinningTier::kFallback, true, true, false},
        Case{PinningTier::kFlushedAndSimilar, false, false, true},
        Case{PinningTier::kAll, false, true, true},
        Case{PinningTier::kNone, true, false, false}}) {
    std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
    Options options = SeekTestOptions(1024, [&](BlockBasedTableOptions* table) {
      table->block_cache = cache;
      table->metadata_cache_options.partition_pinning = c.partition_pinning;
      table->pin_l0_filter_and_index_blocks_in_cache = c.pin_l0;
    });
    const std::string dbname = dir_ + "/pindb";
    std::unique_ptr<DB> db;
    OpenWithEvenKeys(options, "pindb", &db);
    ASSERT_NE(db, nullptr);
    if (c.compact_to_l1) {
      CompactRangeOptions cro;
      cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
      ASSERT_OK(db->CompactRange(cro, nullptr, nullptr));
    }
    auto empty_seeks = [&]() { return SeekBetweenEvenKeys(db.get()); };
    SCOPED_TRACE(std::to_string(static_cast<int>(c.partition_pinning)) +
                 (c.pin_l0 ? " pin_l0" : "") + (c.compact_to_l1 ? " L1" : ""));
    // The DB holds a few cache entries of its own (e.g. its cache stats
    // collector).
    const size_t pinned_before = cache->GetPinnedUsage();
    EXPECT_EQ(empty_seeks(), 0);
    const uint64_t bytes =
        options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ);
    EXPECT_GT(bytes, 0u);
    // Pinned entries survive eviction, so nothing is read again.
    cache->EraseUnRefEntries();
    EXPECT_EQ(empty_seeks(), 0);
    EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_BYTES_READ),
              c.pinned ? bytes : 2 * bytes);
    EXPECT_EQ(cache->GetPinnedUsage() > pinned_before, c.pinned);
    db.reset();
    // Closing the table readers releases what they pinned.
    EXPECT_EQ(cache->GetPinnedUsage(), 0u);
    ASSERT_OK(DestroyDB(dbname, options));
  }
}

// range_hash_bits: every partition of a table whose keys share one
// length carries a range hash, and short ranges starting just past a stored
// key, which the trie alone must let through, skip the table.
TEST_F(CraftTableTest, RangeHashSkipsRangesJustPastStoredKeys) {
  // Uniform 8-byte big-endian keys: k+1 .. k+64 shares far more than the
  // trie's distinguishing prefix and real suffix bits with k.
  auto big_endian = [](uint64_t v) {
    std::string key(8, '\0');
    for (int i = 7; i >= 0; --i, v >>= 8) {
      key[i] = static_cast<char>(v & 0xff);
    }
    return key;
  };
  std::mt19937_64 rng(29);
  std::set<uint64_t> values;
  while (values.size() < 5000) {
    values.insert(rng() >> 1);  // Room above each key for its range.
  }
  uint64_t skipped[2] = {0, 0};
  for (const uint32_t bits : {0u, 14u}) {
    Options options = SeekTestOptions(2048, [bits](BlockBasedTableOptions* t) {
      t->range_filter = CraftPolicy(2048, bits);
    });
    std::unique_ptr<DB> db;
    OpenFresh(options, "rangehash" + std::to_string(bits), &db);
    ASSERT_NE(db, nullptr);
    for (uint64_t v : values) {
      ASSERT_OK(db->Put(WriteOptions(), big_endian(v), "v"));
    }
    ASSERT_OK(db->Flush(FlushOptions()));

    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    ASSERT_EQ(files.size(), 1u);
    CraftMetadata metadata;
    std::vector<CraftPartition> partitions;
    ASSERT_OK(ReadFilter(files[0].db_path + files[0].name, options, &metadata,
                         &partitions));
    ASSERT_GT(partitions.size(), 1u);
    for (const CraftPartition& partition : partitions) {
      EXPECT_EQ(partition.range_hash() != nullptr, bits > 0);
    }

    int queries = 0;
    for (uint64_t v : values) {
      if (queries++ == 2000) {
        break;
      }
      const uint64_t width = 1 + rng() % 64;
      const std::string lo = big_endian(v + 1);
      const std::string hi = big_endian(v + 1 + width);
      const auto next = values.upper_bound(v);
      const bool holds = next != values.end() && *next < v + 1 + width;
      ASSERT_EQ(BoundedScan(db.get(), lo, hi, /*reverse=*/false).size(),
                holds ? 1u : 0u);
    }
    const uint64_t checked =
        options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
    skipped[bits > 0] = options.statistics->getTickerCount(CRAFT_FILTER_EMPTY);
    if (bits > 0) {
      EXPECT_GE(checked, 1000u);
      EXPECT_GE(skipped[1], checked * 9 / 10);
    } else {
      EXPECT_LE(skipped[0], checked / 20);
    }
  }
  fprintf(stderr, "ranges just past a key: %llu skipped without, %llu with\n",
          static_cast<unsigned long long>(skipped[0]),
          static_cast<unsigned long long>(skipped[1]));
}

// Keys that cluster (orders in even regions only, as a Kafka Streams
// store of a sparse key space holds them, tests/ecosystem/kafka-cluster):
// a range over a whole empty region ends in the same 8 bytes after the
// partition's common prefix as it starts, so the metadata expects no key
// there and the filter is asked, and answers, on every such seek.
TEST_F(CraftTableTest, EmptyRegionsOfAClusteredKeySpaceAreAnswered) {
  Options options = SeekTestOptions(16 * 1024);
  std::unique_ptr<DB> db;
  ASSERT_NO_FATAL_FAILURE(OpenFilledRegions(options, "clustereddb", 4000, &db));
  for (int q = 0; q < 1000; ++q) ExpectRegionSeek(db.get(), 2 * (q % 10) + 1);
  const uint64_t checked =
      options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  const uint64_t empty = options.statistics->getTickerCount(CRAFT_FILTER_EMPTY);
  // Region 19 lies past the table's last key: the file's key range rules
  // it out before the filter is asked.
  EXPECT_EQ(checked, 900u);
  EXPECT_EQ(empty, checked);
  db.reset();
  ASSERT_OK(DestroyDB(dir_ + "/clustereddb", options));
}

// Scans over regions that hold keys (ranges expected to hold some, not
// asked) say nothing about the empty regions between them: queries of
// those are all checked after any number of such scans, as before them.
TEST_F(CraftTableTest, WideScansLeaveEmptyRangesChecked) {
  Options options = SeekTestOptions();
  std::unique_ptr<DB> db;
  // 2,000 keys in each even region: each spans several partitions, so a
  // scan over one is expected to hold keys and is not asked.
  ASSERT_NO_FATAL_FAILURE(OpenFilledRegions(options, "widedb", 20000, &db));
  auto checked = [&]() {
    return options.statistics->getTickerCount(CRAFT_FILTER_CHECKED);
  };
  // Regions 0..19 in turn: the empty ones are checked (but region 19, past
  // the table's last key, which the file's key range rules out).
  for (int q = 0; q < 1000; ++q) ExpectRegionSeek(db.get(), q % 20);
  const uint64_t interleaved = checked();
  EXPECT_EQ(interleaved, 450u);
  // A burst of scans over populated regions asks nothing...
  for (int q = 0; q < 1000; ++q) ExpectRegionSeek(db.get(), 2 * (q % 10));
  EXPECT_EQ(checked(), interleaved);
  // ...and leaves every query of an empty region checked. (Region 19 may
  // be asked too: while the table's seeks were mostly non-empty its L0
  // file is not behind a level iterator, whose key range rules it out.)
  for (int q = 0; q < 1000; ++q) ExpectRegionSeek(db.get(), 2 * (q % 10) + 1);
  EXPECT_GE(checked(), interleaved + 900u);
  EXPECT_EQ(options.statistics->getTickerCount(CRAFT_FILTER_EMPTY), checked());
  db.reset();
  ASSERT_OK(DestroyDB(dir_ + "/widedb", options));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
