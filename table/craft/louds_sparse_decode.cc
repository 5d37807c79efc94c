// LoudsSparse::Decode (louds_sparse.h): a partition's bytes checked and
// read into the trie's arrays, refusing any layout the builder does not
// write (FORMAT.md).

#include <algorithm>
#include <cassert>

#include "table/craft/bit_stream.h"
#include "table/craft/louds_sparse.h"
#include "table/craft/louds_sparse_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

using craft_bits::BitReader;
using craft_bits::GetWords;
using craft_bits::Words;

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
  if (h->version != kLoudsSparseFormatPlainLabels &&
      h->version != kLoudsSparseFormatCompactLabels &&
      h->version != kLoudsSparseFormatCodedKeys) {
    return CorruptPartition("unknown format version");
  }
  h->flags = static_cast<uint8_t>((*in)[1]);
  h->real_bits = static_cast<uint8_t>((*in)[2]);
  h->hash_bits = static_cast<uint8_t>((*in)[3]);
  if ((h->flags & ~kLoudsSparseFlagEmptyKey) != 0 ||
      h->real_bits > kLoudsSparseMaxRealBits ||
      h->hash_bits > kLoudsSparseMaxHashBits ||
      h->real_bits + h->hash_bits > kLoudsSparseMaxSuffixBits) {
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
        static_cast<uint8_t>((*in)[0]) > kLoudsSparsePlainLabelBits ||
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
  t.empty_key_ = (h.flags & kLoudsSparseFlagEmptyKey) != 0;
  t.num_keys_ = h.num_keys;
  t.num_leaves_ = static_cast<size_t>(h.leaves);
  switch (h.version) {
    case kLoudsSparseFormatPlainLabels:
      s = t.DecodeFormat1(h, &in);
      break;
    case kLoudsSparseFormatCompactLabels:
      s = t.DecodeFormat2(h, &in);
      break;
    default:
      assert(h.version == kLoudsSparseFormatCodedKeys);
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
    if (low < kLoudsSparsePlainLabelBits) {
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

}  // namespace ROCKSDB_NAMESPACE
