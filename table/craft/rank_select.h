// A bit vector with rank and select support, for the CRaFT trie. The bits
// are copied out of the (possibly unaligned) block on decode; the rank and
// select directories are built then, not stored: a count per 512-bit block
// plus a 16-bit count per word within its block (rank: two loads and a
// popcount), and the position of every 32nd set bit (select: a short scan
// from there).

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

  bool Get(size_t pos) const { return (words_[pos / 64] >> (pos % 64)) & 1; }

  // Set bits in [0, pos). pos <= size().
  size_t Rank1(size_t pos) const;

  // Position of the set bit with rank n (0-based). n < Count().
  size_t Select1(size_t n) const;

  // The first set bit at or after pos, or size() if none.
  size_t NextSetBit(size_t pos) const;

  // Heap bytes held (for charging a decoded partition to a block cache).
  size_t HeapBytes() const {
    return words_.capacity() * sizeof(uint64_t) +
           block_rank_.capacity() * sizeof(uint32_t) +
           word_rank_.capacity() * sizeof(uint16_t) +
           select_samples_.capacity() * sizeof(uint32_t);
  }

 private:
  static constexpr size_t kWordsPerBlock = 8;  // 512 bits per rank sample.
  static constexpr size_t kOnesPerSelectSample = 32;
  std::vector<uint64_t> words_;
  std::vector<uint32_t> block_rank_;  // Set bits before each block.
  std::vector<uint16_t> word_rank_;   // Set bits before each word, in its
                                      // block.
  std::vector<uint32_t> select_samples_;  // Word of set bit 32 * i.
  size_t num_bits_ = 0;
  size_t count_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
