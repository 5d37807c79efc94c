// Secondary range tombstones: what a secondary range delete leaves behind
// (docs/rfcs/kiwi.md, "Dropping"), and the set of them a reader or a
// compaction consults.
//
// DeleteByDeleteKeyRange(lo, hi) issued at sequence number `seq` covers
// every put whose delete key lies in [lo, hi) and whose sequence number is
// below `seq`. The tombstone is a record (kept in the MANIFEST until every
// file written before it has been rewritten), not a rewrite: readers hide
// what it covers and compactions drop it.
//
// SecondaryTombstoneSet answers "is this entry covered?" and "is every
// entry of this block covered?" over any number of tombstones in
// O(log fragments): it splits the delete key space at every tombstone's
// ends into disjoint fragments, each holding the newest sequence number of
// the tombstones over it (an entry is covered by some tombstone exactly
// when it is older than the newest one over its delete key). Built once per
// set of live tombstones; immutable, so any number of threads may query it.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

struct SecondaryRangeTombstone {
  std::string lo;          // Inclusive.
  std::string hi;          // Exclusive; above lo, bytewise.
  SequenceNumber seq = 0;  // Covers puts below it; never 0.
  // The column family's delete key extractor when the tombstone was issued,
  // as its options string ("{id=key_suffix;length=8}"): what the range
  // means. A DB opens only with the same extractor while the tombstone is
  // live. Never empty.
  std::string extractor;

  bool operator==(const SecondaryRangeTombstone& other) const {
    return lo == other.lo && hi == other.hi && seq == other.seq &&
           extractor == other.extractor;
  }

  // The record's bytes (the MANIFEST record's payload), version 1:
  //   varint32 version = 1
  //   varint32 + bytes lo
  //   varint32 + bytes hi
  //   varint64 seq
  //   varint32 + bytes extractor
  // REQUIRES: lo < hi, 0 < seq <= kMaxSequenceNumber, extractor not empty.
  void EncodeTo(std::string* dst) const;
  // Consumes one record from `*input`. Corruption for an unknown version,
  // a truncated field, lo not below hi, a sequence number of 0 or above
  // kMaxSequenceNumber, or an empty extractor; `*this` is then unspecified.
  Status DecodeFrom(Slice* input);
};

class SecondaryTombstoneSet {
 public:
  SecondaryTombstoneSet() = default;
  // REQUIRES: every tombstone valid as EncodeTo requires.
  explicit SecondaryTombstoneSet(
      const std::vector<SecondaryRangeTombstone>& tombstones);

  bool empty() const { return fragments_.empty(); }

  // Whether an entry with delete key `delete_key` and sequence number `seq`
  // is covered: some tombstone holds the key and is newer than the entry.
  bool Covers(const Slice& delete_key, SequenceNumber seq) const;

  // Whether every delete key in [smallest, largest] (inclusive) is covered
  // for entries at sequence numbers up to `largest_seq`: a block of puts
  // whose delete keys and sequence numbers lie within those bounds may be
  // skipped or dropped without reading it. REQUIRES: smallest <= largest.
  bool CoversRange(const Slice& smallest, const Slice& largest,
                   SequenceNumber largest_seq) const;

 private:
  // Keys from `start` up to the next fragment's start (the last fragment:
  // every key above) are covered below `seq`; 0 covers nothing. Sorted by
  // start, adjacent fragments differ in seq, and the last one has seq 0.
  struct Fragment {
    std::string start;
    SequenceNumber seq;
  };
  // The fragment holding `key`, or fragments_.end() if below every start.
  std::vector<Fragment>::const_iterator FragmentOf(const Slice& key) const;

  std::vector<Fragment> fragments_;
};

}  // namespace ROCKSDB_NAMESPACE
