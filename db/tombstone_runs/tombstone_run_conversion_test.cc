// Scan-time conversion of tombstone runs into a range tombstone
// (min_tombstones_for_range_conversion): what gets converted, what is
// refused, and that no read at any sequence number changes.

#include "db/tombstone_runs/tombstone_run_conversion.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "db/db_test_util.h"
#include "db/write_controller.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/sst_file_writer.h"

namespace ROCKSDB_NAMESPACE {

class TombstoneRunConversionTest : public DBTestBase {
 public:
  TombstoneRunConversionTest()
      : DBTestBase("tombstone_run_conversion_test", /*env_do_fsync=*/false) {}

 protected:
  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "k%04d", i);
    return buf;
  }

  // write_mode: 0 default, 1 pipelined writes, 2 one memtable writer at a
  // time, 3 two write queues.
  void Open(uint32_t threshold, int write_mode = 0) {
    options_ = CurrentOptions();
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
    options_.statistics = CreateDBStatistics();
    options_.min_tombstones_for_range_conversion = threshold;
    options_.enable_pipelined_write = write_mode == 1;
    options_.allow_concurrent_memtable_write = write_mode != 2;
    options_.two_write_queues = write_mode == 3;
    DestroyAndReopen(options_);
  }

  // Keys [0, n) in a file, then Deletes of [from, to) in the memtable.
  void FillAndDelete(int n, int from, int to) {
    for (int i = 0; i < n; i++) {
      ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
    }
    ASSERT_OK(Flush());
    for (int i = from; i < to; i++) {
      ASSERT_OK(Delete(Key(i)));
    }
  }

  uint64_t Inserted() {
    return options_.statistics->getTickerCount(
        READ_PATH_RANGE_TOMBSTONES_INSERTED);
  }
  uint64_t Discarded() {
    return options_.statistics->getTickerCount(
        READ_PATH_RANGE_TOMBSTONES_DISCARDED);
  }

  // All keys, forward or backward, and how many point tombstones the scan
  // stepped over.
  std::vector<std::string> Scan(bool forward, const ReadOptions& ro,
                                uint64_t* tombstones_skipped = nullptr) {
    SetPerfLevel(kEnableCount);
    get_perf_context()->Reset();
    std::vector<std::string> keys;
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    if (forward) {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        keys.push_back(it->key().ToString());
      }
    } else {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        keys.push_back(it->key().ToString());
      }
      std::reverse(keys.begin(), keys.end());
    }
    EXPECT_OK(it->status());
    if (tombstones_skipped != nullptr) {
      *tombstones_skipped = get_perf_context()->internal_delete_skipped_count;
    }
    SetPerfLevel(kDisable);
    return keys;
  }

  // Keys 10..49 of 100 are deleted and their run not yet converted: the
  // next forward scan steps over the 40 tombstones and converts the run
  // (the `inserted`-th conversion), and the scan after it skips the run in
  // one step.
  void ExpectForwardScanConvertsTheRun(uint64_t inserted) {
    uint64_t skipped = 0;
    EXPECT_EQ(Scan(true, ReadOptions(), &skipped), Expected(100, 10, 50));
    EXPECT_EQ(skipped, 40u);
    EXPECT_EQ(Inserted(), inserted);
    EXPECT_EQ(Scan(true, ReadOptions(), &skipped), Expected(100, 10, 50));
    EXPECT_LE(skipped, 1u);
  }

  static std::vector<std::string> Expected(int n, int from, int to) {
    std::vector<std::string> keys;
    for (int i = 0; i < n; i++) {
      if (i < from || i >= to) {
        keys.push_back(Key(i));
      }
    }
    return keys;
  }

  // Range tombstones in the mutable memtable.
  int RangeTombstones() {
    auto* cfh =
        static_cast<ColumnFamilyHandleImpl*>(db_->DefaultColumnFamily());
    return static_cast<int>(cfh->cfd()->mem()->NumRangeDeletion());
  }

  // Runs `work` on another thread and reports whether it finished within
  // `seconds`; then calls `release` (which must unblock `work`) and joins.
  static bool FinishesWhileBlocked(const std::function<void()>& work,
                                   const std::function<void()>& release,
                                   int seconds = 20) {
    std::atomic<bool> done{false};
    std::thread t([&] {
      work();
      done.store(true);
    });
    for (int i = 0; i < seconds * 100 && !done.load(); i++) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const bool finished = done.load();
    release();
    t.join();
    return finished;
  }

  // With writes stopped by the caller: starts a writer of "zzz", which waits
  // in the write thread, then scans. Reports whether the scan finished
  // while the writer still waited; `release` must let the writer go.
  bool ScanFinishesBehindAStalledWriter(bool forward,
                                        const std::function<void()>& release,
                                        std::vector<std::string>* keys) {
    std::atomic<bool> stalled{false};
    SyncPoint::GetInstance()->SetCallBack("DBImpl::DelayWrite:Wait",
                                          [&](void*) { stalled.store(true); });
    SyncPoint::GetInstance()->EnableProcessing();
    std::thread writer([&] { ASSERT_OK(Put("zzz", "stalled")); });
    while (!stalled.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const bool finished = FinishesWhileBlocked(
        [&] { *keys = Scan(forward, ReadOptions()); }, release);
    writer.join();
    SyncPoint::GetInstance()->DisableProcessing();
    SyncPoint::GetInstance()->ClearAllCallBacks();
    return finished;
  }

  Options options_;
};

