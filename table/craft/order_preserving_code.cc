#include "table/craft/order_preserving_code.h"

#include <algorithm>
#include <vector>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {
constexpr int kSymbols = 256;
}  // namespace

namespace {

// Leaf depths of an optimal alphabetic binary tree over leaves with these
// weights, by Garsia and Wachs (Knuth, TAOCP 6.2.2): repeatedly combine the
// leftmost pair (q[k-1], q[k]) with q[k-1] <= q[k+1], and move the sum left
// past every smaller weight. The tree built is not alphabetic, but its leaf
// depths are those of an optimal alphabetic tree. O(n^2) time, O(n) space;
// the search for each pair resumes where the last sum landed, not at the
// left end: the sequence left of it is unchanged, so no pair there
// qualifies.
void GarsiaWachsDepths(const std::vector<uint64_t>& weights,
                       std::vector<uint32_t>* depths) {
  struct Node {
    int left, right;  // -1 for a leaf.
  };
  // The working sequence: weights inline, so that the scans read one array.
  struct Item {
    uint64_t weight;
    int node;
  };
  const int n = static_cast<int>(weights.size());
  std::vector<Node> nodes;
  nodes.reserve(2 * n);
  std::vector<Item> seq(n);
  for (int i = 0; i < n; ++i) {
    nodes.push_back({-1, -1});
    seq[i] = {weights[i], i};
  }
  size_t size = seq.size();
  size_t k = 1;
  while (size > 1) {
    // q[size] is +infinity, so the last pair always qualifies.
    while (k + 1 < size && seq[k - 1].weight > seq[k + 1].weight) {
      ++k;
    }
    const uint64_t sum = seq[k - 1].weight + seq[k].weight;
    nodes.push_back({seq[k - 1].node, seq[k].node});
    size_t pos = k - 1;
    while (pos > 0 && seq[pos - 1].weight < sum) {
      --pos;
    }
    // The pair leaves, the sum enters at pos: [pos, k - 1) moves right by
    // one over the pair's left item, (k, size) left by one over its right.
    std::copy_backward(seq.begin() + pos, seq.begin() + (k - 1),
                       seq.begin() + k);
    seq[pos] = {sum, static_cast<int>(nodes.size() - 1)};
    std::copy(seq.begin() + (k + 1), seq.begin() + size, seq.begin() + k);
    --size;
    // Pairs ending left of the sum are as before: none qualified.
    k = pos > 1 ? pos - 1 : 1;
  }
  depths->assign(n, 0);
  std::vector<std::pair<int, uint32_t>> stack = {{seq[0].node, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (nodes[node].left < 0) {
      (*depths)[node] = depth;
    } else {
      stack.push_back({nodes[node].left, depth + 1});
      stack.push_back({nodes[node].right, depth + 1});
    }
  }
}

}  // namespace

OrderPreservingCode OrderPreservingCode::Optimal(
    const uint64_t (&weights)[256]) {
  uint64_t total = 0;
  for (uint64_t w : weights) {
    total += w;
  }
  // Every byte needs a code (queries hold any byte), so each weight gets a
  // floor; raising it bounds the longest code.
  uint64_t floor = std::max<uint64_t>(1, total >> 16);
  std::vector<uint64_t> floored(kSymbols);
  std::vector<uint32_t> depths;
  for (;;) {
    for (int i = 0; i < kSymbols; ++i) {
      floored[i] = weights[i] + floor;
    }
    GarsiaWachsDepths(floored, &depths);
    OrderPreservingCode code;
    bool too_long = false;
    for (int i = 0; i < kSymbols; ++i) {
      too_long |= depths[i] > kMaxCodeBits;
      code.length_[i] = static_cast<uint8_t>(std::min(depths[i], 255u));
    }
    if (!too_long && code.AssignCodes()) {
      return code;
    }
    floor *= 16;
  }
}

bool OrderPreservingCode::AssignCodes() {
  // The codes of consecutive leaves of a binary tree: add one to the last
  // code, then go down (append zeros) or up (drop bits that must be zero)
  // to the next leaf's depth. The last code must be all ones: the code is
  // complete, so every coded string is a unique walk.
  uint64_t next = 0;
  uint32_t prev_len = 0;
  for (int b = 0; b < kSymbols; ++b) {
    const uint32_t len = length_[b];
    if (len == 0 || len > kMaxCodeBits) {
      return false;
    }
    if (b > 0) {
      if (len >= prev_len) {
        next <<= (len - prev_len);
      } else {
        const uint32_t up = prev_len - len;
        if ((next & ((uint64_t{1} << up) - 1)) != 0) {
          return false;
        }
        next >>= up;
      }
    }
    if (next >= (uint64_t{1} << len)) {
      return false;
    }
    code_[b] = static_cast<uint32_t>(next);
    ++next;
    prev_len = len;
  }
  return next == (uint64_t{1} << prev_len);
}

uint64_t OrderPreservingCode::CodedBits(const uint64_t (&weights)[256]) const {
  uint64_t bits = 0;
  for (int b = 0; b < kSymbols; ++b) {
    bits += weights[b] * length_[b];
  }
  return bits;
}

void OrderPreservingCode::EncodeTo(std::string* out) const {
  std::string runs;
  uint32_t num_runs = 0;
  for (int b = 0; b < kSymbols;) {
    int e = b;
    while (e < kSymbols && length_[e] == length_[b]) {
      ++e;
    }
    runs.push_back(static_cast<char>(length_[b]));
    PutVarint32(&runs, static_cast<uint32_t>(e - b));
    ++num_runs;
    b = e;
  }
  PutVarint32(out, num_runs);
  out->append(runs);
}

Status OrderPreservingCode::DecodeFrom(Slice* in, OrderPreservingCode* code) {
  auto corrupt = [](const char* why) {
    return Status::Corruption("CRaFT key code", why);
  };
  uint32_t num_runs;
  if (!GetVarint32(in, &num_runs) || num_runs == 0 || num_runs > kSymbols) {
    return corrupt("bad run count");
  }
  OrderPreservingCode c;
  uint32_t filled = 0;
  for (uint32_t r = 0; r < num_runs; ++r) {
    uint32_t count;
    if (in->empty()) {
      return corrupt("truncated");
    }
    const uint8_t len = static_cast<uint8_t>((*in)[0]);
    in->remove_prefix(1);
    if (!GetVarint32(in, &count) || count == 0 || count > kSymbols - filled) {
      return corrupt("bad run");
    }
    std::fill(c.length_ + filled, c.length_ + filled + count, len);
    filled += count;
  }
  if (filled != kSymbols || !c.AssignCodes()) {
    return corrupt("lengths do not make a complete alphabetic code");
  }
  *code = c;
  return Status::OK();
}

void OrderPreservingCode::Encode(const Slice& key, std::string* out) const {
  const size_t old_size = out->size();
  out->resize(old_size + MaxEncodedLength(key.size()));
  out->resize(old_size + Encode(key, &(*out)[old_size]));
}

size_t OrderPreservingCode::EncodedLength(const Slice& key) const {
  size_t bits = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    bits += length_[static_cast<uint8_t>(key[i])];
  }
  return (bits + 7) / 8;
}

size_t OrderPreservingCode::Encode(const Slice& key, char* out) const {
  char* const begin = out;
  uint64_t acc = 0;  // The last `bits` (< 8 between bytes) not yet written.
  uint32_t bits = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    const uint8_t b = static_cast<uint8_t>(key[i]);
    acc = (acc << length_[b]) | code_[b];
    bits += length_[b];
    while (bits >= 8) {
      bits -= 8;
      *out++ = static_cast<char>(acc >> bits);
    }
    acc &= (uint64_t{1} << bits) - 1;
  }
  if (bits > 0) {
    *out++ = static_cast<char>(acc << (8 - bits));
  }
  return static_cast<size_t>(out - begin);
}

}  // namespace ROCKSDB_NAMESPACE
