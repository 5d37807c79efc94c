// Early tombstone pruning: the part of a flush or compaction that recognizes
// initial-version chains. CompactionIterator owns one InitialChains and calls
// it from four hook points (patch 0009); the logic lives here.
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
//
// Call grammar, for one CompactionIterator reading its input in key order:
//   Attach EnableForCompaction? EnableForFlush?
//   ( PruneChain | SettleFlag | ReleaseSettledValue | FinalizeOutputType )*
// PruneChain and SettleFlag only while enabled(); the others at any time.
// One thread: the CompactionIterator's.

#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "rocksdb/rocksdb_namespace.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
class Comparator;
class PinnedIteratorsManager;
struct CompactionIterationStats;

class InitialChains {
 public:
  // The flush's or compaction's input as a walk reads it. `iter` is at the
  // version being decided; a walk leaves it at the first version it did not
  // consume. Everything outlives this object.
  struct Input {
    InternalIterator* iter = nullptr;
    const Comparator* user_comparator = nullptr;
    // Pins values that must outlive a walk past them.
    PinnedIteratorsManager* pinned_iters_mgr = nullptr;
    const std::atomic<bool>* shutting_down = nullptr;  // Null: never.
    const std::atomic<bool>* manual_compaction_canceled = nullptr;
    bool allow_data_in_errors = false;
  };

  // `visibility_is_sequence_order`: no snapshot checker and no user-defined
  // timestamps, so a version is in a snapshot exactly when its sequence
  // number is at most the snapshot's. Chains are tracked only then.
  void Attach(const Input& input, bool visibility_is_sequence_order);

  // Tracking turns on for a compaction whose inputs may hold initial puts,
  // and for a flush once initial puts were written in this process; never
  // with ingest-behind, whose data appears below every chain.
  void EnableForCompaction(const Compaction* compaction,
                           bool allow_ingest_behind);
  void EnableForFlush(bool allow_ingest_behind);

  // Whether this flush or compaction prunes chains and keeps initial flags;
  // when false, initial puts are written as plain puts.
  bool enabled() const { return enabled_; }

  // At `del`, a Delete that is the newest version in its snapshot stripe
  // (the newest snapshot below it is `prev_snapshot`, 0 for none): consumes
  // the older versions of the stripe down to the newest initial put.
  // Returns true when it found one: the chain, Delete included, is dropped
  // and the next version of the key is the newest one left. Returns false
  // when the stripe holds no initial put: the Delete is output, and the
  // stripe's older versions (which rule (A) would drop) are consumed.
  bool PruneChain(const ParsedInternalKey& del, SequenceNumber prev_snapshot,
                  CompactionIterationStats* stats);

  // At a put being output, `*value` its value: consumes the older versions
  // of its stripe (rule (A) would drop them) and sets `put->type` to
  // kTypeValueInitial exactly when the state below the put is still "no
  // visible value", else to kTypeValue. `*value` is pinned or copied so that
  // it stays valid until ReleaseSettledValue. Returns whether the type
  // changed.
  bool SettleFlag(SequenceNumber prev_snapshot, ParsedInternalKey* put,
                  Slice* value, CompactionIterationStats* stats);

  // The caller is done with the output SettleFlag kept valid.
  void ReleaseSettledValue() {
    if (value_pinned_) {
      ReleasePin();
    }
  }

  // Before a point entry is output: an initial put keeps its type only while
  // chains are tracked below the last level (at the last level nothing older
  // exists, so it is a plain put, which stock can read). Counts Deletes
  // written to the last level. Returns whether `*type` changed.
  bool FinalizeOutputType(ValueType* type, bool bottommost_level) {
    if (*type == kTypeValueInitial && (bottommost_level || !enabled_)) {
      *type = kTypeValue;
      return true;
    }
    if (bottommost_level && *type == kTypeDeletion) {
      ++tombstones_to_bottommost_;
    }
    return false;
  }

  // Chains pruned (each drops one Delete before the last level), the
  // records they held (Deletes included), and Deletes written to the last
  // level.
  uint64_t chains_pruned() const { return chains_pruned_; }
  uint64_t chain_records_pruned() const { return chain_records_pruned_; }
  uint64_t tombstones_to_bottommost() const {
    return tombstones_to_bottommost_;
  }
  // The newest sequence number among the pruned chains (each chain's Delete),
  // 0 if none. A flush records it as written (CoverPrunedWrites): the
  // output may hold nothing as new.
  SequenceNumber largest_pruned_seqno() const { return largest_pruned_seqno_; }

 private:
  // True, with `*next` parsed, while the input is at an older version of
  // `user_key` in the stripe that rule (A) would drop. Range tombstone
  // sentinels and SingleDeletes end the walk and are left to the main loop:
  // its SingleDelete branch runs before rule (A) and may keep a hidden
  // SingleDelete, to be matched with its Put in an older stripe.
  bool WalkContinues(const Slice& user_key, SequenceNumber prev_snapshot,
                     ParsedInternalKey* next) const;
  // Whether the version the input is at belongs to `user_key`'s stripe.
  bool InStripe(const Slice& user_key, SequenceNumber prev_snapshot,
                const ParsedInternalKey& version) const;
  bool Stopping() const;
  void ReleasePin();

  Input input_;
  bool trackable_ = false;
  bool enabled_ = false;
  // SettleFlag pinned the output's value (or copied it here).
  bool value_pinned_ = false;
  std::string settled_value_;
  uint64_t chains_pruned_ = 0;
  uint64_t chain_records_pruned_ = 0;
  uint64_t tombstones_to_bottommost_ = 0;
  SequenceNumber largest_pruned_seqno_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
