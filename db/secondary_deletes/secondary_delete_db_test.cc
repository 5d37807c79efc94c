// Secondary range deletes in a DB: what DeleteByDeleteKeyRange hides from
// every kind of read, what compactions drop, when a tombstone retires, and
// what survives a reopen.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "db/db_test_util.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_edit.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/secondary_delete.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/utilities/options_util.h"
#include "test_util/lodestone/planted_bugs.h"
#include "test_util/sync_point.h"
#include "utilities/fault_injection_fs.h"
#include "utilities/merge_operators.h"

namespace ROCKSDB_NAMESPACE {

class SecondaryDeleteDBTest : public DBTestBase {
 public:
  SecondaryDeleteDBTest()
      : DBTestBase("secondary_delete_db_test", /*env_do_fsync=*/false) {}

  // Delete keys are the first two bytes of the value: "d3" in "d3-payload".
  Options SecondaryOptions() {
    Options options = CurrentOptions();
    options.create_if_missing = true;
    options.delete_key_extractor = NewValuePrefixDeleteKeyExtractor(2);
    options.merge_operator = MergeOperators::CreateStringAppendOperator();
    options.statistics = CreateDBStatistics();
    options.disable_auto_compactions = true;
    return options;
  }

  std::string Read(const std::string& key, const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string value;
    Status s = db_->Get(ro, key, &value);
    if (s.IsNotFound()) {
      return "NOT_FOUND";
    }
    EXPECT_OK(s);
    return value;
  }

  // key=value pairs of a whole scan, forward or backward (in key order).
  std::string Scan(bool reverse = false, const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    std::vector<std::string> kvs;
    if (reverse) {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        kvs.push_back(it->key().ToString() + "=" + it->value().ToString());
      }
      std::reverse(kvs.begin(), kvs.end());
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        kvs.push_back(it->key().ToString() + "=" + it->value().ToString());
      }
    }
    EXPECT_OK(it->status());
    std::string out;
    for (const std::string& kv : kvs) {
      out += (out.empty() ? "" : " ") + kv;
    }
    return out;
  }

  uint64_t Ticker(Tickers t) { return options_.statistics->getTickerCount(t); }

  std::string Property() {
    std::string value;
    EXPECT_TRUE(
        db_->GetProperty("rocksdb.lodestone.secondary-deletes", &value));
    return value;
  }

  size_t LiveTombstones() {
    const std::string p = Property();
    const size_t at = p.find("live_tombstones: ");
    EXPECT_NE(at, std::string::npos) << p;
    return std::stoul(p.substr(at + strlen("live_tombstones: ")));
  }

  void Open(const Options& options) {
    options_ = options;
    Reopen(options);
  }

  Options options_;
};

TEST_F(SecondaryDeleteDBTest, RefusesWhatItCannotDo) {
  Options plain = CurrentOptions();
  Reopen(plain);
  Status s = DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "a", "b");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();  // No extractor.

  Open(SecondaryOptions());
  s = DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "b", "a");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "a", "a");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = DeleteByDeleteKeyRange(db_, nullptr, "a", "b");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(Ticker(SECONDARY_DELETE_TOMBSTONES_ADDED), 0);

  Close();
  DB* read_only = nullptr;
  ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, &read_only));
  s = DeleteByDeleteKeyRange(read_only, read_only->DefaultColumnFamily(), "a",
                             "b");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  delete read_only;

  // A secondary instance beside the primary refuses it too (release builds
  // tell them apart without RTTI).
  Open(SecondaryOptions());
  DB* secondary = nullptr;
  Options secondary_options = options_;
  secondary_options.max_open_files = -1;
  ASSERT_OK(DB::OpenAsSecondary(secondary_options, dbname_,
                                dbname_ + "_secondary", &secondary));
  s = DeleteByDeleteKeyRange(secondary, secondary->DefaultColumnFamily(), "a",
                             "b");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  delete secondary;
  EXPECT_EQ(Ticker(SECONDARY_DELETE_TOMBSTONES_ADDED), 0);
}

