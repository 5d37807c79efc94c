// Inserting the range tombstone a DBIter proved redundant (see
// tombstone_run_tracker.h for how runs are proven).
//
// Why this is safe. The iterator read the LSM through one SuperVersion at
// read sequence S, and every key in [start, end) it saw was deleted at S.
// The range tombstone at S hides only versions older than S, so reads at
// S or later see no change, and reads below S do not see it at all. What
// could break that argument is data the iterator did not see but that is
// older than S:
//  - a memtable switched after the iterator took its SuperVersion, or an
//    ingested file whose global sequence number is <= S but was not yet
//    installed. Both change the column family's SuperVersion while holding
//    the write thread, so the insertion holds the write thread and the DB
//    mutex (as a memtable switch does) and only goes ahead if the
//    SuperVersion is still the iterator's;
//  - a file ingested behind (IngestExternalFileOptions::ingest_behind),
//    whose keys get sequence number 0 below everything, at any later time.
//    DBs opened with allow_ingest_behind never convert
//    (tombstone_run_iterators.cc);
//  - a mutable memtable whose earliest sequence number is above S: the
//    tombstone would sit beside newer data that lives in older memtables or
//    L0, so the insertion refuses.
// Every other way in assigns sequence numbers above the published one:
// writes, transactions' commits, ingestion of files that overlap anything
// (the tombstone's range included) or of DB-generated files, which must
// overlap nothing.
//
// A reader never waits for a writer. The insertion enters the write thread
// only if writes are not stopped (LockWAL(), a stall) and no writer is
// queued or running (WriteThread::TryEnterUnbatched, patch 0027). Otherwise
// the run is handed off: kept, with the SuperVersion number and sequence
// number it was proven at, until the next write group's leader inserts it
// (InsertHandedOffTombstoneRuns, patch 0033) with the same checks,
// while it is the DB's only memtable writer. A busy write thread is exactly
// when a leader is about to come, so under write load most runs go in there;
// without the handoff nearly all of them were lost. Under two_write_queues
// a WAL-only writer could run beside that leader, so nothing is handed off
// and a run refused for a busy write thread is discarded.
//
// The tombstone does not go to the WAL: after a crash it is simply gone,
// which changes no result either.

#include "db/tombstone_runs/tombstone_run_conversion.h"

#include <atomic>
#include <cinttypes>
#include <deque>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/db_impl_access/db_impl_access.h"
#include "db/memtable.h"
#include "db/tombstone_runs/tombstone_run_tracker.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/comparator.h"
#include "test_util/lodestone/planted_bugs.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

const char* const kTombstoneRunsProperty = "rocksdb.lodestone.tombstone-runs";

