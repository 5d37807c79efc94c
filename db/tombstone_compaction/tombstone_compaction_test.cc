// Tombstone-aware compaction: per-table tombstone statistics, the density
// trigger and the delete-persistence deadline (FADE), on a mock clock.

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

#include "db/compaction/compaction.h"
#include "db/db_test_util.h"
#include "db/tombstone_compaction/tombstone_deadlines.h"
#include "db/tombstone_compaction/tombstone_stats.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/listener.h"
#include "rocksdb/secondary_delete.h"
#include "rocksdb/utilities/transaction_db.h"
#include "test_util/mock_time_env.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Records the reason of every compaction.
class ReasonRecorder : public EventListener {
 public:
  void OnCompactionBegin(DB* /*db*/, const CompactionJobInfo& ci) override {
    std::lock_guard<std::mutex> l(mu_);
    reasons_.push_back(ci.compaction_reason);
  }
  int Count(CompactionReason reason) {
    std::lock_guard<std::mutex> l(mu_);
    return static_cast<int>(
        std::count(reasons_.begin(), reasons_.end(), reason));
  }

 private:
  std::mutex mu_;
  std::vector<CompactionReason> reasons_;
};

}  // namespace

class TombstoneCompactionTest : public DBTestBase {
 public:
  TombstoneCompactionTest()
      : DBTestBase("tombstone_compaction_test", /*env_do_fsync=*/false) {
    mock_clock_ = std::make_shared<MockSystemClock>(env_->GetSystemClock());
    mock_clock_->SetCurrentTime(kMockStartTime);
    mock_env_ = std::make_unique<CompositeEnvWrapper>(env_, mock_clock_);
  }

  void SetUp() override {
    mock_clock_->InstallTimedWaitFixCallback();
    SyncPoint::GetInstance()->SetCallBack(
        "DBImpl::StartPeriodicTaskScheduler:Init",
        [mock_clock = mock_clock_](void* arg) {
          static_cast<PeriodicTaskScheduler*>(arg)->TEST_OverrideTimer(
              mock_clock.get());
        });
    SyncPoint::GetInstance()->EnableProcessing();
  }

  void TearDown() override {
    Close();
    SyncPoint::GetInstance()->DisableProcessing();
    SyncPoint::GetInstance()->ClearAllCallBacks();
  }

 protected:
  static constexpr uint64_t kMockStartTime = 10000000;

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "k%05d", i);
    return buf;
  }

  Options BaseOptions() {
    Options options = CurrentOptions();
    options.create_if_missing = true;
    options.env = mock_env_.get();
    options.num_levels = 4;
    options.level0_file_num_compaction_trigger = 100;
    options.level_compaction_dynamic_level_bytes = false;
    options.statistics = CreateDBStatistics();
    recorder_ = std::make_shared<ReasonRecorder>();
    options.listeners.push_back(recorder_);
    return options;
  }

  VersionStorageInfo* Storage() {
    auto* cfh =
        static_cast<ColumnFamilyHandleImpl*>(db_->DefaultColumnFamily());
    return cfh->cfd()->current()->storage_info();
  }

  // Point tombstones in files above the last level plus the memtable's.
  uint64_t TombstonesAboveLastLevel() {
    auto* cfh =
        static_cast<ColumnFamilyHandleImpl*>(db_->DefaultColumnFamily());
    uint64_t n = cfh->cfd()->mem()->NumDeletion();
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    for (const auto& f : files) {
      if (f.level < 3) {
        n += f.num_deletions;
      }
    }
    return n;
  }

  // A last-level file under every test key, so that compactions above it
  // keep tombstones until they reach it.
  void PutFloor(int n) {
    for (int i = 0; i < n; i++) {
      ASSERT_OK(Put(Key(i), "floor"));
    }
    ASSERT_OK(Flush());
    MoveFilesToLevel(3);
  }

  void AdvanceSeconds(int seconds, int step = 10) {
    for (int t = 0; t < seconds; t += step) {
      dbfull()->TEST_WaitForPeriodicTaskRun(
          [&] { mock_clock_->MockSleepForSeconds(step); });
    }
  }

  // Turns auto compactions on, lets them run for `millis` of real time and
  // returns how many tombstone-aware picks of `reason` began so far. A
  // picker that chooses a file its compaction cannot change makes hundreds
  // in that time; then auto compactions are turned off again, so that the
  // test fails instead of waiting for compactions forever.
  int PicksWithin(CompactionReason reason, int millis = 1000) {
    EXPECT_OK(dbfull()->SetOptions({{"disable_auto_compactions", "false"}}));
    std::this_thread::sleep_for(std::chrono::milliseconds(millis));
    const int picks = recorder_->Count(reason);
    if (picks > 1) {
      EXPECT_OK(dbfull()->SetOptions({{"disable_auto_compactions", "true"}}));
    }
    return picks;
  }

  // Keys 0..199 written (with `put`), flushed, then all but every tenth
  // deleted (with `del`) and flushed: a dense tombstone file in L0.
  void WriteDenseDeletes(const std::function<Status(const std::string&)>& put,
                         const std::function<Status(const std::string&)>& del) {
    for (int i = 0; i < 200; i++) {
      ASSERT_OK(put(Key(i)));
    }
    ASSERT_OK(Flush());
    for (int i = 0; i < 200; i++) {
      if (i % 10 != 0) {
        ASSERT_OK(del(Key(i)));
      }
    }
    ASSERT_OK(Flush());
  }

  // WriteDenseDeletes with a snapshot taken before the deletes, all moved
  // to one last-level file, which keeps the tombstones for the snapshot.
  const Snapshot* WriteDenseDeletesUnderASnapshot() {
    const Snapshot* snapshot = nullptr;
    WriteDenseDeletes([&](const std::string& k) { return Put(k, "v"); },
                      [&](const std::string& k) {
                        if (snapshot == nullptr) {
                          snapshot = db_->GetSnapshot();
                        }
                        return Delete(k);
                      });
    MoveFilesToLevel(3);
    return snapshot;
  }

  // Options for the re-pick tests: the density trigger on, auto compactions
  // off until PicksWithin.
  Options DensityOptions() {
    Options options = BaseOptions();
    options.disable_auto_compactions = true;
    options.tombstone_density_trigger = 0.5;
    options.tombstone_density_window = 8;
    return options;
  }

  std::unique_ptr<Env> mock_env_;
  std::shared_ptr<MockSystemClock> mock_clock_;
  std::shared_ptr<ReasonRecorder> recorder_;
};

