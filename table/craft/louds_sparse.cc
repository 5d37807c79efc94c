// LoudsSparse's queries (louds_sparse.h): seeks, range and key checks and
// key counts over a decoded partition, on stored or order-preserving coded
// keys; and the suffix bits builder and queries share.

#include "table/craft/louds_sparse.h"

#include <algorithm>
#include <cstring>

#include "table/craft/bit_stream.h"
#include "util/hash.h"

namespace ROCKSDB_NAMESPACE {

using craft_bits::GetBitField;

namespace {

// Three-way comparison of two R-bit suffixes read as big-endian strings.
int CompareBits(uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

}  // namespace

uint64_t CraftRealBits(const Slice& key, size_t cut, uint32_t bits) {
  uint64_t v = 0;
  uint32_t have = 0;
  for (size_t i = cut; i < key.size() && have < bits; ++i) {
    v = (v << 8) | static_cast<unsigned char>(key[i]);
    have += 8;
  }
  if (have < bits) {
    v <<= (bits - have);  // Zero padding past the key's end.
  } else if (have > bits) {
    v >>= (have - bits);
  }
  return bits == 0
             ? 0
             : v & ((bits == 64) ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1));
}

uint64_t CraftHashBits(const Slice& key, uint32_t bits) {
  if (bits == 0) {
    return 0;
  }
  return Hash64(key.data(), key.size()) & ((uint64_t{1} << bits) - 1);
}

uint64_t LoudsSparse::RealSuffix(size_t leaf) const {
  const uint32_t width = real_bits_ + hash_bits_;
  return GetBitField(suffixes_, leaf * width, width) >> hash_bits_;
}

uint64_t LoudsSparse::HashSuffix(size_t leaf) const {
  const uint32_t width = real_bits_ + hash_bits_;
  const uint64_t v = GetBitField(suffixes_, leaf * width, width);
  return hash_bits_ == 0 ? 0 : v & ((uint64_t{1} << hash_bits_) - 1);
}

LoudsSparse::Found LoudsSparse::Leftmost(size_t edge, size_t depth,
                                         std::string path) const {
  path.resize(depth);
  path.push_back(labels_[edge]);
  while (has_child_.Get(edge)) {
    const size_t node = Child(edge);
    if (prefix_key_.Get(node)) {
      return Found{true, true, std::move(path), 0};
    }
    edge = NodeStart(node);
    path.push_back(labels_[edge]);
  }
  return Found{true, false, std::move(path), LeafIndex(edge)};
}

int LoudsSparse::CompareBelowEdge(const std::string& path, size_t depth,
                                  size_t edge, const Slice& bound) const {
  // Every key below the edge starts with path[0, depth) + its label.
  const size_t n = std::min(depth, bound.size());
  const int cmp = memcmp(path.data(), bound.data(), n);
  if (cmp != 0) {
    return cmp < 0 ? -1 : 1;
  }
  if (bound.size() <= depth) {
    return 1;  // The bound is a prefix of every key below.
  }
  const uint8_t label = static_cast<uint8_t>(labels_[edge]);
  const uint8_t b = static_cast<uint8_t>(bound[depth]);
  if (label != b) {
    return label < b ? -1 : 1;
  }
  return bound.size() == depth + 1 ? 1 : 0;
}

LoudsSparse::Found LoudsSparse::LeftmostBelow(size_t edge, size_t depth,
                                              std::string path,
                                              const Slice* bound) const {
  if (bound != nullptr) {
    const int cmp = CompareBelowEdge(path, depth, edge, *bound);
    if (cmp != 0) {
      Found decided;
      decided.valid = true;
      decided.decided = cmp;
      return decided;
    }
  }
  return Leftmost(edge, depth, std::move(path));
}

LoudsSparse::Found LoudsSparse::Advance(EdgeStack* stack, size_t depth,
                                        std::string path,
                                        const Slice* bound) const {
  for (;;) {
    const size_t edge = (*stack)[depth];
    if (edge + 1 < NodeEnd(edge)) {
      return LeftmostBelow(edge + 1, depth, std::move(path), bound);
    }
    if (depth == 0) {
      return Found{};
    }
    --depth;
  }
}

// Branch-free: the comparisons of a search over random labels are
// unpredictable, and mispredicted branches were most of a seek's time.
size_t LoudsSparse::LowerBound(size_t start, size_t end, uint8_t byte) const {
  const uint8_t* base =
      reinterpret_cast<const uint8_t*>(labels_.data()) + start;
  size_t n = end - start;
  while (n > 1) {
    const size_t half = n / 2;
    base = base[half] < byte ? base + half : base;
    n -= half;
  }
  return static_cast<size_t>(base -
                             reinterpret_cast<const uint8_t*>(labels_.data())) +
         (*base < byte ? 1 : 0);
}

LoudsSparse::Found LoudsSparse::SeekGE(const Slice& target,
                                       const Slice* bound) const {
  if (labels_.empty()) {
    // Nothing, or only the empty key (which is >= target iff target is "").
    if (empty_key_ && target.empty()) {
      return Found{true, true, std::string(), 0};
    }
    return Found{};
  }
  EdgeStack stack;
  std::string path;  // Short paths stay in the string's inline buffer.
  size_t node = 0;
  size_t depth = 0;
  // Every key runs through the root chain: a target that starts with it
  // resumes below it; one that sorts after it has nothing >= it here.
  // (Shorter or smaller targets take the walk from the root.)
  const size_t chain = chain_labels_.size();
  if (chain > 0) {
    const int cmp = Slice(target.data(), std::min(chain, target.size()))
                        .compare(Slice(chain_labels_.data(),
                                       std::min(chain, target.size())));
    if (cmp > 0) {
      return Found{};
    }
    if (cmp == 0 && target.size() >= chain) {
      stack.resize(chain);
      for (size_t d = 0; d < chain; ++d) {
        stack[d] = chain_edges_[d];
      }
      path = chain_labels_;
      node = chain_node_;
      depth = chain;
    }
  }
  for (;; ++depth) {
    if (prefix_key_.Get(node) && depth == target.size()) {
      return Found{true, true, std::move(path), 0};  // Equals the target.
    }
    const size_t start = NodeStart(node);
    const size_t end = NodeEnd(start);
    if (depth == target.size()) {
      return LeftmostBelow(start, depth, std::move(path), bound);
    }
    // First label >= the target's byte (labels rise within the node).
    const uint8_t byte = static_cast<uint8_t>(target[depth]);
    const size_t lo = LowerBound(start, end, byte);
    stack.resize(depth + 1);
    if (lo == end) {
      // Every key below this node is smaller: go past the node.
      stack[depth] = end - 1;
      return Advance(&stack, depth, std::move(path), bound);
    }
    stack[depth] = lo;
    if (static_cast<uint8_t>(labels_[lo]) > byte) {
      return LeftmostBelow(lo, depth, std::move(path), bound);
    }
    if (has_child_.Get(lo)) {
      path.push_back(labels_[lo]);
      node = Child(lo);
      continue;
    }
    // A leaf: its real suffix may prove the stored key smaller.
    const size_t leaf = LeafIndex(lo);
    const int cmp = CompareBits(RealSuffix(leaf),
                                CraftRealBits(target, depth + 1, real_bits_));
    if (cmp < 0) {
      return Advance(&stack, depth, std::move(path), bound);
    }
    path.push_back(labels_[lo]);
    return Found{true, false, std::move(path), leaf};
  }
}

namespace {

// A key coded into a stack buffer when it fits (a seek allocates nothing).
class CodedKey {
 public:
  CodedKey(const OrderPreservingCode& code, const Slice& key,
           bool append_zero) {
    // The exact length, not the worst case (every byte a 32-bit code): a
    // text key of a few dozen bytes codes into the inline buffer.
    const size_t size = code.EncodedLength(key) + 1;
    char* out = inline_;
    if (size > sizeof(inline_)) {
      heap_.resize(size);
      out = &heap_[0];
    }
    size_t n = code.Encode(key, out);
    if (append_zero) {
      out[n++] = '\0';
    }
    slice_ = Slice(out, n);
  }
  CodedKey(const CodedKey&) = delete;
  CodedKey& operator=(const CodedKey&) = delete;
  const Slice& slice() const { return slice_; }

