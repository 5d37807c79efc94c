// A LOUDS-Sparse trie over sorted keys: one CRaFT partition (FORMAT.md).
//
// LoudsSparseBuilder takes keys in increasing bytewise order and encodes the
// minimal distinguishing-prefix trie in one pass, level by level, without
// inserting keys root-to-leaf. LoudsSparse decodes a block and answers
// RangeMayExist / KeyMayExist with no false negatives.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/craft/bit_stream.h"
#include "table/craft/order_preserving_code.h"
#include "table/craft/rank_select.h"
#include "util/autovector.h"

namespace ROCKSDB_NAMESPACE {

struct LoudsSparseOptions {
  // The widest suffixes the format stores (a decoder refuses wider ones);
  // the builder clamps to them.
  static constexpr uint32_t kMaxRealSuffixBits = 56;
  static constexpr uint32_t kMaxHashSuffixBits = 32;
  // Both together: a leaf's suffix is one field of at most 64 bits.
  static constexpr uint32_t kMaxSuffixBits = 64;

  uint32_t real_suffix_bits = 8;  // 0..kMaxRealSuffixBits
  uint32_t hash_suffix_bits = 0;  // 0..kMaxHashSuffixBits
  // Format 2: labels stored per level as Elias-Fano-style low bits plus
  // unary high parts where that is smaller than a byte each (FORMAT.md).
  // False writes format 1 (a byte per label), which every reader decodes.
  bool compact_labels = true;
  // Format 3: the trie holds the keys coded with this order-preserving code
  // (with compact labels only). Null: the keys as they are.
  std::shared_ptr<const OrderPreservingCode> key_code;
};

class LoudsSparseBuilder {
 public:
  explicit LoudsSparseBuilder(const LoudsSparseOptions& options);

  // Keys must come in increasing bytewise order; a repeat is ignored.
  void Add(const Slice& key);

  // Appends the encoded trie to `out` and resets the builder.
  void Finish(std::string* out);

  // The key code of the tries built from now on (format 3; ignored without
  // compact labels). REQUIRES: no key added since the last Finish. Keeps
  // the levels' buffers, which a new builder would allocate again.
  void SetKeyCode(std::shared_ptr<const OrderPreservingCode> code);

  uint64_t num_keys() const { return num_keys_; }
  // Heap bytes the builder holds, which it keeps from trie to trie.
  size_t RetainedBytes() const;
  // The encoded size if Finish were called now, give or take the last key.
  // Inline: the filter builder asks after every key.
  size_t EstimatedSize() const {
    const size_t suffix_bits =
        options_.real_suffix_bits + options_.hash_suffix_bits;
    // Compact labels take about six bits on dense levels (FORMAT.md).
    const size_t label_bytes =
        options_.compact_labels ? num_edges_ * 3 / 4 : num_edges_;
    return 16 + label_bytes + num_edges_ / 4 + num_edges_ / 8 +
           static_cast<size_t>(num_keys_) * suffix_bits / 8 + 32 +
           (options_.key_code != nullptr ? 96 : 0);  // The code's lengths.
  }

 private:
  struct Level {
    std::string labels;
    craft_bits::BitList has_child;
    craft_bits::BitList louds;
    craft_bits::BitList prefix_key;  // Per node started at this level.
    std::vector<uint64_t> suffixes;  // Per leaf edge, R real + H hash bits.
  };

  // Emits the edges of `pending_`, now that the key after it is known (or
  // that there is none); `lcp_next` is what the two share (0 without one).
  void Emit(bool has_next, size_t lcp_next);
  uint64_t Suffix(const Slice& key, size_t cut) const;
  Level& LevelAt(size_t depth);
  // Empties the builder for the next trie, keeping the levels' buffers.
  void Reset();

  LoudsSparseOptions options_;
  std::string coded_;  // Add's key, coded (format 3).
  // levels_[0, levels_used_) hold this trie; those past it are empty
  // buffers kept from an earlier trie.
  std::vector<Level> levels_;
  size_t levels_used_ = 0;
  std::string pending_;
  bool has_pending_ = false;
  bool has_prev_ = false;     // A key was emitted before pending_.
  size_t prev_end_ = 0;       // Bytes of that key kept in the trie.
  size_t lcp_with_next_ = 0;  // What that key shares with pending_.
  bool empty_key_ = false;
  uint64_t num_keys_ = 0;
  size_t num_edges_ = 0;
};

class LoudsSparse {
 public:
  // Decodes and validates a block; Corruption if it is not a trie of this
  // format. The trie copies what it needs: `block` may go away.
  static Status Decode(const Slice& block, LoudsSparse* trie);

  // May some key k with lo <= k < hi be in the trie? Never false for a
  // stored key in range.
  bool RangeMayExist(const Slice& lo, const Slice& hi) const;

  // May `key` be in the trie?
  bool KeyMayExist(const Slice& key) const;

  // Stored keys that are < x: exact, except that a key cut to the same
  // known prefix and real suffix as x is not counted.
  uint64_t CountLess(const Slice& x) const;

  uint64_t num_keys() const { return num_keys_; }
  size_t num_edges() const { return labels_.size(); }