namespace {

// The conversion's one mutex and what it guards besides every family's
// TombstoneRunState: the counts of every column family of every DB, and the
// families with runs waiting. A family leaves the set when its runs are
// taken or it is destroyed, so every family in it belongs to a live DB.
struct Shared {
  std::mutex mu;
  TombstoneRunCounts process_counts;
  std::unordered_set<TombstoneRunState*> waiting_families;
  // Runs waiting in any family: the write path's fast check.
  std::atomic<size_t> waiting_runs{0};
};

Shared& GetShared() {
  static Shared* shared = new Shared;
  return *shared;
}

using Outcome = TombstoneRunOutcome;

// REQUIRES: the shared mutex held.
void CountLocked(Shared& shared, TombstoneRunState& family, Outcome outcome,
                 uint64_t n) {
  for (TombstoneRunCounts* c : {&family.counts, &shared.process_counts}) {
    (outcome == Outcome::kInserted ? c->inserted : c->discarded) += n;
    c->by_outcome[static_cast<int>(outcome)] += n;
  }
}

void Tick(DBImpl* db, Outcome outcome, uint64_t n) {
  RecordTick(db->immutable_db_options().statistics.get(),
             outcome == Outcome::kInserted
                 ? READ_PATH_RANGE_TOMBSTONES_INSERTED
                 : READ_PATH_RANGE_TOMBSTONES_DISCARDED,
             n);
}

// Counts what became of a run of `cfd`, in its counts and the DB's tickers.
void Account(DBImpl* db, ColumnFamilyData* cfd, Outcome outcome) {
  Shared& shared = GetShared();
  {
    std::lock_guard<std::mutex> l(shared.mu);
    CountLocked(shared, *cfd->tombstone_runs(), outcome, 1);
  }
  Tick(db, outcome, 1);
}

// Keeps a run for the next write group. A run proven through an older
// SuperVersion than this one can never go in any more, and the list is
// bounded: both are discarded here.
void HandOff(DBImpl* db, ColumnFamilyData* cfd, uint64_t super_version_number,
             SequenceNumber seq, const Slice& start, const Slice& end,
             const TombstoneRunWorth& worth) {
  Shared& shared = GetShared();
  TombstoneRunState& family = *cfd->tombstone_runs();
  uint64_t stale = 0;
  uint64_t pushed_out = 0;
  uint64_t duplicate = 0;
  {
    std::lock_guard<std::mutex> l(shared.mu);
    std::deque<TombstoneRunState::WaitingRun>& waiting = family.waiting;
    // Iterators at one sequence number prove the same runs: keep one copy,
    // as the memtable would refuse the others (and keep their allocation).
    for (const TombstoneRunState::WaitingRun& run : waiting) {
      if (run.seq == seq && run.super_version_number == super_version_number &&
          Slice(run.start) == start && Slice(run.end) == end) {
        duplicate = 1;
        break;
      }
    }
    while (duplicate == 0 && !waiting.empty()) {
      if (waiting.front().super_version_number != super_version_number) {
        stale++;
      } else if (waiting.size() >= kMaxHandedOffRunsPerColumnFamily) {
        pushed_out++;
      } else {
        break;
      }
      waiting.pop_front();
    }
    if (duplicate == 0) {
      waiting.push_back(TombstoneRunState::WaitingRun{
          super_version_number, seq, start.ToString(), end.ToString(), worth});
      shared.waiting_runs.fetch_add(1, std::memory_order_relaxed);
      family.db = db;
      family.column_family_id = cfd->GetID();
      shared.waiting_families.insert(&family);
    }
    CountLocked(shared, family, Outcome::kNotAdded, duplicate);
    CountLocked(shared, family, Outcome::kSuperVersionChanged, stale);
    CountLocked(shared, family, Outcome::kPushedOut, pushed_out);
    shared.waiting_runs.fetch_sub(stale + pushed_out,
                                  std::memory_order_relaxed);
  }
  Tick(db, Outcome::kNotAdded, duplicate);
  Tick(db, Outcome::kSuperVersionChanged, stale);
  Tick(db, Outcome::kPushedOut, pushed_out);
}

// Inserts [start, end) at `seq` into the mutable memtable of `cfd` of `db`
// if its SuperVersion is still `super_version_number` and the run is worth
// the insertion (see the header).
// REQUIRES: DB mutex held; the caller is the DB's only memtable writer.
Outcome AddToMutableMemtable(const DBImpl* db, ColumnFamilyData* cfd,
                             uint64_t super_version_number, SequenceNumber seq,
                             const Slice& start, const Slice& end,
                             const TombstoneRunWorth& worth) {
  if (cfd->IsDropped()) {
    return Outcome::kStopped;
  }
  if (cfd->GetSuperVersionNumber() != super_version_number) {
    // A flush, memtable switch, ingestion or compaction since the iterator
    // started: its view may miss data older than seq.
    return Outcome::kSuperVersionChanged;
  }
  MemTable* mem = cfd->mem();
  if (seq < mem->GetEarliestSequenceNumber()) {
    return Outcome::kOlderThanMemtable;
  }
  if (worth.entries_below_memtable == 0 ||
      worth.entries_below_memtable < mem->NumRangeDeletion()) {
    return Outcome::kCheaperToStep;
  }
  if (worth.pruning_removes_it) {
    // A snapshot at or above the read sequence sits above every version
    // the run saw, so it cannot part a chain's delete from its put.
    const SnapshotList& snapshots = db->snapshots();
    if (snapshots.empty() || snapshots.oldest()->GetSequenceNumber() >= seq) {
      return Outcome::kLeftToPruning;
    }
  }
  MemTablePostProcessInfo info;
  std::string past_the_run;
  if (PlantedBugActive(PlantedBug::kTombstoneRunConversionPastTheRun)) {
    past_the_run = end.ToString() + '\xff';
  }
  // The concurrent insert path accepts a sequence number below the
  // memtable's newest; we are its only writer either way.
  Status s = mem->Add(seq, kTypeRangeDeletion, start,
                      past_the_run.empty() ? end : Slice(past_the_run),
                      /*kv_prot_info=*/nullptr, /*allow_concurrent=*/true,
                      &info, /*hint=*/nullptr);
  if (!s.ok()) {
    // The same key and sequence number is there: the same run, converted
    // by another iterator at the same sequence number.
    s.PermitUncheckedError();
    return Outcome::kNotAdded;
  }
  mem->BatchPostProcess(info);
  return Outcome::kInserted;
}

}  // namespace

