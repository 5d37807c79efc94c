// The length of the prefix two byte strings share, eight bytes at a step:
// the filter's builders take it (and equality) for every pair of
// neighbouring keys, whose shared prefixes are most of a key
// (Slice::difference_offset goes a byte at a time).

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

inline size_t CommonPrefixLength(const Slice& a, const Slice& b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    memcpy(&x, a.data() + i, 8);
    memcpy(&y, b.data() + i, 8);
    if (x != y) {
      // The first differing byte is the lowest one in memory order.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      return i + static_cast<size_t>(__builtin_clzll(x ^ y) / 8);
#else
      return i + static_cast<size_t>(__builtin_ctzll(x ^ y) / 8);
#endif
    }
  }
  while (i < n && a[i] == b[i]) {
    ++i;
  }
  return i;
}

// a == b, by the same scan (inline, where operator== calls memcmp).
inline bool SameKey(const Slice& a, const Slice& b) {
  return a.size() == b.size() && CommonPrefixLength(a, b) == a.size();
}

// *to = key, for the builders' copy of the previous key: a resize and a
// copy, where assign() goes out of line for its aliasing checks on every
// key. `key` must not point into *to.
inline void CopyKey(const Slice& key, std::string* to) {
  to->resize(key.size());
  if (key.size() > 0) {
    memcpy(&(*to)[0], key.data(), key.size());
  }
}

}  // namespace ROCKSDB_NAMESPACE
