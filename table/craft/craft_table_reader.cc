#include "table/craft/craft_table_reader.h"

#include <cinttypes>

#include "cache/cache_key.h"
#include "file/random_access_file_reader.h"
#include "logging/logging.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/advanced_cache.h"
#include "table/block_based/block.h"
#include "table/block_based/block_based_table_builder.h"
#include "table/block_fetcher.h"
#include "table/craft/craft_range_filter_policy.h"
#include "table/kiwi/tile_table_reader.h"
#include "table/meta_blocks.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Reads happen at first use, after the table's open-time prefetch is gone.
Status ReadRawBlock(const BlockBasedTable::Rep* rep,
                    const ReadOptions& read_options, const BlockHandle& handle,
                    BlockContents* contents) {
  return ReadCraftBlock(rep->file.get(), /*prefetch_buffer=*/nullptr,
                        rep->footer, read_options, rep->ioptions,
                        rep->persistent_cache_options, handle, contents);
}

void DeletePartition(void* partition, void* /*unused*/) {
  delete static_cast<CraftPartition*>(partition);
}

void DeleteCachedPartition(Cache::ObjectPtr partition,
                           MemoryAllocator* /*allocator*/) {
  delete static_cast<CraftPartition*>(partition);
}

// Decoded partitions live in the block cache as filter blocks. No secondary
// cache support: a partition is cheap to read back from the file.
const Cache::CacheItemHelper kPartitionCacheHelper(CacheEntryRole::kFilterBlock,
                                                   &DeleteCachedPartition);

void ReleaseCacheHandle(void* cache, void* handle) {
  static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
}

}  // namespace

Status ReadCraftBlock(RandomAccessFileReader* file,
                      FilePrefetchBuffer* prefetch_buffer, const Footer& footer,
                      const ReadOptions& read_options,
                      const ImmutableOptions& ioptions,
                      const PersistentCacheOptions& cache_options,
                      const BlockHandle& handle, BlockContents* contents) {
  BlockFetcher fetcher(file, prefetch_buffer, footer, read_options, handle,
                       contents, ioptions, /*do_uncompress=*/false,
                       /*maybe_compressed=*/false, BlockType::kInvalid,
                       UncompressionDict::GetEmptyDict(), cache_options);
  return fetcher.ReadBlockContents();
}

CraftTableReader::Loaded::Loaded(CraftMetadata metadata,
                                 uint64_t metadata_bytes, bool pin)
    : filter(std::move(metadata)), stored_bytes(metadata_bytes) {
  const size_t n = filter.metadata().partitions().size();
  for (const CraftPartitionInfo& p : filter.metadata().partitions()) {
    stored_bytes += p.size;
  }
  if (pin) {
    pinned.reset(new std::atomic<const CraftPartition*>[n]);
    for (size_t i = 0; i < n; ++i) {
      pinned[i].store(nullptr, std::memory_order_relaxed);
    }
  }
}

CraftTableReader::CraftTableReader(const BlockBasedTable::Rep* rep,
                                   const BlockHandle& metadata_handle,
                                   bool pin_partitions)
    : rep_(rep),
      metadata_handle_(metadata_handle),
      // Without a block cache there is nowhere else to keep them.
      pin_partitions_(pin_partitions ||
                      rep->table_options.block_cache == nullptr) {}

CraftTableReader::~CraftTableReader() { delete loaded(); }

void CraftTableReader::Open(const BlockBasedTable::Rep* rep,
                            InternalIterator* metaindex_iter,
                            bool pin_partitions,
                            std::shared_ptr<CraftTableReader>* reader) {
  reader->reset();
  if (!CraftRangeFilterPolicy::ReadsFilters(
          rep->table_options.range_filter.get()) ||
      metaindex_iter == nullptr) {
    return;
  }
  BlockHandle handle;
  if (!FindOptionalMetaBlock(metaindex_iter,
                             CraftRangeFilterPolicy::kMetaBlockName(), &handle)
           .ok() ||
      handle.IsNull()) {
    return;  // Written without the filter.
  }
  reader->reset(new CraftTableReader(rep, handle, pin_partitions));
}