 private:
  char inline_[128];
  std::string heap_;
  Slice slice_;
};

}  // namespace

bool LoudsSparse::RangeMayExist(const Slice& lo, const Slice& hi) const {
  if (code_ == nullptr) {
    return StoredRangeMayExist(lo, hi);
  }
  if (hi.compare(lo) <= 0) {
    return false;
  }
  // k < hi codes to at most Code(hi) (zero padding may tie), so the coded
  // range ends just after Code(hi).
  const CodedKey coded_lo(*code_, lo, false);
  const CodedKey coded_hi(*code_, hi, true);
  return StoredRangeMayExist(coded_lo.slice(), coded_hi.slice());
}

bool LoudsSparse::KeyMayExist(const Slice& key) const {
  if (code_ == nullptr) {
    return StoredKeyMayExist(key);
  }
  return StoredKeyMayExist(CodedKey(*code_, key, false).slice());
}

uint64_t LoudsSparse::CountLess(const Slice& x) const {
  if (code_ == nullptr) {
    return StoredCountLess(x);
  }
  return StoredCountLess(CodedKey(*code_, x, false).slice());
}

bool LoudsSparse::StoredRangeMayExist(const Slice& lo, const Slice& hi) const {
  if (hi.compare(lo) <= 0) {
    return false;
  }
  // With hi as the bound, the seek stops as soon as the keys it would
  // walk down to are known to be all below hi or all at or above it.
  const Found found = SeekGE(lo, &hi);
  if (!found.valid) {
    return false;
  }
  if (found.decided != 0) {
    return found.decided < 0;
  }
  const Slice path(found.path);
  if (found.is_prefix_key) {
    return path.compare(hi) < 0;
  }
  // Keys below this leaf start with `path` and then its real suffix.
  if (hi.size() > path.size() && hi.starts_with(path)) {
    return CompareBits(RealSuffix(found.leaf),
                       CraftRealBits(hi, path.size(), real_bits_)) <= 0;
  }
  return path.compare(hi) < 0;
}

bool LoudsSparse::StoredKeyMayExist(const Slice& key) const {
  if (labels_.empty()) {
    return empty_key_ && key.empty();
  }
  size_t node = 0;
  for (size_t depth = 0;; ++depth) {
    if (depth == key.size()) {
      return prefix_key_.Get(node);
    }
    const size_t start = NodeStart(node);
    const size_t end = NodeEnd(start);
    const char* first = labels_.data() + start;
    const char* last = labels_.data() + end;
    const char* it = std::find(first, last, key[depth]);
    if (it == last) {
      return false;
    }
    const size_t edge = static_cast<size_t>(it - labels_.data());
    if (has_child_.Get(edge)) {
      node = Child(edge);
      continue;
    }
    const size_t leaf = LeafIndex(edge);
    return RealSuffix(leaf) == CraftRealBits(key, depth + 1, real_bits_) &&
           HashSuffix(leaf) == CraftHashBits(key, hash_bits_);
  }
}

// In level order the children of consecutive edges are consecutive nodes,
// whose edges are consecutive on the next level: one range per level.
uint64_t LoudsSparse::CountBelow(size_t a, size_t b) const {
  uint64_t count = 0;
  const size_t num_nodes = prefix_key_.size();
  while (a < b) {
    const size_t first_child = has_child_.Rank1(a) + 1;
    const size_t end_child = has_child_.Rank1(b) + 1;
    count += (b - a) - (end_child - first_child);  // Leaves.
    if (first_child == end_child) {
      break;
    }
    count += prefix_key_.Rank1(end_child) - prefix_key_.Rank1(first_child);
    a = NodeStart(first_child);
    b = end_child < num_nodes ? NodeStart(end_child) : labels_.size();
  }
  return count;
}

uint64_t LoudsSparse::StoredCountLess(const Slice& x) const {
  if (labels_.empty()) {
    return empty_key_ && !x.empty() ? 1 : 0;
  }
  uint64_t count = 0;
  size_t node = 0;
  for (size_t depth = 0;; ++depth) {
    if (depth == x.size()) {
      return count;  // Everything below has x as a prefix: not less.
    }
    if (prefix_key_.Get(node)) {
      ++count;  // The path to this node, a proper prefix of x.
    }
    const size_t start = NodeStart(node);
    const size_t end = NodeEnd(start);
    const uint8_t byte = static_cast<uint8_t>(x[depth]);
    const size_t lo = LowerBound(start, end, byte);
    count += CountBelow(start, lo);
    if (lo == end || static_cast<uint8_t>(labels_[lo]) > byte) {
      return count;
    }
    if (has_child_.Get(lo)) {
      node = Child(lo);
      continue;
    }
    const size_t leaf = LeafIndex(lo);
    if (CompareBits(RealSuffix(leaf), CraftRealBits(x, depth + 1, real_bits_)) <
        0) {
      ++count;
    }
    return count;
  }
}

}  // namespace ROCKSDB_NAMESPACE
