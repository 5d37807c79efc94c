// Tombstone-aware compaction candidates: the files the leveled picker
// compacts for their tombstones (patch 0020 calls this from
// VersionStorageInfo::ComputeCompactionScore). Two kinds:
//
//  - Deadline (delete_persistence_threshold, FADE): a file whose oldest
//    tombstone is older than its stage's cumulative deadline
//    (tombstone_deadlines.h: stages weighted by capacity), and, at any
//    level, a file that may hold what a live secondary range tombstone
//    covers (docs/kiwi.md) once that tombstone is half the threshold old
//    (LiveSecondaryTombstones::DueAt): its compaction drops what the
//    tombstone covers, and the tombstone retires when no such file is left.
//    Ranked by how far past the deadline, then upper levels first, then by
//    tombstone count, then by age. The leveled picker runs these first.
//  - Density (tombstone_density_trigger): a file in which some window of
//    tombstone_density_window consecutive entries holds at least that
//    fraction of point tombstones. Ranked by density, then upper levels
//    first, then tombstone count, then age. In the last
//    level the pick is an in-place rewrite that drops the tombstones, so it
//    runs only when no snapshot can need them (TombstoneCandidateRunnable,
//    asked at pick time with the live snapshots: the version's own record
//    of the oldest snapshot is updated only when a snapshot is released past
//    a threshold, and reads 0 until then).
//
// Files being compacted are never candidates; leveled compaction only
// (universal and FIFO keep their own pickers).
//
// A pick must change what made its file a candidate, or the picker would
// choose the result again at once, forever. A compaction moves tombstones
// down or drops them; the only output that can keep them where they were is
// one written at the pick's own level (an in-place rewrite of the last
// level, or per-key placement's proximal-level output), and what such a
// compaction kept it could not drop: a snapshot or a user-defined timestamp
// at or above full_history_ts_low needs it, or whatever else pins it.
// MarkTombstoneCompactionOutputs flags those outputs
// (FileMetaData::tombstone_stats.written_in_place) and they are
// never candidates again, whatever the reason that pinned their tombstones.

#pragma once

#include <cstdint>
#include <vector>

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
class Statistics;
class VersionEdit;

// Fills `*candidates` (best first) from `vstorage`'s files and sets
// `*next_deadline` to the Unix time at which the next tombstone in it passes
// its stage's deadline (0 when none will). `num_non_empty_levels` is the
// version's: ComputeCompactionScore runs before the version is finalized,
// when its accessors may not be used.
// REQUIRES: DB mutex held (the files' being_compacted flags).
void ComputeTombstoneCompactionCandidates(
    const VersionStorageInfo& vstorage, const ImmutableOptions& ioptions,
    const MutableCFOptions& mutable_cf_options, int num_non_empty_levels,
    std::vector<VersionStorageInfo::TombstoneCompactionCandidate>* candidates,
    uint64_t* next_deadline);

// LevelCompactionPicker, at pick time: whether compacting `candidate` of
// the finalized `vstorage` now can drop its tombstones. A density
// candidate in the last level needs no snapshot at or below its newest
// entry (`earliest_snapshot`: the oldest live snapshot, kMaxSequenceNumber
// for none); every other candidate moves its tombstones down.
// REQUIRES: DB mutex held.
bool TombstoneCandidateRunnable(
    const VersionStorageInfo& vstorage,
    const VersionStorageInfo::TombstoneCompactionCandidate& candidate,
    SequenceNumber earliest_snapshot);

// Whether `reason` is a tombstone-aware pick's. Such compactions are never
// trivial moves: they exist to drop tombstones and what they cover, and a
// move would only carry the tombstones down.
bool IsTombstoneCompactionReason(CompactionReason reason);

// LevelCompactionPicker, for the compaction it picked: counts a
// tombstone-aware pick (COMPACTION_TOMBSTONE_{DENSITY,DEADLINE}_PICKS).
void RecordTombstoneCompactionPick(Statistics* stats, CompactionReason reason);

// CompactionJob::InstallCompactionResults, after the outputs were added to
// `edit`: if `compaction` is a tombstone-aware pick, flags its outputs at
// its start level as written in place (see above).
void MarkTombstoneCompactionOutputs(const Compaction& compaction,
                                    VersionEdit* edit);

}  // namespace ROCKSDB_NAMESPACE
