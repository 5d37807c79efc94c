// One CRaFT partition as a query sees it: its trie and, in partition
// version 4, the range hash of the same keys (FORMAT.md). A range is
// "maybe" only if both say so; each alone has no false negatives, so
// neither has the pair.

#pragma once

#include <memory>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/craft/louds_sparse.h"
#include "table/craft/range_hash.h"

namespace ROCKSDB_NAMESPACE {

class CraftPartition {
 public:
  // Appends a partition block to `out`: `trie` (a LoudsSparseBuilder's
  // block) alone, or with `range_hash` (a RangeHashBuilder's section, may
  // be empty for none) as a version 4 block.
  static void Encode(const std::string& trie, const std::string& range_hash,
                     std::string* out);

  // Decodes and validates a partition block of any version; Corruption if
  // it is not one. The partition copies what it needs.
  static Status Decode(const Slice& block, CraftPartition* partition);

  bool RangeMayExist(const Slice& lo, const Slice& hi) const {
    return trie_.RangeMayExist(lo, hi) &&
           (range_hash_ == nullptr || range_hash_->RangeMayExist(lo, hi));
  }
  bool KeyMayExist(const Slice& key) const { return trie_.KeyMayExist(key); }

  const LoudsSparse& trie() const { return trie_; }
  // Null unless the block is version 4.
  const RangeHash* range_hash() const { return range_hash_.get(); }

  size_t ApproximateMemoryUsage() const {
    return trie_.ApproximateMemoryUsage() +
           (range_hash_ != nullptr ? range_hash_->ApproximateMemoryUsage() : 0);
  }

  static constexpr uint8_t kFormatWithRangeHash = 4;

 private:
  LoudsSparse trie_;
  std::unique_ptr<RangeHash> range_hash_;
};

}  // namespace ROCKSDB_NAMESPACE
