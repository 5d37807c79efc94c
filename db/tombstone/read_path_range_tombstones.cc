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
// queued or running (WriteThread::TryEnterUnbatched, patch 0027); otherwise
// it gives up and
// returns Busy, and the iterator offers the run again on its next steps
// (tombstone_run_tracker.h) before counting it as discarded. Holding
// the write thread makes this the memtable's only writer, so no writer
// races the insert.
//
// The tombstone does not go to the WAL: after a crash it is simply gone,
// which changes no result either.

#include "db/tombstone/read_path_range_tombstones.h"

#include <cinttypes>
#include <mutex>
#include <unordered_map>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/memtable.h"
#include "db/tombstone/tombstone_run_tracker.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/comparator.h"

namespace ROCKSDB_NAMESPACE {

const char* const kReadPathRangeTombstonesProperty =
    "rocksdb.lodestone.read-path-range-tombstones";

namespace {

// Keyed by column family; an entry goes when its family is destroyed.
struct CountsRegistry {
  std::mutex mu;
  std::unordered_map<const ColumnFamilyData*, ReadPathRangeTombstoneCounts>
      counts;
};

CountsRegistry& Registry() {
  static CountsRegistry* registry = new CountsRegistry;
  return *registry;
}

void Count(const ColumnFamilyData* cfd, bool inserted) {
  CountsRegistry& r = Registry();
  std::lock_guard<std::mutex> l(r.mu);
  ReadPathRangeTombstoneCounts& c = r.counts[cfd];
  (inserted ? c.inserted : c.discarded)++;
}

}  // namespace

ReadPathRangeTombstoneCounts GetReadPathRangeTombstoneCounts(
    const ColumnFamilyData* cfd) {
  CountsRegistry& r = Registry();
  std::lock_guard<std::mutex> l(r.mu);
  auto it = r.counts.find(cfd);
  return it == r.counts.end() ? ReadPathRangeTombstoneCounts() : it->second;
}

void ForgetReadPathRangeTombstoneCounts(const ColumnFamilyData* cfd) {
  CountsRegistry& r = Registry();
  std::lock_guard<std::mutex> l(r.mu);
  r.counts.erase(cfd);
}

std::string ReadPathRangeTombstonesReport(ColumnFamilyData* cfd) {
  ReadPathRangeTombstoneCounts c = GetReadPathRangeTombstoneCounts(cfd);
  char buf[160];
  snprintf(buf, sizeof(buf),
           "min_tombstones_for_range_conversion: %" PRIu32
           "\ninserted: %" PRIu64 "\ndiscarded: %" PRIu64 "\n",
           cfd->GetLatestMutableCFOptions()->min_tombstones_for_range_conversion,
           c.inserted, c.discarded);
  return buf;
}

void TombstoneRunTracker::Convert(const Slice& start, const Slice& end,
                                  SequenceNumber seq) {
  if (threshold_ == 0 || target_.db == nullptr ||
      target_.user_comparator->Compare(start, end) >= 0) {
    return;
  }
  Status s = target_.db->InsertReadPathRangeTombstone(
      target_.cfd, target_.super_version_number, seq, start, end);
  if (s.IsBusy()) {
    DropPending();  // One kept run at a time; the newer one is kept.
    pending_start_.assign(start.data(), start.size());
    pending_end_.assign(end.data(), end.size());
    pending_seq_ = seq;
    pending_retries_ = kBusyRetries;
  }
}

void TombstoneRunTracker::RetryPending() {
  Status s = target_.db->InsertReadPathRangeTombstone(
      target_.cfd, target_.super_version_number, pending_seq_, pending_start_,
      pending_end_);
  if (!s.IsBusy()) {
    pending_retries_ = 0;  // Inserted, or refused and counted.
  } else if (--pending_retries_ == 0) {
    CountReadPathRangeTombstoneDiscarded(target_.db, target_.cfd);
  }
}

void TombstoneRunTracker::DropPending() {
  if (pending_retries_ > 0) {
    pending_retries_ = 0;
    CountReadPathRangeTombstoneDiscarded(target_.db, target_.cfd);
  }
}

void CountReadPathRangeTombstoneDiscarded(DBImpl* db,
                                          const ColumnFamilyData* cfd) {
  Count(cfd, /*inserted=*/false);
  RecordTick(db->immutable_db_options().statistics.get(),
             READ_PATH_RANGE_TOMBSTONES_DISCARDED);
}

Status DBImpl::InsertReadPathRangeTombstone(ColumnFamilyData* cfd,
                                            uint64_t super_version_number,
                                            SequenceNumber seq,
                                            const Slice& start,
                                            const Slice& end) {
  Statistics* stats = immutable_db_options_.statistics.get();
  Status s;
  // A reader never waits for writers: enter the write thread(s) only if
  // nobody is writing, stalled or holding LockWAL(), else give up.
  WriteThread::Writer w;
  WriteThread::Writer nonmem_w;
  if (write_controller_.IsStopped()) {
    // LockWAL() or a stall: the DB's state is meant to stay as it is.
    s = Status::Busy("writes are stopped");
  } else if (!write_thread_.TryEnterUnbatched(&w)) {
    s = Status::Busy("a writer is queued");
  } else if (two_write_queues_ &&
             !nonmem_write_thread_.TryEnterUnbatched(&nonmem_w)) {
    write_thread_.ExitUnbatched(&w);
    s = Status::Busy("a WAL-only writer is queued");
  }
  if (s.ok()) {
    {
      // As in a memtable switch: write thread first, then the DB mutex,
      // which no holder keeps while it waits for the write thread.
      InstrumentedMutexLock l(&mutex_);
      MemTable* mem = cfd->mem();
      if (cfd->IsDropped() || error_handler_.IsDBStopped()) {
        s = Status::Aborted("column family dropped or DB stopped");
      } else if (cfd->GetSuperVersionNumber() != super_version_number) {
        // A flush, memtable switch, ingestion or compaction since the
        // iterator started: its view may miss data older than seq.
        s = Status::TryAgain("SuperVersion changed");
      } else if (seq < mem->GetEarliestSequenceNumber()) {
        s = Status::TryAgain("read sequence predates the mutable memtable");
      } else {
        MemTablePostProcessInfo info;
        // The concurrent insert path accepts a sequence number below the
        // memtable's newest; we are its only writer either way.
        s = mem->Add(seq, kTypeRangeDeletion, start, end,
                     /*kv_prot_info=*/nullptr, /*allow_concurrent=*/true,
                     &info, /*hint=*/nullptr);
        if (s.ok()) {
          mem->BatchPostProcess(info);
        }
      }
    }
    if (two_write_queues_) {
      nonmem_write_thread_.ExitUnbatched(&nonmem_w);
    }
    write_thread_.ExitUnbatched(&w);
  }
  if (s.IsBusy()) {
    return s;  // The caller may offer the run again; it counts a give-up.
  }
  Count(cfd, s.ok());
  RecordTick(stats, s.ok() ? READ_PATH_RANGE_TOMBSTONES_INSERTED
                           : READ_PATH_RANGE_TOMBSTONES_DISCARDED);
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