// Parameter: the write mode (Open).
class TombstoneRunConversionWriteModeTest
    : public TombstoneRunConversionTest,
      public testing::WithParamInterface<int> {};

class TombstoneRunConversionDirectionTest
    : public TombstoneRunConversionTest,
      public testing::WithParamInterface<bool> {};

TEST_P(TombstoneRunConversionDirectionTest, ConvertsARunOnce) {
  const bool forward = GetParam();
  Open(8);
  const Snapshot* before = db_->GetSnapshot();
  FillAndDelete(100, 10, 50);
  const Snapshot* after_deletes = db_->GetSnapshot();

  uint64_t skipped = 0;
  EXPECT_EQ(Scan(forward, ReadOptions(), &skipped), Expected(100, 10, 50));
  EXPECT_EQ(skipped, 40u);
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 0u);
  EXPECT_EQ(RangeTombstones(), 1);

  // Later scans skip the run in one step and convert nothing more. (The
  // newest Delete shares the read sequence number, so the range tombstone
  // does not cover it.)
  EXPECT_EQ(Scan(forward, ReadOptions(), &skipped), Expected(100, 10, 50));
  EXPECT_LE(skipped, 1u);
  EXPECT_EQ(Inserted(), 1u);

  // Nothing changed for readers at older or equal sequence numbers...
  ReadOptions ro;
  ro.snapshot = before;
  EXPECT_TRUE(Scan(forward, ro).empty());
  ro.snapshot = after_deletes;
  EXPECT_EQ(Scan(forward, ro), Expected(100, 10, 50));
  // ... nor for point reads, nor after the run is written again.
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ(Get(Key(i)),
              i >= 10 && i < 50 ? "NOT_FOUND" : "v" + std::to_string(i));
  }
  ASSERT_OK(Put(Key(20), "again"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Get(Key(20)), "again");
  EXPECT_EQ(Get(Key(21)), "NOT_FOUND");
  std::vector<std::string> expected = Expected(100, 10, 50);
  expected.insert(expected.begin() + 10, Key(20));
  EXPECT_EQ(Scan(forward, ReadOptions()), expected);

  db_->ReleaseSnapshot(before);
  db_->ReleaseSnapshot(after_deletes);
}

TEST_P(TombstoneRunConversionDirectionTest, ShortRunsAreLeftAlone) {
  const bool forward = GetParam();
  Open(8);
  FillAndDelete(100, 10, 17);  // 7 tombstones
  EXPECT_EQ(Scan(forward, ReadOptions()), Expected(100, 10, 17));
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(RangeTombstones(), 0);
}

