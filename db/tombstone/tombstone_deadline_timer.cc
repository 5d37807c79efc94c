// The delete-persistence deadline (FADE) must hold on an idle DB too: with
// no writes there are no flushes or compactions to re-score the LSM, yet a
// tombstone's age keeps growing. The periodic seqno-to-time task (which the
// deadline needs anyway, to date tombstones) calls this to re-score column
// families that have a deadline and schedule what became due.

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

void DBImpl::ScheduleTombstoneDeadlineCompactions() {
  InstrumentedMutexLock l(&mutex_);
  bool scheduled = false;
  for (ColumnFamilyData* cfd : *versions_->GetColumnFamilySet()) {
    if (cfd->IsDropped() || !cfd->initialized()) {
      continue;
    }
    const MutableCFOptions& mutable_cf_options =
        *cfd->GetLatestMutableCFOptions();
    if (mutable_cf_options.delete_persistence_threshold == 0 ||
        mutable_cf_options.disable_auto_compactions) {
      continue;
    }
    VersionStorageInfo* vstorage = cfd->current()->storage_info();
    vstorage->ComputeCompactionScore(*cfd->ioptions(), mutable_cf_options);
    if (!vstorage->TombstoneCompactionCandidates().empty()) {
      EnqueuePendingCompaction(cfd);
      scheduled = true;
    }
  }
  if (scheduled) {
    MaybeScheduleFlushOrCompaction();
  }
}

}  // namespace ROCKSDB_NAMESPACE