TEST_F(TombstoneCompactionTest, StageDeadlinesFollowCapacity) {
  // Lethe's geometric TTLs: weights growing with the size ratio.
  std::vector<uint64_t> d = TombstoneStageDeadlines(1000, {1, 10, 100, 1000});
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0], 0u);    // 0.9 * 1000 / 1111
  EXPECT_EQ(d[1], 8u);    // + 8.1
  EXPECT_EQ(d[2], 89u);   // + 81
  EXPECT_GE(d[3], 899u);  // 10% left for the last compaction
  EXPECT_LE(d[3], 900u);

  // From an LSM: memtable, L0 (4 memtables), L1, L2 above the last level.
  Options options = BaseOptions();
  options.write_buffer_size = 1 << 20;
  options.level0_file_num_compaction_trigger = 4;
  options.max_bytes_for_level_base = 10 << 20;
  DestroyAndReopen(options);
  PutFloor(10);
  auto* cfh = static_cast<ColumnFamilyHandleImpl*>(db_->DefaultColumnFamily());
  const int last = TombstoneLastLevel(Storage()->num_non_empty_levels(),
                                      Storage()->base_level());
  EXPECT_EQ(last, 3);
  std::vector<double> w =
      TombstoneStageWeights(*Storage(), Storage()->base_level(), last,
                            *cfh->cfd()->GetLatestMutableCFOptions());
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0], 1 << 20);
  EXPECT_EQ(w[1], 4 << 20);
  EXPECT_EQ(w[2], 10 << 20);
  EXPECT_EQ(w[3], 100 << 20);
}

