// Reads a table's CRaFT (range filter) blocks (patch 0014): the metadata
// and the partitions on first use, partitions through the table's block
// cache (pinned in the reader when the table's options pin filter
// partitions).
// The seek check that uses it is craft_seek.h; when to check,
// craft_check_policy.h.

#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "rocksdb/options.h"
#include "rocksdb/table_reader_caller.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_check_policy.h"
#include "table/craft/craft_filter.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class CraftTableReader {
 public:
  // Notes where the table's CRaFT metadata block is, if the table has one
  // and table_options.range_filter is a CRaFT policy that writes filters
  // (CraftRangeFilterPolicy::ReadsFilters); *reader stays null
  // otherwise. Reads nothing: the metadata is read by the first call that
  // needs it (a bounded seek, a key estimate, the DB property), so a table
  // opened only for point lookups, or opened again and again by a small
  // table cache, never pays for it.
  // `pin_partitions`: upstream's decision for a partitioned filter's
  // partitions (metadata_cache_options.partition_pinning, falling back to
  // pin_l0_filter_and_index_blocks_in_cache); pinned partitions stay with
  // this reader once loaded and are found with one atomic load instead of a
  // block cache lookup.
  static void Open(const BlockBasedTable::Rep* rep,
                   InternalIterator* metaindex_iter, bool pin_partitions,
                   std::shared_ptr<CraftTableReader>* reader);

  ~CraftTableReader();

  // The filter, its metadata read with `read_options` on first use and kept
  // for the reader's lifetime (like a partitioned filter's pinned top
  // level). Null when the metadata cannot be read now (read_tier
  // kBlockCacheTier, a read error: tried again by the next call) or when
  // the metadata or any partition failed its checks (CraftMetadata): for
  // good, with a LOG line; the table stays readable, the filter is only an
  // optimization. Never waits for another thread:
  // concurrent first calls each read the block and one copy is kept.
  const CraftFilterReader* Filter(const ReadOptions& read_options) const;

  // The filter if an earlier call loaded its metadata; never reads.
  const CraftFilterReader* LoadedFilter() const;

  // May [lo, hi) hold a key of the table? The metadata (as Filter() loads
  // it) and partitions not yet loaded are read with the caller's
  // `read_options` (its I/O activity, rate limiter priority, checksum
  // verification, deadline); with read_tier kBlockCacheTier nothing is read
  // from the file. "May exist" when they cannot be read.
  bool RangeMayExist(const Slice& lo, const Slice& hi,
                     const ReadOptions& read_options) const;

  // Keys in [lo, hi): the metadata's counts, the edge partitions' tries.
  // False when the metadata cannot be read (see Filter()).
  bool EstimateKeys(const Slice& lo, const Slice& hi, uint64_t* keys) const;

  // When this table's filter is asked, and what it answered.
  const CraftCheckPolicy& check_policy() const { return check_policy_; }

  // Bytes of the partitions and the metadata block, as stored; 0 until the
  // metadata is loaded.
  uint64_t stored_bytes() const;

 private:
  // What the metadata block gives, published once by Filter().
  struct Loaded {
    Loaded(CraftMetadata metadata, uint64_t metadata_bytes, bool pin);
    CraftFilterReader filter;
    uint64_t stored_bytes;
    // Pinned partitions, published with a release store once loaded; null
    // when partitions are not pinned.
    std::unique_ptr<std::atomic<const CraftPartition*>[]> pinned;
  };

  CraftTableReader(const BlockBasedTable::Rep* rep,
                   const BlockHandle& metadata_handle, bool pin_partitions);
  const Loaded* Load(const ReadOptions& read_options) const;
  // On Corruption: refuses the whole filter from now on (once, with a LOG
  // line).
  void RefuseIfDamaged(const Status& s) const;
  const Loaded* loaded() const {
    return loaded_.load(std::memory_order_acquire);
  }
  // LoadPartition, as a loader; `read_options` must outlive it.
  CraftPartitionLoader Loader(const Loaded& loaded,
                              const ReadOptions& read_options) const;
  // Reads partition `index` of `metadata` and checks it
  // (CraftMetadata::DecodePartition).
  Status ReadPartition(const CraftMetadata& metadata, size_t index,
                       const ReadOptions& read_options,
                       std::unique_ptr<CraftPartition>* partition) const;
  // A pinned partition, or one through the table's block cache whose entry
  // `pin` releases.
  Status LoadPartition(const Loaded& loaded, size_t index,
                       const ReadOptions& read_options,
                       const CraftPartition** partition, Cleanable* pin) const;
  Status LoadCachedPartition(const Loaded& loaded, size_t index,
                             const ReadOptions& read_options,
                             const CraftPartition** partition,
                             Cleanable* pin) const;
  // Loads a partition for good (pinning, or no block cache at all).
  Status PinPartition(const Loaded& loaded, size_t index,
                      const ReadOptions& read_options,
                      const CraftPartition** partition) const;

  const BlockBasedTable::Rep* rep_;
  const BlockHandle metadata_handle_;
  const bool pin_partitions_;
  mutable std::atomic<const Loaded*> loaded_{nullptr};
  mutable std::atomic<bool> damaged_{false};
  mutable std::mutex pin_mu_;  // Serializes PinPartition.
  mutable Cleanable pins_;     // Releases the pinned partitions.
  CraftCheckPolicy check_policy_;
};

// Reads a CRaFT block (metadata or partition) as stored: CRaFT blocks are
// never compressed.
Status ReadCraftBlock(RandomAccessFileReader* file,
                      FilePrefetchBuffer* prefetch_buffer, const Footer& footer,
                      const ReadOptions& read_options,
                      const ImmutableOptions& ioptions,
                      const PersistentCacheOptions& cache_options,
                      const BlockHandle& handle, BlockContents* contents);

}  // namespace ROCKSDB_NAMESPACE