TEST_P(TombstoneRunConversionDirectionTest, RunInterruptedByALiveKeyBelow) {
  // A live key in an older file splits what the memtable shows as one run.
  const bool forward = GetParam();
  Open(4);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  ASSERT_OK(Put(Key(19) + "x", "live"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(1);
  for (int i = 10; i < 30; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  std::vector<std::string> expected = Expected(100, 10, 30);
  expected.insert(expected.begin() + 10, Key(19) + "x");
  EXPECT_EQ(Scan(forward, ReadOptions()), expected);
  EXPECT_EQ(Inserted(), 2u);
  EXPECT_EQ(Scan(forward, ReadOptions()), expected);
  EXPECT_EQ(Get(Key(19) + "x"), "live");
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Scan(forward, ReadOptions()), expected);
}

TEST_P(TombstoneRunConversionDirectionTest, RunEndingAtTheEdgeOfData) {
  // No live key past the run: the last key examined bounds it.
  const bool forward = GetParam();
  Open(4);
  FillAndDelete(40, forward ? 20 : 0, forward ? 40 : 20);
  EXPECT_EQ(Scan(forward, ReadOptions()),
            Expected(40, forward ? 20 : 0, forward ? 40 : 20));
  EXPECT_EQ(Inserted(), 1u);
  // A key written past the old edge is not covered.
  ASSERT_OK(Put(forward ? "k9999" : "a", "new"));
  EXPECT_EQ(Get(forward ? "k9999" : "a"), "new");
  uint64_t skipped = 0;
  EXPECT_EQ(Scan(forward, ReadOptions(), &skipped).size(), 21u);
  EXPECT_LE(skipped, 2u);
}

TEST_P(TombstoneRunConversionDirectionTest, BoundsLimitTheRun) {
  const bool forward = GetParam();
  Open(4);
  FillAndDelete(100, 10, 50);
  std::string lower = Key(30), upper = Key(30);
  ReadOptions ro;
  if (forward) {
    ro.iterate_upper_bound = new Slice(upper);
  } else {
    ro.iterate_lower_bound = new Slice(lower);
  }
  std::vector<std::string> keys = Scan(forward, ro);
  EXPECT_EQ(keys.size(), forward ? 10u : 50u);
  EXPECT_EQ(Inserted(), 1u);
  delete ro.iterate_upper_bound;
  delete ro.iterate_lower_bound;
  // Tombstones outside the bounded scan were not covered: the full scan
  // still steps over them (and converts them).
  uint64_t skipped = 0;
  EXPECT_EQ(Scan(forward, ReadOptions(), &skipped), Expected(100, 10, 50));
  EXPECT_GE(skipped, 19u);
  EXPECT_EQ(Scan(forward, ReadOptions(), &skipped), Expected(100, 10, 50));
  EXPECT_LE(skipped, 2u);
}

TEST_P(TombstoneRunConversionDirectionTest, SnapshotOlderThanTheMemtable) {
  const bool forward = GetParam();
  Open(4);
  FillAndDelete(100, 10, 50);
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Put("zzz", "after the snapshot"));
  ASSERT_OK(Flush());  // the new memtable starts after the snapshot
  ReadOptions ro;
  ro.snapshot = snap;
  EXPECT_EQ(Scan(forward, ro), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 1u);
  db_->ReleaseSnapshot(snap);
}

TEST_P(TombstoneRunConversionDirectionTest, FlushAfterTheIteratorStarted) {
  const bool forward = GetParam();
  Open(4);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  ASSERT_OK(Flush());
  int n = 0;
  if (forward) {
    for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  } else {
    for (it->SeekToLast(); it->Valid(); it->Prev()) n++;
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 60);
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 1u);
  it.reset();
  EXPECT_EQ(Scan(forward, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 1u);
}

TEST_P(TombstoneRunConversionDirectionTest, IngestionAfterTheIteratorStarted) {
  // An ingested file lands below the memtable with a sequence number the
  // iterator never saw: the conversion must be refused.
  const bool forward = GetParam();
  Open(4);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));

  std::string file = dbname_ + "/ingest.sst";
  SstFileWriter writer(EnvOptions(), options_);
  ASSERT_OK(writer.Open(file));
  ASSERT_OK(writer.Put(Key(20) + "i", "ingested"));
  ASSERT_OK(writer.Finish());
  ASSERT_OK(db_->IngestExternalFile({file}, IngestExternalFileOptions()));

  if (forward) {
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
  } else {
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
    }
  }
  ASSERT_OK(it->status());
  it.reset();
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Get(Key(20) + "i"), "ingested");
  EXPECT_EQ(Scan(forward, ReadOptions()).size(), 61u);
  EXPECT_EQ(Get(Key(20) + "i"), "ingested");
}

INSTANTIATE_TEST_CASE_P(Direction, TombstoneRunConversionDirectionTest,
                        testing::Bool(),
                        [](const testing::TestParamInfo<bool>& param_info) {
                          return param_info.param ? "Forward" : "Reverse";
                        });

