// Lodestone's option fields: options strings, OPTIONS files, SetOptions, and
// clear errors for bad values.

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "table/craft/craft_range_filter_policy.h"
#include "test_util/testharness.h"
#include "test_util/testutil.h"

namespace ROCKSDB_NAMESPACE {

class LodestoneOptionsTest : public testing::Test {
 protected:
  // Opens a fresh DB at `dbname` with `options`, closes it and returns the
  // OPTIONS file it wrote.
  static std::string OptionsFileOf(const Options& options,
                                   const std::string& dbname) {
    EXPECT_OK(DestroyDB(dbname, options));
    DB* raw = nullptr;
    EXPECT_OK(DB::Open(options, dbname, &raw));
    delete raw;
    std::string file;
    EXPECT_OK(GetLatestOptionsFileName(dbname, Env::Default(), &file));
    std::string text;
    EXPECT_OK(ReadFileToString(Env::Default(), dbname + "/" + file, &text));
    return text;
  }

  ConfigOptions config_;
};

TEST_F(LodestoneOptionsTest, DefaultsAreOff) {
  DBOptions db;
  ColumnFamilyOptions cf;
  BlockBasedTableOptions table;
  EXPECT_EQ(db.location_cache, nullptr);
  EXPECT_FALSE(db.verify_initial_puts);
  EXPECT_EQ(cf.min_tombstones_for_range_conversion, 0u);
  EXPECT_EQ(cf.delete_persistence_threshold, 0u);
  EXPECT_EQ(cf.tombstone_density_trigger, 0.0);
  EXPECT_FALSE(cf.compaction_overlap_by_keys);
  EXPECT_EQ(table.range_filter, nullptr);
}

TEST_F(LodestoneOptionsTest, DBOptionsFromString) {
  DBOptions db;
  ASSERT_OK(GetDBOptionsFromString(
      config_, DBOptions(),
      "location_cache={capacity=1M};verify_initial_puts=true", &db));
  ASSERT_NE(db.location_cache, nullptr);
  EXPECT_EQ(db.location_cache->GetCapacity(), size_t{1} << 20);
  EXPECT_TRUE(db.verify_initial_puts);

  ASSERT_OK(
      GetDBOptionsFromString(config_, DBOptions(), "location_cache=64K", &db));
  EXPECT_EQ(db.location_cache->GetCapacity(), size_t{64} << 10);

  Status s =
      GetDBOptionsFromString(config_, DBOptions(), "location_cache=lots", &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST_F(LodestoneOptionsTest, ColumnFamilyOptionsFromString) {
  ColumnFamilyOptions cf;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config_, ColumnFamilyOptions(),
      "min_tombstones_for_range_conversion=8;"
      "delete_persistence_threshold=600;tombstone_density_trigger=0.25;"
      "tombstone_density_window=256;compaction_overlap_by_keys=true;"
      "block_based_table_factory={range_filter={id=craft;"
      "partition_size=32768;real_suffix_bits=4;hash_suffix_bits=2;"
      "range_hash_bits=14}}",
      &cf));
  EXPECT_EQ(cf.min_tombstones_for_range_conversion, 8u);
  EXPECT_EQ(cf.delete_persistence_threshold, 600u);
  EXPECT_DOUBLE_EQ(cf.tombstone_density_trigger, 0.25);
  EXPECT_EQ(cf.tombstone_density_window, 256u);
  EXPECT_TRUE(cf.compaction_overlap_by_keys);
  const auto* table = cf.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  const auto* craft = CraftRangeFilterPolicy::From(table->range_filter.get());
  ASSERT_NE(craft, nullptr);
  EXPECT_TRUE(craft->writes_filters());
  EXPECT_EQ(craft->options().partition_size, 32768u);
  EXPECT_EQ(craft->options().real_suffix_bits, 4u);
  EXPECT_EQ(craft->options().hash_suffix_bits, 2u);
  EXPECT_EQ(craft->options().range_hash_bits, 14u);

  Status s = GetColumnFamilyOptionsFromString(
      config_, ColumnFamilyOptions(), "tombstone_density_trigger=dense", &cf);
  EXPECT_FALSE(s.ok());
  s = GetColumnFamilyOptionsFromString(
      config_, ColumnFamilyOptions(), "min_tombstones_for_range_conversion=-1x",
      &cf);
  EXPECT_FALSE(s.ok());
}

TEST_F(LodestoneOptionsTest, OptionsFileRoundTripAndSetOptions) {
  const std::string dbname = test::PerThreadDBPath("lodestone_options_test");
  Options options;
  options.create_if_missing = true;
  options.location_cache = LocationCache::Create({size_t{1} << 16, 0.0});
  options.verify_initial_puts = true;
  options.min_tombstones_for_range_conversion = 4;
  options.delete_persistence_threshold = 3600;
  BlockBasedTableOptions table;
  CraftRangeFilterOptions craft;
  craft.range_hash_bits = 14;
  ASSERT_OK(NewCraftRangeFilterPolicy(craft, &table.range_filter));
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  ASSERT_OK(DestroyDB(dbname, options));
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  std::unique_ptr<DB> db(raw);

  ASSERT_OK(db->SetOptions({{"min_tombstones_for_range_conversion", "16"},
                            {"tombstone_density_trigger", "0.5"},
                            {"delete_persistence_threshold", "60"},
                            {"compaction_overlap_by_keys", "true"}}));
  EXPECT_EQ(db->GetOptions().min_tombstones_for_range_conversion, 16u);
  EXPECT_TRUE(db->GetOptions().compaction_overlap_by_keys);
  EXPECT_DOUBLE_EQ(db->GetOptions().tombstone_density_trigger, 0.5);
  EXPECT_FALSE(db->SetOptions({{"tombstone_density_trigger", "x"}}).ok());
  db.reset();

  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded_cfs;
  ASSERT_OK(LoadLatestOptions(config_, dbname, &loaded_db, &loaded_cfs));
  ASSERT_NE(loaded_db.location_cache, nullptr);
  EXPECT_EQ(loaded_db.location_cache->GetCapacity(), size_t{1} << 16);
  EXPECT_TRUE(loaded_db.verify_initial_puts);
  ASSERT_EQ(loaded_cfs.size(), 1u);
  EXPECT_EQ(loaded_cfs[0].options.min_tombstones_for_range_conversion, 16u);
  EXPECT_EQ(loaded_cfs[0].options.delete_persistence_threshold, 60u);
  EXPECT_TRUE(loaded_cfs[0].options.compaction_overlap_by_keys);
  const auto* loaded_table =
      loaded_cfs[0].options.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(loaded_table, nullptr);
  const auto* loaded_craft =
      CraftRangeFilterPolicy::From(loaded_table->range_filter.get());
  ASSERT_NE(loaded_craft, nullptr);
  EXPECT_TRUE(loaded_craft->writes_filters());
  EXPECT_EQ(loaded_craft->options().range_hash_bits, 14u);
  ASSERT_OK(DestroyDB(dbname, options));
}

// Values outside an option's range are refused with InvalidArgument at
// open, at CreateColumnFamily and by SetOptions (which then changes
// nothing), never accepted silently.
TEST_F(LodestoneOptionsTest, OutOfRangeValuesAreRefused) {
  const std::string dbname = test::PerThreadDBPath("lodestone_options_range");
  Options options;
  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbname, options));
  DB* raw = nullptr;
  for (double trigger : {-0.1, 1.5, std::nan("")}) {
    Options bad = options;
    bad.tombstone_density_trigger = trigger;
    Status s = DB::Open(bad, dbname, &raw);
    EXPECT_TRUE(s.IsInvalidArgument()) << trigger << ": " << s.ToString();
    EXPECT_NE(s.ToString().find("tombstone_density_trigger"),
              std::string::npos);
  }
  for (uint32_t window : {0u, (1u << 20) + 1}) {
    Options bad = options;
    bad.tombstone_density_window = window;
    Status s = DB::Open(bad, dbname, &raw);
    EXPECT_TRUE(s.IsInvalidArgument()) << window << ": " << s.ToString();
    EXPECT_NE(s.ToString().find("tombstone_density_window"), std::string::npos);
  }

  Options good = options;
  good.tombstone_density_trigger = 1.0;
  good.tombstone_density_window = 1u << 20;
  ASSERT_OK(DB::Open(good, dbname, &raw));
  std::unique_ptr<DB> db(raw);
  ColumnFamilyOptions bad_cf;
  bad_cf.tombstone_density_trigger = 2;
  ColumnFamilyHandle* cf = nullptr;
  EXPECT_TRUE(db->CreateColumnFamily(bad_cf, "bad", &cf).IsInvalidArgument());
  EXPECT_EQ(cf, nullptr);

  ASSERT_OK(db->SetOptions({{"tombstone_density_trigger", "0.25"}}));
  for (const char* trigger : {"-1", "1.01", "nan"}) {
    EXPECT_TRUE(db->SetOptions({{"tombstone_density_trigger", trigger}})
                    .IsInvalidArgument())
        << trigger;
  }
  EXPECT_TRUE(
      db->SetOptions({{"tombstone_density_window", "0"}}).IsInvalidArgument());
  EXPECT_DOUBLE_EQ(db->GetOptions().tombstone_density_trigger, 0.25);
  EXPECT_EQ(db->GetOptions().tombstone_density_window, 1u << 20);
  db.reset();
  ASSERT_OK(DestroyDB(dbname, options));
}

