// Reads a table's CRaFT filter (patch 0014): the metadata at table open,
// partitions on first use through the table's block cache (pinned in the
// reader when the table's options pin filter partitions), and the seek check
// BlockBasedTableIterator runs before its index search.

#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "rocksdb/options.h"
#include "rocksdb/table_reader_caller.h"
#include "table/block_based/block_based_table_reader.h"
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

  // Bounded seeks this table's filter answered since the table was opened,
  // for the rocksdb.lodestone.craft-filter property (sums per level).
  struct SeekCounts {
    uint64_t checked = 0;
    uint64_t empty = 0;
    uint64_t false_positive = 0;
  };
  SeekCounts seek_counts() const;
  // A check's outcome; `weight` as ShouldCheck returned it.
  void CountCheck(bool empty, uint32_t weight) const;
  // Adds `weight` seeks' outcome to the recent window (ShouldCheck's
  // history).
  void NoteRecentOutcome(bool empty, uint32_t weight) const;
  void CountFalsePositive() const;

  // Whether a seek over [lo, hi) should ask the filter. A check costs about
  // 0.4 of the index and data block work a table it proves empty saves
  // (measured by the craft_seek and craft_scan scenarios), so checking pays
  // only where at least ~40% of the checks come out empty. Not asked: a range where the
  // metadata expects a key or more (the partition's keys spread evenly over
  // its key range: empty less than e^-1 = 37% of the time); and, while this
  // table's recent checks (a decaying window of a few hundred) came out
  // empty less often than that, seven seeks in eight (the eighth keeps the
  // share current, and counts for all eight). Skipping is always safe.
  // Returns 0 (do not ask) or the weight of the check's outcome in the
  // recent window (1, or 8 for a sampled check), for CountCheck.
  uint32_t ShouldCheck(const Slice& lo, const Slice& hi) const;
  // Whether this table's recent checks came out empty often enough that
  // every seek asks (ShouldCheck's first test).
  bool CheckingPaysLately() const;

  // Bytes of the partitions and the metadata block, as stored.
  uint64_t stored_bytes() const { return stored_bytes_; }

 private:
  CraftTableReader(const BlockBasedTable::Rep* rep, CraftMetadata metadata,
                   uint64_t metadata_bytes, bool pin_partitions);
  // LoadPartition, as a loader; `read_options` must outlive it.
  CraftPartitionLoader Loader(const ReadOptions& read_options) const;
  Status ReadPartition(size_t index, const ReadOptions& read_options,
                       std::unique_ptr<LoudsSparse>* trie) const;
  // A pinned partition, or one through the table's block cache whose entry
  // `pin` releases.
  Status LoadPartition(size_t index, const ReadOptions& read_options,
                       const LoudsSparse** partition, Cleanable* pin) const;
  Status LoadCachedPartition(size_t index, const ReadOptions& read_options,
                             const LoudsSparse** partition,
                             Cleanable* pin) const;
  // Loads a partition for good (pinning, or no block cache at all).
  Status PinPartition(size_t index, const ReadOptions& read_options,
                      const LoudsSparse** partition) const;

  const BlockBasedTable::Rep* rep_;
  CraftFilterReader filter_;  // The metadata stays in memory, like a
                              // partitioned filter's pinned top level.
  uint64_t stored_bytes_;
  // Pinned partitions, published with a release store once loaded; null
  // when partitions are not pinned.
  std::unique_ptr<std::atomic<const LoudsSparse*>[]> pinned_;
  mutable std::mutex pin_mu_;  // Serializes PinPartition.
  mutable Cleanable pins_;     // Releases the pinned partitions.
  // Relaxed counters: statistics, not synchronization.
  mutable std::atomic<uint64_t> checked_{0};
  mutable std::atomic<uint64_t> empty_{0};
  mutable std::atomic<uint64_t> false_positive_{0};
  mutable std::atomic<uint32_t> recent_checked_{0};
  mutable std::atomic<uint32_t> recent_empty_{0};
  mutable std::atomic<uint32_t> skipped_{0};
};

// The filter of a table file read straight from the file, whatever the
// options say (sst_dump, tests): NotFound if the table has none.
struct CraftFileFilter {
  CraftMetadata metadata;
  std::vector<LoudsSparse> partitions;
  uint64_t bytes = 0;  // Partitions plus metadata.
};
Status ReadCraftFilterFromFile(const std::string& path, const Options& options,
                               CraftFileFilter* filter);

// A few lines for sst_dump --show_properties; empty without a filter.
std::string DescribeCraftFilter(const std::string& path,
                                const Options& options);

// The check before an iterator's seek: false when the table provably holds
// no key in [target, iterate_upper_bound) (forward) or
// [iterate_lower_bound, target] (backward). Never for compaction reads.
// `*checked` (optional) says whether the filter was asked.
bool CraftFilterSeekMayMatch(const BlockBasedTable::Rep* rep,
                             const ReadOptions& read_options,
                             TableReaderCaller caller,
                             const Slice& internal_target, bool forward,
                             bool* checked);
// Inline, so that every seek of a table without a filter pays one load.
inline bool CraftSeekMayMatch(const BlockBasedTable::Rep* rep,
                              const ReadOptions& read_options,
                              TableReaderCaller caller,
                              const Slice& internal_target, bool forward,
                              bool* checked = nullptr) {
  return rep->craft == nullptr ||
         CraftFilterSeekMayMatch(rep, read_options, caller, internal_target,
                                 forward, checked);
}

// A forward seek of `internal_target` the filter let through before the
// table iterator was built (CraftLevelFileMayMatch): that iterator's own
// check of the same seek, the next on this thread, answers "maybe" without
// asking again, and counts the outcome only if the filter was `checked`
// (else the seek was sampled out, and stays so). Any other check forgets
// it.
void RememberCraftMaybe(const BlockBasedTable::Rep* rep,
                        const Slice& internal_target, bool checked);

// After a seek the filter let through: counts a false positive
// (rocksdb.craft.filter.false.positive) when the table held nothing in the
// bounded range after all. `valid`/`internal_key`: where the seek landed.
void NoteCraftSeekOutcome(const BlockBasedTable::Rep* rep,
                          const ReadOptions& read_options, bool forward,
                          bool valid, const Slice& internal_key);

// Runs a callable when the scope ends: the iterator's seeks have many exits,
// and the outcome is known only at the last one. (No std::function: this is
// on every seek, filter or not.)
template <typename Fn>
class CraftSeekOutcomeGuard {
 public:
  explicit CraftSeekOutcomeGuard(Fn fn) : fn_(std::move(fn)) {}
  ~CraftSeekOutcomeGuard() { fn_(); }
  CraftSeekOutcomeGuard(const CraftSeekOutcomeGuard&) = delete;
  CraftSeekOutcomeGuard& operator=(const CraftSeekOutcomeGuard&) = delete;

 private:
  Fn fn_;
};

}  // namespace ROCKSDB_NAMESPACE