TEST_F(TombstoneCompactionTest, PropertiesOnlyWhenOn) {
  Options options = BaseOptions();
  // The dense file written below would be compacted away at once.
  options.disable_auto_compactions = true;
  DestroyAndReopen(options);
  ASSERT_OK(Put(Key(1), "v"));
  ASSERT_OK(Delete(Key(2)));
  ASSERT_OK(Flush());
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->user_collected_properties.count(
                kTombstonePointProperty),
            0u);
  EXPECT_FALSE(Storage()->LevelFiles(0)[0]->tombstone_stats.known);

  // On through SetOptions: new tables carry the statistics.
  ASSERT_OK(dbfull()->SetOptions({{"tombstone_density_trigger", "0.9"},
                                  {"tombstone_density_window", "4"}}));
  for (int i = 0; i < 10; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  for (int i = 10; i < 16; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(SingleDelete(Key(20)));
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(),
                             Key(30), Key(40)));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 2u);
  int with_stats = 0;
  for (const auto& [name, tp] : props) {
    const auto& user = tp->user_collected_properties;
    if (user.count(kTombstonePointProperty) == 0) {
      continue;
    }
    with_stats++;
    EXPECT_EQ(user.at(kTombstonePointProperty), "7");
    EXPECT_EQ(user.at(kTombstoneRangeProperty), "1");
    EXPECT_EQ(user.at(kTombstoneWindowProperty), "4");
    EXPECT_EQ(user.at(kTombstoneWindowPeakProperty), "4");
  }
  EXPECT_EQ(with_stats, 1);

  // FileMetaData has them, and keeps them across a reopen (MANIFEST) even
  // when table files are not opened.
  auto check = [&] {
    const FileMetaData* f = nullptr;
    for (const FileMetaData* file : Storage()->LevelFiles(0)) {
      if (file->tombstone_stats.known) {
        EXPECT_EQ(f, nullptr);
        f = file;
      }
    }
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->tombstone_stats.count, 7u);
    EXPECT_EQ(f->tombstone_stats.window, 4u);
    EXPECT_EQ(f->tombstone_stats.window_peak, 4u);
    EXPECT_GT(f->tombstone_stats.oldest_time, 0u);
  };
  check();
  options.tombstone_density_trigger = 0.9;
  options.tombstone_density_window = 4;
  options.max_open_files = 10;
  options.skip_stats_update_on_db_open = true;
  Reopen(options);
  check();
}

// With parallel compression (compression_opts.parallel_threads > 1) the
// table builder reports each data block (BlockAdd) from its compression
// threads, after the entries of later blocks were added and concurrently
// with them: the per-block counts cannot be attributed, and were a data
// race (TSAN, crash test seed 3401011). Such tables leave them out; the
// table-wide counts stay exact.
TEST_F(TombstoneCompactionTest, BlockCountsUnderParallelCompression) {
  auto block_counts = [&](uint32_t threads) {
    Options options = BaseOptions();
    options.disable_auto_compactions = true;
    options.tombstone_density_trigger = 0.9;
    options.compression = kSnappyCompression;
    options.compression_opts.parallel_threads = threads;
    BlockBasedTableOptions table;
    table.block_size = 256;
    options.table_factory.reset(NewBlockBasedTableFactory(table));
    DestroyAndReopen(options);
    for (int i = 0; i < 2000; i++) {
      // Runs of 30 deletes, then 30 puts: every other block dense.
      if ((i / 30) % 2 == 0) {
        EXPECT_OK(Delete(Key(i)));
      } else {
        EXPECT_OK(Put(Key(i), std::string(20, 'v')));
      }
    }
    EXPECT_OK(Flush());
    TablePropertiesCollection props;
    EXPECT_OK(db_->GetPropertiesOfAllTables(&props));
    EXPECT_EQ(props.size(), 1u);
    const auto& user = props.begin()->second->user_collected_properties;
    EXPECT_EQ(user.at(kTombstonePointProperty), "1010");
    auto get = [&](const char* name) {
      auto it = user.find(name);
      return it == user.end() ? std::string("absent") : it->second;
    };
    return get(kTombstoneDenseBlocksProperty) + "/" +
           get(kTombstoneDataBlocksProperty);
  };
  const std::string serial = block_counts(1);
  EXPECT_NE(serial.find('/'), std::string::npos);
  EXPECT_NE(serial.substr(0, 6), "absent");
  EXPECT_EQ(block_counts(4), "absent/absent") << "serial: " << serial;
}

TEST_F(TombstoneCompactionTest, DensestFileFirst) {
  Options options = BaseOptions();
  options.disable_auto_compactions = true;
  options.tombstone_density_trigger = 0.5;
  options.tombstone_density_window = 8;
  DestroyAndReopen(options);
  PutFloor(300);
  // Three L1 files over disjoint ranges: 10%, 80% and 60% tombstones.
  const int share[3] = {1, 8, 6};
  for (int file = 0; file < 3; file++) {
    for (int i = file * 100; i < file * 100 + 100; i++) {
      if (i % 10 < share[file]) {
        ASSERT_OK(Delete(Key(i)));
      } else {
        ASSERT_OK(Put(Key(i), "new"));
      }
    }
    ASSERT_OK(Flush());
    MoveFilesToLevel(1);
  }
  ASSERT_EQ(FilesPerLevel(), "0,3,0,1");
  const auto& candidates = Storage()->TombstoneCompactionCandidates();
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].reason, CompactionReason::kTombstoneDensity);
  EXPECT_EQ(candidates[0].file->tombstone_stats.count, 80u);
  EXPECT_EQ(candidates[1].file->tombstone_stats.count, 60u);

  ASSERT_OK(dbfull()->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_GE(recorder_->Count(CompactionReason::kTombstoneDensity), 2);
  // Dense tombstones left L1 (they reached the last level and were dropped
  // with what they deleted); the sparse file stayed.
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  for (int i = 0; i < 300; i++) {
    const int file = i / 100;
    EXPECT_EQ(Get(Key(i)), i % 10 < share[file] ? "NOT_FOUND" : "new");
  }
}