// Every size-like option refuses what it cannot honour, wherever it is set:
// DB::Open, CreateColumnFamily, SetOptions; the CRaFT knobs where a policy
// is made (in code or from any spelling of the option).
TEST_F(LodestoneOptionsTest, SizesThatCannotBeHonouredAreRefused) {
  const std::string dbname = test::PerThreadDBPath("lodestone_options_sizes");
  Options options;
  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbname, options));
  struct Bad {
    const char* knob;
    uint32_t CraftRangeFilterOptions::*member;
    uint32_t value;
  };
  const std::vector<Bad> bad_knobs = {
      {"real_suffix_bits", &CraftRangeFilterOptions::real_suffix_bits, 57},
      {"real_suffix_bits", &CraftRangeFilterOptions::real_suffix_bits, 64},
      {"hash_suffix_bits", &CraftRangeFilterOptions::hash_suffix_bits, 33},
      {"range_hash_bits", &CraftRangeFilterOptions::range_hash_bits, 1},
      {"range_hash_bits", &CraftRangeFilterOptions::range_hash_bits, 2},
      {"range_hash_bits", &CraftRangeFilterOptions::range_hash_bits, 59},
      {"min_level", &CraftRangeFilterOptions::min_level, 65},
  };
  for (const Bad& bad : bad_knobs) {
    const std::string value = std::to_string(bad.value);
    CraftRangeFilterOptions craft;
    craft.*bad.member = bad.value;
    std::shared_ptr<RangeFilterPolicy> policy;
    Status s = NewCraftRangeFilterPolicy(craft, &policy);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad.knob << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(bad.knob), std::string::npos) << s.ToString();
    EXPECT_EQ(policy, nullptr);
    for (const std::string& spelling :
         {"range_filter={id=craft;" + std::string(bad.knob) + "=" + value + "}",
          "craft_range_filter=true;craft_" + std::string(bad.knob) + "=" +
              value}) {
      BlockBasedTableOptions table;
      s = GetBlockBasedTableOptionsFromString(config_, BlockBasedTableOptions(),
                                              spelling, &table);
      EXPECT_TRUE(s.IsInvalidArgument()) << spelling << ": " << s.ToString();
      EXPECT_NE(s.ToString().find(bad.knob), std::string::npos) << s.ToString();
    }
  }
  {
    // Each within its range, but one leaf's suffix holds at most 64 bits.
    CraftRangeFilterOptions craft;
    craft.real_suffix_bits = 56;
    craft.hash_suffix_bits = 32;
    std::shared_ptr<RangeFilterPolicy> policy;
    Status s = NewCraftRangeFilterPolicy(craft, &policy);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("real_suffix_bits + hash_suffix_bits"),
              std::string::npos)
        << s.ToString();
    BlockBasedTableOptions table;
    s = GetBlockBasedTableOptionsFromString(
        config_, BlockBasedTableOptions(),
        "range_filter={id=craft;real_suffix_bits=56;hash_suffix_bits=32}",
        &table);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  }
  DB* raw = nullptr;
  {
    Options bad = options;
    bad.delete_persistence_threshold = (uint64_t{1} << 30) + 1;
    Status s = DB::Open(bad, dbname, &raw);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("delete_persistence_threshold"),
              std::string::npos);
  }

  // The largest values honoured, and partition sizes of every magnitude:
  // tables written with them keep every key findable by a bounded scan.
  for (uint32_t partition_size : {1u, 64u, UINT32_MAX}) {
    CraftRangeFilterOptions craft;
    craft.partition_size = partition_size;
    craft.real_suffix_bits = 56;
    craft.hash_suffix_bits = 8;  // Together at most 64.
    craft.range_hash_bits = 58;
    BlockBasedTableOptions table;
    ASSERT_OK(NewCraftRangeFilterPolicy(craft, &table.range_filter));
    Options good = options;
    good.table_factory.reset(NewBlockBasedTableFactory(table));
    good.delete_persistence_threshold = uint64_t{1} << 30;
    ASSERT_OK(DestroyDB(dbname, good));
    ASSERT_OK(DB::Open(good, dbname, &raw));
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 500; i += 2) {
      ASSERT_OK(db->Put(WriteOptions(), "k" + std::to_string(1000 + i), "v"));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    for (int i = 0; i < 500; i++) {
      const std::string lo = "k" + std::to_string(1000 + i);
      const std::string hi = lo + '\0';
      Slice upper(hi);
      ReadOptions ro;
      ro.iterate_upper_bound = &upper;
      std::unique_ptr<Iterator> it(db->NewIterator(ro));
      it->Seek(lo);
      EXPECT_EQ(it->Valid(), i % 2 == 0) << partition_size << " " << lo;
      EXPECT_OK(it->status());
    }

    // SetOptions and CreateColumnFamily refuse as Open does.
    EXPECT_TRUE(db->SetOptions({{"delete_persistence_threshold", "1073741825"}})
                    .IsInvalidArgument());
    EXPECT_TRUE(db->SetOptions({{"block_based_table_factory",
                                 "{range_filter={id=craft;"
                                 "real_suffix_bits=57}}"}})
                    .IsInvalidArgument());
    ColumnFamilyOptions bad_cf;
    bad_cf.tombstone_density_window = 0;
    ColumnFamilyHandle* cf = nullptr;
    EXPECT_TRUE(db->CreateColumnFamily(bad_cf, "bad", &cf).IsInvalidArgument());
    EXPECT_EQ(cf, nullptr);
  }
  ASSERT_OK(DestroyDB(dbname, options));
}