const CraftTableReader::Loaded* CraftTableReader::Load(
    const ReadOptions& read_options) const {
  if (damaged_.load(std::memory_order_acquire)) {
    return nullptr;
  }
  const Loaded* current = loaded();
  if (current != nullptr || read_options.read_tier == kBlockCacheTier) {
    return current;  // At the cache tier, as for any block: no file read.
  }
  BlockContents contents;
  CraftMetadata metadata;
  Status s = ReadRawBlock(rep_, read_options, metadata_handle_, &contents);
  if (s.ok()) {
    CraftTableLayout layout;
    layout.metadata_offset = metadata_handle_.offset();
    layout.block_trailer_size = rep_->footer.GetBlockTrailerSize();
    if (rep_->table_properties != nullptr) {
      // With KiWi's tiles the range filter numbers tiles, one per index
      // entry (table/kiwi/tile_table_builder.h).
      layout.num_data_blocks = rep_->tiles != nullptr
                                   ? rep_->tiles->tiles().size()
                                   : rep_->table_properties->num_data_blocks;
      layout.num_entries = rep_->table_properties->num_entries;
    }
    s = CraftMetadata::Decode(contents.data, layout, &metadata);
  }
  if (s.ok() && rep_->footer.checksum_type() == kNoChecksum) {
    // No checksum saw the partitions: check each against the metadata
    // before the filter answers anything, so that an answer never rests on
    // a partition that has not been checked (a metadata first key damaged
    // upward would hide the keys below it from the partition before).
    for (size_t i = 0; s.ok() && i < metadata.partitions().size(); ++i) {
      std::unique_ptr<CraftPartition> partition;
      s = ReadPartition(metadata, i, read_options, &partition);
    }
  }
  if (!s.ok()) {
    RefuseIfDamaged(s);
    return nullptr;
  }
  auto fresh = std::make_unique<Loaded>(
      std::move(metadata), metadata_handle_.size(), pin_partitions_);
  fresh->filter.set_confirm_first_keys(rep_->footer.checksum_type() ==
                                       kNoChecksum);
  if (loaded_.compare_exchange_strong(current, fresh.get(),
                                      std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
    return fresh.release();
  }
  return current;  // Another thread's copy was published first.
}

void CraftTableReader::RefuseIfDamaged(const Status& s) const {
  // As upstream does with an unreadable filter: the table reads on
  // without. Damage stays; another read error may not.
  if (s.IsCorruption() && !damaged_.exchange(true)) {
    ROCKS_LOG_WARN(rep_->ioptions.logger, "CRaFT filter of a table ignored: %s",
                   s.ToString().c_str());
  }
}

const CraftFilterReader* CraftTableReader::Filter(
    const ReadOptions& read_options) const {
  const Loaded* l = Load(read_options);
  return l != nullptr ? &l->filter : nullptr;
}

const CraftFilterReader* CraftTableReader::LoadedFilter() const {
  const Loaded* l = loaded();
  return l != nullptr ? &l->filter : nullptr;
}

uint64_t CraftTableReader::stored_bytes() const {
  const Loaded* l = loaded();
  return l != nullptr ? l->stored_bytes : 0;
}

Status CraftTableReader::ReadPartition(
    const CraftMetadata& metadata, size_t index,
    const ReadOptions& read_options,
    std::unique_ptr<CraftPartition>* partition) const {
  if (read_options.read_tier == kBlockCacheTier) {
    // As for any block of the table: no file read at this tier.
    return Status::Incomplete("CRaFT partition not in the block cache");
  }
  const CraftPartitionInfo& info = metadata.partitions()[index];
  BlockContents contents;
  Status s = ReadRawBlock(rep_, read_options,
                          BlockHandle(info.offset, info.size), &contents);
  auto decoded = std::make_unique<CraftPartition>();
  if (s.ok()) {
    s = metadata.DecodePartition(index, contents.data, decoded.get());
  }
  if (s.ok()) {
    RecordTick(rep_->ioptions.stats, CRAFT_FILTER_BYTES_READ, info.size);
    *partition = std::move(decoded);
  }
  RefuseIfDamaged(s);
  return s;
}

Status CraftTableReader::LoadPartition(const Loaded& loaded, size_t index,
                                       const ReadOptions& read_options,
                                       const CraftPartition** partition,
                                       Cleanable* pin) const {
  if (index >= loaded.filter.metadata().partitions().size()) {
    return Status::Corruption("CRaFT partition index out of range");
  }
  if (loaded.pinned == nullptr) {
    return LoadCachedPartition(loaded, index, read_options, partition, pin);
  }
  *partition = loaded.pinned[index].load(std::memory_order_acquire);
  return *partition != nullptr
             ? Status::OK()
             : PinPartition(loaded, index, read_options, partition);
}

Status CraftTableReader::LoadCachedPartition(const Loaded& loaded, size_t index,
                                             const ReadOptions& read_options,
                                             const CraftPartition** partition,
                                             Cleanable* pin) const {
  Cache* cache = rep_->table_options.block_cache.get();
  // Keyed like the table's other blocks; the offset is unique in the file.
  const CacheKey key = BlockBasedTable::GetCacheKey(
      rep_->base_cache_key,
      BlockHandle(loaded.filter.metadata().partitions()[index].offset, 0));
  Cache::Handle* handle = cache->Lookup(key.AsSlice());
  if (handle == nullptr) {
    std::unique_ptr<CraftPartition> decoded;
    Status s =
        ReadPartition(loaded.filter.metadata(), index, read_options, &decoded);
    if (!s.ok()) {
      return s;
    }
    const size_t charge = decoded->ApproximateMemoryUsage();
    const Cache::Priority priority =
        rep_->table_options.cache_index_and_filter_blocks_with_high_priority
            ? Cache::Priority::HIGH
            : Cache::Priority::LOW;
    s = cache->Insert(key.AsSlice(), decoded.get(), &kPartitionCacheHelper,
                      charge, &handle, priority);
    if (!s.ok()) {
      // A full cache with a strict limit: answer from a private copy.
      *partition = decoded.get();
      pin->RegisterCleanup(&DeletePartition, decoded.release(), nullptr);
      return Status::OK();
    }
    decoded.release();  // Owned by the cache now.
  }
  *partition = static_cast<const CraftPartition*>(cache->Value(handle));
  pin->RegisterCleanup(&ReleaseCacheHandle, cache, handle);
  return Status::OK();
}

Status CraftTableReader::PinPartition(const Loaded& loaded, size_t index,
                                      const ReadOptions& read_options,
                                      const CraftPartition** partition) const {
  // Declared before the lock: a copy that lost the race is released after
  // the lock is.
  Cleanable holder;
  const CraftPartition* fresh = nullptr;
  Status s;
  if (rep_->table_options.block_cache != nullptr) {
    // A cache entry held until the reader closes, as upstream pins filter
    // partitions: still charged to the cache.
    s = LoadCachedPartition(loaded, index, read_options, &fresh, &holder);
  } else {
    std::unique_ptr<CraftPartition> decoded;
    s = ReadPartition(loaded.filter.metadata(), index, read_options, &decoded);
    if (s.ok()) {
      fresh = decoded.get();
      holder.RegisterCleanup(&DeletePartition, decoded.release(), nullptr);
    }
  }
  if (!s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(pin_mu_);
  const CraftPartition* current =
      loaded.pinned[index].load(std::memory_order_relaxed);
  if (current == nullptr) {
    holder.DelegateCleanupsTo(&pins_);
    loaded.pinned[index].store(fresh, std::memory_order_release);
    current = fresh;
  }
  *partition = current;
  return Status::OK();
}

CraftPartitionLoader CraftTableReader::Loader(
    const Loaded& loaded, const ReadOptions& read_options) const {
  return [this, &loaded, &read_options](
             size_t index, const CraftPartition** partition, Cleanable* pin) {
    return LoadPartition(loaded, index, read_options, partition, pin);
  };
}

bool CraftTableReader::RangeMayExist(const Slice& lo, const Slice& hi,
                                     const ReadOptions& read_options) const {
  const Loaded* l = Load(read_options);
  if (l == nullptr) {
    return true;
  }
  Status s;
  const bool may_exist =
      l->filter.RangeMayExist(lo, hi, Loader(*l, read_options), &s);
  // A partition that cannot be read answers "may exist": the read error is
  // deliberately not the seek's (as with upstream's filter blocks).
  IGNORE_STATUS_IF_ERROR(s);
  return may_exist;
}

bool CraftTableReader::EstimateKeys(const Slice& lo, const Slice& hi,
                                    uint64_t* keys) const {
  const ReadOptions read_options;
  const Loaded* l = Load(read_options);
  if (l == nullptr) {
    return false;
  }
  const CraftPartitionLoader load = Loader(*l, read_options);
  // An unreadable partition is estimated from the metadata instead.
  const CraftPartitionLoader loader =
      [&load](size_t index, const CraftPartition** partition, Cleanable* pin) {
        Status s = load(index, partition, pin);
        IGNORE_STATUS_IF_ERROR(s);
        return s;
      };
  *keys = l->filter.EstimateKeys(lo, hi, &loader);
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
