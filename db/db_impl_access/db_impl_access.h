// The private DBImpl state that Lodestone's pieces in db/ use, and nothing
// more: DBImpl names DBImplAccess its one Lodestone friend (patch 0017), so
// this header lists every private member they touch.
//
// Its users run outside any write: scan-time conversion inserts a range
// tombstone for a reader (db/tombstone_runs/), and the delete-persistence
// timer flushes for the periodic task thread (db/tombstone_compaction/).
// Neither may wait for a writer, so the write thread is entered only through
// WriteThreadEntry, which never blocks.

#pragma once

#include "db/write_thread.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class DBImpl;
class SeqnoToTimeMapping;

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
};

}  // namespace ROCKSDB_NAMESPACE
