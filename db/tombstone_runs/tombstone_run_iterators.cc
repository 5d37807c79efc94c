// Which iterators convert tombstone runs: the entry points that patch 0017
// declares in db/arena_wrapped_db_iter.h and db/db_iter.h, defined here so
// that the rules live beside the tracker (tombstone_run_tracker.h).
//
// A run may be converted only if the iterator that proved it saw every live
// key in it. Refused, so that the iterator tracks nothing:
//  - DBs with unordered_write, where a published sequence number may still
//    miss memtable writes, and with allow_ingest_behind, where a file may
//    later land below every sequence number, inside a converted run;
//  - reads that may hide live keys: a table_filter, a read tier other than
//    kReadAllTier, tailing iterators, read callbacks (transactions), user
//    timestamps, prefix iteration.

#include "db/arena_wrapped_db_iter.h"
#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/db_iter.h"
#include "db/memtable.h"
#include "db/tombstone_runs/tombstone_run_tracker.h"

namespace ROCKSDB_NAMESPACE {

void ArenaWrappedDBIter::EnableTombstoneRunConversion(
    ColumnFamilyHandleImpl* cfh, const SuperVersion& sv) {
  uint32_t threshold =
      sv.mutable_cf_options.min_tombstones_for_range_conversion;
  if (threshold == 0 && tombstone_run_cfh_ == nullptr) {
    return;  // Off, and never on for this iterator: nothing to undo.
  }
  if (threshold > 0) {
    const ImmutableDBOptions& db_options = cfh->db()->immutable_db_options();
    if (db_options.unordered_write || db_options.allow_ingest_behind ||
        read_options_.table_filter || read_options_.read_tier != kReadAllTier ||
        read_options_.tailing) {
      threshold = 0;
    }
  }
  tombstone_run_cfh_ = threshold > 0 ? cfh : nullptr;
  TombstoneRunTarget target;
  if (threshold > 0) {
    target.db = cfh->db();
    target.cfd = cfh->cfd();
    target.user_comparator = cfh->cfd()->user_comparator();
    target.super_version_number = sv_number_;
    target.memtable_first_seq = sv.mem->GetFirstSequenceNumber();
  }
  db_iter_->EnableTombstoneRunConversion(threshold, target);
}

void DBIter::EnableTombstoneRunConversion(uint32_t threshold,
                                          const TombstoneRunTarget& target) {
  if (read_callback_ != nullptr || timestamp_size_ > 0 ||
      !expect_total_order_inner_iter_ || prefix_same_as_start_) {
    threshold = 0;
  }
  if (threshold == 0) {
    tombstone_runs_.reset();
    return;
  }
  // Allocated only where conversion is on: other iterators pay a pointer,
  // not the tracker, which would push a short scan's iterator out of its
  // arena's inline block into a heap allocation.
  if (tombstone_runs_ == nullptr) {
    tombstone_runs_.reset(new TombstoneRunTracker());
  }
  tombstone_runs_->Enable(threshold, target);
}

}  // namespace ROCKSDB_NAMESPACE
