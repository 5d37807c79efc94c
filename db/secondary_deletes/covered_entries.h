// Which entries a read or a compaction treats as absent: those the live
// secondary range tombstones of its version cover (docs/kiwi.md, "What a
// secondary range delete means").
//
// An entry is covered when it is a put, an initial put or a merge operand,
// the column family's extractor gives it a delete key (from its user key
// and its value as stored: a put's value, an operand) that some live
// tombstone holds, and the tombstone is newer than the entry. Deletes,
// single deletes and range deletions are never covered (dropping one would
// bring back what it deleted), nor wide-column entities, timed puts and
// blob references, whose values are not one value at hand.
//
// Merge operands are covered as puts are so that what a key reads does not
// depend on when compactions ran: a compaction may fold a key's operands
// into a put, or drop them under a newer put, and with a delete key of the
// user key (key_suffix) every version of the key is covered alike before
// and after.
//
// A read sees the tombstones issued at or before its sequence number (its
// snapshot, or the latest state's): a read at an older snapshot sees what
// was there, as it would not see a Delete written later. A compaction asks
// for each entry whether every read that can see it sees it covered: at
// the earliest snapshot at or above the entry (or the latest state when
// there is none), so that it keeps what an older snapshot still reads.
//
// Built on the stack per lookup from a version (Version::Get, MultiGet:
// patch 0046) and handed to the GetContext, or per compaction; the version
// (which owns the tombstones), its options (which own the extractor) and
// the compaction's snapshot list outlive it.

#pragma once

#include <set>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/secondary_deletes/secondary_tombstones.h"

namespace ROCKSDB_NAMESPACE {

class DeleteKeyExtractor;
class Statistics;
class VersionStorageInfo;
struct MutableCFOptions;

struct CoveredEntries {
  // For a read at `read_seq`; active iff `vstorage` holds a live tombstone.
  CoveredEntries(const VersionStorageInfo& vstorage,
                 const MutableCFOptions& mutable_cf_options,
                 SequenceNumber read_seq, Statistics* stats);
  CoveredEntries(const DeleteKeyExtractor* delete_key_extractor,
                 const SecondaryTombstoneSet* live_tombstones,
                 SequenceNumber read, Statistics* statistics)
      : extractor(delete_key_extractor),
        tombstones(live_tombstones),
        read_seq(read),
        stats(statistics) {}

  // A compaction's: each entry read at the earliest of `snapshots`
  // (ascending, as CompactionJob holds them) at or above it.
  void set_snapshots(const std::vector<SequenceNumber>* compaction_snapshots) {
    snapshots = compaction_snapshots;
  }
  // The sequence number the entry at `entry_seq` is read at.
  SequenceNumber ReadSeqFor(SequenceNumber entry_seq) const;

  // Whether any entry may be covered; when false, Covers() is always false.
  bool active() const { return tombstones != nullptr; }

  // Whether the entry (`key`, `value`) is covered. `value` is the entry's
  // value as stored.
  bool Covers(const ParsedInternalKey& key, const Slice& value) const;

  // Covers(), counting a covered entry in SECONDARY_DELETE_ENTRIES_HIDDEN:
  // for reads that step over it.
  bool Hides(const ParsedInternalKey& key, const Slice& value) const;

  // A compaction's: the table reader of `table` dropped the block at
  // `offset`, holding `entries` entries, unread (table/kiwi/
  // tile_table_reader.h). The compaction never sees them but counts them
  // among its input records, each block once however often its tile is
  // opened. Only the compaction's own thread reads through this object.
  void CountDroppedBlock(const void* table, uint64_t offset,
                         uint64_t entries) const {
    if (dropped_blocks_.emplace(table, offset).second) {
      dropped_block_entries_ += entries;
    }
  }
  uint64_t dropped_block_entries() const { return dropped_block_entries_; }

  // Null when inactive.
  const DeleteKeyExtractor* extractor;
  const SecondaryTombstoneSet* tombstones;
  SequenceNumber read_seq;
  const std::vector<SequenceNumber>* snapshots = nullptr;
  Statistics* stats;

 private:
  mutable std::set<std::pair<const void*, uint64_t>> dropped_blocks_;
  mutable uint64_t dropped_block_entries_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