// range_filter: its spellings, what it serializes to, and the option names
// CRaFT had before it (craft_option_aliases.h), which keep their meaning.
TEST_F(LodestoneOptionsTest, RangeFilterSpellingsAndOldNames) {
  auto parse = [&](const BlockBasedTableOptions& base, const std::string& s,
                   BlockBasedTableOptions* out) {
    return GetBlockBasedTableOptionsFromString(config_, base, s, out);
  };
  auto serialized = [&](const BlockBasedTableOptions& table) {
    std::unique_ptr<TableFactory> factory(NewBlockBasedTableFactory(table));
    std::string out;
    EXPECT_OK(factory->GetOptionString(config_, &out));
    return out;
  };
  auto craft_of = [](const BlockBasedTableOptions& table) {
    return CraftRangeFilterPolicy::From(table.range_filter.get());
  };

  // No filter: nothing written, so OPTIONS files read like stock's.
  const BlockBasedTableOptions none;
  EXPECT_EQ(serialized(none).find("range_filter"), std::string::npos);
  EXPECT_EQ(serialized(none).find("craft"), std::string::npos);

  // Every spelling of the same policy serializes alike, defaults omitted.
  BlockBasedTableOptions a, b, c, d;
  ASSERT_OK(parse(none, "range_filter=craft", &a));
  ASSERT_OK(parse(none, "range_filter={id=craft}", &b));
  ASSERT_OK(parse(none, "craft_range_filter=true", &c));
  ASSERT_NE(craft_of(a), nullptr);
  EXPECT_TRUE(craft_of(a)->writes_filters());
  EXPECT_NE(serialized(a).find("range_filter=craft;"), std::string::npos)
      << serialized(a);
  EXPECT_EQ(serialized(a), serialized(b));
  EXPECT_EQ(serialized(a), serialized(c));
  ASSERT_OK(parse(none, "range_filter={id=craft;range_hash_bits=14}", &a));
  EXPECT_NE(serialized(a).find("range_filter={id=craft;range_hash_bits=14;}"),
            std::string::npos)
      << serialized(a);
  ASSERT_OK(parse(none, serialized(a), &d));  // Round trip.
  EXPECT_EQ(serialized(a), serialized(d));
  ASSERT_OK(parse(none, "range_filter={id=craft;min_level=2}", &b));
  ASSERT_NE(craft_of(b), nullptr);
  EXPECT_EQ(craft_of(b)->options().min_level, 2u);
  EXPECT_NE(serialized(b).find("range_filter={id=craft;min_level=2;}"),
            std::string::npos)
      << serialized(b);
  EXPECT_EQ(serialized(a).find("craft_"), std::string::npos);  // No alias.

  // Old names in either order: a knob set before the filter is turned on is
  // kept; a knob alone writes nothing and serializes to nothing.
  ASSERT_OK(parse(none, "craft_range_hash_bits=14", &b));
  ASSERT_NE(craft_of(b), nullptr);
  EXPECT_FALSE(craft_of(b)->writes_filters());
  EXPECT_FALSE(CraftRangeFilterPolicy::ReadsFilters(b.range_filter.get()));
  EXPECT_EQ(serialized(b), serialized(none));
  ASSERT_OK(parse(b, "craft_range_filter=true", &c));
  EXPECT_EQ(serialized(c), serialized(a));
  ASSERT_OK(parse(none, "craft_range_filter=true", &b));
  ASSERT_OK(parse(b, "craft_range_hash_bits=14", &c));
  EXPECT_EQ(serialized(c), serialized(a));
  ASSERT_OK(parse(c, "craft_range_filter=false", &d));
  EXPECT_FALSE(CraftRangeFilterPolicy::ReadsFilters(d.range_filter.get()));
  EXPECT_EQ(serialized(d), serialized(none));
  ASSERT_OK(parse(none, "craft_range_filter=false", &d));
  EXPECT_EQ(d.range_filter, nullptr);

  // Not a policy, not a value: refused, never a filter silently off.
  for (const char* bad : {"range_filter=bloom", "range_filter=Craft",
                          "range_filter={range_hash_bits=14}",
                          "range_filter={id=craft;depth=3}"}) {
    Status s = parse(a, bad, &d);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad << ": " << s.ToString();
  }
  EXPECT_NE(parse(none, "range_filter=bloom", &d).ToString().find("bloom"),
            std::string::npos);
  EXPECT_FALSE(parse(none, "craft_range_filter=maybe", &d).ok());
  EXPECT_FALSE(parse(none, "craft_partition_size=-1", &d).ok());
  ASSERT_OK(parse(a, "range_filter=nullptr", &d));
  EXPECT_EQ(d.range_filter, nullptr);
}

