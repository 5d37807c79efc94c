// FADE (Lethe, SIGMOD 2020): a delete must be persisted, i.e. its tombstone
// must reach the last level (where compaction drops it), within
// delete_persistence_threshold seconds of being written. The threshold is
// split over the stages a tombstone passes through: the memtable, L0, then
// each level from base_level to the one above the last non-empty level.
// Lethe gives level i a TTL proportional to T^i, the time data naturally
// spends there; we use each stage's capacity (the memtable's size, L0's
// compaction trigger in memtables, each level's target size), which is the
// same thing for leveled levels and also sizes L0 and the memtable right.
// A tombstone still in stage s when its age exceeds d_0 + ... + d_s is
// overdue there.

#pragma once

#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class VersionStorageInfo;
struct MutableCFOptions;

// The last level a tombstone must reach: the last non-empty one, but never
// above base_level (an LSM with data in L0 only still compacts it down).
inline int TombstoneLastLevel(int num_non_empty_levels, int base_level) {
  const int floor = base_level > 1 ? base_level : 1;
  return num_non_empty_levels - 1 > floor ? num_non_empty_levels - 1 : floor;
}

// The stage capacities (bytes) of the LSM `vstorage` describes, whose last
// level is `last_level`: index 0 is the memtable, 1 is L0, 2 + k is level
// base_level + k. (Takes the levels explicitly: ComputeCompactionScore runs
// before the version is finalized.)
std::vector<double> TombstoneStageWeights(const VersionStorageInfo& vstorage,
                                          int base_level, int last_level,
                                          const MutableCFOptions& options);

// The cumulative deadlines (seconds after the write) of the stages, from
// their weights. They sum to 90% of the threshold: the compaction that
// finally moves a tombstone to the last level also needs time.
std::vector<uint64_t> TombstoneStageDeadlines(
    uint64_t threshold_seconds, const std::vector<double>& weights);

}  // namespace ROCKSDB_NAMESPACE
