#include "table/craft/rank_select.h"

#include <algorithm>
#include <cassert>

namespace ROCKSDB_NAMESPACE {

void RankSelect::Init(std::vector<uint64_t> words, size_t num_bits) {
  assert(words.size() == (num_bits + 63) / 64);
  num_bits_ = num_bits;
  num_words_ = words.size();
  const size_t num_blocks = (num_words_ + kWordsPerBlock - 1) / kWordsPerBlock;
  blocks_.assign(num_blocks * kBlockStride, 0);
  select_samples_.clear();
  size_t running = 0;
  for (size_t w = 0; w < num_words_; ++w) {
    uint64_t* block = &blocks_[(w / kWordsPerBlock) * kBlockStride];
    const size_t i = w % kWordsPerBlock;
    if (i == 0) {
      block[0] = running;
    } else {
      block[1] |= static_cast<uint64_t>(running - block[0]) << (9 * (i - 1));
    }
    block[2 + i] = words[w];
    const size_t ones = static_cast<size_t>(__builtin_popcountll(words[w]));
    // Words holding set bits 0, 32, 64, ...
    while (select_samples_.size() * kOnesPerSelectSample < running + ones) {
      select_samples_.push_back(static_cast<uint32_t>(w));
    }
    running += ones;
  }
  count_ = running;
}

size_t RankSelect::Rank1(size_t pos) const {
  assert(pos <= num_bits_);
  const size_t word = pos / 64;
  if (word == num_words_) {
    return count_;  // pos == num_bits_ at a word boundary.
  }
  size_t rank = RankOfWord(word);
  if (pos % 64 != 0) {
    rank += static_cast<size_t>(
        __builtin_popcountll(Word(word) & ((uint64_t{1} << (pos % 64)) - 1)));
  }
  return rank;
}

namespace {

// Position of the set bit of rank r (0-based) in a word that has more than
// r set bits: a byte at a time, then bit by bit within the byte.
size_t SelectInWord(uint64_t word, size_t r) {
  size_t shift = 0;
  for (;; shift += 8) {
    const size_t ones =
        static_cast<size_t>(__builtin_popcountll((word >> shift) & 0xff));
    if (r < ones) {
      break;
    }
    r -= ones;
  }
  uint64_t byte = (word >> shift) & 0xff;
  for (; r > 0; --r) {
    byte &= byte - 1;  // Clear the lowest set bit.
  }
  return shift + static_cast<size_t>(__builtin_ctzll(byte));
}

}  // namespace

size_t RankSelect::Select1(size_t n) const {
  assert(n < count_);
  // Start at the word holding set bit 32 * (n / 32), whose rank is known.
  size_t w = select_samples_[n / kOnesPerSelectSample];
  size_t remaining = n - RankOfWord(w);
  for (; w < num_words_; ++w) {
    const uint64_t word = Word(w);
    const size_t ones = static_cast<size_t>(__builtin_popcountll(word));
    if (remaining < ones) {
      return w * 64 + SelectInWord(word, remaining);
    }
    remaining -= ones;
  }
  assert(false);
  return num_bits_;
}

size_t RankSelect::NextSetBit(size_t pos) const {
  if (pos >= num_bits_) {
    return num_bits_;
  }
  size_t w = pos / 64;
  uint64_t word = Word(w) & (~uint64_t{0} << (pos % 64));
  while (word == 0) {
    if (++w == num_words_) {
      return num_bits_;  // Clamped: SuRF's overshoot bug lives here.
    }
    word = Word(w);
  }
  return std::min(num_bits_,
                  w * 64 + static_cast<size_t>(__builtin_ctzll(word)));
}

}  // namespace ROCKSDB_NAMESPACE
