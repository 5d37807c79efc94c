// A table's CRaFT (Compact Range Filter Trie) filter: consecutive
// partitions of its sorted keys, each a LOUDS-Sparse trie and, in format 4,
// a range hash of the same keys (craft_partition.h), plus a metadata block
// that indexes them (FORMAT.md).
//
// The builder is fed user keys in table order with the data block they land
// in; it cuts a partition when the current one reaches the target size, at a
// key boundary. The reader answers RangeMayExist from the metadata alone when
// it can (a partition's first key is a stored key) and otherwise asks the one
// partition the range starts in, which a caller loads on demand (in the table
// reader: through the block cache).

#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rocksdb/cleanable.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/craft/craft_partition.h"
#include "table/craft/louds_sparse.h"
#include "table/craft/range_hash.h"
#include "util/autovector.h"

namespace ROCKSDB_NAMESPACE {

// A field added here must also be compared in
// CraftFilterBuilder::BuildsWith, or pooled builders made before a change of
// it would keep building with its old value.
struct CraftFilterOptions {
  // Target encoded size of one partition; 0 means kDefaultPartitionSize.
  uint32_t partition_size = 0;
  LoudsSparseOptions trie;
  // Code the keys with an order-preserving code fitted to the table's first
  // keys when that saves at least an eighth of their label bits and the
  // trie over the first kKeyCodeTrialBytes of them comes out smaller coded
  // (text keys; FORMAT.md, format 3). The code in trie.key_code, if any, is
  // replaced.
  bool key_coding = true;
  // Bits per key of each partition's range hash (range_hash.h, partition
  // format 4), for short ranges next to stored keys; 0 for none. Partitions
  // whose keys are not all of one width get none.
  uint32_t range_hash_bits = 0;

  static constexpr uint32_t kDefaultPartitionSize = 16 * 1024;
  // Key bytes sampled to fit the code.
  static constexpr size_t kKeyCodeSampleBytes = 64 * 1024;
  // Key bytes of the sample built into a trial trie both ways. Per-level
  // label coding (format 2) already stores a dense level, such as the last
  // byte of consecutive integers, in a few bits per label; a byte code
  // there splits labels across levels and can double the trie.
  static constexpr size_t kKeyCodeTrialBytes = 4 * 1024;
};

struct CraftPartitionInfo {
  std::string first_key;
  uint64_t num_keys = 0;
  uint32_t first_block = 0;  // Data block ordinals its keys fall in.
  uint32_t last_block = 0;
  uint64_t offset = 0;  // Where the partition block sits in the file.
  uint64_t size = 0;
};

// Call grammar: (Add* Finish)*. After Finish a builder starts the next
// table: it keeps its buffers and writes what a new builder with the same
// options writes (CraftBuilderPool reuses builders so).
class CraftFilterBuilder {
 public:
  explicit CraftFilterBuilder(const CraftFilterOptions& options);

  // User keys in increasing bytewise order; repeats (older versions of the
  // same key) are ignored. `data_block` is the ordinal of its data block.
  void Add(const Slice& user_key, uint32_t data_block);

  // Moves out the encoded partitions (in order) and their descriptions,
  // and the table's last (largest) key; the caller stores each partition,
  // records where in `infos`, and encodes the metadata
  // (CraftMetadata::Encode).
  void Finish(std::vector<std::string>* partitions,
              std::vector<CraftPartitionInfo>* infos, std::string* last_key);

  uint64_t num_keys() const { return num_keys_; }

  // Whether no key was added since construction or the last Finish.
  bool idle() const { return num_keys_ == 0 && sample_.empty(); }
  // Whether the builder was made with `options`, so that it builds what a
  // builder made with them would.
  bool BuildsWith(const CraftFilterOptions& options) const;
  // Heap bytes the builder keeps from table to table.
  size_t RetainedBytes() const;

