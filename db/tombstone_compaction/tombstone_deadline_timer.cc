// The delete-persistence deadline on an idle DB (tombstone_deadline_timer.h).

#include "db/tombstone_compaction/tombstone_deadline_timer.h"

#include <algorithm>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/db_impl_access/db_impl_access.h"
#include "db/memtable.h"
#include "db/tombstone_compaction/tombstone_deadlines.h"
#include "db/version_set.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

void TombstoneDeadlineTimer::Run() {
  TEST_SYNC_POINT("TombstoneDeadlineTimer:Run");
  int64_t now_signed = 0;
  if (!db_->immutable_db_options().clock->GetCurrentTime(&now_signed).ok() ||
      now_signed <= 0) {
    return;
  }
  const uint64_t now = static_cast<uint64_t>(now_signed);
  std::vector<ColumnFamilyData*> to_flush;
  {
    InstrumentedMutexLock l(db_->mutex());
    bool scheduled = false;
    const SeqnoToTimeMapping& seqno_to_time = DBImplAccess::SeqnoToTime(*db_);
    for (ColumnFamilyData* cfd : *db_->GetVersionSet()->GetColumnFamilySet()) {
      if (cfd->IsDropped() || !cfd->initialized()) {
        continue;
      }
      const MutableCFOptions& mutable_cf_options =
          *cfd->GetLatestMutableCFOptions();
      const uint64_t threshold =
          mutable_cf_options.delete_persistence_threshold;
      // Deadlines are a leveled-compaction feature: other styles have no
      // base level or level targets to share the deadline by.
      if (threshold == 0 || mutable_cf_options.disable_auto_compactions ||
          cfd->ioptions()->compaction_style != kCompactionStyleLevel) {
        continue;
      }
      VersionStorageInfo* vstorage = cfd->current()->storage_info();

      // The memtable is the first stage.
      MemTable* mem = cfd->mem();
      if (mem->NumDeletion() + mem->NumRangeDeletion() > 0) {
        const uint64_t written = seqno_to_time.GetProximalTimeBeforeSeqno(
            mem->GetFirstSequenceNumber());
        const int last_level = TombstoneLastLevel(
            vstorage->num_non_empty_levels(), vstorage->base_level());
        const std::vector<uint64_t> deadlines = TombstoneStageDeadlines(
            threshold, TombstoneStageWeights(*vstorage, vstorage->base_level(),
                                             last_level, mutable_cf_options));
        // A memtable older than the mapping's oldest entry (it keeps about
        // preserve_internal_time_seconds, which is at least the threshold)
        // is overdue; with no entry at all its age is unknown.
        const bool older_than_mapping =
            written == kUnknownTimeBeforeAll && !seqno_to_time.Empty();
        if (older_than_mapping || (written != kUnknownTimeBeforeAll &&
                                   now >= written + deadlines[0])) {
          cfd->Ref();
          to_flush.push_back(cfd);
        }
      }

      vstorage->ComputeCompactionScore(*cfd->ioptions(), mutable_cf_options);
      if (!vstorage->TombstoneCompactionCandidates().empty()) {
        DBImplAccess::EnqueuePendingCompaction(db_, cfd);
        scheduled = true;
      }
    }
    if (scheduled) {
      DBImplAccess::MaybeScheduleFlushOrCompaction(db_);
    }
  }
  bool flushed_all = false;
  for (ColumnFamilyData* cfd : to_flush) {
    // This runs on the process-wide periodic task thread, which must never
    // wait for writers (a write stall, a LockWAL() holder): switch the
    // memtable only if the write thread is free, else retry next period.
    bool entered = false;
    {
      DBImplAccess::WriteThreadEntry entry(db_, /*try_enter=*/!flushed_all);
      entered = entry.entered();
      if (entered) {
        DBImplAccess::FlushFromWriteThread(db_, cfd, &flushed_all)
            .PermitUncheckedError();  // Retried on the next period.
      }
    }
    TEST_SYNC_POINT_CALLBACK("TombstoneDeadlineTimer:FlushAttempted", &entered);
    InstrumentedMutexLock l(db_->mutex());
    cfd->UnrefAndTryDelete();
  }
}

}  // namespace ROCKSDB_NAMESPACE
