// What a compaction does for secondary range deletes (patch 0047), all from
// its input version's live tombstones (live_secondary_tombstones.h) and its
// snapshots (CompactionJob's existing_snapshots_, ascending):
//
//   - CompactionCoveredEntries: what is covered for it, which its tables'
//     reads get too (ReadOptions::covered_entries), so that KiWi tiles drop
//     covered blocks unread;
//   - DropCoveredEntries: its input passes through the covered entry
//     filter, so entries covered for every read that can see them are left
//     out of its outputs (a snapshot older than a tombstone keeps what the
//     tombstone covers);
//   - SecondaryTombstoneSeqnoFloor: it keeps every sequence number at or
//     above the oldest live tombstone (an entry written after a tombstone
//     and zeroed would look older than it, and be covered);
//   - MarkSecondaryTombstonesApplied: each output records the newest
//     tombstone below which every one was applied whole: the version's
//     watermark, or less where a snapshot could make the job keep what a
//     tombstone covers. The marks are what lets tombstones retire.
//
// With no live tombstone the input is unchanged, the floor is
// kMaxSequenceNumber and outputs record nothing (or, once a tombstone has
// retired, the watermark): a compaction runs and writes as stock's does.

#pragma once

#include <memory>
#include <vector>

#include "db/dbformat.h"
#include "db/secondary_deletes/covered_entries.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
struct FileMetaData;

// The entries covered for `compaction`: each read at the earliest of
// `snapshots` (ascending) at or above it. Inactive without live tombstones.
// Borrows `snapshots`, which must outlive it.
CoveredEntries CompactionCoveredEntries(
    const Compaction& compaction, const std::vector<SequenceNumber>& snapshots);

// `input`, or the filter of `covered` over it, which `*owner` then holds
// (borrowing `input` and `covered`, which must outlive it). Entries dropped
// count in SECONDARY_DELETE_ENTRIES_DROPPED.
InternalIterator* DropCoveredEntries(const CoveredEntries& covered,
                                     InternalIterator* input,
                                     std::unique_ptr<InternalIterator>* owner);

// The entries the filter DropCoveredEntries made dropped, 0 for none: the
// compaction's count of input entries, which it checks against its input
// files' (compaction_verify_record_count), must include them.
uint64_t CoveredEntriesDropped(const InternalIterator* dropper);

SequenceNumber SecondaryTombstoneSeqnoFloor(const Compaction& compaction);

void MarkSecondaryTombstonesApplied(
    const Compaction& compaction, const std::vector<SequenceNumber>& snapshots,
    FileMetaData* output);

}  // namespace ROCKSDB_NAMESPACE