TombstoneRunState::~TombstoneRunState() {
  Shared& shared = GetShared();
  std::lock_guard<std::mutex> l(shared.mu);
  shared.waiting_runs.fetch_sub(waiting.size(), std::memory_order_relaxed);
  shared.waiting_families.erase(this);
}

TombstoneRunCounts GetTombstoneRunCounts(ColumnFamilyData* cfd) {
  Shared& shared = GetShared();
  std::lock_guard<std::mutex> l(shared.mu);
  return cfd->tombstone_runs()->counts;
}

TombstoneRunCounts GetTombstoneRunCountsInProcess() {
  Shared& shared = GetShared();
  std::lock_guard<std::mutex> l(shared.mu);
  return shared.process_counts;
}

void InsertHandedOffTombstoneRuns(DBImpl* db) {
  Shared& shared = GetShared();
  if (shared.waiting_runs.load(std::memory_order_relaxed) == 0) {
    return;
  }
  std::vector<std::pair<uint32_t, TombstoneRunState::WaitingRun>> runs;
  {
    std::lock_guard<std::mutex> l(shared.mu);
    for (auto it = shared.waiting_families.begin();
         it != shared.waiting_families.end();) {
      TombstoneRunState& family = **it;
      if (family.db != db) {
        ++it;
        continue;
      }
      shared.waiting_runs.fetch_sub(family.waiting.size(),
                                    std::memory_order_relaxed);
      for (TombstoneRunState::WaitingRun& run : family.waiting) {
        runs.emplace_back(family.column_family_id, std::move(run));
      }
      family.waiting.clear();
      it = shared.waiting_families.erase(it);
    }
  }
  if (runs.empty()) {
    return;
  }
  InstrumentedMutexLock l(db->mutex());
  ColumnFamilySet* families = db->GetVersionSet()->GetColumnFamilySet();
  for (const auto& [column_family_id, run] : runs) {
    // Between the shared mutex and the DB mutex the family may have been
    // destroyed, its runs with it: look it up by id (never reused in a DB).
    ColumnFamilyData* cfd = families->GetColumnFamily(column_family_id);
    if (cfd == nullptr) {
      continue;
    }
    const Outcome outcome =
        AddToMutableMemtable(db, cfd, run.super_version_number, run.seq,
                             run.start, run.end, run.worth);
    Account(db, cfd, outcome);
    if (outcome == Outcome::kInserted) {
      TEST_SYNC_POINT("InsertHandedOffTombstoneRuns:Inserted");
    }
  }
}

