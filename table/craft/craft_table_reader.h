// Reads a table's CRaFT (range filter) blocks (patch 0014): the metadata
// at table open, partitions on first use through the table's block cache
// (pinned in the reader when the table's options pin filter partitions).
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
  // Loads the metadata block named in the metaindex, if the table has one
  // and table_options.craft_range_filter is set. A missing filter leaves
  // *reader null; a damaged one too, with a LOG line (the table stays
  // readable: the filter is only an optimization).
  // `pin_partitions`: upstream's decision for a partitioned filter's
  // partitions (metadata_cache_options.partition_pinning, falling back to
  // pin_l0_filter_and_index_blocks_in_cache); pinned partitions stay with
  // this reader once loaded and are found with one atomic load instead of a
  // block cache lookup.
  static void Open(const BlockBasedTable::Rep* rep,
                   InternalIterator* metaindex_iter,
                   const ReadOptions& read_options,
                   FilePrefetchBuffer* prefetch_buffer, bool pin_partitions,
                   std::shared_ptr<CraftTableReader>* reader);

  // Partitions not yet loaded are read with the caller's `read_options`
  // (its I/O activity, rate limiter priority, checksum verification,
  // deadline); with read_tier kBlockCacheTier none is read from the file
  // and the answer is "may exist".
  bool RangeMayExist(const Slice& lo, const Slice& hi,
                     const ReadOptions& read_options) const;

  // Keys in [lo, hi): the metadata's counts, the edge partitions' tries.
  uint64_t EstimateKeys(const Slice& lo, const Slice& hi) const;

  const CraftFilterReader& filter() const { return filter_; }

  // When this table's filter is asked, and what it answered.
  const CraftCheckPolicy& check_policy() const { return check_policy_; }

  // Bytes of the partitions and the metadata block, as stored.
  uint64_t stored_bytes() const { return stored_bytes_; }

 private:
  CraftTableReader(const BlockBasedTable::Rep* rep, CraftMetadata metadata,
                   uint64_t metadata_bytes, bool pin_partitions);
  // LoadPartition, as a loader; `read_options` must outlive it.
  CraftPartitionLoader Loader(const ReadOptions& read_options) const;
  Status ReadPartition(size_t index, const ReadOptions& read_options,
                       std::unique_ptr<CraftPartition>* partition) const;
  // A pinned partition, or one through the table's block cache whose entry
  // `pin` releases.
  Status LoadPartition(size_t index, const ReadOptions& read_options,
                       const CraftPartition** partition, Cleanable* pin) const;
  Status LoadCachedPartition(size_t index, const ReadOptions& read_options,
                             const CraftPartition** partition,
                             Cleanable* pin) const;
  // Loads a partition for good (pinning, or no block cache at all).
  Status PinPartition(size_t index, const ReadOptions& read_options,
                      const CraftPartition** partition) const;

  const BlockBasedTable::Rep* rep_;
  CraftFilterReader filter_;  // The metadata stays in memory, like a
                              // partitioned filter's pinned top level.
  uint64_t stored_bytes_;
  // Pinned partitions, published with a release store once loaded; null
  // when partitions are not pinned.
  std::unique_ptr<std::atomic<const CraftPartition*>[]> pinned_;
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
