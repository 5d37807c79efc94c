#include "tests/fuzz/fuzz_mutator.h"

#include <algorithm>

namespace ROCKSDB_NAMESPACE {
namespace fuzz {

std::string FuzzMutator::Mutate(const std::string& input,
                                const std::string& other) {
  std::string s = input;
  const uint64_t n = 1 + Below(4);
  for (uint64_t i = 0; i < n; ++i) {
    MutateOnce(&s, other);
  }
  return s;
}

uint64_t FuzzMutator::BoundaryValue() {
  switch (Below(6)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return ~uint64_t{0};
    case 3:  // 2^k or 2^k - 1: a width's edge.
      return (uint64_t{1} << Below(64)) - Below(2);
    case 4:
      return Below(256);
    default:
      return rng_();
  }
}

void FuzzMutator::MutateOnce(std::string* s, const std::string& other) {
  const size_t size = s->size();
  switch (Below(size == 0 ? 1 : 9)) {
    case 0: {  // Insert 1..16 bytes (the only mutation of an empty input).
      std::string bytes(1 + Below(16), '\0');
      for (char& c : bytes) {
        c = static_cast<char>(Below(256));
      }
      s->insert(Below(size + 1), bytes);
      break;
    }
    case 1:
      (*s)[Below(size)] ^= static_cast<char>(1 << Below(8));
      break;
    case 2:
      (*s)[Below(size)] = static_cast<char>(BoundaryValue());
      break;
    case 3: {  // Add or subtract a little: counts and lengths off by a few.
      char& c = (*s)[Below(size)];
      c = static_cast<char>(c + static_cast<char>(Below(9)) - 4);
      break;
    }
    case 4: {  // An integer of 1..8 bytes, either byte order.
      const size_t width = std::min<size_t>(size, 1 + Below(8));
      const size_t at = Below(size - width + 1);
      const uint64_t v = BoundaryValue();
      const bool big_endian = Below(2) == 0;
      for (size_t b = 0; b < width; ++b) {
        const size_t shift = 8 * (big_endian ? width - 1 - b : b);
        (*s)[at + b] = static_cast<char>(v >> shift);
      }
      break;
    }
    case 5: {  // Cut 1..16 bytes out.
      const size_t at = Below(size);
      s->erase(at, 1 + Below(std::min<size_t>(16, size - at)));
      break;
    }
    case 6:
      s->resize(Below(size));
      break;
    case 7: {  // Repeat a range somewhere else.
      const size_t from = Below(size);
      const std::string piece =
          s->substr(from, 1 + Below(std::min<size_t>(64, size - from)));
      s->insert(Below(size + 1), piece);
      break;
    }
    default: {  // Splice: this input's head, the other's tail.
      const size_t head = Below(size + 1);
      const size_t tail = other.empty() ? 0 : Below(other.size() + 1);
      *s = s->substr(0, head) + other.substr(tail);
      break;
    }
  }
}

}  // namespace fuzz
}  // namespace ROCKSDB_NAMESPACE