TEST_F(TombstoneCompactionTest, OldestOverdueFileFirst) {
  Options options = BaseOptions();
  options.disable_auto_compactions = true;  // only rank, do not compact
  options.delete_persistence_threshold = 1000;
  DestroyAndReopen(options);
  PutFloor(100);
  for (int i = 0; i < 10; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(Flush());  // older, fewer tombstones
  AdvanceSeconds(300);
  for (int i = 10; i < 40; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(Flush());  // newer, more tombstones
  AdvanceSeconds(1000);
  ASSERT_OK(Put("zzz", "new version"));
  ASSERT_OK(Flush());  // re-scores with the current time
  const auto& candidates = Storage()->TombstoneCompactionCandidates();
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].reason, CompactionReason::kDeletePersistenceDeadline);
  EXPECT_EQ(candidates[0].file->tombstone_stats.count, 10u);
  EXPECT_EQ(candidates[1].file->tombstone_stats.count, 30u);
  EXPECT_LT(candidates[0].file->tombstone_stats.oldest_time,
            candidates[1].file->tombstone_stats.oldest_time);
  std::string prop;
  ASSERT_TRUE(
      db_->GetProperty("rocksdb.lodestone.tombstone-compaction", &prop));
  EXPECT_NE(prop.find("L0"), std::string::npos) << prop;
  EXPECT_NE(prop.find("deadline"), std::string::npos) << prop;
}

TEST_F(TombstoneCompactionTest, NoTombstonesNoPick) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  options.tombstone_density_trigger = 0.1;
  DestroyAndReopen(options);
  PutFloor(100);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "new"));
  }
  ASSERT_OK(Flush());
  AdvanceSeconds(2000);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(recorder_->Count(CompactionReason::kTombstoneDensity), 0);
  EXPECT_EQ(recorder_->Count(CompactionReason::kDeletePersistenceDeadline), 0);
}

TEST_F(TombstoneCompactionTest, DeadlineMetOnAnIdleDB) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  DestroyAndReopen(options);
  PutFloor(200);
  // Deletes in the memtable and in an L0 file; then no more writes.
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(Flush());
  for (int i = 100; i < 150; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_GT(TombstonesAboveLastLevel(), 0u);
  AdvanceSeconds(1000);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(TombstonesAboveLastLevel(), 0u) << FilesPerLevel();
  EXPECT_GT(recorder_->Count(CompactionReason::kDeletePersistenceDeadline), 0);
  for (int i = 0; i < 200; i++) {
    EXPECT_EQ(Get(Key(i)), i < 150 ? "NOT_FOUND" : "floor");
  }
}

// Regression (found by the crash test): the deadline work ran inside
// RecordSeqnoToTimeMapping, which DB::Open, SetOptions and column family
// creation also call on the caller's thread: an open flushed a recovered
// memtable and wrote the WAL inline, tagged as no DB-open I/O. It now runs
// on the periodic task thread only.
TEST_F(TombstoneCompactionTest, DeadlineWorkOnlyOnThePeriodicThread) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  options.avoid_flush_during_recovery = true;
  DestroyAndReopen(options);
  PutFloor(20);
  for (int i = 0; i < 10; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  std::atomic<int> on_caller_thread{0};
  const std::thread::id caller = std::this_thread::get_id();
  SyncPoint::GetInstance()->SetCallBack(
      "TombstoneDeadlineTimer:Run", [&](void*) {
        if (std::this_thread::get_id() == caller) {
          on_caller_thread++;
        }
      });
  mock_clock_->MockSleepForSeconds(5000);  // The memtable is overdue.
  Reopen(options);
  ASSERT_OK(db_->SetOptions({{"delete_persistence_threshold", "2000"}}));
  CreateColumnFamilies({"other"}, options);
  EXPECT_EQ(on_caller_thread.load(), 0);
  // The periodic task still meets the deadline.
  AdvanceSeconds(2000);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(TombstonesAboveLastLevel(), 0u) << FilesPerLevel();
  SyncPoint::GetInstance()->ClearCallBack("TombstoneDeadlineTimer:Run");
}

