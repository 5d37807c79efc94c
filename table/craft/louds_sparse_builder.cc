// LoudsSparseBuilder (louds_sparse.h): the trie of a partition's keys,
// built level by level in one pass, and its encoding (FORMAT.md).

#include <algorithm>
#include <cassert>

#include "table/craft/bit_stream.h"
#include "table/craft/common_prefix.h"
#include "table/craft/louds_sparse.h"
#include "table/craft/louds_sparse_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

using craft_bits::AppendBits;
using craft_bits::BitWriter;
using craft_bits::PutBitField;
using craft_bits::PutWords;
using craft_bits::Words;

namespace {

// The coding of one level's labels that takes the fewest bits: `low` low
// bits per label, then per node the unary gaps between the labels' high
// parts (they rise within a node, from zero), one terminating one per
// label; low == 8 is a byte per label. A node's gaps add up to its last
// label's high part, so one pass over the labels prices every coding.
uint32_t CheapestLabelCoding(const std::string& labels,
                             const craft_bits::BitList& louds) {
  uint64_t last_labels[256] = {};  // Per byte, the nodes it ends.
  for (size_t e = 0; e < labels.size(); ++e) {
    if (e + 1 == labels.size() || louds[e + 1]) {
      ++last_labels[static_cast<uint8_t>(labels[e])];
    }
  }
  // The bytes that end a node: a level uses few of the 256, and every
  // coding is priced over them.
  uint8_t used[256];
  size_t num_used = 0;
  for (uint32_t label = 1; label < 256; ++label) {  // 0 costs no gaps.
    if (last_labels[label] > 0) {
      used[num_used++] = static_cast<uint8_t>(label);
    }
  }
  uint32_t best = kLoudsSparsePlainLabelBits;
  uint64_t best_bits =
      kLoudsSparsePlainLabelBits * static_cast<uint64_t>(labels.size());
  for (uint32_t low = 0; low < kLoudsSparsePlainLabelBits; ++low) {
    uint64_t bits = (low + 1) * static_cast<uint64_t>(labels.size());
    for (size_t i = 0; i < num_used; ++i) {
      bits += last_labels[used[i]] * (used[i] >> low);
    }
    if (bits < best_bits) {
      best = low;
      best_bits = bits;
    }
  }
  return best;
}

}  // namespace

LoudsSparseBuilder::LoudsSparseBuilder(const LoudsSparseOptions& options)
    : options_(options) {
  options_.real_suffix_bits =
      std::min(options_.real_suffix_bits, kLoudsSparseMaxRealBits);
  options_.hash_suffix_bits =
      std::min({options_.hash_suffix_bits, kLoudsSparseMaxHashBits,
                kLoudsSparseMaxSuffixBits - options_.real_suffix_bits});
  if (!options_.compact_labels) {
    options_.key_code.reset();  // Format 1 has no key code.
  }
}

size_t LoudsSparseBuilder::RetainedBytes() const {
  size_t bytes = levels_.capacity() * sizeof(Level) + coded_.capacity() +
                 pending_.capacity();
  for (const Level& level : levels_) {
    bytes += level.labels.capacity() + level.has_child.HeapBytes() +
             level.louds.HeapBytes() + level.prefix_key.HeapBytes() +
             level.suffixes.capacity() * sizeof(uint64_t);
  }
  return bytes;
}

void LoudsSparseBuilder::SetKeyCode(
    std::shared_ptr<const OrderPreservingCode> code) {
  assert(num_keys_ == 0 && !has_pending_);
  if (options_.compact_labels) {
    options_.key_code = std::move(code);
  }
}

LoudsSparseBuilder::Level& LoudsSparseBuilder::LevelAt(size_t depth) {
  if (levels_used_ <= depth) {
    levels_used_ = depth + 1;
    if (levels_.size() < levels_used_) {
      levels_.resize(levels_used_);
    }
  }
  return levels_[depth];
}

uint64_t LoudsSparseBuilder::Suffix(const Slice& key, size_t cut) const {
  return (CraftRealBits(key, cut, options_.real_suffix_bits)
          << options_.hash_suffix_bits) |
         CraftHashBits(key, options_.hash_suffix_bits);
}

void LoudsSparseBuilder::Add(const Slice& user_key) {
  Slice key = user_key;
  if (options_.key_code != nullptr) {
    // Coding keeps order; two keys it merges (zero padding) are one here.
    coded_.clear();
    options_.key_code->Encode(user_key, &coded_);
    key = coded_;
  }
  if (has_pending_) {
    const size_t lcp = CommonPrefixLength(pending_, key);
    if (lcp == key.size() && lcp == pending_.size()) {
      return;
    }
    assert(key.compare(pending_) > 0);
    Emit(/*has_next=*/true, lcp);
  }
  if (options_.key_code != nullptr) {
    pending_.swap(coded_);  // coded_ is cleared before its next use.
  } else {
    CopyKey(key, &pending_);
  }
  has_pending_ = true;
  ++num_keys_;
}

