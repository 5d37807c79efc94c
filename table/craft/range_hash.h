// A CRaFT partition's range hash: a locality-preserving hash of its keys,
// for ranges that start just past a stored key (FORMAT.md, partition
// version 4; design in docs/craft.md, "Correlated ranges").
//
// The trie answers a range [lo, hi) by its keys' prefixes, so a short range
// that shares the distinguishing prefix of a stored key (k+1 .. k+64 for an
// integer key k) is "maybe" every time. The range hash follows Grafite
// (Costa, Ferragina, Vinciguerra, SIGMOD 2024): keys of one width W are read
// as (prefix, tail), the tail being their last min(W, 8) bytes as a
// big-endian integer; tails are grouped in blocks of L = 2^k consecutive
// values, each (prefix, block) is hashed to one of n slots, and a key's
// value is slot * L + tail % L. Within a block the map is a shift, so a
// range of at most L tails maps to at most two intervals of values, and a
// stored key next to the range stays outside them. The values are stored
// Elias-Fano coded. For any range of l tails, whatever keys it sits next
// to, the false positive rate is at most about l / L; with k = B - 2 the
// section costs about B bits per key.
//
// RangeHashBuilder: (Add)* Finish. Keys come in increasing bytewise order;
// if they do not all have one width the builder writes no section.
// RangeHash: Decode once, then RangeMayExist from any number of threads.

#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/craft/rank_select.h"

namespace ROCKSDB_NAMESPACE {

class RangeHashBuilder {
 public:
  // About `bits_per_key` bits per key (kMinBitsPerKey..kMaxBitsPerKey,
  // clamped): blocks of 2^(bits_per_key-2).
  explicit RangeHashBuilder(uint32_t bits_per_key);

  static constexpr uint32_t kMinBitsPerKey = 3;
  // Blocks of at most 2^56 values: the widest a decoder accepts.
  static constexpr uint32_t kMaxBitsPerKey = 58;

  // Keys in increasing bytewise order; a repeat is ignored.
  void Add(const Slice& key);

  // Appends the section to `out` and returns true, or returns false and
  // appends nothing when no section can be built (no keys, or keys of more
  // than one width, or wider than kMaxKeyBytes). Resets the builder.
  bool Finish(std::string* out);

  // The section's size if Finish were called now (0 if none). Inline: the
  // filter builder asks after every key.
  size_t EstimatedSize() const {
    return keys_.empty() ? 0 : 24 + keys_.size() * (block_bits_ + 2) / 8;
  }

  static constexpr size_t kMaxKeyBytes = 255;

  // Heap bytes the builder holds, which it keeps from section to section.
  size_t RetainedBytes() const { return keys_.capacity() * sizeof(keys_[0]); }

 private:
  uint32_t block_bits_;
  // Per distinct key: RangeHashPrefix of its prefix, and its tail.
  std::vector<std::pair<uint64_t, uint64_t>> keys_;
  size_t key_bytes_ = 0;
  bool mixed_widths_ = false;
};

class RangeHash {
 public:
  // Decodes a section that fills `section`; Corruption if it is not one.
  // The range hash copies what it needs.
  static Status Decode(const Slice& section, RangeHash* range_hash);

  // May some stored key k with lo <= k < hi exist? Never false when one
  // does. True whenever the section cannot tell: a bound narrower than the
  // keys, bounds with different prefixes, or more than two blocks of tails.
  bool RangeMayExist(const Slice& lo, const Slice& hi) const;

  size_t key_bytes() const { return key_bytes_; }
  uint32_t block_bits() const { return block_bits_; }
  // One slot per distinct key of the partition; values are the slotted
  // keys without repeats, so never more than the slots.
  uint64_t num_slots() const { return num_slots_; }
  uint64_t num_values() const { return num_values_; }

  // Bytes the decoded section occupies, for its block cache charge.
  size_t ApproximateMemoryUsage() const {
    return sizeof(*this) + lows_.capacity() * sizeof(uint64_t) +
           highs_.HeapBytes();
  }

 private:
  // Is any stored value in [x, y]? y - x < 2^block_bits_.
  bool AnyValueIn(uint64_t x, uint64_t y) const;

  size_t key_bytes_ = 0;
  uint32_t block_bits_ = 0;
  uint64_t num_slots_ = 0;
  uint32_t low_bits_ = 0;
  uint64_t num_values_ = 0;
  std::vector<uint64_t> lows_;  // Per value, its low bits.
  RankSelect highs_;            // Per bucket: a 0 per value, then a 1.
};

// A key of `key_bytes` bytes split as the range hash reads it: the hash of
// its first key_bytes - min(key_bytes, 8) bytes, and the rest as a
// big-endian integer. Both functions are part of the format (FORMAT.md),
// pinned by craft_format_test.
uint64_t RangeHashPrefix(const Slice& key, size_t key_bytes);
uint64_t RangeHashTail(const Slice& key, size_t key_bytes);

// The slot that block `block` of a prefix hashes to, in [0, num_slots).
uint64_t RangeHashSlot(uint64_t prefix_hash, uint64_t block,
                       uint64_t num_slots);

}  // namespace ROCKSDB_NAMESPACE