// Regression (issue 18, defect 2): the timer's memtable flush runs on the
// process-wide periodic task thread and entered the write thread, waiting
// there for LockWAL()'s holder (or a write stall) to let go. It now skips
// the flush while the write thread is busy and flushes on a later period.
TEST_F(TombstoneCompactionTest, DeadlineTimerNeverWaitsForWriters) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  DestroyAndReopen(options);
  PutFloor(100);
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  std::atomic<int> skipped{0};
  std::atomic<bool> stalled{false};
  SyncPoint::GetInstance()->SetCallBack("TombstoneDeadlineTimer:FlushAttempted",
                                        [&](void* arg) {
                                          if (!*static_cast<bool*>(arg)) {
                                            skipped++;
                                          }
                                        });
  SyncPoint::GetInstance()->SetCallBack("DBImpl::DelayWrite:Wait",
                                        [&](void*) { stalled.store(true); });
  // LockWAL() stops writes; a writer then waits in the write thread.
  ASSERT_OK(db_->LockWAL());
  std::thread writer([&] { ASSERT_OK(Put(Key(100), "late")); });
  while (!stalled.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::atomic<bool> done{false};
  std::thread timer([&] {
    AdvanceSeconds(1000);
    done.store(true);
  });
  for (int i = 0; i < 2000 && !done.load(); i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool finished_while_locked = done.load();
  ASSERT_OK(db_->UnlockWAL());
  timer.join();
  writer.join();
  EXPECT_TRUE(finished_while_locked);
  EXPECT_GT(skipped.load(), 0);
  // Unlocked, the next periods flush and compact, although the memtable is
  // now older than the seqno-to-time mapping remembers.
  AdvanceSeconds(100);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(TombstonesAboveLastLevel(), 0u) << FilesPerLevel();
}

// The timer's flush under atomic_flush goes through the atomic flush path
// (FlushMemTable asserts it is not used there).
TEST_F(TombstoneCompactionTest, DeadlineMetOnAnIdleDBWithAtomicFlush) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  options.atomic_flush = true;
  DestroyAndReopen(options);
  PutFloor(100);
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  AdvanceSeconds(1000);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(TombstonesAboveLastLevel(), 0u) << FilesPerLevel();
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ(Get(Key(i)), i < 50 ? "NOT_FOUND" : "floor");
  }
}

// Regression (found by the crash test): deadlines are leveled-only; under
// universal compaction the timer shared the deadline by level targets of a
// base level of -1 (an assertion in debug builds).
TEST_F(TombstoneCompactionTest, DeadlineTimerSkipsUniversalCompaction) {
  Options options = BaseOptions();
  options.compaction_style = kCompactionStyleUniversal;
  options.delete_persistence_threshold = 100;
  DestroyAndReopen(options);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put(Key(i), "v"));
  }
  ASSERT_OK(Flush());
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  AdvanceSeconds(300);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(recorder_->Count(CompactionReason::kDeletePersistenceDeadline), 0);
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ(Get(Key(i)), i < 50 ? "NOT_FOUND" : "v");
  }
}

// Regression (found by the crash test): under atomic_flush the timer's
// flush must take every column family, as all of RocksDB's flushes do, or
// a crash with the WAL off recovers families to different points.
TEST_F(TombstoneCompactionTest, DeadlineTimerFlushesAllFamiliesAtomically) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 1000;
  options.atomic_flush = true;
  DestroyAndReopen(options);
  CreateAndReopenWithCF({"other"}, options);
  ASSERT_OK(Put(0, Key(0), "v"));
  ASSERT_OK(Flush(0));
  ASSERT_OK(Delete(0, Key(0)));
  ASSERT_OK(Put(1, Key(1), "other"));  // No tombstones in this family.
  AdvanceSeconds(1000);
  ASSERT_OK(dbfull()->TEST_WaitForFlushMemTable(handles_[0]));
  ASSERT_OK(dbfull()->TEST_WaitForFlushMemTable(handles_[1]));
  for (ColumnFamilyHandle* h : handles_) {
    auto* cfd = static_cast<ColumnFamilyHandleImpl*>(h)->cfd();
    EXPECT_EQ(cfd->mem()->NumEntries(), 0u) << h->GetName();
  }
  EXPECT_EQ(Get(1, Key(1)), "other");
}

TEST_F(TombstoneCompactionTest, OffByDefault) {
  Options defaults;
  EXPECT_EQ(defaults.delete_persistence_threshold, 0u);
  EXPECT_EQ(defaults.tombstone_density_trigger, 0.0);
  Options options = BaseOptions();
  DestroyAndReopen(options);
  PutFloor(100);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(Flush());
  AdvanceSeconds(500, 50);
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  EXPECT_EQ(recorder_->Count(CompactionReason::kDeletePersistenceDeadline), 0);
  EXPECT_EQ(FilesPerLevel(), "1,0,0,1");
}