// A failed MANIFEST write stops the DB as DBImpl's own MANIFEST writes do,
// until it recovers onto a new MANIFEST; then the call takes. (Left running,
// the VersionSet kept failing every later call: db_stress retried one for
// as long as it ran.)
TEST_F(SecondaryDeleteDBTest, FailedManifestWriteStopsTheDBUntilResume) {
  auto fault_fs = std::make_shared<FaultInjectionTestFS>(env_->GetFileSystem());
  std::unique_ptr<Env> fault_env(new CompositeEnvWrapper(env_, fault_fs));
  Options options = SecondaryOptions();
  options.env = fault_env.get();
  DestroyAndReopen(options);
  options_ = options;
  ASSERT_OK(Put("k1", "d1-one"));
  ASSERT_OK(Put("k2", "d5-two"));
  ASSERT_OK(Flush());

  // The memtables are empty: the call's only MANIFEST write is its record.
  SyncPoint::GetInstance()->SetCallBack(
      "VersionSet::LogAndApply:WriteManifest", [&](void*) {
        fault_fs->SetFilesystemActive(false,
                                      IOStatus::NoSpace("injected MANIFEST"));
      });
  SyncPoint::GetInstance()->EnableProcessing();
  Status s =
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d0", "d3");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  fault_fs->SetFilesystemActive(true);
  EXPECT_EQ(Read("k1"), "d1-one");
  // Stopped: writes fail until the DB resumes.
  EXPECT_NOK(Put("k3", "d9-three"));
  // Out of space: the SstFileManager may have started the recovery.
  for (int i = 0; i < 100 && (s = db_->Resume()).IsBusy(); ++i) {
    env_->SleepForMicroseconds(100 * 1000);
  }
  ASSERT_OK(s);
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d0", "d3"));
  EXPECT_EQ(Read("k1"), "NOT_FOUND");
  EXPECT_EQ(Read("k2"), "d5-two");
  Reopen(options);
  EXPECT_EQ(Read("k1"), "NOT_FOUND");
  EXPECT_EQ(Read("k2"), "d5-two");
  Close();
}

TEST_F(SecondaryDeleteDBTest, OptionsAreChecked) {
  Options options = SecondaryOptions();
  options.delete_tile_blocks = 0;
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options.delete_tile_blocks = 257;
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options = CurrentOptions();
  options.delete_tile_blocks = 4;  // Tiles without an extractor.
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());
  options = SecondaryOptions();
  options.row_cache = NewLRUCache(1 << 20);
  EXPECT_TRUE(TryReopen(options).IsInvalidArgument());

  // From strings and OPTIONS files; SetOptions refuses the extractor.
  ColumnFamilyOptions parsed;
  ConfigOptions config;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "delete_key_extractor={id=key_suffix;length=8}", &parsed));
  ASSERT_NE(parsed.delete_key_extractor, nullptr);
  EXPECT_STREQ(parsed.delete_key_extractor->Name(), "key_suffix");
  Open(SecondaryOptions());
  EXPECT_FALSE(
      db_->SetOptions({{"delete_key_extractor", "{id=key_suffix;length=4}"}})
          .ok());
  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded_cfs;
  ASSERT_OK(LoadLatestOptions(config, dbname_, &loaded_db, &loaded_cfs));
  ASSERT_NE(loaded_cfs[0].options.delete_key_extractor, nullptr);
  EXPECT_STREQ(loaded_cfs[0].options.delete_key_extractor->Name(),
               "value_prefix");
}

