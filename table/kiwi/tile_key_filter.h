// KiWi's tile key filter: a Bloom filter on the user keys of one block of a
// delete tile, kept in the block's tile map entry (table/kiwi/FORMAT.md,
// tile map version 2).
//
// Why: a tile's blocks are ordered by delete key, so each spans about the
// whole of the tile's user key range, and a point lookup would read all h
// of them to find its key in one (Lethe, SIGMOD 2020, section 4.2: "a
// filter per page"). With a filter per block the lookup reads the blocks
// that may hold its key: one, and a false positive now and then. The
// table's own filter still decides whether the table is read at all.
//
// The filter: kTileKeyFilterBitsPerKey bits per entry of the block (at
// least one byte), kTileKeyFilterProbes probes at bits (a + j * b) mod n
// for j < probes, where a and b are the low and high halves of the key's
// Hash64 (util/hash.h, persistent) and b is made odd. About 1% false
// positives. Keys are the entries' user keys as stored (with their
// timestamp, if the column family has one).
//
// Not upstream's filters: FastLocalBloomImpl (util/bloom_impl.h) rounds a
// filter to 64-byte cache lines, several times a block's ten-odd keys' 18
// bytes, and its legacy no-locality filter is marked not for reuse (32-bit
// hashes, known accuracy flaws).
//
// Call grammar: AddUserKey* Finish. Finish empties the builder.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

inline constexpr uint32_t kTileKeyFilterBitsPerKey = 10;
inline constexpr uint32_t kTileKeyFilterProbes = 6;
// The most probes a filter may ask for (a decoder refuses more).
inline constexpr uint32_t kTileKeyFilterMaxProbes = 30;

class TileKeyFilterBuilder {
 public:
  // Adds one entry's user key; the same key again (another version) counts
  // once.
  void AddUserKey(const Slice& user_key);

  // The filter of the keys added, as FORMAT.md lays it out: a probe count
  // byte, then the bits. Empty when no key was added.
  std::string Finish();

 private:
  std::vector<uint64_t> hashes_;
};

// False only when `filter` (non-empty, as ValidTileKeyFilter accepts)
// proves that `user_key` was not among its keys. An empty filter (a block
// written without one) may match every key.
bool TileKeyFilterMayMatch(const Slice& filter, const Slice& user_key);

// Whether `filter` is one TileKeyFilterMayMatch can probe: empty, or a
// probe count in [1, kTileKeyFilterMaxProbes] followed by at least one
// byte of bits.
bool ValidTileKeyFilter(const Slice& filter);

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
