// Early tombstone pruning inside a flush or compaction (initial_chains.h).

#include "db/initial_put/initial_chains.h"

#include <algorithm>
#include <cinttypes>

#include "db/compaction/compaction_iteration_stats.h"
#include "db/compaction/compaction_iterator.h"
#include "db/initial_put/initial_puts.h"
#include "db/pinned_iterators_manager.h"
#include "db/version_edit.h"
#include "logging/logging.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/comparator.h"
#include "table/internal_iterator.h"
#include "test_util/lodestone/planted_bugs.h"

namespace ROCKSDB_NAMESPACE {

void InitialChains::Attach(const Input& input,
                           bool visibility_is_sequence_order) {
  input_ = input;
  trackable_ = visibility_is_sequence_order;
}

void InitialChains::EnableForCompaction(const Compaction* compaction,
                                        bool allow_ingest_behind) {
  enabled_ = trackable_ && !allow_ingest_behind &&
             CompactionInputMayHoldInitialPuts(compaction);
}

void InitialChains::EnableForFlush(bool allow_ingest_behind) {
  enabled_ = trackable_ && !allow_ingest_behind && InitialPutsWritten();
}

bool InitialChains::Stopping() const {
  // Best effort, as the compaction's own checks: relaxed loads suffice.
  return input_.manual_compaction_canceled->load(std::memory_order_relaxed) ||
         (input_.shutting_down != nullptr &&
          input_.shutting_down->load(std::memory_order_relaxed));
}

bool InitialChains::InStripe(const Slice& user_key,
                             SequenceNumber prev_snapshot,
                             const ParsedInternalKey& version) const {
  return input_.user_comparator->Equal(user_key, version.user_key) &&
         (prev_snapshot == 0 || version.sequence > prev_snapshot);
}

bool InitialChains::WalkContinues(const Slice& user_key,
                                  SequenceNumber prev_snapshot,
                                  ParsedInternalKey* next) const {
  InternalIterator* iter = input_.iter;
  return !Stopping() && iter->Valid() && !iter->IsDeleteRangeSentinelKey() &&
         ParseInternalKey(iter->key(), next, input_.allow_data_in_errors)
             .ok() &&
         InStripe(user_key, prev_snapshot, *next) &&
         next->type != kTypeSingleDeletion;
}

bool InitialChains::PruneChain(const ParsedInternalKey& del,
                               SequenceNumber prev_snapshot,
                               CompactionIterationStats* stats) {
  assert(enabled_ && del.type == kTypeDeletion);
  if (PlantedBugActive(PlantedBug::kInitialPutPruneAcrossSnapshot)) {
    prev_snapshot = 0;
  }
  ParsedInternalKey next;
  uint64_t walked = 0;
  input_.iter->Next();
  while (WalkContinues(del.user_key, prev_snapshot, &next)) {
    ++walked;
    ++stats->num_input_records;
    const bool initial = next.type == kTypeValueInitial;
    input_.iter->Next();
    if (initial) {
      ++chains_pruned_;
      chain_records_pruned_ += walked + 1;  // With the Delete.
      largest_pruned_seqno_ = std::max(largest_pruned_seqno_, del.sequence);
      stats->num_record_drop_hidden += walked + 1;
      return true;
    }
  }
  // No initial put in the stripe: the Delete stays, and what it hid in its
  // stripe is gone, as rule (A) would have dropped it.
  stats->num_record_drop_hidden += walked;
  return false;
}

bool InitialChains::SettleFlag(SequenceNumber prev_snapshot,
                               ParsedInternalKey* put, Slice* value,
                               CompactionIterationStats* stats) {
  assert(enabled_);
  assert(put->type == kTypeValue || put->type == kTypeValueInitial);
  // The output's value must outlive the look-ahead.
  input_.pinned_iters_mgr->StartPinning();
  value_pinned_ = true;
  if (!input_.iter->IsValuePinned()) {
    settled_value_.assign(value->data(), value->size());
    *value = settled_value_;
  }

  ParsedInternalKey next;
  uint64_t walked = 0;
  bool oldest_walked_is_initial = false;
  input_.iter->Next();
  while (WalkContinues(put->user_key, prev_snapshot, &next)) {
    ++walked;
    ++stats->num_input_records;
    oldest_walked_is_initial = next.type == kTypeValueInitial;
    input_.iter->Next();
  }
  stats->num_record_drop_hidden += walked;

  // A walk cut short (a sentinel, a SingleDelete, a bad key, shutdown)
  // leaves the rest of the stripe to the main loop, so nothing below can be
  // vouched for.
  InternalIterator* iter = input_.iter;
  ParsedInternalKey after;
  const bool cut_short =
      iter->Valid() &&
      (iter->IsDeleteRangeSentinelKey() ||
       !ParseInternalKey(iter->key(), &after, input_.allow_data_in_errors)
            .ok() ||
       InStripe(put->user_key, prev_snapshot, after));
  const bool initial =
      !cut_short &&
      (walked == 0 ? put->type == kTypeValueInitial : oldest_walked_is_initial);
  const ValueType type = initial ? kTypeValueInitial : kTypeValue;
  if (type == put->type) {
    return false;
  }
  put->type = type;
  return true;
}

void InitialChains::ReleasePin() {
  input_.pinned_iters_mgr->ReleasePinnedData();
  value_pinned_ = false;
}

void RecordInitialChainStats(const CompactionIterator& c_iter,
                             Statistics* stats, Logger* logger,
                             const std::string& column_family, int output_level,
                             bool bottommost) {
  const InitialChains& chains = c_iter.initial_chains();
  const uint64_t pruned = chains.chains_pruned();
  if (pruned > 0) {
    RecordTick(stats, INITIAL_CHAINS_PRUNED, pruned);
    if (!bottommost) {
      RecordTick(stats, TOMBSTONES_PRUNED_EARLY, pruned);
    }
    ROCKS_LOG_INFO(logger,
                   "[%s] initial chains pruned: %" PRIu64 " (%" PRIu64
                   " records) writing level %d%s",
                   column_family.c_str(), pruned, chains.chain_records_pruned(),
                   output_level, bottommost ? " (last level)" : "");
  }
  if (chains.tombstones_to_bottommost() > 0) {
    RecordTick(stats, TOMBSTONES_REACHED_BOTTOMMOST,
               chains.tombstones_to_bottommost());
  }
}

void CoverPrunedWrites(SequenceNumber largest_pruned_seqno, VersionEdit* edit) {
  if (largest_pruned_seqno != 0 &&
      (!edit->HasLastSequence() ||
       edit->GetLastSequence() < largest_pruned_seqno)) {
    edit->SetLastSequence(largest_pruned_seqno);
  }
}

}  // namespace ROCKSDB_NAMESPACE