TEST_F(TombstoneRunConversionTest, MixedDeleteKinds) {
  Open(4);
  for (int i = 0; i < 40; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  ASSERT_OK(Flush());
  for (int i = 10; i < 30; i++) {
    ASSERT_OK(i % 2 ? Delete(Key(i)) : SingleDelete(Key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(40, 10, 30));
  EXPECT_EQ(Inserted(), 1u);
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(40, 10, 30));
}

TEST_F(TombstoneRunConversionTest, SetOptionsTogglesIt) {
  Open(0);
  FillAndDelete(100, 10, 20);
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 20));
  EXPECT_EQ(Inserted(), 0u);

  ASSERT_OK(
      dbfull()->SetOptions({{"min_tombstones_for_range_conversion", "5"}}));
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 20));
  EXPECT_EQ(Inserted(), 1u);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("min_tombstones_for_range_conversion: 5"),
            std::string::npos);
  EXPECT_NE(prop.find("inserted: 1"), std::string::npos);

  ASSERT_OK(
      dbfull()->SetOptions({{"min_tombstones_for_range_conversion", "0"}}));
  for (int i = 60; i < 80; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  EXPECT_EQ(Scan(false, ReadOptions()).size(), 70u);
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 0u);
}

TEST_F(TombstoneRunConversionTest, ReadsThatMayHideKeysNeverConvert) {
  options_ = CurrentOptions();
  options_.create_if_missing = true;
  options_.disable_auto_compactions = true;
  options_.statistics = CreateDBStatistics();
  options_.min_tombstones_for_range_conversion = 2;
  options_.prefix_extractor.reset(NewFixedPrefixTransform(2));
  DestroyAndReopen(options_);
  FillAndDelete(100, 10, 50);

  ReadOptions prefix_ro;  // legacy prefix iteration
  prefix_ro.prefix_same_as_start = true;
  std::unique_ptr<Iterator> it(db_->NewIterator(prefix_ro));
  for (it->Seek(Key(0)); it->Valid(); it->Next()) {
  }
  ASSERT_OK(it->status());

  ReadOptions filtered;
  filtered.total_order_seek = true;
  filtered.table_filter = [](const TableProperties&) { return true; };
  EXPECT_EQ(Scan(true, filtered), Expected(100, 10, 50));

  ReadOptions tailing;
  tailing.tailing = true;
  tailing.total_order_seek = true;
  EXPECT_EQ(Scan(true, tailing), Expected(100, 10, 50));

  ReadOptions cache_only;
  cache_only.total_order_seek = true;
  cache_only.read_tier = kBlockCacheTier;
  it.reset(db_->NewIterator(cache_only));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  it.reset();

  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 0u);

  ReadOptions total;
  total.total_order_seek = true;
  EXPECT_EQ(Scan(true, total), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 1u);
}

TEST_P(TombstoneRunConversionWriteModeTest, ConcurrentWritersIntoTheRun) {
  // Writers keep putting keys into deleted runs while readers scan and
  // convert. Every acknowledged write must stay visible.
  Open(2, GetParam());
  std::atomic<int> handed_off_inserted{0};
  SyncPoint::GetInstance()->SetCallBack("InsertHandedOffTombstoneRuns:Inserted",
                                        [&](void*) { handed_off_inserted++; });
  SyncPoint::GetInstance()->EnableProcessing();
  const int kKeys = 400;
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  ASSERT_OK(Flush());
  for (int i = 0; i < kKeys; i++) {
    if (i % 50 >= 5) {
      ASSERT_OK(Delete(Key(i)));
    }
  }

  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&] {
    Random rnd(301);
    for (int n = 0; n < 3000; n++) {
      std::string k =
          Key(static_cast<int>(rnd.Uniform(kKeys))) + "w" + std::to_string(n);
      ASSERT_OK(db_->Put(WriteOptions(), k, "w"));
      written.store(n + 1);
      if (n % 1000 == 999) {
        ASSERT_OK(db_->Flush(FlushOptions()));
      }
      if (n % 97 == 0) {
        ASSERT_OK(db_->Delete(WriteOptions(), Key(rnd.Uniform(kKeys))));
      }
    }
    stop.store(true);
  });
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; t++) {
    readers.emplace_back([&, t] {
      while (!stop.load()) {
        std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
        if (t == 0) {
          for (it->SeekToFirst(); it->Valid(); it->Next()) {
          }
        } else {
          for (it->SeekToLast(); it->Valid(); it->Prev()) {
          }
        }
        ASSERT_OK(it->status());
      }
    });
  }
  writer.join();
  for (auto& r : readers) {
    r.join();
  }
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  EXPECT_GT(Inserted(), 0u);
  if (GetParam() == 3) {
    EXPECT_EQ(handed_off_inserted.load(), 0);
  }

  // Replay the writer's key choices and check each acknowledged write,
  // before and after everything is compacted together.
  auto check_writes = [&] {
    Random rnd(301);
    for (int n = 0; n < written.load(); n++) {
      std::string k =
          Key(static_cast<int>(rnd.Uniform(kKeys))) + "w" + std::to_string(n);
      EXPECT_EQ(Get(k), "w") << k;
      if (n % 97 == 0) {
        rnd.Uniform(kKeys);  // the writer's Delete
      }
    }
  };
  check_writes();
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  check_writes();
}

