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
//    DBs opened with allow_ingest_behind never convert (DBImpl::
//    NewIteratorImpl, patch 0017);
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
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/memtable.h"
#include "db/tombstone_runs/tombstone_run_tracker.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/comparator.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

const char* const kTombstoneRunsProperty = "rocksdb.lodestone.tombstone-runs";

namespace {

struct HandedOffRun {
  uint32_t column_family_id;
  uint64_t super_version_number;
  SequenceNumber seq;
  std::string start;
  std::string end;
  TombstoneRunWorth worth;
};

struct FamilyState {
  TombstoneRunCounts counts;
  DBImpl* db = nullptr;  // Set with the first handed-off run.
  std::deque<HandedOffRun> waiting;
};

// Keyed by column family; an entry goes when its family is destroyed.
struct Registry {
  std::mutex mu;
  std::unordered_map<const ColumnFamilyData*, FamilyState> families;
  TombstoneRunCounts process_counts;
  // Runs waiting in any family: the write path's fast check.
  std::atomic<size_t> waiting_runs{0};
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

using Outcome = TombstoneRunOutcome;

// REQUIRES: the registry's mutex held.
void CountLocked(Registry& r, FamilyState& family, Outcome outcome,
                 uint64_t n) {
  for (TombstoneRunCounts* c : {&family.counts, &r.process_counts}) {
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
void Account(DBImpl* db, const ColumnFamilyData* cfd, Outcome outcome) {
  Registry& r = GetRegistry();
  {
    std::lock_guard<std::mutex> l(r.mu);
    CountLocked(r, r.families[cfd], outcome, 1);
  }
  Tick(db, outcome, 1);
}

// Keeps a run for the next write group. A run proven through an older
// SuperVersion than this one can never go in any more, and the list is
// bounded: both are discarded here.
void HandOff(DBImpl* db, const ColumnFamilyData* cfd,
             uint64_t super_version_number, SequenceNumber seq,
             const Slice& start, const Slice& end,
             const TombstoneRunWorth& worth) {
  Registry& r = GetRegistry();
  uint64_t stale = 0;
  uint64_t pushed_out = 0;
  uint64_t duplicate = 0;
  {
    std::lock_guard<std::mutex> l(r.mu);
    FamilyState& family = r.families[cfd];
    family.db = db;
    std::deque<HandedOffRun>& waiting = family.waiting;
    // Iterators at one sequence number prove the same runs: keep one copy,
    // as the memtable would refuse the others (and keep their allocation).
    for (const HandedOffRun& run : waiting) {
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
      waiting.push_back(HandedOffRun{cfd->GetID(), super_version_number, seq,
                                     start.ToString(), end.ToString(), worth});
      r.waiting_runs.fetch_add(1, std::memory_order_relaxed);
    }
    CountLocked(r, family, Outcome::kNotAdded, duplicate);
    CountLocked(r, family, Outcome::kSuperVersionChanged, stale);
    CountLocked(r, family, Outcome::kPushedOut, pushed_out);
    r.waiting_runs.fetch_sub(stale + pushed_out, std::memory_order_relaxed);
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
  // The concurrent insert path accepts a sequence number below the
  // memtable's newest; we are its only writer either way.
  Status s = mem->Add(seq, kTypeRangeDeletion, start, end,
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

TombstoneRunCounts GetTombstoneRunCounts(const ColumnFamilyData* cfd) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> l(r.mu);
  auto it = r.families.find(cfd);
  return it == r.families.end() ? TombstoneRunCounts() : it->second.counts;
}

TombstoneRunCounts GetTombstoneRunCountsInProcess() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> l(r.mu);
  return r.process_counts;
}

void ForgetTombstoneRuns(const ColumnFamilyData* cfd) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> l(r.mu);
  auto it = r.families.find(cfd);
  if (it != r.families.end()) {
    r.waiting_runs.fetch_sub(it->second.waiting.size(),
                             std::memory_order_relaxed);
    r.families.erase(it);
  }
}

void InsertHandedOffTombstoneRuns(DBImpl* db) {
  Registry& r = GetRegistry();
  if (r.waiting_runs.load(std::memory_order_relaxed) == 0) {
    return;
  }
  std::vector<std::pair<const ColumnFamilyData*, HandedOffRun>> runs;
  {
    std::lock_guard<std::mutex> l(r.mu);
    for (auto& [cfd, family] : r.families) {
      if (family.db != db || family.waiting.empty()) {
        continue;
      }
      r.waiting_runs.fetch_sub(family.waiting.size(),
                               std::memory_order_relaxed);
      for (HandedOffRun& run : family.waiting) {
        runs.emplace_back(cfd, std::move(run));
      }
      family.waiting.clear();
    }
  }
  if (runs.empty()) {
    return;
  }
  InstrumentedMutexLock l(db->mutex());
  ColumnFamilySet* families = db->GetVersionSet()->GetColumnFamilySet();
  for (auto& [cfd, run] : runs) {
    // Between the registry and the DB mutex the family may have been
    // destroyed (and its address reused): look it up by id.
    ColumnFamilyData* live = families->GetColumnFamily(run.column_family_id);
    if (live != cfd) {
      continue;  // Its counts went with it.
    }
    const Outcome outcome =
        AddToMutableMemtable(db, live, run.super_version_number, run.seq,
                             run.start, run.end, run.worth);
    Account(db, live, outcome);
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
  WriteThread::Writer w;
  WriteThread::Writer nonmem_w;
  bool entered = false;
  if (!db_->write_controller_.IsStopped() &&
      db_->write_thread_.TryEnterUnbatched(&w)) {
    entered = !db_->two_write_queues_ ||
              db_->nonmem_write_thread_.TryEnterUnbatched(&nonmem_w);
    if (!entered) {
      db_->write_thread_.ExitUnbatched(&w);  // A WAL-only writer is queued.
    }
  }
  if (!entered) {
    if (db_->two_write_queues_) {
      Account(db_, cfd, Outcome::kWriteThreadBusy);
      return Status::Busy("write thread busy");
    }
    HandOff(db_, cfd, super_version_number, seq, start, end, worth);
    return Status::Incomplete("handed off to the next write group");
  }
  Outcome outcome;
  {
    // As in a memtable switch: write thread first, then the DB mutex,
    // which no holder keeps while it waits for the write thread.
    InstrumentedMutexLock l(&db_->mutex_);
    outcome = db_->error_handler_.IsDBStopped()
                  ? Outcome::kStopped
                  : AddToMutableMemtable(db_, cfd, super_version_number, seq,
                                         start, end, worth);
  }
  if (db_->two_write_queues_) {
    db_->nonmem_write_thread_.ExitUnbatched(&nonmem_w);
  }
  db_->write_thread_.ExitUnbatched(&w);
  Account(db_, cfd, outcome);
  return outcome == Outcome::kInserted ? Status::OK()
                                       : Status::Aborted("run discarded");
}

}  // namespace ROCKSDB_NAMESPACE
