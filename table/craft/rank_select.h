// A bit vector with rank and select support, for the CRaFT trie. The bits
// are copied out of the (possibly unaligned) block on decode, and the rank
// and select directories are built then, not stored. Rank counts live next
// to the bits they count (rank9-style): each 512-bit block is stored as two
// header words (the set bits before the block, and the set bits before each
// of its words, 9 bits apiece) followed by its eight words, so a rank or a
// bit test touches one place in memory; queries over tries that do not fit
// in the CPU caches are bound by such misses. Select starts from the word
// of every 32nd set bit.

#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class RankSelect {
 public:
  RankSelect() = default;

  // Takes ceil(num_bits/64) words; bits past num_bits must be zero.
  void Init(std::vector<uint64_t> words, size_t num_bits);

  size_t size() const { return num_bits_; }
  size_t Count() const { return count_; }

  bool Get(size_t pos) const { return (Word(pos / 64) >> (pos % 64)) & 1; }

  // Set bits in [0, pos). pos <= size().
  size_t Rank1(size_t pos) const;

  // Position of the set bit with rank n (0-based). n < Count().
  size_t Select1(size_t n) const;

  // The first set bit at or after pos, or size() if none.
  size_t NextSetBit(size_t pos) const;

  // Heap bytes held (for charging a decoded partition to a block cache).
  size_t HeapBytes() const {
    return blocks_.capacity() * sizeof(uint64_t) +
           select_samples_.capacity() * sizeof(uint32_t);
  }

 private:
  static constexpr size_t kWordsPerBlock = 8;  // 512 bits per block.
  static constexpr size_t kBlockStride = kWordsPerBlock + 2;
  static constexpr size_t kOnesPerSelectSample = 32;

  uint64_t Word(size_t w) const {
    return blocks_[(w / kWordsPerBlock) * kBlockStride + 2 +
                   w % kWordsPerBlock];
  }
  // Set bits before word w.
  size_t RankOfWord(size_t w) const {
    const uint64_t* block = &blocks_[(w / kWordsPerBlock) * kBlockStride];
    const size_t i = w % kWordsPerBlock;
    return static_cast<size_t>(block[0]) +
           (i == 0 ? 0
                   : static_cast<size_t>((block[1] >> (9 * (i - 1))) & 511));
  }

  std::vector<uint64_t> blocks_;          // Per block: 2 headers, 8 words.
  std::vector<uint32_t> select_samples_;  // Word of set bit 32 * i.
  size_t num_words_ = 0;
  size_t num_bits_ = 0;
  size_t count_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