// The edges of a key are the bytes it does not share with the previous key,
// up to the byte that tells it from both neighbours. A key that is a prefix
// of the next one ends at the node the next key opens (its prefix_key bit).
void LoudsSparseBuilder::Emit(bool has_next, size_t lcp_next) {
  const Slice key(pending_);
  const bool has_prev = has_prev_;
  const size_t lcp_prev = has_prev ? lcp_with_next_ : 0;
  // The next key is the next one emitted (a repeat never reaches Emit), so
  // what it shares with this one is its lcp_prev.
  lcp_with_next_ = lcp_next;
  has_prev_ = true;
  if (key.empty()) {
    empty_key_ = true;  // Only ever the first key.
    prev_end_ = 0;
    return;
  }
  const bool prefix_of_next = has_next && lcp_next == key.size();
  const size_t end = std::min(key.size(), std::max(lcp_prev, lcp_next) + 1);
  assert(end > lcp_prev);
  const bool opens_after_prefix = has_prev && prev_end_ == lcp_prev;
  for (size_t d = lcp_prev; d < end; ++d) {
    Level& level = LevelAt(d);
    const bool first = d == lcp_prev;
    const bool new_node = !first || !has_prev || opens_after_prefix;
    level.labels.push_back(key[d]);
    level.louds.push_back(new_node);
    if (new_node) {
      level.prefix_key.push_back(first && opens_after_prefix);
    }
    const bool child = d + 1 < end || prefix_of_next;
    level.has_child.push_back(child);
    if (!child) {
      level.suffixes.push_back(Suffix(key, end));
    }
    ++num_edges_;
  }
  prev_end_ = end;
}

void LoudsSparseBuilder::Finish(std::string* out) {
  if (has_pending_) {
    Emit(/*has_next=*/false, 0);
  }
  std::string labels;
  std::vector<uint64_t> has_child, louds, prefix_key;
  size_t edges = 0, louds_bits = 0, nodes = 0, leaves = 0;
  // Format 2: each level's labels in the cheapest of nine codings.
  std::string level_codes;
  BitWriter label_stream;
  const auto levels_begin = levels_.begin();
  const auto levels_end = levels_.begin() + levels_used_;
  for (auto it = levels_begin; it != levels_end; ++it) {
    const Level& level = *it;
    const uint32_t best = CheapestLabelCoding(level.labels, level.louds);
    PutVarint64(&level_codes, level.labels.size());
    level_codes.push_back(static_cast<char>(best));
    for (unsigned char label : level.labels) {
      label_stream.Write(
          best == kLoudsSparsePlainLabelBits ? kLoudsSparsePlainLabelBits
                                             : best,
          best == kLoudsSparsePlainLabelBits ? label
                                             : label & ((1u << best) - 1));
    }
    if (best < kLoudsSparsePlainLabelBits) {
      uint64_t prev = 0;
      for (size_t e = 0; e < level.labels.size(); ++e) {
        const uint64_t high = static_cast<uint8_t>(level.labels[e]) >> best;
        if (level.louds[e]) {
          prev = 0;
        }
        label_stream.WriteUnary(high - prev);
        prev = high;
      }
    }
  }
  for (auto it = levels_begin; it != levels_end; ++it) {
    const Level& level = *it;
    if (!options_.compact_labels) {
      labels += level.labels;  // Format 1; the others wrote label_stream.
    }
    AppendBits(level.has_child, &has_child, &edges);
    AppendBits(level.louds, &louds, &louds_bits);
    AppendBits(level.prefix_key, &prefix_key, &nodes);
    leaves += level.suffixes.size();
  }
  const uint32_t width = options_.real_suffix_bits + options_.hash_suffix_bits;
  std::vector<uint64_t> suffixes(Words(leaves * width), 0);
  size_t leaf = 0;
  for (auto it = levels_begin; it != levels_end; ++it) {
    for (uint64_t s : it->suffixes) {
      PutBitField(&suffixes, leaf++ * width, width, s);
    }
  }

  const bool compact = options_.compact_labels;
  const OrderPreservingCode* code = options_.key_code.get();
  out->push_back(static_cast<char>(
      code != nullptr ? kLoudsSparseFormatCodedKeys
                      : (compact ? kLoudsSparseFormatCompactLabels
                                 : kLoudsSparseFormatPlainLabels)));
  out->push_back(static_cast<char>(empty_key_ ? kLoudsSparseFlagEmptyKey : 0));
  out->push_back(static_cast<char>(options_.real_suffix_bits));
  out->push_back(static_cast<char>(options_.hash_suffix_bits));
  PutVarint64(out, num_keys_);
  PutVarint64(out, edges);
  PutVarint64(out, nodes);
  PutVarint64(out, leaves);
  if (code != nullptr) {
    code->EncodeTo(out);
  }
  if (compact) {
    PutVarint64(out, levels_used_);
    out->append(level_codes);
    PutVarint64(out, label_stream.bits());
  } else {
    out->append(labels);
  }
  PutWords(out, has_child);
  PutWords(out, louds);
  PutWords(out, prefix_key);
  PutWords(out, suffixes);
  if (compact) {
    PutWords(out, label_stream.Finish());
  }

  Reset();
}

void LoudsSparseBuilder::Reset() {
  // The levels keep their buffers: the next partition of the table fills
  // them to about the same sizes. Those past levels_used_ are empty.
  for (size_t d = 0; d < levels_used_; ++d) {
    Level& level = levels_[d];
    level.labels.clear();
    level.has_child.clear();
    level.louds.clear();
    level.prefix_key.clear();
    level.suffixes.clear();
  }
  levels_used_ = 0;
  pending_.clear();
  has_pending_ = false;
  has_prev_ = false;
  prev_end_ = 0;
  lcp_with_next_ = 0;
  empty_key_ = false;
  num_keys_ = 0;
  num_edges_ = 0;
}

}  // namespace ROCKSDB_NAMESPACE