// Deadlines date tombstones through the seqno-to-time mapping, which keeps
// preserve_internal_time_seconds of history: a smaller setting is raised to
// the deadline, a larger one kept (regression: only 0 was raised, so a
// 60-second history under a one-hour deadline made every older memtable look
// overdue).
TEST_F(TombstoneCompactionTest, PreservedTimeCoversTheDeadline) {
  Options options = BaseOptions();
  options.delete_persistence_threshold = 3600;
  options.preserve_internal_time_seconds = 60;
  DestroyAndReopen(options);
  EXPECT_EQ(db_->GetOptions().preserve_internal_time_seconds, 3600u);
  options.preserve_internal_time_seconds = 7200;
  DestroyAndReopen(options);
  EXPECT_EQ(db_->GetOptions().preserve_internal_time_seconds, 7200u);
  options.delete_persistence_threshold = 0;
  options.preserve_internal_time_seconds = 0;
  DestroyAndReopen(options);
  EXPECT_EQ(db_->GetOptions().preserve_internal_time_seconds, 0u);
}

// A pick must change what made its file a candidate. These set up a file
// whose tombstones a compaction has to keep and check that the pickers stop
// after at most one pick, where a re-picking picker runs hundreds a second.

// User-defined timestamps without full_history_ts_low: every version, the
// tombstones too, is history the last level must keep.
TEST_F(TombstoneCompactionTest, NoRepickWhenTimestampsKeepTombstones) {
  Options options = DensityOptions();
  options.comparator = BytewiseComparatorWithU64Ts();
  DestroyAndReopen(options);
  std::string ts1, ts2;
  PutFixed64(&ts1, 1);
  PutFixed64(&ts2, 2);
  WriteDenseDeletes(
      [&](const std::string& k) {
        return db_->Put(WriteOptions(), k, ts1, "v");
      },
      [&](const std::string& k) {
        return db_->Delete(WriteOptions(), k, ts2);
      });
  MoveFilesToLevel(3);
  ASSERT_EQ(FilesPerLevel(), "0,0,0,1");
  ASSERT_EQ(Storage()->TombstoneCompactionCandidates().size(), 1u);

  EXPECT_LE(PicksWithin(CompactionReason::kTombstoneDensity), 1);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  ReadOptions read;
  Slice read_ts(ts2);
  read.timestamp = &read_ts;
  std::string value, ts;
  EXPECT_OK(db_->Get(read, Key(0), &value, &ts));
  EXPECT_TRUE(db_->Get(read, Key(1), &value, &ts).IsNotFound());
}

// A snapshot older than the tombstones: the last level keeps them, and the
// picker, which asks the live snapshots when it picks, leaves the file alone
// until the snapshot is released.
TEST_F(TombstoneCompactionTest, NoPickWhileASnapshotNeedsTombstones) {
  Options options = DensityOptions();
  DestroyAndReopen(options);
  const Snapshot* snapshot = WriteDenseDeletesUnderASnapshot();
  ASSERT_EQ(FilesPerLevel(), "0,0,0,1");
  ASSERT_EQ(Storage()->TombstoneCompactionCandidates().size(), 1u);
  EXPECT_EQ(PicksWithin(CompactionReason::kTombstoneDensity), 0);

  db_->ReleaseSnapshot(snapshot);
  ASSERT_OK(Put("zzz", "v"));  // A new version re-scores the files.
  ASSERT_OK(Flush());
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_EQ(recorder_->Count(CompactionReason::kTombstoneDensity), 1);
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  EXPECT_EQ(Get(Key(0)), "v");
  EXPECT_EQ(Get(Key(1)), "NOT_FOUND");
}

// A compaction filter that keeps every value does not keep tombstones:
// one in-place pick drops them.
TEST_F(TombstoneCompactionTest, OnePickWithAFilterThatKeepsEverything) {
  class KeepEverything : public CompactionFilter {
   public:
    const char* Name() const override { return "KeepEverything"; }
    Decision FilterV2(int, const Slice&, ValueType, const Slice&, std::string*,
                      std::string*) const override {
      return Decision::kKeep;
    }
  };
  KeepEverything filter;
  Options options = DensityOptions();
  options.compaction_filter = &filter;
  DestroyAndReopen(options);
  const Snapshot* snapshot = WriteDenseDeletesUnderASnapshot();
  db_->ReleaseSnapshot(snapshot);
  ASSERT_OK(Put("zzz", "v"));
  ASSERT_OK(Flush());
  ASSERT_EQ(Storage()->TombstoneCompactionCandidates().size(), 1u);

  EXPECT_EQ(PicksWithin(CompactionReason::kTombstoneDensity), 1);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  EXPECT_EQ(Get(Key(0)), "v");
  EXPECT_EQ(Get(Key(1)), "NOT_FOUND");
}