 private:
  void AddKey(const Slice& user_key, uint32_t data_block);
  void CutPartition();
  // Fits the key code to the sampled keys (or decides against one), then
  // adds them.
  void ChooseKeyCode();
  // Sampled key i.
  Slice SampledKey(size_t i) const;
  // Adds to sample_weights_ the bytes the trie will store of `key`, the
  // last distinct key sampled, once the next one shows what they share:
  // its bytes after the prefix it shares with the previous key, to one past
  // its cut (a suffix byte). The last key's `lcp_next` is 0.
  void WeighSampledKey(const Slice& key, size_t lcp_next);
  // Whether the trie over the first of `keys` is smaller with `code`.
  bool CodedTrialIsSmaller(
      const std::vector<Slice>& keys,
      const std::shared_ptr<OrderPreservingCode>& code) const;

  const CraftFilterOptions given_options_;  // As the constructor got them.
  CraftFilterOptions options_;
  // The first keys and their data blocks, held until the key code is
  // chosen: the keys back to back in sample_keys_, and per key where it
  // ends there and its data block.
  bool sampling_;
  std::string sample_keys_;
  std::vector<std::pair<uint32_t, uint32_t>> sample_;
  // The sampled keys' bytes, weighed as they arrive (WeighSampledKey).
  uint64_t sample_weights_[256] = {};
  uint64_t sample_weight_total_ = 0;
  size_t sample_lcp_prev_ = 0;
  LoudsSparseBuilder trie_;
  RangeHashBuilder range_hash_;
  std::vector<std::string> partitions_;
  std::vector<CraftPartitionInfo> infos_;
  CraftPartitionInfo current_;
  std::string last_key_;
  bool has_last_key_ = false;
  uint64_t num_keys_ = 0;
};

// Where a table's filter blocks sit and what the table holds, for the
// checks that tie a filter to its table (CraftMetadata::Decode).
struct CraftTableLayout {
  // The metadata block's offset and the size of the trailer after each
  // block: the writer stores the partitions back to back, in order, and
  // the metadata right after them.
  uint64_t metadata_offset = 0;
  uint64_t block_trailer_size = 0;
  // From the table's properties; 0 when unknown (then unchecked).
  uint64_t num_data_blocks = 0;
  uint64_t num_entries = 0;
};

// Checks, for tables read without checksums (checksum=kNoChecksum) and any
// other damage a checksum did not see (FORMAT.md, "What a reader checks").
// A filter that fails one is refused whole and the table is read as if it
// had none. Each check costs no more than the decode it follows; damage
// that keeps every count, offset and anchor key consistent (a label or
// suffix bit inside a trie, a range-hash value) can still hide keys, as a
// damaged bloom filter hides point keys in stock RocksDB.
class CraftMetadata {
 public:
  // Decodes and checks the metadata block alone: versions, counts, keys and
  // block ordinals in order.
  static Status Decode(const Slice& block, CraftMetadata* metadata);
  // Decode, then checks it against its table: partitions tile the bytes
  // before the metadata block in order, block ordinals run from the first
  // data block to the last, and no more keys than entries.
  static Status Decode(const Slice& block, const CraftTableLayout& layout,
                       CraftMetadata* metadata);

  // Decodes partition `index` from its block and checks that it is the
  // partition this metadata describes: the same key count, its first key
  // (and in the last partition the table's last key) stored in its trie
  // and its range hash, no key stored before the first key, a range hash
  // of every key at the first key's width.
  Status DecodePartition(size_t index, const Slice& block,
                         CraftPartition* partition) const;
  static void Encode(const std::vector<CraftPartitionInfo>& partitions,
                     const Slice& last_key, std::string* out);

  const std::vector<CraftPartitionInfo>& partitions() const {
    return partitions_;
  }
  uint64_t num_keys() const { return num_keys_; }

  // The partition whose key range could hold `key`: the last one whose first
  // key is <= key, or -1 if key sorts before every partition.
  int FindPartition(const Slice& key) const;

  // Whether partition i's first key sorts before `key`.
  bool FirstKeyBefore(size_t i, const Slice& key) const;

