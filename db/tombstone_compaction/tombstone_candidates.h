// Tombstone-aware compaction candidates: the files the leveled picker
// compacts for their tombstones (patch 0020 calls this from
// VersionStorageInfo::ComputeCompactionScore). Two kinds:
//
//  - Deadline (delete_persistence_threshold, FADE): a file whose oldest
//    tombstone is older than its stage's cumulative deadline
//    (tombstone_deadlines.h: stages weighted by capacity). Ranked by how far
//    past the deadline, then by tombstone count, then by age. The leveled
//    picker runs these first.
//  - Density (tombstone_density_trigger): a file in which some window of
//    tombstone_density_window consecutive entries holds at least that
//    fraction of point tombstones. Ranked by density, then age. In the last
//    level only when no snapshot can need the file's tombstones, so that the
//    in-place rewrite drops them.
//
// Files being compacted are never candidates; leveled compaction only
// (universal and FIFO keep their own pickers).

#pragma once

#include <cstdint>
#include <vector>

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

// Fills `*candidates` (best first) from `vstorage`'s files and sets
// `*next_deadline` to the Unix time at which the next tombstone in it passes
// its stage's deadline (0 when none will). `num_non_empty_levels` and
// `oldest_snapshot_seqnum` are the version's: ComputeCompactionScore runs
// before the version is finalized, when its accessors may not be used.
// REQUIRES: DB mutex held (the files' being_compacted flags).
void ComputeTombstoneCompactionCandidates(
    const VersionStorageInfo& vstorage, const ImmutableOptions& ioptions,
    const MutableCFOptions& mutable_cf_options, int num_non_empty_levels,
    SequenceNumber oldest_snapshot_seqnum,
    std::vector<VersionStorageInfo::TombstoneCompactionCandidate>* candidates,
    uint64_t* next_deadline);

}  // namespace ROCKSDB_NAMESPACE