INSTANTIATE_TEST_CASE_P(WriteModes, TombstoneRunConversionWriteModeTest,
                        testing::Values(0, 1, 2, 3));

// Regression (issue 18, defect 1): a file ingested behind lands below every
// sequence number, inside the gaps of a converted run; the synthesized
// tombstone hid its keys. DBs that allow ingest-behind never convert.
TEST_F(TombstoneRunConversionTest, IngestBehindKeysSurviveARun) {
  options_ = CurrentOptions();
  options_.create_if_missing = true;
  options_.statistics = CreateDBStatistics();
  options_.compaction_style = kCompactionStyleUniversal;
  options_.num_levels = 3;
  options_.allow_ingest_behind = true;
  options_.min_tombstones_for_range_conversion = 3;
  DestroyAndReopen(options_);
  auto key = [](int i) {
    char buf[8];
    snprintf(buf, sizeof(buf), "a%02d", i);
    return std::string(buf);
  };
  for (int i = 1; i <= 19; i += 2) {
    ASSERT_OK(Put(key(i), "odd"));
  }
  ASSERT_OK(Put("b", "b"));
  ASSERT_OK(Flush());
  for (int i = 1; i <= 19; i += 2) {
    ASSERT_OK(Delete(key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), std::vector<std::string>{"b"});
  EXPECT_EQ(Scan(false, ReadOptions()), std::vector<std::string>{"b"});

  std::string file = dbname_ + "/behind.sst";
  SstFileWriter writer(EnvOptions(), options_);
  ASSERT_OK(writer.Open(file));
  std::vector<std::string> expected;
  for (int i = 2; i <= 18; i += 2) {
    ASSERT_OK(writer.Put(key(i), "even"));
    expected.push_back(key(i));
  }
  expected.push_back("b");
  ASSERT_OK(writer.Finish());
  IngestExternalFileOptions ifo;
  ifo.ingest_behind = true;
  ASSERT_OK(db_->IngestExternalFile({file}, ifo));

  EXPECT_EQ(Get(key(2)), "even");
  EXPECT_EQ(Scan(true, ReadOptions()), expected);
  EXPECT_EQ(Scan(false, ReadOptions()), expected);
  EXPECT_EQ(Inserted(), 0u);
}

// Regression (issue 18, defect 2): a conversion entered the write thread and
// waited there behind a writer stalled by LockWAL() until UnlockWAL(); a
// thread that held the lock and scanned deadlocked. Now the scan hands the
// run to the next write group and goes on.
TEST_F(TombstoneRunConversionTest, ConversionNeverWaitsForLockWAL) {
  Open(8);
  FillAndDelete(100, 10, 50);
  ASSERT_OK(db_->LockWAL());
  // Alone, and then behind a writer that waits for UnlockWAL().
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  std::vector<std::string> keys;
  EXPECT_TRUE(ScanFinishesBehindAStalledWriter(
      false, [&] { ASSERT_OK(db_->UnlockWAL()); }, &keys));
  EXPECT_EQ(keys, Expected(100, 10, 50));
  // The stalled writer, once released, inserted the first handed-off run;
  // the second, the same run at the same sequence number, was a duplicate.
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 1u);
  EXPECT_EQ(RangeTombstones(), 1);
  std::vector<std::string> with_write = Expected(100, 10, 50);
  with_write.push_back("zzz");
  EXPECT_EQ(Scan(true, ReadOptions()), with_write);
}

