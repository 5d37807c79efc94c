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
// Built on the stack per lookup from a version (Version::Get, MultiGet:
// patch 0046) and handed to the GetContext; the version (which owns the
// tombstones) and its options (which own the extractor) outlive it.

#pragma once

#include "db/dbformat.h"
#include "db/secondary_deletes/secondary_tombstones.h"

namespace ROCKSDB_NAMESPACE {

class DeleteKeyExtractor;
class Statistics;
class VersionStorageInfo;
struct MutableCFOptions;

struct CoveredEntries {
  // Active iff `vstorage` holds a live tombstone.
  CoveredEntries(const VersionStorageInfo& vstorage,
                 const MutableCFOptions& mutable_cf_options, Statistics* stats);
  CoveredEntries(const DeleteKeyExtractor* delete_key_extractor,
                 const SecondaryTombstoneSet* live_tombstones,
                 Statistics* statistics)
      : extractor(delete_key_extractor),
        tombstones(live_tombstones),
        stats(statistics) {}

  // Whether any entry may be covered; when false, Covers() is always false.
  bool active() const { return tombstones != nullptr; }

  // Whether the entry (`key`, `value`) is covered. `value` is the entry's
  // value as stored.
  bool Covers(const ParsedInternalKey& key, const Slice& value) const;

  // Covers(), counting a covered entry in SECONDARY_DELETE_ENTRIES_HIDDEN:
  // for reads that step over it.
  bool Hides(const ParsedInternalKey& key, const Slice& value) const;

  // Null when inactive.
  const DeleteKeyExtractor* extractor;
  const SecondaryTombstoneSet* tombstones;
  Statistics* stats;
};

}  // namespace ROCKSDB_NAMESPACE
