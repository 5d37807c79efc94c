// Secondary range tombstones: what a secondary range delete leaves behind
// (docs/kiwi.md, "Dropping"), and the set of them a reader or a
// compaction consults.
//
// DeleteByDeleteKeyRange(lo, hi) issued at sequence number `seq` covers,
// for reads at sequence numbers (snapshots) at or above `seq`, every entry
// it may cover (covered_entries.h) whose delete key lies in [lo, hi) and
// whose sequence number is below `seq`; a read at an older snapshot does
// not see the tombstone, as it does not see a Delete written after it. The
// tombstone is a record (kept in the MANIFEST until no file may still hold
// what it covers), not a rewrite: readers hide what it covers and
// compactions drop it once no snapshot sees it.
//
// SecondaryTombstoneSet answers "is this entry covered at this read?" and
// "is every entry of this block covered at this read?" over any number of
// tombstones in O(log fragments + log tombstones): it splits the delete key
// space at every tombstone's ends into disjoint fragments, each holding the
// sequence numbers of the tombstones over it, ascending. An entry at e read
// at r is covered exactly when some tombstone over its delete key has a
// sequence number in (e, r]. Built once per set of live tombstones;
// immutable, so any number of threads may query it.

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
  // When the call issued it, in seconds since the Unix epoch by the DB's
  // clock: where the delete-persistence deadline counts from (FADE,
  // db/tombstone_compaction/tombstone_candidates.h). 0 when unknown (a
  // version 1 record), which a deadline treats as overdue.
  uint64_t issued_at = 0;

  bool operator==(const SecondaryRangeTombstone& other) const {
    return lo == other.lo && hi == other.hi && seq == other.seq &&
           extractor == other.extractor && issued_at == other.issued_at;
  }

  // The record's bytes (the MANIFEST record's payload). Versions, each
  // what the one before holds plus what it adds:
  //   1: varint32 version = 1
  //      varint32 + bytes lo
  //      varint32 + bytes hi
  //      varint64 seq
  //      varint32 + bytes extractor
  //   2: varint64 issued_at, after the extractor
  // EncodeTo writes version 2; DecodeFrom reads both (version 1 gives
  // issued_at 0). Builds that read only version 1 refuse a version 2 record
  // as corrupt, which keeps them from opening the DB while it is live, as a
  // build without the feature refuses the record's tag.
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

  // Whether an entry with delete key `delete_key` and sequence number
  // `entry_seq`, read at `read_seq`, is covered: some tombstone holds the key
  // and was issued after the entry, at or before the read.
  bool Covers(const Slice& delete_key, SequenceNumber entry_seq,
              SequenceNumber read_seq) const;

  // Whether every delete key in [smallest, largest] (inclusive) is covered
  // at `read_seq` for entries at sequence numbers up to `largest_seq`: a
  // block of coverable entries whose delete keys and sequence numbers lie
  // within those bounds may be skipped or dropped without reading it.
  // REQUIRES: smallest <= largest.
  bool CoversRange(const Slice& smallest, const Slice& largest,
                   SequenceNumber largest_seq, SequenceNumber read_seq) const;

  // Whether some tombstone a read at `read_seq` sees holds some delete key
  // in [smallest, largest] (inclusive). REQUIRES: smallest <= largest.
  bool Overlaps(const Slice& smallest, const Slice& largest,
                SequenceNumber read_seq) const;

 private:
  // Keys from `start` up to the next fragment's start (the last fragment:
  // every key above) lie under the tombstones of sequence numbers `seqs`,
  // ascending (none: not covered). Sorted by start, adjacent fragments
  // differ in seqs, and the last one has none.
  struct Fragment {
    std::string start;
    std::vector<SequenceNumber> seqs;
  };
  // Whether `f` has a tombstone in (entry_seq, read_seq].
  static bool CoversIn(const Fragment& f, SequenceNumber entry_seq,
                       SequenceNumber read_seq);
  // The fragment holding `key`, or fragments_.end() if below every start.
  std::vector<Fragment>::const_iterator FragmentOf(const Slice& key) const;

  std::vector<Fragment> fragments_;
};

}  // namespace ROCKSDB_NAMESPACE
