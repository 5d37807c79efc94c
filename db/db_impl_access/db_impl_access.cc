#include "db/db_impl_access/db_impl_access.h"

#include "db/db_impl/db_impl.h"

namespace ROCKSDB_NAMESPACE {

DBImplAccess::WriteThreadEntry::WriteThreadEntry(DBImpl* db, bool try_enter)
    : db_(db) {
  if (!try_enter || !db_->write_thread_.TryEnterUnbatched(&writer_)) {
    return;
  }
  if (db_->two_write_queues_ &&
      !db_->nonmem_write_thread_.TryEnterUnbatched(&nonmem_writer_)) {
    db_->write_thread_.ExitUnbatched(&writer_);  // A WAL-only writer waits.
    return;
  }
  entered_ = true;
}

DBImplAccess::WriteThreadEntry::~WriteThreadEntry() {
  if (!entered_) {
    return;
  }
  if (db_->two_write_queues_) {
    db_->nonmem_write_thread_.ExitUnbatched(&nonmem_writer_);
  }
  db_->write_thread_.ExitUnbatched(&writer_);
}

bool DBImplAccess::TwoWriteQueues(const DBImpl& db) {
  return db.two_write_queues_;
}

bool DBImplAccess::WritesStopped(DBImpl& db) {
  return db.write_controller_.IsStopped();
}

bool DBImplAccess::IsDBStopped(DBImpl& db) {
  db.mutex_.AssertHeld();
  return db.error_handler_.IsDBStopped();
}

const SeqnoToTimeMapping& DBImplAccess::SeqnoToTime(const DBImpl& db) {
  return db.seqno_to_time_mapping_;
}

void DBImplAccess::EnqueuePendingCompaction(DBImpl* db, ColumnFamilyData* cfd) {
  db->EnqueuePendingCompaction(cfd);
}

void DBImplAccess::MaybeScheduleFlushOrCompaction(DBImpl* db) {
  db->MaybeScheduleFlushOrCompaction();
}

Status DBImplAccess::FlushFromWriteThread(DBImpl* db, ColumnFamilyData* cfd,
                                          bool* all_column_families) {
  FlushOptions flush_options;
  flush_options.wait = false;
  flush_options.allow_write_stall = true;
  // With atomic_flush every column family flushes together, as in all of
  // RocksDB's own flushes: with the WAL off, a crash must leave a
  // consistent point across column families, not one flushed ahead.
  *all_column_families = db->immutable_db_options_.atomic_flush;
  if (*all_column_families) {
    return db->AtomicFlushMemTables(flush_options, FlushReason::kOthers,
                                    /*provided_candidate_cfds=*/{},
                                    /*entered_write_thread=*/true);
  }
  return db->FlushMemTable(cfd, flush_options, FlushReason::kOthers,
                           /*entered_write_thread=*/true);
}

}  // namespace ROCKSDB_NAMESPACE
