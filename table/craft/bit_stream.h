// Bit streams of CRaFT partitions (FORMAT.md): bits packed LSB-first into
// 64-bit words, stored as little-endian fixed64s. Used by the trie
// (louds_sparse) and the range hash (range_hash.cc).

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace craft_bits {

// Words holding `bits` bits.
inline size_t Words(size_t bits) { return (bits + 63) / 64; }

// Bits appended one at a time, packed as the streams are (bit i is bit
// i % 64 of word i / 64), so that AppendBits moves them a word at a time.
class BitList {
 public:
  void push_back(bool bit) {
    if (size_ % 64 == 0) {
      words_.push_back(0);
    }
    words_.back() |= uint64_t{bit} << (size_ % 64);
    ++size_;
  }
  bool operator[](size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  // Empties the list, keeping its buffer.
  void clear() {
    words_.clear();
    size_ = 0;
  }
  size_t size() const { return size_; }
  size_t HeapBytes() const { return words_.capacity() * sizeof(uint64_t); }
  // Bits past size() are zero.
  const std::vector<uint64_t>& words() const { return words_; }

 private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
};

// Appends `bits` at bit `*num_bits` of `words`, growing it.
inline void AppendBits(const BitList& bits, std::vector<uint64_t>* words,
                       size_t* num_bits) {
  const size_t shift = *num_bits % 64;
  size_t left = bits.size();
  for (uint64_t w : bits.words()) {
    const size_t n = left < 64 ? left : 64;
    if (shift == 0) {
      words->push_back(w);
    } else {
      words->back() |= w << shift;
      if (n > 64 - shift) {
        words->push_back(w >> (64 - shift));
      }
    }
    left -= n;
  }
  *num_bits += bits.size();
}

// Appends `words` as fixed64s.
inline void PutWords(std::string* out, const std::vector<uint64_t>& words) {
  for (uint64_t w : words) {
    PutFixed64(out, w);
  }
}

// Reads `count` words; masks bits past `num_bits` so that rank stays exact.
inline bool GetWords(Slice* in, size_t num_bits, std::vector<uint64_t>* words) {
  const size_t count = Words(num_bits);
  if (in->size() < count * 8) {
    return false;
  }
  words->resize(count);
  for (size_t i = 0; i < count; ++i) {
    (*words)[i] = DecodeFixed64(in->data() + i * 8);
  }
  if (num_bits % 64 != 0) {
    words->back() &= (uint64_t{1} << (num_bits % 64)) - 1;
  }
  in->remove_prefix(count * 8);
  return true;
}

// The `width`-bit field at bit `pos` (width <= 64).
inline uint64_t GetBitField(const std::vector<uint64_t>& words, size_t pos,
                            uint32_t width) {
  if (width == 0) {
    return 0;
  }
  const size_t word = pos / 64;
  const size_t shift = pos % 64;
  uint64_t v = words[word] >> shift;
  if (shift + width > 64) {
    v |= words[word + 1] << (64 - shift);
  }
  return width == 64 ? v : v & ((uint64_t{1} << width) - 1);
}

// ORs `value` into the `width`-bit field at bit `pos`, which must be zero
// and lie within `words`.
inline void PutBitField(std::vector<uint64_t>* words, size_t pos,
                        uint32_t width, uint64_t value) {
  if (width == 0) {
    return;
  }
  const size_t word = pos / 64;
  const size_t shift = pos % 64;
  (*words)[word] |= value << shift;
  if (shift + width > 64) {
    (*words)[word + 1] |= value >> (64 - shift);
  }
}

// Reads a bit stream written LSB-first into 64-bit words.
class BitReader {
 public:
  BitReader(const std::vector<uint64_t>& words, size_t num_bits)
      : words_(words), num_bits_(num_bits) {}

  bool Read(uint32_t width, uint64_t* value) {
    if (num_bits_ - pos_ < width) {
      return false;
    }
    *value = GetBitField(words_, pos_, width);
    pos_ += width;
    return true;
  }

  // Zeros before the next one (consumed with it); false past the end.
  bool ReadUnary(uint64_t* zeros) {
    uint64_t n = 0;
    while (pos_ < num_bits_) {
      const uint64_t window = words_[pos_ / 64] >> (pos_ % 64);
      if (window != 0) {
        const uint64_t skip = static_cast<uint64_t>(__builtin_ctzll(window));
        if (pos_ + skip >= num_bits_) {
          return false;
        }
        pos_ += skip + 1;
        *zeros = n + skip;
        return true;
      }
      const size_t step = 64 - pos_ % 64;
      n += step;
      pos_ += step;
    }
    return false;
  }

  size_t position() const { return pos_; }

 private:
  const std::vector<uint64_t>& words_;
  const size_t num_bits_;
  size_t pos_ = 0;
};

// Appends bits LSB-first. The word being filled stays in a register-sized
// member until it is full: a stream of one-bit writes (unary codes) would
// otherwise load and store the same word of memory for every bit.
//
// Call grammar: (Write | WriteUnary)* Finish.
class BitWriter {
 public:
  // `value` must fit in `width` bits (width <= 64).
  void Write(uint32_t width, uint64_t value) {
    if (width == 0) {
      return;
    }
    current_ |= value << filled_;  // filled_ < 64.
    bits_ += width;
    const uint32_t filled = filled_ + width;
    if (filled < 64) {
      filled_ = filled;
      return;
    }
    words_.push_back(current_);
    // The bits that did not fit; none when the word was empty.
    current_ = filled_ == 0 ? 0 : value >> (64 - filled_);
    filled_ = filled - 64;
  }
  // `zeros` zero bits, then a one.
  void WriteUnary(uint64_t zeros) {
    bits_ += zeros;
    const uint64_t filled = filled_ + zeros;
    if (filled >= 64) {
      words_.push_back(current_);
      current_ = 0;
      words_.resize(words_.size() + (filled / 64 - 1), 0);
    }
    filled_ = static_cast<uint32_t>(filled % 64);
    Write(1, 1);
  }
  // The stream in Words(bits()) words, the last one zero-padded. Ends the
  // stream.
  const std::vector<uint64_t>& Finish() {
    if (filled_ > 0) {
      words_.push_back(current_);
      current_ = 0;
      filled_ = 0;
    }
    return words_;
  }
  size_t bits() const { return bits_; }

 private:
  std::vector<uint64_t> words_;  // Full words.
  uint64_t current_ = 0;         // The next word's first filled_ bits.
  uint32_t filled_ = 0;
  size_t bits_ = 0;
};

}  // namespace craft_bits
}  // namespace ROCKSDB_NAMESPACE
