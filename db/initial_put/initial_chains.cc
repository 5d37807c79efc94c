// Early tombstone pruning: the CompactionIterator side (hooks in patch 0009).
//
// A chain is the versions of one key from an initial put (written when the
// key had no visible value) up to a Delete. When a flush or compaction sees a
// Delete and, in the same snapshot stripe, an initial put below it, no reader
// can tell the chain from nothing: the state below an initial put is "no
// visible value" by contract. So the Delete, the initial put and everything
// between are dropped at any level, instead of the Delete travelling to the
// last level. The versions below the initial put are then processed as the
// newest versions of the key.
//
// The flag must stay truthful as compaction drops versions: rule (A) drops
// the older versions of a stripe below an output put, which may include the
// tombstone that hid an even older value outside this compaction. So a put
// leaves as initial only when nothing below it in its stripe is dropped, or
// the oldest dropped version is itself an initial put (whose own "nothing
// below" then carries over). This also lets an overwrite inherit the flag.

#include <cinttypes>

#include "db/compaction/compaction_iterator.h"
#include "db/initial_put/initial_puts.h"
#include "logging/logging.h"
#include "monitoring/statistics_impl.h"
#include "utilities/lodestone/planted_bugs.h"

namespace ROCKSDB_NAMESPACE {

void CompactionIterator::SetInitialChainsForFlush(bool allow_ingest_behind) {
  initial_chains_ = compaction_ == nullptr && !allow_ingest_behind &&
                    snapshot_checker_ == nullptr && timestamp_size_ == 0 &&
                    InitialPutsWritten();
}

// True while the input is at an older version of the current key in the
// snapshot stripe of the output (`prev_snapshot` is the newest snapshot
// below it; 0 for none) that rule (A) would drop. Range tombstone sentinels
// and SingleDeletes end the walk and are left to the main loop: the
// SingleDelete branch runs before rule (A) and may keep a hidden
// SingleDelete, to be matched with its Put in an older stripe.
bool CompactionIterator::InitialChainWalkContinues(
    ParsedInternalKey* next, SequenceNumber prev_snapshot) {
  return !IsPausingManualCompaction() && !IsShuttingDown() && input_.Valid() &&
         !input_.IsDeleteRangeSentinelKey() &&
         ParseInternalKey(input_.key(), next, allow_data_in_errors_).ok() &&
         cmp_->Equal(ikey_.user_key, next->user_key) &&
         (prev_snapshot == 0 ||
          DefinitelyNotInSnapshot(next->sequence, prev_snapshot)) &&
         next->type != kTypeSingleDeletion;
}

bool CompactionIterator::PruneInitialChain(SequenceNumber prev_snapshot) {
  assert(ikey_.type == kTypeDeletion);
  if (PlantedBugActive(PlantedBug::kInitialPutPruneAcrossSnapshot)) {
    prev_snapshot = 0;
  }
  ParsedInternalKey next;
  uint64_t walked = 0;
  AdvanceInputIter();
  while (InitialChainWalkContinues(&next, prev_snapshot)) {
    ++walked;
    ++iter_stats_.num_input_records;
    const bool initial = next.type == kTypeValueInitial;
    AdvanceInputIter();
    if (initial) {
      ++num_initial_chains_pruned_;
      num_initial_chain_records_pruned_ += walked + 1;  // With the Delete.
      iter_stats_.num_record_drop_hidden += walked + 1;
      // Nothing of the chain is output, so the next version of this key is
      // the newest one left: do not let rule (A) hide it behind the Delete.
      has_current_user_key_ = false;
      return true;
    }
  }
  // No initial put in the stripe: the Delete stays, and what it hid in its
  // stripe is gone, as rule (A) would have dropped it.
  iter_stats_.num_record_drop_hidden += walked;
  return false;
}

void CompactionIterator::SettleInitialFlag(SequenceNumber prev_snapshot) {
  // The output's value must outlive the look-ahead.
  pinned_iters_mgr_.StartPinning();
  initial_lookahead_pinned_ = true;
  if (!input_.IsValuePinned()) {
    initial_lookahead_value_.assign(value_.data(), value_.size());
    value_ = initial_lookahead_value_;
  }

  ParsedInternalKey next;
  uint64_t walked = 0;
  bool oldest_walked_is_initial = false;
  AdvanceInputIter();
  while (InitialChainWalkContinues(&next, prev_snapshot)) {
    ++walked;
    ++iter_stats_.num_input_records;
    oldest_walked_is_initial = next.type == kTypeValueInitial;
    AdvanceInputIter();
  }
  iter_stats_.num_record_drop_hidden += walked;
  at_next_ = true;

  // A walk cut short (a sentinel, a SingleDelete, a bad key, shutdown)
  // leaves the rest of the stripe to the main loop, so nothing below can be
  // vouched for.
  ParsedInternalKey after;
  const bool cut_short =
      input_.Valid() &&
      (input_.IsDeleteRangeSentinelKey() ||
       !ParseInternalKey(input_.key(), &after, allow_data_in_errors_).ok() ||
       (cmp_->Equal(ikey_.user_key, after.user_key) &&
        (prev_snapshot == 0 ||
         DefinitelyNotInSnapshot(after.sequence, prev_snapshot))));
  const bool initial =
      !cut_short && (walked == 0 ? ikey_.type == kTypeValueInitial
                                 : oldest_walked_is_initial);
  const ValueType type = initial ? kTypeValueInitial : kTypeValue;
  if (type != ikey_.type) {
    ikey_.type = type;
    current_key_.UpdateInternalKey(ikey_.sequence, type);
    key_ = current_key_.GetInternalKey();
  }
}

void RecordInitialChainStats(const CompactionIterator& c_iter,
                             Statistics* stats, Logger* logger,
                             const std::string& column_family, int output_level,
                             bool bottommost) {
  const uint64_t pruned = c_iter.num_initial_chains_pruned();
  if (pruned > 0) {
    RecordTick(stats, INITIAL_CHAINS_PRUNED, pruned);
    if (!bottommost) {
      RecordTick(stats, TOMBSTONES_PRUNED_EARLY, pruned);
    }
    ROCKS_LOG_INFO(logger,
                   "[%s] initial chains pruned: %" PRIu64 " (%" PRIu64
                   " records) writing level %d%s",
                   column_family.c_str(), pruned,
                   c_iter.num_initial_chain_records_pruned(), output_level,
                   bottommost ? " (last level)" : "");
  }
  if (c_iter.num_tombstones_to_bottommost() > 0) {
    RecordTick(stats, TOMBSTONES_REACHED_BOTTOMMOST,
               c_iter.num_tombstones_to_bottommost());
  }
}

}  // namespace ROCKSDB_NAMESPACE