std::string TombstoneRunsReport(ColumnFamilyData* cfd) {
  TombstoneRunCounts c = GetTombstoneRunCounts(cfd);
  auto n = [&c](Outcome o) { return c.by_outcome[static_cast<int>(o)]; };
  char buf[1024];
  snprintf(
      buf, sizeof(buf),
      "min_tombstones_for_range_conversion: %" PRIu32 "\ninserted: %" PRIu64
      "\ndiscarded: %" PRIu64 "\ndiscarded.superversion_changed: %" PRIu64
      "\ndiscarded.older_than_memtable: %" PRIu64
      "\ndiscarded.not_added: %" PRIu64 "\ndiscarded.stopped: %" PRIu64
      "\ndiscarded.pushed_out: %" PRIu64
      "\ndiscarded.write_thread_busy: %" PRIu64
      "\ndiscarded.cheaper_to_step: %" PRIu64
      "\ndiscarded.left_to_pruning: %" PRIu64 "\n",
      cfd->GetLatestMutableCFOptions()->min_tombstones_for_range_conversion,
      c.inserted, c.discarded, n(Outcome::kSuperVersionChanged),
      n(Outcome::kOlderThanMemtable), n(Outcome::kNotAdded),
      n(Outcome::kStopped), n(Outcome::kPushedOut),
      n(Outcome::kWriteThreadBusy), n(Outcome::kCheaperToStep),
      n(Outcome::kLeftToPruning));
  return buf;
}

void TombstoneRunTracker::Convert(const Slice& start, const Slice& end,
                                  SequenceNumber seq,
                                  uint64_t entries_below_memtable,
                                  uint32_t pruned_early) {
  if (target_.db == nullptr ||
      target_.user_comparator->Compare(start, end) >= 0) {
    return;
  }
  if (entries_below_memtable == 0) {
    // Known here already: spare the reader the write thread, the DB mutex
    // and a hand-off copy (AddToMutableMemtable applies the same rule).
    Account(target_.db, target_.cfd, Outcome::kCheaperToStep);
    return;
  }
  // Inserted, handed off or discarded: the DB counts whichever it was.
  TombstoneRunInserter(target_.db)
      .Insert(target_.cfd, target_.super_version_number, seq, start, end,
              TombstoneRunWorth{entries_below_memtable,
                                count_ - pruned_early < threshold_})
      .PermitUncheckedError();
}

Status TombstoneRunInserter::Insert(ColumnFamilyData* cfd,
                                    uint64_t super_version_number,
                                    SequenceNumber seq, const Slice& start,
                                    const Slice& end,
                                    const TombstoneRunWorth& worth) {
  // A reader never waits for writers: enter the write thread(s) only if
  // nobody is writing, stalled or holding LockWAL(). Stopped writes mean
  // LockWAL() or a stall: the DB's state is meant to stay as it is.
  Outcome outcome;
  {
    DBImplAccess::WriteThreadEntry entry(
        db_, /*try_enter=*/!DBImplAccess::WritesStopped(*db_));
    if (!entry.entered()) {
      if (DBImplAccess::TwoWriteQueues(*db_)) {
        Account(db_, cfd, Outcome::kWriteThreadBusy);
        return Status::Busy("write thread busy");
      }
      HandOff(db_, cfd, super_version_number, seq, start, end, worth);
      return Status::Incomplete("handed off to the next write group");
    }
    // As in a memtable switch: write thread first, then the DB mutex,
    // which no holder keeps while it waits for the write thread.
    InstrumentedMutexLock l(db_->mutex());
    outcome = DBImplAccess::IsDBStopped(*db_)
                  ? Outcome::kStopped
                  : AddToMutableMemtable(db_, cfd, super_version_number, seq,
                                         start, end, worth);
  }
  Account(db_, cfd, outcome);
  return outcome == Outcome::kInserted ? Status::OK()
                                       : Status::Aborted("run discarded");
}

}  // namespace ROCKSDB_NAMESPACE