// FADE for secondary range deletes (docs/kiwi.md): every file that may
// hold what a secondary range tombstone covers is compacted once the
// tombstone is half the threshold old, so the space comes back and the
// tombstone retires within the deadline, idle DB or not; its issue time
// survives a reopen. Without a deadline nothing compacts (no size trigger
// fires here), which the second half shows: the reclaim is the deadline's.
TEST_F(TombstoneCompactionTest, SecondaryDeleteReclaimedWithinTheDeadline) {
  for (const bool deadline : {true, false}) {
    SCOPED_TRACE(deadline ? "deadline" : "none");
    Options options = BaseOptions();
    options.delete_persistence_threshold = deadline ? 1000 : 0;
    options.delete_key_extractor = NewValuePrefixDeleteKeyExtractor(1);
    DestroyAndReopen(options);
    // Delete key 'a' for even keys, 'b' for odd ones, in L3, L1 and L0.
    auto put_range = [&](int from, int to) {
      for (int i = from; i < to; i++) {
        ASSERT_OK(Put(Key(i), std::string(i % 2 == 0 ? "a" : "b") + "-v"));
      }
      ASSERT_OK(Flush());
    };
    put_range(0, 200);
    MoveFilesToLevel(3);
    put_range(200, 300);
    MoveFilesToLevel(1);
    put_range(300, 400);
    auto live_tombstones = [&]() {
      std::string p;
      EXPECT_TRUE(db_->GetProperty("rocksdb.lodestone.secondary-deletes", &p));
      const size_t at = p.find("live_tombstones: ");
      EXPECT_NE(at, std::string::npos) << p;
      return std::stoul(p.substr(at + strlen("live_tombstones: ")));
    };
    auto entries_in_files = [&]() {
      std::vector<LiveFileMetaData> files;
      db_->GetLiveFilesMetaData(&files);
      uint64_t n = 0;
      for (const auto& f : files) {
        n += f.num_entries;
      }
      return n;
    };
    ASSERT_OK(
        DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "a", "b"));
    ASSERT_EQ(live_tombstones(), 1u);

    // Not due before half the threshold, across a reopen.
    AdvanceSeconds(400);
    Reopen(options);
    ASSERT_OK(dbfull()->TEST_WaitForCompact());
    EXPECT_EQ(live_tombstones(), 1u);
    EXPECT_EQ(entries_in_files(), 400u);
    EXPECT_EQ(recorder_->Count(CompactionReason::kDeletePersistenceDeadline),
              0);

    // Due at 500 s: reclaimed well before the deadline's 1000 s.
    AdvanceSeconds(200);
    ASSERT_OK(dbfull()->TEST_WaitForCompact());
    if (deadline) {
      EXPECT_EQ(live_tombstones(), 0u) << FilesPerLevel();
      EXPECT_EQ(entries_in_files(), 200u) << FilesPerLevel();
      EXPECT_GT(recorder_->Count(CompactionReason::kDeletePersistenceDeadline),
                0);
      EXPECT_GT(options.statistics->getTickerCount(
                    COMPACTION_TOMBSTONE_DEADLINE_PICKS),
                0u);
    } else {
      EXPECT_EQ(live_tombstones(), 1u);
      EXPECT_EQ(entries_in_files(), 400u);
    }
    for (int i = 0; i < 400; i++) {
      EXPECT_EQ(Get(Key(i)), i % 2 == 0 ? "NOT_FOUND" : "b-v");
    }
  }
}

// With a snapshot checker (WritePrepared transactions), asking for the
// snapshot context takes a job snapshot. The density picker asks before it
// picks and the compaction asks again; a second job snapshot released the
// first under the DB mutex, which ReleaseSnapshot takes again: every
// compaction hung with the mutex held (universal compaction had the same
// two calls). Each case runs one non-trivial compaction to its end.
class TombstoneCompactionJobSnapshotTest
    : public TombstoneCompactionTest,
      public testing::WithParamInterface<CompactionStyle> {};

