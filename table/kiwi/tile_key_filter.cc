#include "table/kiwi/tile_key_filter.h"

#include "util/hash.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// The bit of probe `j` among `bits`.
uint64_t ProbeBit(uint64_t hash, uint32_t j, uint64_t bits) {
  const uint64_t a = static_cast<uint32_t>(hash);
  const uint64_t b = (hash >> 32) | 1;
  return (a + j * b) % bits;
}

}  // namespace

void TileKeyFilterBuilder::AddUserKey(const Slice& user_key) {
  const uint64_t hash = GetSliceHash64(user_key);
  // Versions of one key arrive together in a block (its entries are in
  // table order), so a repeat is always the last hash.
  if (hashes_.empty() || hashes_.back() != hash) {
    hashes_.push_back(hash);
  }
}

std::string TileKeyFilterBuilder::Finish() {
  if (hashes_.empty()) {
    return std::string();
  }
  const uint64_t bytes = (hashes_.size() * kTileKeyFilterBitsPerKey + 7) / 8;
  std::string filter(1 + bytes, '\0');
  filter[0] = static_cast<char>(kTileKeyFilterProbes);
  const uint64_t bits = bytes * 8;
  for (uint64_t hash : hashes_) {
    for (uint32_t j = 0; j < kTileKeyFilterProbes; ++j) {
      const uint64_t bit = ProbeBit(hash, j, bits);
      filter[1 + bit / 8] |= static_cast<char>(1 << (bit % 8));
    }
  }
  hashes_.clear();
  return filter;
}

bool TileKeyFilterMayMatch(const Slice& filter, const Slice& user_key) {
  if (filter.size() < 2) {
    return true;  // No filter.
  }
  const uint32_t probes = static_cast<uint8_t>(filter[0]);
  const uint64_t bits = (filter.size() - 1) * 8;
  const uint64_t hash = GetSliceHash64(user_key);
  for (uint32_t j = 0; j < probes; ++j) {
    const uint64_t bit = ProbeBit(hash, j, bits);
    if ((static_cast<uint8_t>(filter[1 + bit / 8]) & (1 << (bit % 8))) == 0) {
      return false;
    }
  }
  return true;
}

bool ValidTileKeyFilter(const Slice& filter) {
  if (filter.empty()) {
    return true;
  }
  const uint32_t probes = static_cast<uint8_t>(filter[0]);
  return filter.size() >= 2 && probes >= 1 && probes <= kTileKeyFilterMaxProbes;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
