// Lodestone's option fields: options strings, OPTIONS files, SetOptions, and
// clear errors for bad values.

#include <cmath>
#include <string>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "test_util/testharness.h"
#include "test_util/testutil.h"

namespace ROCKSDB_NAMESPACE {

class LodestoneOptionsTest : public testing::Test {
 protected:
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
  EXPECT_FALSE(table.craft_range_filter);
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
      "tombstone_density_window=256;"
      "block_based_table_factory={craft_range_filter=true;"
      "craft_partition_size=32768;craft_real_suffix_bits=4;"
      "craft_hash_suffix_bits=2;craft_range_hash_bits=14}",
      &cf));
  EXPECT_EQ(cf.min_tombstones_for_range_conversion, 8u);
  EXPECT_EQ(cf.delete_persistence_threshold, 600u);
  EXPECT_DOUBLE_EQ(cf.tombstone_density_trigger, 0.25);
  EXPECT_EQ(cf.tombstone_density_window, 256u);
  const auto* table = cf.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->craft_range_filter);
  EXPECT_EQ(table->craft_partition_size, 32768u);
  EXPECT_EQ(table->craft_real_suffix_bits, 4u);
  EXPECT_EQ(table->craft_hash_suffix_bits, 2u);
  EXPECT_EQ(table->craft_range_hash_bits, 14u);

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
  table.craft_range_filter = true;
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  ASSERT_OK(DestroyDB(dbname, options));
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  std::unique_ptr<DB> db(raw);

  ASSERT_OK(db->SetOptions({{"min_tombstones_for_range_conversion", "16"},
                            {"tombstone_density_trigger", "0.5"},
                            {"delete_persistence_threshold", "60"}}));
  EXPECT_EQ(db->GetOptions().min_tombstones_for_range_conversion, 16u);
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
  const auto* loaded_table =
      loaded_cfs[0].options.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(loaded_table, nullptr);
  EXPECT_TRUE(loaded_table->craft_range_filter);
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

// With every Lodestone option at its default the OPTIONS file names none of
// them, so stock RocksDB's tools load it.
TEST_F(LodestoneOptionsTest, OptionsFileOmitsDefaults) {
  const std::string dbname =
      test::PerThreadDBPath("lodestone_options_defaults");
  Options options;
  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbname, options));
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, dbname, &raw));
  delete raw;
  std::string file;
  ASSERT_OK(GetLatestOptionsFileName(dbname, Env::Default(), &file));
  std::string content;
  ASSERT_OK(ReadFileToString(Env::Default(), dbname + "/" + file, &content));
  for (const char* name :
       {"location_cache", "verify_initial_puts", "craft_",
        "min_tombstones_for_range_conversion", "delete_persistence_threshold",
        "tombstone_density"}) {
    EXPECT_EQ(content.find(name), std::string::npos) << name;
  }
  ASSERT_OK(DestroyDB(dbname, options));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
