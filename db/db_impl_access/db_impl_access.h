// The private DBImpl state that Lodestone's pieces in db/ use, and nothing
// more: DBImpl names DBImplAccess its one Lodestone friend (patch 0017), so
// this header lists every private member they touch.
//
// Its users run outside any write: scan-time conversion inserts a range
// tombstone for a reader (db/tombstone_runs/), and the delete-persistence
// timer flushes for the periodic task thread (db/tombstone_compaction/).
// Neither may wait for a writer, so they enter the write thread only
// through WriteThreadEntry's non-blocking form. DeleteByDeleteKeyRange
// (db/secondary_deletes/) is a write of its own and waits like one.

#pragma once

#include "db/dbformat.h"
#include "db/write_thread.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class DBImpl;
class SeqnoToTimeMapping;
class VersionEdit;

class DBImplAccess {
 public:
  // Holds `db`'s write thread as an unbatched writer, with its second write
  // queue under two_write_queues, if it could enter both without waiting:
  // no writer queued or running (WriteThread::TryEnterUnbatched, patch
  // 0027). Exits them when destroyed.
  // REQUIRES: DB mutex not held (it is taken after the write thread).
  class WriteThreadEntry {
   public:
    // Enters nothing unless `try_enter`.
    WriteThreadEntry(DBImpl* db, bool try_enter);
    // Waits for the writers ahead, as a write does; always enters.
    explicit WriteThreadEntry(DBImpl* db);
    ~WriteThreadEntry();

    WriteThreadEntry(const WriteThreadEntry&) = delete;
    WriteThreadEntry& operator=(const WriteThreadEntry&) = delete;

    bool entered() const { return entered_; }

   private:
    DBImpl* const db_;
    WriteThread::Writer writer_;
    WriteThread::Writer nonmem_writer_;
    bool entered_ = false;
  };

  static bool TwoWriteQueues(const DBImpl& db);

  // Writes are stopped: a LockWAL() holder or a write stall.
  static bool WritesStopped(DBImpl& db);

  // A background error has stopped the DB.
  // REQUIRES: DB mutex held.
  static bool IsDBStopped(DBImpl& db);

  // REQUIRES: DB mutex held.
  static const SeqnoToTimeMapping& SeqnoToTime(const DBImpl& db);

  // Queues `cfd` for a compaction; MaybeScheduleFlushOrCompaction runs it.
  // REQUIRES: DB mutex held.
  static void EnqueuePendingCompaction(DBImpl* db, ColumnFamilyData* cfd);
  static void MaybeScheduleFlushOrCompaction(DBImpl* db);

  // Switches `cfd`'s memtable and schedules its flush without waiting for
  // it; with atomic_flush, every column family's, as RocksDB's own flushes
  // do. Returns whether the flush covered every column family.
  // REQUIRES: an entered WriteThreadEntry; DB mutex not held.
  static Status FlushFromWriteThread(DBImpl* db, ColumnFamilyData* cfd,
                                     bool* all_column_families);

  // Takes the next sequence number for a record that is not a write: no
  // write gets it, every write before has a smaller one and every later
  // write a larger one (as file ingestion takes its files' numbers).
  // REQUIRES: an entered WriteThreadEntry; DB mutex not held.
  static SequenceNumber TakeSequenceNumber(DBImpl* db);

  // Whether `cfd`'s memtables, mutable and immutable, hold no entry.
  // REQUIRES: DB mutex not held.
  static bool MemtablesEmpty(DBImpl* db, ColumnFamilyData* cfd);

  // The newest immutable memtable of `cfd`, 0 when none.
  // REQUIRES: DB mutex not held.
  static uint64_t NewestImmutableMemTableId(DBImpl* db, ColumnFamilyData* cfd);

  // The DB's background error (OK for none), which stops flushes until the
  // DB recovers. REQUIRES: DB mutex not held.
  static Status BackgroundError(DBImpl* db);

  // Waits until `cfd`'s immutable memtables up to `memtable_id` are flushed
  // (or a background error, shutdown or dropped family stops the wait).
  // REQUIRES: DB mutex not held.
  static Status WaitForFlush(DBImpl* db, ColumnFamilyData* cfd,
                             uint64_t memtable_id);

  // Applies `edit` to `cfd` in the MANIFEST and installs the new version in
  // a new SuperVersion, unless `precondition`, asked first under the DB
  // mutex, refuses with a status it returns. A failed MANIFEST write sets
  // the DB's background error, as DBImpl's own MANIFEST writes do.
  // REQUIRES: DB mutex not held.
  static Status ApplyEdit(DBImpl* db, ColumnFamilyData* cfd, VersionEdit* edit,
                          Status (*precondition)(ColumnFamilyData* cfd,
                                                 const void* arg),
                          const void* arg);
};

}  // namespace ROCKSDB_NAMESPACE