  // Bytes the decoded trie occupies, for its block cache charge.
  size_t ApproximateMemoryUsage() const {
    return sizeof(*this) + labels_.capacity() + has_child_.HeapBytes() +
           louds_.HeapBytes() + prefix_key_.HeapBytes() +
           suffixes_.capacity() * sizeof(uint64_t) + chain_labels_.capacity() +
           chain_edges_.capacity() * sizeof(size_t) +
           (code_ != nullptr ? sizeof(OrderPreservingCode) : 0);
  }

  // The code the keys are stored in (format 3), or null.
  const OrderPreservingCode* key_code() const { return code_.get(); }

 private:
  // The first stored (cut) key that may be >= a seek target.
  struct Found {
    bool valid = false;
    bool is_prefix_key = false;  // The stored key is exactly `path`.
    std::string path;            // The key's bytes kept in the trie.
    size_t leaf = 0;             // Leaf index, when !is_prefix_key.
    // Set when a seek with a bound stopped early: -1 when the key found is
    // below the bound, 1 when it is not (path and leaf are then unset).
    int decided = 0;
  };

  // The queries above, on keys as stored (coded in format 3).
  bool StoredRangeMayExist(const Slice& lo, const Slice& hi) const;
  bool StoredKeyMayExist(const Slice& key) const;
  uint64_t StoredCountLess(const Slice& x) const;

  // With `bound`, stops once the key's known prefix compares decidedly
  // with it (Found::decided).
  Found SeekGE(const Slice& target, const Slice* bound = nullptr) const;
  // How every key below edge `edge` at `depth` (path[0, depth) then the
  // edge's label) compares with `bound`: -1 all below, 1 none below, 0 it
  // depends on bytes further down.
  int CompareBelowEdge(const std::string& path, size_t depth, size_t edge,
                       const Slice& bound) const;
  // Leftmost, or just the comparison with `bound` where that decides.
  Found LeftmostBelow(size_t edge, size_t depth, std::string path,
                      const Slice* bound) const;
  // The first edge in [start, end) (one node, end > start) whose label is
  // >= byte, or end.
  size_t LowerBound(size_t start, size_t end, uint8_t byte) const;
  // Leftmost stored key below edge `edge` at `depth`; path holds the bytes
  // above that edge.
  Found Leftmost(size_t edge, size_t depth, std::string path) const;
  // The first stored key after everything below edge stack[depth].
  // The edge taken at each depth of a seek; inline for keys up to 32 bytes
  // (a query allocates nothing then).
  using EdgeStack = autovector<size_t, 32>;
  Found Advance(EdgeStack* stack, size_t depth, std::string path,
                const Slice* bound) const;

  // The chain of one-edge inner nodes from the root (a prefix every key
  // shares), which seeks skip.
  void FindRootChain();

  size_t NodeStart(size_t node) const { return louds_.Select1(node); }
  size_t NodeEnd(size_t start) const { return louds_.NextSetBit(start + 1); }
  size_t Child(size_t edge) const { return has_child_.Rank1(edge) + 1; }
  size_t LeafIndex(size_t edge) const { return edge - has_child_.Rank1(edge); }
  // Keys in the subtrees of edges [a, b) of one level (and below).
  uint64_t CountBelow(size_t a, size_t b) const;
  // Decoding, one step per part of the format (FORMAT.md); each returns
  // Corruption naming what is wrong.
  struct Header {
    uint8_t version = 0;
    uint8_t flags = 0;
    uint32_t real_bits = 0;
    uint32_t hash_bits = 0;
    uint64_t num_keys = 0;
    uint64_t edges = 0;
    uint64_t nodes = 0;
    uint64_t leaves = 0;
  };
  // Per level: its edge count and the low bits its labels are coded with.
  using LevelCodes = std::vector<std::pair<uint64_t, uint32_t>>;
  static Status DecodeHeader(Slice* in, Header* h);
  static Status DecodeLevelCodes(const Header& h, Slice* in,
                                 LevelCodes* level_codes, uint64_t* label_bits);
  static Status CheckArraySizes(const Header& h, size_t label_bytes,
                                const Slice& in);
  Status DecodeArrays(const Header& h, Slice* in);
  Status DecodeFormat1(const Header& h, Slice* in);
  Status DecodeFormat2(const Header& h, Slice* in);
  Status DecodeFormat3(const Header& h, Slice* in);
  Status VerifyStructure(const Header& h);
  Status DecodeLabels(const LevelCodes& level_codes,
                      const std::vector<uint64_t>& words, size_t num_bits);
  uint64_t RealSuffix(size_t leaf) const;
  uint64_t HashSuffix(size_t leaf) const;

  std::shared_ptr<const OrderPreservingCode> code_;
  uint32_t real_bits_ = 0;
  uint32_t hash_bits_ = 0;
  bool empty_key_ = false;
  uint64_t num_keys_ = 0;
  std::string labels_;
  RankSelect has_child_;
  RankSelect louds_;
  RankSelect prefix_key_;
  std::vector<uint64_t> suffixes_;
  size_t num_leaves_ = 0;
  std::string chain_labels_;         // The root chain's labels,
  std::vector<size_t> chain_edges_;  // its edges, one per depth,
  size_t chain_node_ = 0;            // and the node below it.
};

// The R bits of `key` after its first `cut` bytes, zero-padded past its end.
uint64_t CraftRealBits(const Slice& key, size_t cut, uint32_t bits);
// The low H bits of the key's 64-bit hash.
uint64_t CraftHashBits(const Slice& key, uint32_t bits);

}  // namespace ROCKSDB_NAMESPACE