// Regression (issue 18, defect 2): behind a write stall a scan that wanted
// to convert waited until the stall ended.
TEST_F(TombstoneRunConversionTest, ConversionNeverWaitsForAWriteStall) {
  Open(8);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<WriteControllerToken> stop =
      dbfull()->TEST_write_controler().GetStopToken();
  std::vector<std::string> keys;
  EXPECT_TRUE(ScanFinishesBehindAStalledWriter(
      true,
      [&] {
        stop.reset();
        dbfull()->TEST_SignalAllBgCv();
      },
      &keys));
  EXPECT_EQ(keys, Expected(100, 10, 50));
  EXPECT_EQ(Get("zzz"), "stalled");
  // The writer the scan did not wait for inserted the run after the stall.
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 0u);
}

// A run refused for a busy write thread is handed to the next write group,
// which inserts it if the iterator's SuperVersion is still current and
// discards it otherwise.
TEST_P(TombstoneRunConversionWriteModeTest,
       BusyConversionHandedToTheNextWriteGroup) {
  if (GetParam() == 3) {
    ROCKSDB_GTEST_SKIP("nothing is handed off (TwoWriteQueuesDiscardABusyRun)");
    return;
  }
  Open(8, GetParam());
  FillAndDelete(100, 10, 50);
  for (int i = 60; i < 80; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  std::unique_ptr<WriteControllerToken> stop =
      dbfull()->TEST_write_controler().GetStopToken();
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->Seek(Key(9));
  it->Next();  // Over the run 10..49: handed off.
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), Key(50));
  it.reset();  // The run outlives its iterator.
  stop.reset();
  EXPECT_EQ(Inserted() + Discarded(), 0u);
  EXPECT_EQ(RangeTombstones(), 0);
  ASSERT_OK(Put("zzz", "v"));  // This write group's leader inserts it.
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(RangeTombstones(), 1);

  stop = dbfull()->TEST_write_controler().GetStopToken();
  it.reset(db_->NewIterator(ReadOptions()));
  it->Seek(Key(59));
  it->Next();  // Over the run 60..79: handed off.
  EXPECT_EQ(it->key().ToString(), Key(80));
  it.reset();
  stop.reset();
  ASSERT_OK(Flush());  // A new SuperVersion: the run may miss data now.
  ASSERT_OK(Put("zzz", "w"));
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 1u);
  EXPECT_EQ(RangeTombstones(), 0);  // The flushed memtable held the first.
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.superversion_changed: 1\n"), std::string::npos)
      << prop;
  EXPECT_EQ(Scan(true, ReadOptions()).size(), 100u - 40u - 20u + 1u);
}

// A column family keeps at most kMaxHandedOffRunsPerColumnFamily runs; a
// newer one pushes out the oldest, counted as discarded.
TEST_F(TombstoneRunConversionTest, HandedOffRunsAreBounded) {
  Open(2);
  const int runs = static_cast<int>(kMaxHandedOffRunsPerColumnFamily) + 3;
  // Runs of 8 deleted keys, each between two live ones (0 live, 1-8
  // deleted): long enough to be worth inserting beside the 7 before them.
  const int stride = 1 + static_cast<int>(kMaxHandedOffRunsPerColumnFamily);
  FillAndDelete(stride * runs, 0, 0);
  for (int r = 0; r < runs; r++) {
    for (int k = 1; k < stride; k++) {
      ASSERT_OK(Delete(Key(stride * r + k)));
    }
  }
  std::unique_ptr<WriteControllerToken> stop =
      dbfull()->TEST_write_controler().GetStopToken();
  EXPECT_EQ(Scan(true, ReadOptions()).size(), static_cast<size_t>(runs));
  stop.reset();
  EXPECT_EQ(Discarded(), 3u);
  ASSERT_OK(Put("zzz", "v"));
  EXPECT_EQ(Inserted(), kMaxHandedOffRunsPerColumnFamily);
  EXPECT_EQ(Discarded(), 3u);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.pushed_out: 3\n"), std::string::npos) << prop;
}