  // The keys in [lo, hi) one would expect if lo's partition spread its keys
  // evenly over its key range (from its first key to the next partition's,
  // or to the table's last key), reading keys as numbers from the first
  // byte where the range's ends differ; a large number when a partition
  // starts inside [lo, hi); -1 when the metadata cannot tell (in the last
  // partition of a version 1 block, which has no last key). Where the
  // partition's ends first differ in ASCII decimal digits, the run of
  // digits there is read as a decimal number instead, if it tells lo from
  // hi: ids printed in decimal spread as evenly as the numbers they print.
  double ExpectedKeys(const Slice& lo, const Slice& hi) const;

 private:
  Status CheckLayout(const CraftTableLayout& layout) const;
  Status CheckPartition(size_t index, const CraftPartition& partition) const;

  // What a seek reads of partition i, together: its first key's leading 8
  // bytes as a big-endian integer, zero-padded (FindPartition compares
  // these and reads a whole first key only on a tie), its key count, and
  // its key range as numbers: its keys share `prefix` bytes, and the 8
  // bytes after them run from `from` to `to` (ExpectedKeys), and both hold
  // `digits` decimal digits right after the prefix (at most 19).
  struct Probe {
    uint64_t head = 0;
    uint64_t from = 0;
    uint64_t to = 0;
    uint64_t num_keys = 0;
    uint32_t prefix = 0;
    uint32_t digits = 0;
  };

  std::vector<CraftPartitionInfo> partitions_;
  // Inline for small tables (a flushed L0 table has one or two partitions):
  // in the table reader's own allocation, no pointer to chase.
  autovector<Probe, 4> probes_;
  std::string last_key_;  // Empty in format 1 (also the only key "").
  bool has_last_key_ = false;
  uint64_t num_keys_ = 0;
};

// Finds partition `index`, decoded (from a cache or the file). The pointer
// stays valid until `pin` is cleaned up (a loader that hands out a block
// cache entry registers its release there) or, with nothing registered,
// while the loader's owner lives.
using CraftPartitionLoader = std::function<Status(
    size_t index, const CraftPartition** partition, Cleanable* pin)>;

class CraftFilterReader {
 public:
  explicit CraftFilterReader(CraftMetadata metadata)
      : metadata_(std::move(metadata)) {}

  // For a table read without checksums: an answer never rests on a
  // partition's first key in the metadata alone, whose bytes past what its
  // trie stores nothing has checked. A range before every key is asked of
  // the first partition's trie, and a range found empty in its partition
  // also of the next partition's. Costs a partition lookup for each such
  // range; off, the answers are the metadata's (checksums vouch for it).
  void set_confirm_first_keys(bool confirm) { confirm_first_keys_ = confirm; }

  // May [lo, hi) hold a key of the table? A partition that fails to load
  // answers "maybe" (and the error is returned in *status when given).
  bool RangeMayExist(const Slice& lo, const Slice& hi,
                     const CraftPartitionLoader& loader,
                     Status* status = nullptr) const;

  // Estimated number of keys in [lo, hi): whole partitions counted from
  // the metadata, the one or two at the range's ends by their tries (off
  // by at most one key each, where a key is cut to the bound's prefix), or
  // by half without a loader or when a partition cannot be read.
  uint64_t EstimateKeys(const Slice& lo, const Slice& hi,
                        const CraftPartitionLoader* loader = nullptr) const;

  // CraftMetadata::ExpectedKeys.
  double ExpectedKeys(const Slice& lo, const Slice& hi) const {
    return metadata_.ExpectedKeys(lo, hi);
  }

  // The data block ordinals a key in [lo, ...) may start in:
  // [first_block, last_block] of lo's partition. Tests pin the metadata's
  // block ranges with it; no seek narrows its index search with it
  // (docs/craft.md says why).
  bool BlockRange(const Slice& lo, uint32_t* first_block,
                  uint32_t* last_block) const;

  const CraftMetadata& metadata() const { return metadata_; }

 private:
  // Whether partition `index` may hold a key in [lo, hi); true when it
  // cannot be loaded.
  bool PartitionMayHold(size_t index, const Slice& lo, const Slice& hi,
                        const CraftPartitionLoader& loader,
                        Status* status) const;

  CraftMetadata metadata_;
  bool confirm_first_keys_ = false;
};

}  // namespace ROCKSDB_NAMESPACE
