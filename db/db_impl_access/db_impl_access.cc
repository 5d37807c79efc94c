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

DBImplAccess::WriteThreadEntry::WriteThreadEntry(DBImpl* db) : db_(db) {
  InstrumentedMutexLock lock(&db_->mutex_);
  db_->write_thread_.EnterUnbatched(&writer_, &db_->mutex_);
  if (db_->two_write_queues_) {
    db_->nonmem_write_thread_.EnterUnbatched(&nonmem_writer_, &db_->mutex_);
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

SequenceNumber DBImplAccess::TakeSequenceNumber(DBImpl* db) {
  InstrumentedMutexLock lock(&db->mutex_);
  db->WaitForPendingWrites();
  const SequenceNumber taken = db->versions_->LastSequence() + 1;
  db->versions_->SetLastAllocatedSequence(taken);
  db->versions_->SetLastPublishedSequence(taken);
  db->versions_->SetLastSequence(taken);
  return taken;
}

bool DBImplAccess::MemtablesEmpty(DBImpl* db, ColumnFamilyData* cfd) {
  InstrumentedMutexLock lock(&db->mutex_);
  return cfd->mem()->IsEmpty() && cfd->imm()->NumNotFlushed() == 0;
}

uint64_t DBImplAccess::NewestImmutableMemTableId(DBImpl* db,
                                                 ColumnFamilyData* cfd) {
  InstrumentedMutexLock lock(&db->mutex_);
  return cfd->imm()->NumNotFlushed() == 0
             ? 0
             : cfd->imm()->GetLatestMemTableID(/*for_atomic_flush=*/false);
}

Status DBImplAccess::BackgroundError(DBImpl* db) {
  InstrumentedMutexLock lock(&db->mutex_);
  return db->error_handler_.GetBGError();
}

Status DBImplAccess::WaitForFlush(DBImpl* db, ColumnFamilyData* cfd,
                                  uint64_t memtable_id) {
  if (memtable_id == 0) {
    return Status::OK();
  }
  return db->WaitForFlushMemTable(cfd, &memtable_id);
}

Status DBImplAccess::ApplyEdit(DBImpl* db, ColumnFamilyData* cfd,
                               VersionEdit* edit,
                               Status (*precondition)(ColumnFamilyData* cfd,
                                                      const void* arg),
                               const void* arg) {
  const ReadOptions read_options;
  const WriteOptions write_options;
  SuperVersionContext sv_context(/*create_superversion=*/true);
  Status s;
  {
    InstrumentedMutexLock lock(&db->mutex_);
    s = precondition(cfd, arg);
    if (s.ok()) {
      const MutableCFOptions mutable_cf_options =
          *cfd->GetLatestMutableCFOptions();
      s = db->versions_->LogAndApply(cfd, mutable_cf_options, read_options,
                                     write_options, edit, &db->mutex_,
                                     db->directories_.GetDbDir());
      if (s.ok()) {
        db->InstallSuperVersionAndScheduleWork(cfd, &sv_context,
                                               mutable_cf_options);
      } else if (db->versions_->io_status().IsIOError()) {
        // As ingestion does: the DB stops writes until it recovers, which
        // writes a new MANIFEST (this one may end in a torn record).
        db->error_handler_.SetBGError(db->versions_->io_status(),
                                      BackgroundErrorReason::kManifestWrite);
      }
    }
  }
  sv_context.Clean();
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
