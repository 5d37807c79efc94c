// The delete-persistence deadline (FADE) must hold on an idle DB too: with
// no writes there are no flushes or compactions to re-score the LSM, yet a
// tombstone's age keeps growing. The periodic seqno-to-time task (which the
// deadline needs anyway, to date tombstones) runs a TombstoneDeadlineTimer
// (patch 0018), on the periodic task thread only: never inline in DB::Open,
// SetOptions or column family creation, which record a mapping entry too.

#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class DBImpl;

// Reaches DBImpl's compaction queue, seqno-to-time mapping and write
// thread through db/db_impl_access/.
class TombstoneDeadlineTimer {
 public:
  explicit TombstoneDeadlineTimer(DBImpl* db) : db_(db) {}

  // Flushes the memtables whose tombstones have used up the memtable's
  // share of the deadline and re-scores column families, so that overdue
  // files get compacted. Leveled compaction only. Never waits for writers
  // (the periodic task thread is process-wide): a memtable whose flush
  // would have to wait (a stall, a LockWAL() holder) is retried next period.
  // REQUIRES: DB mutex not held.
  void Run();

 private:
  DBImpl* const db_;
};

}  // namespace ROCKSDB_NAMESPACE
