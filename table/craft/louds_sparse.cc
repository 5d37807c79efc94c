#include "table/craft/louds_sparse.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/craft/bit_stream.h"
#include "table/craft/common_prefix.h"
#include "util/coding.h"
#include "util/hash.h"

namespace ROCKSDB_NAMESPACE {

using craft_bits::AppendBits;
using craft_bits::BitReader;
using craft_bits::BitWriter;
using craft_bits::GetBitField;
using craft_bits::GetWords;
using craft_bits::PutBitField;
using craft_bits::PutWords;
using craft_bits::Words;

namespace {

constexpr uint8_t kFormatPlainLabels = 1;    // A byte per label.
constexpr uint8_t kFormatCompactLabels = 2;  // Per-level label coding.
constexpr uint8_t kFormatCodedKeys = 3;      // Format 2 over coded keys.
constexpr uint32_t kPlainLabelBits = 8;
constexpr uint8_t kFlagEmptyKey = 1;
constexpr uint32_t kMaxRealBits = LoudsSparseOptions::kMaxRealSuffixBits;
constexpr uint32_t kMaxHashBits = LoudsSparseOptions::kMaxHashSuffixBits;

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
  uint32_t best = kPlainLabelBits;
  uint64_t best_bits = kPlainLabelBits * static_cast<uint64_t>(labels.size());
  for (uint32_t low = 0; low < kPlainLabelBits; ++low) {
    uint64_t bits = (low + 1) * static_cast<uint64_t>(labels.size());
    for (uint32_t label = 0; label < 256; ++label) {
      bits += last_labels[label] * (label >> low);
    }
    if (bits < best_bits) {
      best = low;
      best_bits = bits;
    }
  }
  return best;
}

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

// ---- Builder ----

LoudsSparseBuilder::LoudsSparseBuilder(const LoudsSparseOptions& options)
    : options_(options) {
  options_.real_suffix_bits = std::min(options_.real_suffix_bits, kMaxRealBits);
  options_.hash_suffix_bits = std::min(options_.hash_suffix_bits, kMaxHashBits);
  if (!options_.compact_labels) {
    options_.key_code.reset();  // Format 1 has no key code.
  }
}

LoudsSparseBuilder::Level& LoudsSparseBuilder::LevelAt(size_t depth) {
  if (levels_.size() <= depth) {
    levels_.resize(depth + 1);
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
  pending_.assign(key.data(), key.size());
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

size_t LoudsSparseBuilder::EstimatedSize() const {
  const size_t suffix_bits =
      options_.real_suffix_bits + options_.hash_suffix_bits;
  // Compact labels take about six bits on dense levels (FORMAT.md).
  const size_t label_bytes =
      options_.compact_labels ? num_edges_ * 3 / 4 : num_edges_;
  return 16 + label_bytes + num_edges_ / 4 + num_edges_ / 8 +
         static_cast<size_t>(num_keys_) * suffix_bits / 8 + 32 +
         (options_.key_code != nullptr ? 96 : 0);  // The code's lengths.
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
  for (const Level& level : levels_) {
    const uint32_t best = CheapestLabelCoding(level.labels, level.louds);
    PutVarint64(&level_codes, level.labels.size());
    level_codes.push_back(static_cast<char>(best));
    for (unsigned char label : level.labels) {
      label_stream.Write(
          best == kPlainLabelBits ? kPlainLabelBits : best,
          best == kPlainLabelBits ? label : label & ((1u << best) - 1));
    }
    if (best < kPlainLabelBits) {
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
  for (const Level& level : levels_) {
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
  for (const Level& level : levels_) {
    for (uint64_t s : level.suffixes) {
      PutBitField(&suffixes, leaf++ * width, width, s);
    }
  }

  const bool compact = options_.compact_labels;
  const OrderPreservingCode* code = options_.key_code.get();
  out->push_back(static_cast<char>(
      code != nullptr ? kFormatCodedKeys
                      : (compact ? kFormatCompactLabels : kFormatPlainLabels)));
  out->push_back(static_cast<char>(empty_key_ ? kFlagEmptyKey : 0));
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
    PutVarint64(out, levels_.size());
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
    PutWords(out, label_stream.words());
  }

  *this = LoudsSparseBuilder(options_);
}

// ---- Reader ----

namespace {

Status CorruptPartition(const char* why) {
  return Status::Corruption("CRaFT partition", why);
}

}  // namespace

// Every format: version, flags, suffix widths, then the four counts.
Status LoudsSparse::DecodeHeader(Slice* in, Header* h) {
  if (in->size() < 4) {
    return CorruptPartition("truncated header");
  }
  h->version = static_cast<uint8_t>((*in)[0]);
  if (h->version != kFormatPlainLabels && h->version != kFormatCompactLabels &&
      h->version != kFormatCodedKeys) {
    return CorruptPartition("unknown format version");
  }
  h->flags = static_cast<uint8_t>((*in)[1]);
  h->real_bits = static_cast<uint8_t>((*in)[2]);
  h->hash_bits = static_cast<uint8_t>((*in)[3]);
  if ((h->flags & ~kFlagEmptyKey) != 0 || h->real_bits > kMaxRealBits ||
      h->hash_bits > kMaxHashBits) {
    return CorruptPartition("bad flags or suffix widths");
  }
  in->remove_prefix(4);
  if (!GetVarint64(in, &h->num_keys) || !GetVarint64(in, &h->edges) ||
      !GetVarint64(in, &h->nodes) || !GetVarint64(in, &h->leaves)) {
    return CorruptPartition("truncated counts");
  }
  return Status::OK();
}

// Formats 2 and 3: per level its edge count and label coding, then the
// length of the label stream stored after the suffixes.
Status LoudsSparse::DecodeLevelCodes(const Header& h, Slice* in,
                                     LevelCodes* level_codes,
                                     uint64_t* label_bits) {
  uint64_t num_levels;
  if (!GetVarint64(in, &num_levels) || num_levels > in->size()) {
    return CorruptPartition("truncated level codes");
  }
  uint64_t level_edges_total = 0;
  for (uint64_t i = 0; i < num_levels; ++i) {
    uint64_t level_edges;
    if (!GetVarint64(in, &level_edges) || in->empty() ||
        static_cast<uint8_t>((*in)[0]) > kPlainLabelBits ||
        level_edges > h.edges - level_edges_total) {
      return CorruptPartition("bad level code");
    }
    level_codes->emplace_back(level_edges, static_cast<uint8_t>((*in)[0]));
    in->remove_prefix(1);
    level_edges_total += level_edges;
  }
  if (level_edges_total != h.edges || !GetVarint64(in, label_bits) ||
      *label_bits > 8 * static_cast<uint64_t>(in->size())) {
    return CorruptPartition("bad label stream length");
  }
  return Status::OK();
}

// Before any allocation: every array must fit in what is left of the block,
// and the block must be exactly the arrays and `label_bytes` of labels.
Status LoudsSparse::CheckArraySizes(const Header& h, size_t label_bytes,
                                    const Slice& in) {
  const uint64_t width = h.real_bits + h.hash_bits;
  if (h.edges > 8 * static_cast<uint64_t>(in.size()) || h.nodes > h.edges ||
      h.leaves > h.edges ||
      Words(static_cast<size_t>(h.leaves * width)) > in.size() / 8 + 1) {
    return CorruptPartition("counts exceed the block");
  }
  const size_t expected =
      label_bytes + 8 * (2 * Words(h.edges) + Words(h.nodes) +
                         Words(static_cast<size_t>(h.leaves * width)));
  if (in.size() != expected) {
    return CorruptPartition("size does not match counts");
  }
  return Status::OK();
}

// Every format: has_child, louds, prefix_key and the suffixes.
Status LoudsSparse::DecodeArrays(const Header& h, Slice* in) {
  const uint64_t width = h.real_bits + h.hash_bits;
  std::vector<uint64_t> words;
  if (!GetWords(in, h.edges, &words)) {
    return CorruptPartition("has_child");
  }
  has_child_.Init(std::move(words), h.edges);
  if (!GetWords(in, h.edges, &words)) {
    return CorruptPartition("louds");
  }
  louds_.Init(std::move(words), h.edges);
  if (!GetWords(in, h.nodes, &words)) {
    return CorruptPartition("prefix_key");
  }
  prefix_key_.Init(std::move(words), h.nodes);
  if (!GetWords(in, static_cast<size_t>(h.leaves * width), &suffixes_)) {
    return CorruptPartition("suffixes");
  }
  return Status::OK();
}

// Format 1: a byte per label, before the arrays.
Status LoudsSparse::DecodeFormat1(const Header& h, Slice* in) {
  Status s = CheckArraySizes(h, static_cast<size_t>(h.edges), *in);
  if (!s.ok()) {
    return s;
  }
  labels_.assign(in->data(), static_cast<size_t>(h.edges));
  in->remove_prefix(static_cast<size_t>(h.edges));
  return DecodeArrays(h, in);
}

// Format 2: the level codes, the arrays, then the coded label stream.
Status LoudsSparse::DecodeFormat2(const Header& h, Slice* in) {
  LevelCodes level_codes;
  uint64_t label_bits = 0;
  Status s = DecodeLevelCodes(h, in, &level_codes, &label_bits);
  if (s.ok()) {
    s = CheckArraySizes(h, 8 * Words(static_cast<size_t>(label_bits)), *in);
  }
  if (s.ok()) {
    s = DecodeArrays(h, in);
  }
  if (!s.ok()) {
    return s;
  }
  std::vector<uint64_t> words;
  if (!GetWords(in, static_cast<size_t>(label_bits), &words)) {
    return CorruptPartition("labels");
  }
  return DecodeLabels(level_codes, words, static_cast<size_t>(label_bits));
}

// Format 3: the order-preserving key code, then format 2 over coded keys.
Status LoudsSparse::DecodeFormat3(const Header& h, Slice* in) {
  auto code = std::make_shared<OrderPreservingCode>();
  Status s = OrderPreservingCode::DecodeFrom(in, code.get());
  if (!s.ok()) {
    return s;
  }
  code_ = std::move(code);
  return DecodeFormat2(h, in);
}

// Counts agree, labels rise within nodes, children come after their
// parents (so every walk terminates).
Status LoudsSparse::VerifyStructure(const Header& h) {
  if (h.edges == 0) {
    if (h.nodes != 0 || h.leaves != 0 || h.num_keys != (empty_key_ ? 1u : 0u)) {
      return CorruptPartition("empty trie with counts");
    }
    return Status::OK();
  }
  if (!louds_.Get(0) || louds_.Count() != h.nodes ||
      has_child_.Count() + 1 != h.nodes ||
      h.leaves != h.edges - has_child_.Count() ||
      h.num_keys != h.leaves + prefix_key_.Count() ||
      (empty_key_ && !prefix_key_.Get(0))) {
    return CorruptPartition("inconsistent counts");
  }
  size_t node = 0;
  size_t children = 0;
  for (size_t e = 0; e < h.edges; ++e) {
    if (e > 0 && louds_.Get(e)) {
      ++node;
    } else if (e > 0 && static_cast<uint8_t>(labels_[e]) <=
                            static_cast<uint8_t>(labels_[e - 1])) {
      return CorruptPartition("labels out of order");
    }
    if (has_child_.Get(e) && ++children <= node) {
      return CorruptPartition("child before parent");
    }
  }
  FindRootChain();
  return Status::OK();
}

Status LoudsSparse::Decode(const Slice& block, LoudsSparse* trie) {
  Slice in = block;
  Header h;
  Status s = DecodeHeader(&in, &h);
  if (!s.ok()) {
    return s;
  }
  LoudsSparse t;
  t.real_bits_ = h.real_bits;
  t.hash_bits_ = h.hash_bits;
  t.empty_key_ = (h.flags & kFlagEmptyKey) != 0;
  t.num_keys_ = h.num_keys;
  t.num_leaves_ = static_cast<size_t>(h.leaves);
  switch (h.version) {
    case kFormatPlainLabels:
      s = t.DecodeFormat1(h, &in);
      break;
    case kFormatCompactLabels:
      s = t.DecodeFormat2(h, &in);
      break;
    default:
      assert(h.version == kFormatCodedKeys);
      s = t.DecodeFormat3(h, &in);
      break;
  }
  if (s.ok()) {
    s = t.VerifyStructure(h);
  }
  if (s.ok()) {
    *trie = std::move(t);
  }
  return s;
}

void LoudsSparse::FindRootChain() {
  // Children come after their parents (checked above), so this ends.
  size_t node = 0;
  for (;;) {
    const size_t start = NodeStart(node);
    if (NodeEnd(start) != start + 1 || !has_child_.Get(start)) {
      break;
    }
    chain_edges_.push_back(start);
    chain_labels_.push_back(labels_[start]);
    node = Child(start);
  }
  chain_node_ = node;
}

// Expands the per-level label codes into a byte per label (queries read
// labels at random); needs louds_ decoded.
Status LoudsSparse::DecodeLabels(const LevelCodes& level_codes,
                                 const std::vector<uint64_t>& words,
                                 size_t num_bits) {
  labels_.assign(louds_.size(), '\0');
  BitReader reader(words, num_bits);
  size_t first = 0;
  for (const auto& level : level_codes) {
    const size_t n = static_cast<size_t>(level.first);
    const uint32_t low = level.second;
    if (n > 0 && !louds_.Get(first)) {
      return CorruptPartition("level starts inside a node");
    }
    for (size_t e = first; e < first + n; ++e) {
      uint64_t bits;
      if (!reader.Read(low, &bits)) {
        return CorruptPartition("truncated labels");
      }
      labels_[e] = static_cast<char>(bits);
    }
    if (low < kPlainLabelBits) {
      uint64_t high = 0;
      for (size_t e = first; e < first + n; ++e) {
        uint64_t gap;
        if (louds_.Get(e)) {
          high = 0;
        }
        if (!reader.ReadUnary(&gap) || gap > (uint64_t{0xff} >> low) ||
            high + gap > (uint64_t{0xff} >> low)) {
          return CorruptPartition("bad label gap");
        }
        high += gap;
        labels_[e] =
            static_cast<char>((high << low) | static_cast<uint8_t>(labels_[e]));
      }
    }
    first += n;
  }
  if (reader.position() != num_bits) {
    return CorruptPartition("trailing label bits");
  }
  return Status::OK();
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
