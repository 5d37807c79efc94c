#include "table/kiwi/tile_partition.h"

#include <algorithm>
#include <cassert>

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// The cut nearest `target` bytes among `changes` (positions in D order
// where the delete key changes; `bytes_before[c]` is the weight before c),
// later than `after`. Returns 0 when none is left.
size_t NearestCut(const std::vector<size_t>& changes,
                  const std::vector<uint64_t>& bytes_before, uint64_t target,
                  size_t after) {
  auto later = std::upper_bound(changes.begin(), changes.end(), after);
  if (later == changes.end()) {
    return 0;
  }
  auto hi = std::lower_bound(
      later, changes.end(), target,
      [&](size_t c, uint64_t t) { return bytes_before[c] < t; });
  if (hi == later) {
    return *hi;
  }
  auto lo = hi - 1;
  if (hi == changes.end()) {
    return *lo;
  }
  // Ties go to the later change.
  return target - bytes_before[*lo] < bytes_before[*hi] - target ? *lo : *hi;
}

}  // namespace

TilePartition PartitionTile(const std::vector<TileEntry>& entries,
                            uint32_t max_blocks) {
  assert(max_blocks >= 1);
  TilePartition partition;
  partition.block_of.assign(entries.size(), 0);
  if (entries.empty()) {
    return partition;
  }

  std::vector<uint32_t> keyed;  // Entries with a delete key, in D order.
  keyed.reserve(entries.size());
  for (uint32_t i = 0; i < entries.size(); ++i) {
    if (entries[i].has_delete_key) {
      keyed.push_back(i);
    }
  }
  const bool any_unkeyed = keyed.size() < entries.size();
  std::stable_sort(keyed.begin(), keyed.end(), [&](uint32_t a, uint32_t b) {
    return entries[a].delete_key.compare(entries[b].delete_key) < 0;
  });

  // Blocks for the keyed entries; unkeyed ones get a block of their own
  // after them when h allows.
  const uint32_t keyed_blocks =
      any_unkeyed && max_blocks > 1 ? max_blocks - 1 : max_blocks;
  std::vector<uint64_t> bytes_before(keyed.size() + 1, 0);
  std::vector<size_t> changes;
  for (size_t j = 0; j < keyed.size(); ++j) {
    bytes_before[j + 1] = bytes_before[j] + entries[keyed[j]].bytes;
    if (j > 0 &&
        entries[keyed[j - 1]].delete_key != entries[keyed[j]].delete_key) {
      changes.push_back(j);
    }
  }

  std::vector<size_t> cuts;  // Ascending positions in `keyed`.
  const uint64_t total = bytes_before[keyed.size()];
  for (uint32_t k = 1; k < keyed_blocks && !changes.empty(); ++k) {
    const uint64_t target = total * k / keyed_blocks;
    const size_t cut = NearestCut(changes, bytes_before, target,
                                  cuts.empty() ? 0 : cuts.back());
    if (cut == 0) {
      break;
    }
    cuts.push_back(cut);
  }

  uint32_t block = 0;
  for (size_t j = 0; j < keyed.size(); ++j) {
    if (block < cuts.size() && j == cuts[block]) {
      ++block;
    }
    partition.block_of[keyed[j]] = block;
  }
  partition.block_count = keyed.empty() ? 0 : block + 1;
  if (any_unkeyed) {
    const uint32_t last =
        partition.block_count < max_blocks || partition.block_count == 0
            ? partition.block_count
            : partition.block_count - 1;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].has_delete_key) {
        partition.block_of[i] = last;
      }
    }
    partition.block_count = last + 1;
  }
  return partition;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
