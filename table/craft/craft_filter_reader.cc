// CraftFilterReader (craft_filter.h): range and key-count queries over a
// table's partitions, each partition loaded on demand.

#include <algorithm>

#include "table/craft/craft_filter.h"
#include "test_util/lodestone/planted_bugs.h"

namespace ROCKSDB_NAMESPACE {

bool CraftFilterReader::RangeMayExist(const Slice& lo, const Slice& hi,
                                      const CraftPartitionLoader& loader,
                                      Status* status) const {
  const auto& parts = metadata_.partitions();
  if (parts.empty() || hi.compare(lo) <= 0) {
    return false;
  }
  const int p = metadata_.FindPartition(lo);
  // A partition's first key is a stored key: if the next one starts inside
  // the range, the answer needs no trie.
  const size_t next = static_cast<size_t>(p + 1);
  if (next < parts.size() && metadata_.FirstKeyBefore(next, hi)) {
    return true;
  }
  if (p < 0 && !confirm_first_keys_) {
    return false;  // lo sorts before every key and the first key is >= hi.
  }
  if (PlantedBugActive(PlantedBug::kCraftRangeFilterFalseNegative) &&
      p % 2 == 1) {
    return false;
  }
  // Before every key, with confirm_first_keys_, the first partition's trie
  // answers instead of its first key alone.
  if (PartitionMayHold(static_cast<size_t>(std::max(p, 0)), lo, hi, loader,
                       status)) {
    return true;
  }
  // The next partition's first key said the range ends before it.
  return confirm_first_keys_ && p >= 0 && next < parts.size() &&
         PartitionMayHold(next, lo, hi, loader, status);
}

bool CraftFilterReader::PartitionMayHold(size_t index, const Slice& lo,
                                         const Slice& hi,
                                         const CraftPartitionLoader& loader,
                                         Status* status) const {
  const CraftPartition* partition = nullptr;
  Cleanable pin;  // Holds the partition (e.g. its block cache entry).
  Status s = loader(index, &partition, &pin);
  if (!s.ok() || partition == nullptr) {
    if (status != nullptr) {
      *status = s;
    }
    return true;  // Never a false negative, even on a damaged partition.
  }
  return partition->RangeMayExist(lo, hi);
}

uint64_t CraftFilterReader::EstimateKeys(
    const Slice& lo, const Slice& hi,
    const CraftPartitionLoader* loader) const {
  const auto& parts = metadata_.partitions();
  if (parts.empty() || hi.compare(lo) <= 0) {
    return 0;
  }
  const int first = std::max(0, metadata_.FindPartition(lo));
  const int last = metadata_.FindPartition(hi);
  if (last < first) {
    return 0;
  }
  // Keys of partition p in [lo, hi): by its trie, else half of them.
  auto edge = [&](int p) -> uint64_t {
    if (loader != nullptr) {
      const CraftPartition* partition = nullptr;
      Cleanable pin;
      if ((*loader)(static_cast<size_t>(p), &partition, &pin).ok() &&
          partition != nullptr) {
        const uint64_t below_hi = partition->trie().CountLess(hi);
        const uint64_t below_lo = partition->trie().CountLess(lo);
        return below_hi > below_lo ? below_hi - below_lo : 0;
      }
    }
    return parts[static_cast<size_t>(p)].num_keys / 2;
  };
  if (first == last) {
    return edge(first);
  }
  uint64_t keys = edge(first) + edge(last);
  for (int i = first + 1; i < last; ++i) {
    keys += parts[static_cast<size_t>(i)].num_keys;
  }
  return keys;
}

bool CraftFilterReader::BlockRange(const Slice& lo, uint32_t* first_block,
                                   uint32_t* last_block) const {
  const int p = metadata_.FindPartition(lo);
  if (p < 0) {
    return false;
  }
  *first_block = metadata_.partitions()[static_cast<size_t>(p)].first_block;
  *last_block = metadata_.partitions()[static_cast<size_t>(p)].last_block;
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