// Iterators at one sequence number prove the same run; the waiting list
// keeps one copy and counts the others as not added.
TEST_F(TombstoneRunConversionTest, DuplicateHandOffsKeepOneCopy) {
  Open(8);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<WriteControllerToken> stop =
      dbfull()->TEST_write_controler().GetStopToken();
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  stop.reset();
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.not_added: 1\n"), std::string::npos) << prop;
  ASSERT_OK(Put("zzz", "v"));
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 1u);
}

// With two write queues a WAL-only writer could run beside the next
// leader, so nothing is handed off: a busy write thread discards the run.
TEST_F(TombstoneRunConversionTest, TwoWriteQueuesDiscardABusyRun) {
  Open(8, /*write_mode=*/3);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<WriteControllerToken> stop =
      dbfull()->TEST_write_controler().GetStopToken();
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  stop.reset();
  EXPECT_EQ(Discarded(), 1u);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.write_thread_busy: 1\n"), std::string::npos)
      << prop;
  ASSERT_OK(Put("zzz", "v"));
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(RangeTombstones(), 0);
  EXPECT_EQ(Scan(true, ReadOptions()).size(), 61u);  // Now idle: converts.
  EXPECT_EQ(Inserted(), 1u);
}

// Refresh() rebuilds the DBIter on the current SuperVersion; conversion
// follows it there, with that SuperVersion's mutable memtable.
TEST_F(TombstoneRunConversionTest, RefreshKeepsConversionOn) {
  Open(4);
  FillAndDelete(100, 10, 50);
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  ASSERT_OK(Flush());  // The iterator's SuperVersion is no longer current.
  ASSERT_OK(it->Refresh());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    n++;
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 60);
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(Discarded(), 0u);
  EXPECT_EQ(RangeTombstones(), 1);
}

// A range tombstone saves readers nothing over entries of its own memtable
// (they are still stepped over one by one), so a run whose tombstones and
// hidden versions all live in the mutable memtable is left alone; once
// flushed, the same run is converted.
TEST_F(TombstoneRunConversionTest, RunsInTheMutableMemtableAloneAreLeftAlone) {
  Open(4);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  for (int i = 10; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  uint64_t skipped = 0;
  EXPECT_EQ(Scan(true, ReadOptions(), &skipped), Expected(100, 10, 50));
  EXPECT_EQ(skipped, 40u);
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 1u);
  EXPECT_EQ(RangeTombstones(), 0);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.cheaper_to_step: 1\n"), std::string::npos)
      << prop;

  ASSERT_OK(Flush());  // The tombstones go to L0 (their values with them).
  ExpectForwardScanConvertsTheRun(1);
}

// A reopened DB's memtable is empty: every entry a scan sees is below it,
// so a run in the files converts (the memtable's recorded earliest sequence
// number is 0 there until a switch, which must not make it look like
// everything is in the memtable).
TEST_F(TombstoneRunConversionTest, ConvertsRightAfterReopen) {
  Open(4);
  FillAndDelete(100, 10, 50);
  ASSERT_OK(Flush());
  Reopen(options_);
  ExpectForwardScanConvertsTheRun(1);
}

// Tombstones over initial-put chains vanish with their chains at the next
// flush or compaction that holds both; a range tombstone would live to the
// last level. A run is converted only if at least the threshold of its
// tombstones would stay, or a snapshot keeps the chains.
TEST_F(TombstoneRunConversionTest, RunsOverInitialPutsAreLeftToPruning) {
  Open(4);
  auto fill = [this](int from, int to, int regular_from, int regular_to) {
    for (int i = from; i < to; i++) {
      if (i >= regular_from && i < regular_to) {
        ASSERT_OK(Put(Key(i), "v"));
      } else {
        ASSERT_OK(db_->PutInitial(WriteOptions(), Key(i), "v"));
      }
    }
  };
  // Keys 20..22 are plain Puts; key 30's chain is an overwrite on its
  // initial put, which pruning removes whole all the same.
  fill(0, 100, 20, 23);
  ASSERT_OK(Put(Key(30), "v2"));
  ASSERT_OK(Flush());
  for (int i = 10; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 1u);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.left_to_pruning: 1\n"), std::string::npos)
      << prop;
  // Backward steps do not see the versions below a tombstone: converted.
  EXPECT_EQ(Scan(false, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 1u);

  // A snapshot taken between the puts and the deletes keeps the chains:
  // pruning must wait for it, so the run is converted.
  DestroyAndReopen(options_);
  fill(0, 100, 20, 23);
  ASSERT_OK(Flush());
  const Snapshot* snapshot = db_->GetSnapshot();
  for (int i = 10; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 2u);  // The statistics outlive the reopen.
  EXPECT_EQ(RangeTombstones(), 1);
  db_->ReleaseSnapshot(snapshot);

  // Four tombstones over plain Puts: as many as the threshold stay.
  DestroyAndReopen(options_);
  fill(0, 100, 20, 24);
  ASSERT_OK(Flush());
  for (int i = 10; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 50));
  EXPECT_EQ(Inserted(), 3u);
  EXPECT_EQ(RangeTombstones(), 1);
}

