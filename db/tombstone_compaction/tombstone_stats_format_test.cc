// What tombstone-aware compaction persists, pinned as bytes and names:
// the MANIFEST field of a file's tombstone statistics and the table
// properties they are read from. Every DB written with the feature on holds
// them; a change here is a format change (a new tag or new names, with the
// old ones still read), never an edit of these constants.

#include <string>

#include "db/db_test_util.h"
#include "db/tombstone_compaction/tombstone_stats.h"
#include "db/version_edit.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

FileMetaData FileWithStats() {
  FileMetaData meta;
  meta.fd = FileDescriptor(/*number=*/7, /*path_id=*/0, /*file_size=*/4096,
                           /*smallest_seqno=*/10, /*largest_seqno=*/20);
  meta.smallest = InternalKey("a", 10, kTypeValue);
  meta.largest = InternalKey("z", 20, kTypeDeletion);
  meta.epoch_number = 1;
  meta.tombstone_stats.known = true;
  meta.tombstone_stats.count = 300;
  meta.tombstone_stats.window = 32;
  meta.tombstone_stats.window_peak = 17;
  meta.tombstone_stats.oldest_time = 1700000000;
  return meta;
}

// count, window, peak, oldest time: varint64, varint32, varint32, varint64.
const std::string kStatsBytes("\xac\x02\x20\x11\x80\xe2\xcf\xaa\x06", 9);

}  // namespace

TEST(TombstoneStatsFormatTest, ManifestTagIsSafeToIgnore) {
  EXPECT_EQ(static_cast<uint32_t>(NewFileCustomTag::kLodestoneTombstoneStats),
            48u);
  // Stock RocksDB skips a custom tag without this bit: it opens our DBs.
  EXPECT_EQ(NewFileCustomTag::kLodestoneTombstoneStats &
                NewFileCustomTag::kCustomTagNonSafeIgnoreMask,
            0u);
}

TEST(TombstoneStatsFormatTest, FieldBytes) {
  std::string encoded;
  EncodeTombstoneStats(FileWithStats(), &encoded);
  EXPECT_EQ(encoded, kStatsBytes);

  FileMetaData decoded;
  ASSERT_TRUE(DecodeTombstoneStats(kStatsBytes, &decoded));
  EXPECT_TRUE(decoded.tombstone_stats.known);
  EXPECT_EQ(decoded.tombstone_stats.count, 300u);
  EXPECT_EQ(decoded.tombstone_stats.window, 32u);
  EXPECT_EQ(decoded.tombstone_stats.window_peak, 17u);
  EXPECT_EQ(decoded.tombstone_stats.oldest_time, 1700000000u);
  // A field cut short is refused, not half read.
  FileMetaData cut;
  EXPECT_FALSE(DecodeTombstoneStats(kStatsBytes.substr(0, 8), &cut));
  EXPECT_FALSE(cut.tombstone_stats.known);
}

TEST(TombstoneStatsFormatTest, EditCarriesTheTaggedField) {
  VersionEdit edit;
  edit.AddFile(/*level=*/1, FileWithStats());
  std::string record;
  ASSERT_TRUE(edit.EncodeTo(&record, /*ts_sz=*/0));
  // Tag 48, the field's length, the field.
  const std::string field = std::string("\x30\x09", 2) + kStatsBytes;
  EXPECT_NE(record.find(field), std::string::npos);

  VersionEdit read;
  ASSERT_OK(read.DecodeFrom(record));
  ASSERT_EQ(read.GetNewFiles().size(), 1u);
  const FileMetaData& f = read.GetNewFiles()[0].second;
  EXPECT_TRUE(f.tombstone_stats.known);
  EXPECT_EQ(f.tombstone_stats.count, 300u);
  EXPECT_EQ(f.tombstone_stats.oldest_time, 1700000000u);

  // Without statistics the edit is stock's, byte for byte: no tag 48.
  FileMetaData plain = FileWithStats();
  plain.tombstone_stats.known = false;
  VersionEdit stock;
  stock.AddFile(1, plain);
  std::string stock_record;
  ASSERT_TRUE(stock.EncodeTo(&stock_record, /*ts_sz=*/0));
  EXPECT_EQ(stock_record.find(field), std::string::npos);
  EXPECT_LT(stock_record.size(), record.size());
}

class TombstoneStatsPropertiesTest : public DBTestBase {
 public:
  TombstoneStatsPropertiesTest()
      : DBTestBase("tombstone_stats_format_test", /*env_do_fsync=*/false) {}
};

TEST_F(TombstoneStatsPropertiesTest, TablePropertyNames) {
  Options options = CurrentOptions();
  options.tombstone_density_trigger = 0.9;
  DestroyAndReopen(options);
  ASSERT_OK(Put("a", "v"));
  ASSERT_OK(Put("b", "v"));
  ASSERT_OK(Delete("b"));
  ASSERT_OK(Delete("c"));
  ASSERT_OK(
      db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "d", "e"));
  ASSERT_OK(Flush());
  TablePropertiesCollection tables;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&tables));
  ASSERT_EQ(tables.size(), 1u);
  const UserCollectedProperties& user =
      tables.begin()->second->user_collected_properties;
  std::map<std::string, std::string> ours;
  for (const auto& [name, value] : user) {
    if (name.rfind("lodestone.", 0) == 0) {
      ours[name] = value;
    }
  }
  std::vector<std::string> names;
  for (const auto& entry : ours) {
    names.push_back(entry.first);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "lodestone.tombstones.data.blocks",
                       "lodestone.tombstones.dense.blocks",
                       "lodestone.tombstones.min.seqno",
                       "lodestone.tombstones.point",
                       "lodestone.tombstones.range",
                       "lodestone.tombstones.window",
                       "lodestone.tombstones.window.peak",
                   }));
  // Decimal text: two point tombstones, one range tombstone.
  EXPECT_EQ(ours["lodestone.tombstones.point"], "2");
  EXPECT_EQ(ours["lodestone.tombstones.range"], "1");
  // The names the reader looks up are these.
  EXPECT_STREQ(kTombstonePointProperty, "lodestone.tombstones.point");
  EXPECT_STREQ(kTombstoneRangeProperty, "lodestone.tombstones.range");
  EXPECT_STREQ(kTombstoneWindowProperty, "lodestone.tombstones.window");
  EXPECT_STREQ(kTombstoneWindowPeakProperty,
               "lodestone.tombstones.window.peak");
  EXPECT_STREQ(kTombstoneDenseBlocksProperty,
               "lodestone.tombstones.dense.blocks");
  EXPECT_STREQ(kTombstoneDataBlocksProperty,
               "lodestone.tombstones.data.blocks");
  EXPECT_STREQ(kTombstoneMinSeqnoProperty, "lodestone.tombstones.min.seqno");
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
