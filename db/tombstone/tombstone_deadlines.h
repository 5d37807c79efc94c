// FADE (Lethe, SIGMOD 2020): a delete must be persisted, i.e. its tombstone
// must reach the last level (where compaction drops it), within
// delete_persistence_threshold seconds of being written. The threshold is
// split over the stages a tombstone passes through (the memtable, L0, then
// each level above the last), growing with the level size ratio T, like the
// time data naturally spends in each level: d_s = D * T^s * (T-1)/(T^n - 1),
// which sums to D. A tombstone still in stage s when its age exceeds
// d_0 + ... + d_s is overdue there.

#pragma once

#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

// The cumulative deadlines (seconds after the write) of `stages` stages,
// with a safety margin so that the compaction that moves the tombstone on
// also finishes in time. stages >= 1.
std::vector<uint64_t> TombstoneStageDeadlines(uint64_t threshold_seconds,
                                              double size_ratio, int stages);

// The stages of an LSM whose last non-empty level is `last_level` (at least
// base_level) and whose first level below L0 is `base_level`: the memtable,
// L0, and base_level .. last_level - 1.
inline int TombstoneStages(int last_level, int base_level) {
  return 2 + (last_level > base_level ? last_level - base_level : 0);
}

}  // namespace ROCKSDB_NAMESPACE