// Each insertion makes the next reader rebuild the memtable's fragmented
// range tombstones, so a run shorter than the memtable's count of range
// tombstones is left for readers to step over.
TEST_F(TombstoneRunConversionTest, RunsCheaperToStepAreLeftAlone) {
  Open(4);
  FillAndDelete(100, 0, 0);
  for (int i = 0; i < 5; i++) {
    const std::string begin = "z" + std::to_string(i);
    ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(),
                               begin, begin + "z"));
  }
  ASSERT_EQ(RangeTombstones(), 5);
  for (int i = 10; i < 14; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  EXPECT_EQ(Scan(true, ReadOptions()), Expected(100, 10, 14));
  EXPECT_EQ(Inserted(), 0u);
  EXPECT_EQ(Discarded(), 1u);
  EXPECT_EQ(RangeTombstones(), 5);
  std::string prop;
  ASSERT_TRUE(db_->GetProperty("rocksdb.lodestone.tombstone-runs", &prop));
  EXPECT_NE(prop.find("discarded.cheaper_to_step: 1\n"), std::string::npos)
      << prop;
  // As long as the memtable's range tombstones, the run goes in.
  ASSERT_OK(Delete(Key(14)));
  EXPECT_EQ(Scan(false, ReadOptions()), Expected(100, 10, 15));
  EXPECT_EQ(Inserted(), 1u);
  EXPECT_EQ(RangeTombstones(), 6);
  // A new memtable starts from no range tombstones.
  ASSERT_OK(Flush());
  for (int i = 20; i < 24; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  std::vector<std::string> expected = Expected(100, 10, 15);
  expected.erase(expected.begin() + 15, expected.begin() + 19);  // k0020-23
  EXPECT_EQ(Scan(true, ReadOptions()), expected);
  EXPECT_EQ(Inserted(), 2u);
  EXPECT_EQ(RangeTombstones(), 1);
}

// A queue: each round deletes the head and scans from the start. Converting
// every round would add one range tombstone per round, each rebuilding the
// growing list; a memtable's conversions instead stay about the square root
// of the tombstones they replace, and every read stays correct.
TEST_F(TombstoneRunConversionTest, QueueConversionsGrowSublinearly) {
  Open(4);
  const int rounds = 100;
  const int per_round = 4;
  FillAndDelete(rounds * per_round + 1, 0, 0);
  for (int r = 0; r < rounds; r++) {
    for (int k = 0; k < per_round; k++) {
      ASSERT_OK(Delete(Key(r * per_round + k)));
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key().ToString(), Key((r + 1) * per_round));
  }
  // Without the rule: 100 conversions. With it, conversion k needs a run of
  // at least k - 1 tombstones, and the rounds add 400 in all.
  EXPECT_GE(Inserted(), 10u);
  EXPECT_LE(Inserted(), 40u);
  EXPECT_EQ(RangeTombstones(), static_cast<int>(Inserted()));
  EXPECT_EQ(Scan(true, ReadOptions()).size(), 1u);
}

TEST_F(TombstoneRunConversionTest, OffByDefaultWritesNothing) {
  Options defaults;
  EXPECT_EQ(defaults.min_tombstones_for_range_conversion, 0u);
  Open(0);
  FillAndDelete(100, 0, 100);
  EXPECT_TRUE(Scan(true, ReadOptions()).empty());
  EXPECT_TRUE(Scan(false, ReadOptions()).empty());
  EXPECT_EQ(RangeTombstones(), 0);
  EXPECT_EQ(Inserted() + Discarded(), 0u);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