TEST_F(SecondaryDeleteDBTest, HidesCoveredEntriesFromEveryRead) {
  Open(SecondaryOptions());
  // In tables: two levels, then L0.
  ASSERT_OK(Put("a", "d1-a"));
  ASSERT_OK(Put("b", "d3-b"));
  ASSERT_OK(Put("c", "d5-c"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  ASSERT_OK(Put("e", "d4-e"));
  ASSERT_OK(Put("f", "short"));  // Too short: no delete key.
  ASSERT_OK(Flush());
  // In the memtable, which the call flushes.
  ASSERT_OK(Put("g", "d3-g"));
  ASSERT_OK(Merge("h", "d3-operand"));
  const Snapshot* before = db_->GetSnapshot();
  std::unique_ptr<Iterator> opened_before(db_->NewIterator(ReadOptions()));

  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d5"));
  EXPECT_EQ(Ticker(SECONDARY_DELETE_TOMBSTONES_ADDED), 1);
  // Written after the call: not covered.
  ASSERT_OK(Put("i", "d4-i"));

  // The merge operand of h is covered as a put is.
  const std::string expected = "a=d1-a c=d5-c f=short i=d4-i";
  EXPECT_EQ(Scan(), expected);
  EXPECT_EQ(Scan(/*reverse=*/true), expected);
  EXPECT_EQ(Read("b"), "NOT_FOUND");
  EXPECT_EQ(Read("e"), "NOT_FOUND");
  EXPECT_EQ(Read("g"), "NOT_FOUND");
  EXPECT_EQ(Read("c"), "d5-c");
  EXPECT_EQ(Read("i"), "d4-i");
  // A snapshot taken before the call still reads what was there, as it
  // would under a Delete written later.
  const std::string old_state =
      "a=d1-a b=d3-b c=d5-c e=d4-e f=short g=d3-g h=d3-operand";
  EXPECT_EQ(Read("b", before), "d3-b");
  EXPECT_EQ(Scan(false, before), old_state);
  EXPECT_EQ(Scan(true, before), old_state);
  // MultiGet.
  std::vector<std::string> values;
  std::vector<Status> statuses =
      db_->MultiGet(ReadOptions(), {"a", "b", "e", "g", "i"}, &values);
  EXPECT_OK(statuses[0]);
  EXPECT_TRUE(statuses[1].IsNotFound());
  EXPECT_TRUE(statuses[2].IsNotFound());
  EXPECT_TRUE(statuses[3].IsNotFound());
  EXPECT_EQ(values[4], "d4-i");
  // An iterator opened before the call keeps its view.
  std::vector<std::string> old_view;
  for (opened_before->SeekToFirst(); opened_before->Valid();
       opened_before->Next()) {
    old_view.push_back(opened_before->key().ToString());
  }
  EXPECT_EQ(old_view.size(), 7u);  // a b c e f g h
  EXPECT_GT(Ticker(SECONDARY_DELETE_ENTRIES_HIDDEN), 0);
  db_->ReleaseSnapshot(before);
}

TEST_F(SecondaryDeleteDBTest, OlderVersionShowsThrough) {
  Open(SecondaryOptions());
  ASSERT_OK(Put("k", "d1-old"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  ASSERT_OK(Put("k", "d5-new"));
  ASSERT_OK(Put("j", "d5-only"));
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d5", "d6"));
  EXPECT_EQ(Read("k"), "d1-old");
  EXPECT_EQ(Read("j"), "NOT_FOUND");
  EXPECT_EQ(Scan(), "k=d1-old");
  // Compactions keep the answer, and drop the covered puts.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Read("k"), "d1-old");
  EXPECT_EQ(Scan(), "k=d1-old");
  EXPECT_EQ(Ticker(SECONDARY_DELETE_ENTRIES_DROPPED), 2);
}

TEST_F(SecondaryDeleteDBTest, CompactionRetiresTheTombstone) {
  Open(SecondaryOptions());
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(Put("key" + std::to_string(1000 + i),
                  (i % 2 == 0 ? "d2-" : "d7-") + std::to_string(i)));
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d0", "d5"));
  EXPECT_EQ(LiveTombstones(), 1u);
  const std::string before_compaction = Scan();
  // New data above the tombstone: a flushed file holds nothing it covers.
  ASSERT_OK(Put("key2000", "d2-after"));
  ASSERT_OK(Flush());
  EXPECT_EQ(LiveTombstones(), 1u);
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(LiveTombstones(), 0u) << Property();
  EXPECT_EQ(Ticker(SECONDARY_DELETE_TOMBSTONES_RETIRED), 1);
  EXPECT_EQ(Ticker(SECONDARY_DELETE_ENTRIES_DROPPED), 50);
  EXPECT_EQ(Scan(), before_compaction + " key2000=d2-after");
  // Still retired after a reopen, and without the tombstone the DB opens
  // with no extractor at all.
  Reopen(options_);
  EXPECT_EQ(LiveTombstones(), 0u);
  Options plain = options_;
  plain.delete_key_extractor = nullptr;
  ASSERT_OK(TryReopen(plain));
  EXPECT_EQ(Read("key2000"), "d2-after");
}

// A snapshot older than the tombstone keeps what it covers through
// compactions, and the tombstone stays live until the snapshot is released
// and a compaction drops them.
TEST_F(SecondaryDeleteDBTest, OlderSnapshotKeepsCoveredEntries) {
  Open(SecondaryOptions());
  ASSERT_OK(Put("a", "d3-a"));
  ASSERT_OK(Put("b", "d1-b"));
  ASSERT_OK(Flush());
  const Snapshot* before = db_->GetSnapshot();
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d4"));
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(Read("a"), "NOT_FOUND");
  EXPECT_EQ(Read("a", before), "d3-a");
  EXPECT_EQ(Ticker(SECONDARY_DELETE_ENTRIES_DROPPED), 0);
  EXPECT_EQ(LiveTombstones(), 1u);
  db_->ReleaseSnapshot(before);
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(Ticker(SECONDARY_DELETE_ENTRIES_DROPPED), 1);
  EXPECT_EQ(LiveTombstones(), 0u) << Property();
  EXPECT_EQ(Read("a"), "NOT_FOUND");
  EXPECT_EQ(Read("b"), "d1-b");
}

// A retired tombstone stays retired through a reopen, even where a
// snapshot under a newer live tombstone kept the outputs of a compaction
// from marking that newer one applied (the differential harness found it:
// a put written after the first tombstone, zeroed, came back covered by
// it after the reopen).
TEST_F(SecondaryDeleteDBTest, RetiredTombstoneStaysRetiredUnderSnapshots) {
  Options options = SecondaryOptions();
  Open(options);
  ASSERT_OK(Put("a", "d1-a"));
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d4", "d5"));
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(LiveTombstones(), 0u);  // It covered nothing.
  ASSERT_OK(Put("b", "d4-written-after"));
  const Snapshot* snapshot = db_->GetSnapshot();
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d8", "d9"));
  // Zeroes b's sequence number (below the live tombstone, above none of its
  // entries' snapshots) under the snapshot.
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(Read("b"), "d4-written-after");
  db_->ReleaseSnapshot(snapshot);
  Reopen(options);
  EXPECT_EQ(Read("b"), "d4-written-after") << Property();
  EXPECT_EQ(Read("a"), "d1-a");
}

// A put written after the call, compacted into the bottommost level while
// the tombstone is live, keeps a sequence number above it (a zeroed one
// would make the tombstone cover it).
TEST_F(SecondaryDeleteDBTest, NewerPutsSurviveBottommostCompaction) {
  Open(SecondaryOptions());
  ASSERT_OK(Put("old", "d3-old"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(3);
  // An older file the bottommost compaction below does not touch keeps
  // the tombstone live throughout.
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d4"));
  ASSERT_OK(Put("new", "d3-new"));
  ASSERT_OK(Flush());
  std::string begin = "a", end = "o";
  Slice b(begin), e(end);
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, &b, &e));
  EXPECT_EQ(Read("new"), "d3-new");
  EXPECT_EQ(Read("old"), "NOT_FOUND");
#ifndef NDEBUG
  // The check fails without the floor.
  DestroyAndReopen(options_);
  ASSERT_OK(Put("old", "d3-old"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(3);
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d4"));
  ASSERT_OK(Put("new", "d3-new"));
  ASSERT_OK(Flush());
  PlantBug(PlantedBug::kSecondaryDeleteZeroesNewerPuts);
  ASSERT_OK(db_->CompactRange(cro, &b, &e));
  UnplantBug(PlantedBug::kSecondaryDeleteZeroesNewerPuts);
  EXPECT_EQ(Read("new"), "NOT_FOUND") << "the planted bug did not bite";
#endif  // NDEBUG
}

TEST_F(SecondaryDeleteDBTest, IngestedFilesAreNotCovered) {
  Open(SecondaryOptions());
  ASSERT_OK(Put("x", "d3-x"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d4"));
  // A file with nothing below it would go to the bottommost level at
  // sequence number 0, older than the tombstone.
  const std::string file = dbname_ + "/ingest.sst";
  SstFileWriter writer(EnvOptions(), options_);
  ASSERT_OK(writer.Open(file));
  ASSERT_OK(writer.Put("y", "d3-ingested"));
  ASSERT_OK(writer.Finish());
  ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));
  EXPECT_EQ(Read("y"), "d3-ingested");
  EXPECT_EQ(Read("x"), "NOT_FOUND");
}

TEST_F(SecondaryDeleteDBTest, SurvivesReopenWithItsExtractorOnly) {
  Open(SecondaryOptions());
  ASSERT_OK(Put("a", "d3-a"));
  ASSERT_OK(Put("b", "d1-b"));
  ASSERT_OK(
      DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "d3", "d4"));
  Reopen(options_);
  EXPECT_EQ(Read("a"), "NOT_FOUND");
  EXPECT_EQ(Read("b"), "d1-b");
  EXPECT_EQ(LiveTombstones(), 1u);
  // The tombstone's number outlives the reopen: a write after it is above
  // it, not covered (no write held the number, so only the MANIFEST has
  // it).
  ASSERT_OK(Put("c", "d3-after-reopen"));
  EXPECT_EQ(Read("c"), "d3-after-reopen");
  ASSERT_OK(Flush());
  EXPECT_EQ(Read("c"), "d3-after-reopen");

  Options none = options_;
  none.delete_key_extractor = nullptr;
  Status s = TryReopen(none);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  Options other = options_;
  other.delete_key_extractor = NewValuePrefixDeleteKeyExtractor(3);
  s = TryReopen(other);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  Reopen(options_);
  EXPECT_EQ(Read("a"), "NOT_FOUND");
}

// The MANIFEST's record and a file's applied mark, as bytes.
TEST(SecondaryDeleteManifestTest, GoldenBytes) {
  VersionEdit edit;
  SecondaryRangeTombstone t;
  t.lo = "a";
  t.hi = "b";
  t.seq = 5;
  t.extractor = "x";
  t.issued_at = 7;
  edit.AddSecondaryRangeTombstone(t);
  std::string encoded;
  ASSERT_TRUE(edit.EncodeTo(&encoded));
  // Tag 4800 (c0 25), a 9-byte record: version 2, "a", "b", 5, "x", issued
  // at 7.
  EXPECT_EQ(Slice(encoded).ToString(/*hex=*/true),
            "C025"
            "09"
            "02"
            "0161"
            "0162"
            "05"
            "0178"
            "07");

  VersionEdit decoded;
  ASSERT_OK(decoded.DecodeFrom(encoded));
  ASSERT_EQ(decoded.GetSecondaryRangeTombstones().size(), 1u);
  EXPECT_TRUE(decoded.GetSecondaryRangeTombstones()[0] == t);

  // A build that does not know the tag refuses it: it is not ignorable.
  EXPECT_EQ(Tag::kLodestoneSecondaryRangeTombstone & Tag::kTagSafeIgnoreMask,
            0u);
  // The file mark is a safe-to-ignore custom field.
  EXPECT_EQ(NewFileCustomTag::kLodestoneSecondaryTombstonesApplied &
                NewFileCustomTag::kCustomTagNonSafeIgnoreMask,
            0u);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  RegisterCustomObjects(argc, argv);
  return RUN_ALL_TESTS();
}
