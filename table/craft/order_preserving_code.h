// An order-preserving byte code for CRaFT partitions (FORMAT.md, format 3).
//
// Text keys spend few of a byte's 256 values (an email user name uses 26
// letters), so a trie over them branches little per level, cuts keys at a
// depth whose byte carries under 5 bits of information, and a real suffix
// byte tells only what the next letter is, at 8 bits' price. Coding every
// byte with an optimal alphabetic (Hu-Tucker) prefix code, as HOPE's
// single-character scheme does, packs the keys' information into fewer
// bits: the trie over the coded keys has fewer edges and shallower leaves,
// and each suffix bit halves the false positives again.
//
// The code keeps order: a < b implies Code(a) <= Code(b) for the coded,
// zero-padded byte strings (equality only where zero padding hides a
// difference, which a filter may merge). So a range [lo, hi) of keys maps to
// the range [Code(lo), Code(hi) + "\0") of coded keys, with no false
// negatives.

#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class OrderPreservingCode {
 public:
  static constexpr uint32_t kMaxCodeBits = 32;

  // The optimal alphabetic code for these byte weights (every byte gets a
  // code; unseen bytes a long one), with no code longer than kMaxCodeBits.
  static OrderPreservingCode Optimal(const uint64_t (&weights)[256]);

  // Bits the code spends on these weights, against 8 per byte uncoded.
  uint64_t CodedBits(const uint64_t (&weights)[256]) const;

  // Appends the code lengths (run-length coded, a few dozen bytes).
  void EncodeTo(std::string* out) const;
  // Reads what EncodeTo wrote; Corruption unless the lengths make a
  // complete alphabetic prefix code.
  static Status DecodeFrom(Slice* in, OrderPreservingCode* code);

  // Appends the coded `key`, zero-padded to a whole byte.
  void Encode(const Slice& key, std::string* out) const;
  // Writes it to `out`, which holds MaxEncodedLength(key.size()) bytes;
  // returns its length.
  size_t Encode(const Slice& key, char* out) const;
  static size_t MaxEncodedLength(size_t key_size) {
    return (key_size * kMaxCodeBits + 7) / 8;
  }
  // The coded key's exact length in bytes.
  size_t EncodedLength(const Slice& key) const;

  uint32_t length(uint8_t byte) const { return length_[byte]; }

 private:
  // Assigns codes left to right from the lengths; false unless they form a
  // complete alphabetic prefix code of at most kMaxCodeBits bits.
  bool AssignCodes();

  uint8_t length_[256] = {};
  uint32_t code_[256] = {};
};

}  // namespace ROCKSDB_NAMESPACE