// An OPTIONS file written by an earlier release, which named the CRaFT
// options one by one, still loads with the same filter.
TEST_F(LodestoneOptionsTest, OptionsFileWithOldCraftNamesLoads) {
  const std::string dbname = test::PerThreadDBPath("lodestone_options_old");
  Options options;
  options.create_if_missing = true;
  BlockBasedTableOptions table;
  ASSERT_OK(RangeFilterPolicy::CreateFromString(
      config_, "id=craft;partition_size=4096;range_hash_bits=14",
      &table.range_filter));
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  std::string text = OptionsFileOf(options, dbname);
  // The line's knobs come in no fixed order.
  const size_t at = text.find("range_filter={id=craft;");
  ASSERT_NE(at, std::string::npos) << text;
  const size_t end = text.find('\n', at);
  ASSERT_NE(end, std::string::npos);
  text.replace(at, end - at,
               "craft_range_filter=true\n  craft_partition_size=4096\n"
               "  craft_range_hash_bits=14");
  const std::string old_file = dbname + "/OPTIONS-old";
  ASSERT_OK(WriteStringToFile(Env::Default(), text, old_file));

  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded_cfs;
  ASSERT_OK(LoadOptionsFromFile(config_, old_file, &loaded_db, &loaded_cfs));
  ASSERT_EQ(loaded_cfs.size(), 1u);
  const auto* loaded =
      loaded_cfs[0].options.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(loaded, nullptr);
  const auto* craft = CraftRangeFilterPolicy::From(loaded->range_filter.get());
  ASSERT_NE(craft, nullptr);
  EXPECT_TRUE(craft->writes_filters());
  EXPECT_EQ(craft->options().partition_size, 4096u);
  EXPECT_EQ(craft->options().range_hash_bits, 14u);
  ASSERT_OK(DestroyDB(dbname, options));
}