TEST_P(TombstoneCompactionJobSnapshotTest, WritePreparedCompactionFinishes) {
  Options options = BaseOptions();
  options.compaction_style = GetParam();
  options.level0_file_num_compaction_trigger = 2;
  options.tombstone_density_trigger = 0.5;
  options.tombstone_density_window = 8;
  DestroyAndReopen(options);
  Close();
  TransactionDBOptions txn_db_options;
  txn_db_options.write_policy = TxnDBWritePolicy::WRITE_PREPARED;
  TransactionDB* txn_db = nullptr;
  ASSERT_OK(TransactionDB::Open(options, txn_db_options, dbname_, &txn_db));
  std::unique_ptr<TransactionDB> guard(txn_db);
  // Two overlapping L0 files, then wait: the flush of the second already
  // waits on the DB mutex, so all of it runs where a deadline can watch.
  std::future<Status> waited = std::async(std::launch::async, [txn_db] {
    for (int file = 0; file < 2; file++) {
      for (int i = 0; i < 100; i++) {
        Status s =
            txn_db->Put(WriteOptions(), Key(i), "v" + std::to_string(file));
        if (s.ok() && i == 99) {
          s = txn_db->Delete(WriteOptions(), Key(1000 + file));
        }
        if (!s.ok()) {
          return s;
        }
      }
      Status s = txn_db->Flush(FlushOptions());
      if (!s.ok()) {
        return s;
      }
    }
    return txn_db->WaitForCompact(WaitForCompactOptions());
  });
  if (waited.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    // The DB mutex is held for good: nothing can close the DB.
    fprintf(stderr, "compaction deadlocked with the DB mutex held\n");
    std::_Exit(1);
  }
  ASSERT_OK(waited.get());
  ColumnFamilyMetaData meta;
  txn_db->GetColumnFamilyMetaData(txn_db->DefaultColumnFamily(), &meta);
  EXPECT_EQ(meta.levels[0].files.size(), 0u);
  std::string value;
  ASSERT_OK(txn_db->Get(ReadOptions(), Key(5), &value));
  EXPECT_EQ(value, "v1");
}

INSTANTIATE_TEST_CASE_P(Styles, TombstoneCompactionJobSnapshotTest,
                        testing::Values(kCompactionStyleLevel,
                                        kCompactionStyleUniversal));

// Per-key placement (preclude_last_level_data_seconds) keeps recent data,
// tombstones included, in the level above the last: a pick there writes
// its tombstones back where they were.
class TombstoneCompactionPerKeyPlacementTest
    : public TombstoneCompactionTest,
      public testing::WithParamInterface<CompactionReason> {};

TEST_P(TombstoneCompactionPerKeyPlacementTest, NoRepickOfProximalOutput) {
  const CompactionReason reason = GetParam();
  Options options = BaseOptions();
  options.disable_auto_compactions = true;
  if (reason == CompactionReason::kTombstoneDensity) {
    options.tombstone_density_trigger = 0.5;
    options.tombstone_density_window = 8;
  } else {
    options.delete_persistence_threshold = 1000;
  }
  options.preclude_last_level_data_seconds = 100000;
  // Per-key placement decides by write time; here the test decides: the
  // floor goes to the last level, everything after it stays above.
  std::atomic<bool> keep_above{false};
  SyncPoint::GetInstance()->SetCallBack(
      "CompactionIterator::PrepareOutput.context", [&](void* arg) {
        static_cast<PerKeyPlacementContext*>(arg)->output_to_penultimate_level =
            keep_above.load();
      });
  DestroyAndReopen(options);
  PutFloor(200);
  keep_above = true;
  for (int i = 0; i < 200; i++) {
    if (i % 10 != 0) {
      ASSERT_OK(Delete(Key(i)));
    }
  }
  ASSERT_OK(Flush());
  MoveFilesToLevel(2);
  ASSERT_EQ(FilesPerLevel(), "0,0,1,1");
  if (reason == CompactionReason::kDeletePersistenceDeadline) {
    AdvanceSeconds(2000);
    ASSERT_OK(Put("zzz", "v"));  // A new version re-scores the files.
    ASSERT_OK(Flush());
  }
  ASSERT_FALSE(Storage()->TombstoneCompactionCandidates().empty());

  EXPECT_LE(PicksWithin(reason), 1);
  ASSERT_OK(dbfull()->TEST_WaitForCompact());
  EXPECT_TRUE(Storage()->TombstoneCompactionCandidates().empty());
  EXPECT_EQ(Get(Key(0)), "floor");
  EXPECT_EQ(Get(Key(1)), "NOT_FOUND");
}

INSTANTIATE_TEST_CASE_P(
    Pickers, TombstoneCompactionPerKeyPlacementTest,
    testing::Values(CompactionReason::kTombstoneDensity,
                    CompactionReason::kDeletePersistenceDeadline));

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
