// What a compaction does for secondary range deletes (patch 0047), all from
// its input version's live tombstones (live_secondary_tombstones.h):
//
//   - DropCoveredEntries: its input passes through the covered entry filter,
//     so covered puts are left out of its outputs;
//   - SecondaryTombstoneSeqnoFloor: it keeps every sequence number at or
//     above the oldest live tombstone (a put written after a tombstone and
//     zeroed would look older than it, and be covered);
//   - MarkSecondaryTombstonesApplied: each output records the version's
//     watermark, which is what lets the tombstones retire.
//
// With no live tombstone the input is unchanged, the floor is
// kMaxSequenceNumber and outputs record nothing: a compaction runs and
// writes as stock's does.

#pragma once

#include <memory>

#include "db/dbformat.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
struct FileMetaData;

// `input`, or the filter over it, which `*owner` then holds (borrowing
// `input`, which must outlive it). Entries dropped count in
// SECONDARY_DELETE_ENTRIES_DROPPED.
InternalIterator* DropCoveredEntries(const Compaction& compaction,
                                     InternalIterator* input,
                                     std::unique_ptr<InternalIterator>* owner);

// The entries the filter DropCoveredEntries made dropped, 0 for none: the
// compaction's count of input entries, which it checks against its input
// files' (compaction_verify_record_count), must include them.
uint64_t CoveredEntriesDropped(const InternalIterator* dropper);

SequenceNumber SecondaryTombstoneSeqnoFloor(const Compaction& compaction);

void MarkSecondaryTombstonesApplied(const Compaction& compaction,
                                    FileMetaData* output);

}  // namespace ROCKSDB_NAMESPACE