// A location cache whose array cannot be allocated is refused with a
// Status, never a crash: from an options string, and at DB::Open for a
// cache made in code or sized from an "unlimited" block cache.
TEST_F(LodestoneOptionsTest, ImpossibleLocationCacheSizesAreRefused) {
  DBOptions db_options;
  for (const char* value :
       {"location_cache=18014398509481983K", "location_cache=16383T",
        "location_cache={capacity=18446744073709551615}",
        "location_cache={capacity=18446744073709551608}"}) {
    Status s = GetDBOptionsFromString(config_, DBOptions(), value, &db_options);
    EXPECT_TRUE(s.IsInvalidArgument()) << value << ": " << s.ToString();
  }

  const std::string dbname = test::PerThreadDBPath("lodestone_options_lc");
  Options options;
  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbname, options));
  DB* raw = nullptr;
  for (size_t capacity : {SIZE_MAX, SIZE_MAX - 7, size_t{1} << 62}) {
    LocationCacheOptions cache_options;
    cache_options.capacity = capacity;
    Options bad = options;
    bad.location_cache = LocationCache::Create(cache_options);
    EXPECT_EQ(bad.location_cache->GetCapacity(), 0u);
    Status s = DB::Open(bad, dbname, &raw);
    EXPECT_TRUE(s.IsInvalidArgument()) << capacity << ": " << s.ToString();
    EXPECT_NE(s.ToString().find("location_cache"), std::string::npos);
  }
  {
    LocationCacheOptions cache_options;
    cache_options.block_cache_fraction = 1.0;
    Options bad = options;
    bad.location_cache = LocationCache::Create(cache_options);
    BlockBasedTableOptions table;
    table.block_cache = NewLRUCache(SIZE_MAX);
    bad.table_factory.reset(NewBlockBasedTableFactory(table));
    Status s = DB::Open(bad, dbname, &raw);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  }
  {
    Options good = options;
    ASSERT_OK(GetDBOptionsFromString(config_, DBOptions(), "location_cache=64K",
                                     &db_options));
    good.location_cache = db_options.location_cache;
    ASSERT_OK(DB::Open(good, dbname, &raw));
    delete raw;
  }
  ASSERT_OK(DestroyDB(dbname, options));
}

// With every Lodestone option at its default the OPTIONS file names none of
// them, so stock RocksDB's tools load it.
TEST_F(LodestoneOptionsTest, OptionsFileOmitsDefaults) {
  const std::string dbname =
      test::PerThreadDBPath("lodestone_options_defaults");
  Options options;
  options.create_if_missing = true;
  const std::string content = OptionsFileOf(options, dbname);
  for (const char* name :
       {"location_cache", "verify_initial_puts", "craft_", "range_filter",
        "min_tombstones_for_range_conversion", "delete_persistence_threshold",
        "tombstone_density", "compaction_overlap_by_keys"}) {
    EXPECT_EQ(content.find(name), std::string::npos) << name;
  }
  ASSERT_OK(DestroyDB(dbname, options));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
