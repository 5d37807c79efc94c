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
#include "table/craft/craft_table_writer.h"
#include "table/meta_blocks.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

namespace {

Status ReadRawBlock(const BlockBasedTable::Rep* rep,
                    const ReadOptions& read_options,
                    FilePrefetchBuffer* prefetch_buffer,
                    const BlockHandle& handle, BlockContents* contents) {
  BlockFetcher fetcher(rep->file.get(), prefetch_buffer, rep->footer,
                       read_options, handle, contents, rep->ioptions,
                       /*do_uncompress=*/false, /*maybe_compressed=*/false,
                       BlockType::kInvalid, UncompressionDict::GetEmptyDict(),
                       rep->persistent_cache_options);
  return fetcher.ReadBlockContents();
}

void DeletePartition(void* trie, void* /*unused*/) {
  delete static_cast<LoudsSparse*>(trie);
}

void DeleteCachedPartition(Cache::ObjectPtr trie,
                           MemoryAllocator* /*allocator*/) {
  delete static_cast<LoudsSparse*>(trie);
}

// Decoded partitions live in the block cache as filter blocks. No secondary
// cache support: a partition is cheap to read back from the file.
const Cache::CacheItemHelper kPartitionCacheHelper(CacheEntryRole::kFilterBlock,
                                                   &DeleteCachedPartition);

void ReleaseCacheHandle(void* cache, void* handle) {
  static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
}

// When a table's filter is asked (CraftTableReader::ShouldCheck).
constexpr uint32_t kWarmupChecks = 64;
constexpr uint32_t kWindowChecks = 256;
constexpr uint32_t kMinEmptyPercent = 40;
constexpr uint32_t kSampleEvery = 8;
constexpr double kMaxExpectedKeysToCheck = 1.0;

// Counters are bumped with a relaxed load and store, not an atomic add:
// they are statistics and a heuristic, every bounded seek touches them, and
// a locked add costs a measurable share of a filtered seek. Concurrent
// readers may lose an increment now and then.
template <typename T>
void Bump(std::atomic<T>* counter, T by = 1) {
  counter->store(counter->load(std::memory_order_relaxed) + by,
                 std::memory_order_relaxed);
}

}  // namespace

CraftTableReader::CraftTableReader(const BlockBasedTable::Rep* rep,
                                   CraftMetadata metadata,
                                   uint64_t metadata_bytes, bool pin_partitions)
    : rep_(rep), filter_(std::move(metadata)), stored_bytes_(metadata_bytes) {
  const size_t n = filter_.metadata().partitions().size();
  for (const CraftPartitionInfo& p : filter_.metadata().partitions()) {
    stored_bytes_ += p.size;
  }
  // Without a block cache there is nowhere else to keep them.
  if (pin_partitions || rep_->table_options.block_cache == nullptr) {
    pinned_.reset(new std::atomic<const LoudsSparse*>[n]);
    for (size_t i = 0; i < n; ++i) {
      pinned_[i].store(nullptr, std::memory_order_relaxed);
    }
  }
}

CraftTableReader::SeekCounts CraftTableReader::seek_counts() const {
  SeekCounts counts;
  counts.checked = checked_.load(std::memory_order_relaxed);
  counts.empty = empty_.load(std::memory_order_relaxed);
  counts.false_positive = false_positive_.load(std::memory_order_relaxed);
  return counts;
}

void CraftTableReader::CountCheck(bool empty, uint32_t weight) const {
  Bump(&checked_);
  if (empty) {
    Bump(&empty_);
  }
  NoteRecentOutcome(empty, weight);
}

void CraftTableReader::NoteRecentOutcome(bool empty, uint32_t weight) const {
  const uint32_t recent =
      recent_checked_.load(std::memory_order_relaxed) + weight;
  uint32_t recent_empty = recent_empty_.load(std::memory_order_relaxed);
  if (empty) {
    recent_empty += weight;
  }
  // The window: halve both counts when it fills.
  if (recent >= kWindowChecks) {
    recent_checked_.store(recent / 2, std::memory_order_relaxed);
    recent_empty_.store(recent_empty / 2, std::memory_order_relaxed);
  } else {
    recent_checked_.store(recent, std::memory_order_relaxed);
    recent_empty_.store(recent_empty, std::memory_order_relaxed);
  }
}

bool CraftTableReader::CheckingPaysLately() const {
  const uint32_t checked = recent_checked_.load(std::memory_order_relaxed);
  return checked < kWarmupChecks ||
         100 * static_cast<uint64_t>(
                   recent_empty_.load(std::memory_order_relaxed)) >=
             kMinEmptyPercent * static_cast<uint64_t>(checked);
}

uint32_t CraftTableReader::ShouldCheck(const Slice& lo, const Slice& hi) const {
  if (filter_.ExpectedKeys(lo, hi) >= kMaxExpectedKeysToCheck) {
    // Counted as a seek the filter would not have helped, so that the
    // recent share, which also decides whether L0 files open lazily
    // (craft_level_check.h), reflects this table's seeks and not just the
    // ones it checked.
    NoteRecentOutcome(/*empty=*/false, 1);
    return 0;
  }
  if (CheckingPaysLately()) {
    return 1;
  }
  const uint32_t skipped = skipped_.load(std::memory_order_relaxed);
  skipped_.store(skipped + 1, std::memory_order_relaxed);
  // A sampled check stands for the seeks skipped since the last one.
  return skipped % kSampleEvery == 0 ? kSampleEvery : 0;
}

void CraftTableReader::CountFalsePositive() const { Bump(&false_positive_); }

void CraftTableReader::Open(const BlockBasedTable::Rep* rep,
                            InternalIterator* metaindex_iter,
                            const ReadOptions& read_options,
                            FilePrefetchBuffer* prefetch_buffer,
                            bool pin_partitions,
                            std::shared_ptr<CraftTableReader>* reader) {
  reader->reset();
  if (!rep->table_options.craft_range_filter || metaindex_iter == nullptr) {
    return;
  }
  BlockHandle handle;
  if (!FindOptionalMetaBlock(metaindex_iter, CraftTableWriter::kMetaBlockName,
                             &handle)
           .ok() ||
      handle.IsNull()) {
    return;  // Written without the filter.
  }
  BlockContents contents;
  CraftMetadata metadata;
  Status s =
      ReadRawBlock(rep, read_options, prefetch_buffer, handle, &contents);
  if (s.ok()) {
    s = CraftMetadata::Decode(contents.data, &metadata);
  }
  if (!s.ok()) {
    // As upstream does with an unreadable filter: the table opens without.
    IGNORE_STATUS_IF_ERROR(s);
    ROCKS_LOG_WARN(rep->ioptions.logger, "CRaFT filter of a table ignored: %s",
                   s.ToString().c_str());
    return;
  }
  reader->reset(new CraftTableReader(rep, std::move(metadata), handle.size(),
                                     pin_partitions));
}

Status CraftTableReader::ReadPartition(
    size_t index, const ReadOptions& read_options,
    std::unique_ptr<LoudsSparse>* trie) const {
  if (read_options.read_tier == kBlockCacheTier) {
    // As for any block of the table: no file read at this tier.
    return Status::Incomplete("CRaFT partition not in the block cache");
  }
  const CraftPartitionInfo& info = filter_.metadata().partitions()[index];
  BlockContents contents;
  Status s = ReadRawBlock(rep_, read_options, /*prefetch_buffer=*/nullptr,
                          BlockHandle(info.offset, info.size), &contents);
  auto decoded = std::make_unique<LoudsSparse>();
  if (s.ok()) {
    s = LoudsSparse::Decode(contents.data, decoded.get());
  }
  if (s.ok()) {
    RecordTick(rep_->ioptions.stats, CRAFT_FILTER_BYTES_READ, info.size);
    *trie = std::move(decoded);
  }
  return s;
}

Status CraftTableReader::LoadPartition(size_t index,
                                       const ReadOptions& read_options,
                                       const LoudsSparse** partition,
                                       Cleanable* pin) const {
  if (index >= filter_.metadata().partitions().size()) {
    return Status::Corruption("CRaFT partition index out of range");
  }
  if (pinned_ == nullptr) {
    return LoadCachedPartition(index, read_options, partition, pin);
  }
  *partition = pinned_[index].load(std::memory_order_acquire);
  return *partition != nullptr ? Status::OK()
                               : PinPartition(index, read_options, partition);
}

Status CraftTableReader::LoadCachedPartition(size_t index,
                                             const ReadOptions& read_options,
                                             const LoudsSparse** partition,
                                             Cleanable* pin) const {
  Cache* cache = rep_->table_options.block_cache.get();
  // Keyed like the table's other blocks; the offset is unique in the file.
  const CacheKey key = BlockBasedTable::GetCacheKey(
      rep_->base_cache_key,
      BlockHandle(filter_.metadata().partitions()[index].offset, 0));
  Cache::Handle* handle = cache->Lookup(key.AsSlice());
  if (handle == nullptr) {
    std::unique_ptr<LoudsSparse> trie;
    Status s = ReadPartition(index, read_options, &trie);
    if (!s.ok()) {
      return s;
    }
    const size_t charge = trie->ApproximateMemoryUsage();
    const Cache::Priority priority =
        rep_->table_options.cache_index_and_filter_blocks_with_high_priority
            ? Cache::Priority::HIGH
            : Cache::Priority::LOW;
    s = cache->Insert(key.AsSlice(), trie.get(), &kPartitionCacheHelper, charge,
                      &handle, priority);
    if (!s.ok()) {
      // A full cache with a strict limit: answer from a private copy.
      *partition = trie.get();
      pin->RegisterCleanup(&DeletePartition, trie.release(), nullptr);
      return Status::OK();
    }
    trie.release();  // Owned by the cache now.
  }
  *partition = static_cast<const LoudsSparse*>(cache->Value(handle));
  pin->RegisterCleanup(&ReleaseCacheHandle, cache, handle);
  return Status::OK();
}

Status CraftTableReader::PinPartition(size_t index,
                                      const ReadOptions& read_options,
                                      const LoudsSparse** partition) const {
  // Declared before the lock: a copy that lost the race is released after
  // the lock is.
  Cleanable holder;
  const LoudsSparse* loaded = nullptr;
  Status s;
  if (rep_->table_options.block_cache != nullptr) {
    // A cache entry held until the reader closes, as upstream pins filter
    // partitions: still charged to the cache.
    s = LoadCachedPartition(index, read_options, &loaded, &holder);
  } else {
    std::unique_ptr<LoudsSparse> trie;
    s = ReadPartition(index, read_options, &trie);
    if (s.ok()) {
      loaded = trie.get();
      holder.RegisterCleanup(&DeletePartition, trie.release(), nullptr);
    }
  }
  if (!s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(pin_mu_);
  const LoudsSparse* current = pinned_[index].load(std::memory_order_relaxed);
  if (current == nullptr) {
    holder.DelegateCleanupsTo(&pins_);
    pinned_[index].store(loaded, std::memory_order_release);
    current = loaded;
  }
  *partition = current;
  return Status::OK();
}

CraftPartitionLoader CraftTableReader::Loader(
    const ReadOptions& read_options) const {
  return [this, &read_options](size_t index, const LoudsSparse** partition,
                               Cleanable* pin) {
    return LoadPartition(index, read_options, partition, pin);
  };
}

bool CraftTableReader::RangeMayExist(const Slice& lo, const Slice& hi,
                                     const ReadOptions& read_options) const {
  Status s;
  const bool may_exist =
      filter_.RangeMayExist(lo, hi, Loader(read_options), &s);
  // A partition that cannot be read answers "may exist": the read error is
  // deliberately not the seek's (as with upstream's filter blocks).
  IGNORE_STATUS_IF_ERROR(s);
  return may_exist;
}

uint64_t CraftTableReader::EstimateKeys(const Slice& lo,
                                        const Slice& hi) const {
  const ReadOptions read_options;
  const CraftPartitionLoader load = Loader(read_options);
  // An unreadable partition is estimated from the metadata instead.
  const CraftPartitionLoader loader =
      [&load](size_t index, const LoudsSparse** partition, Cleanable* pin) {
        Status s = load(index, partition, pin);
        IGNORE_STATUS_IF_ERROR(s);
        return s;
      };
  return filter_.EstimateKeys(lo, hi, &loader);
}

Status ReadCraftFilterFromFile(const std::string& path, const Options& options,
                               CraftFileFilter* filter) {
  std::unique_ptr<FSRandomAccessFile> file;
  const auto& fs = options.env->GetFileSystem();
  Status s = fs->NewRandomAccessFile(path, FileOptions(), &file, nullptr);
  uint64_t size = 0;
  if (s.ok()) {
    s = options.env->GetFileSize(path, &size);
  }
  if (!s.ok()) {
    return s;
  }
  RandomAccessFileReader reader(std::move(file), path);
  const ImmutableOptions ioptions(options);
  BlockContents metaindex_contents;
  Footer footer;
  s = ReadMetaIndexBlockInFile(&reader, size, kBlockBasedTableMagicNumber,
                               ioptions, ReadOptions(), &metaindex_contents,
                               /*memory_allocator=*/nullptr,
                               /*prefetch_buffer=*/nullptr, &footer);
  if (!s.ok()) {
    return s;
  }
  Block metaindex(std::move(metaindex_contents));
  std::unique_ptr<InternalIterator> meta_iter(metaindex.NewMetaIterator());
  BlockHandle handle;
  s = FindOptionalMetaBlock(meta_iter.get(), CraftTableWriter::kMetaBlockName,
                            &handle);
  if (s.ok() && handle.IsNull()) {
    return Status::NotFound("no CRaFT filter in " + path);
  }
  if (!s.ok()) {
    return s;
  }
  auto read = [&](const BlockHandle& h, BlockContents* contents) {
    BlockFetcher fetcher(&reader, nullptr, footer, ReadOptions(), h, contents,
                         ioptions, /*do_uncompress=*/false,
                         /*maybe_compressed=*/false, BlockType::kInvalid,
                         UncompressionDict::GetEmptyDict(),
                         PersistentCacheOptions());
    return fetcher.ReadBlockContents();
  };
  BlockContents contents;
  s = read(handle, &contents);
  if (s.ok()) {
    s = CraftMetadata::Decode(contents.data, &filter->metadata);
  }
  if (!s.ok()) {
    return s;
  }
  filter->bytes = handle.size();
  for (const CraftPartitionInfo& p : filter->metadata.partitions()) {
    BlockContents partition;
    s = read(BlockHandle(p.offset, p.size), &partition);
    filter->partitions.emplace_back();
    if (s.ok()) {
      s = LoudsSparse::Decode(partition.data, &filter->partitions.back());
    }
    if (!s.ok()) {
      return s;
    }
    filter->bytes += p.size;
  }
  return Status::OK();
}

std::string DescribeCraftFilter(const std::string& path,
                                const Options& options) {
  CraftFileFilter filter;
  Status s = ReadCraftFilterFromFile(path, options, &filter);
  if (s.IsNotFound()) {
    return "";
  }
  if (!s.ok()) {
    return "CRaFT range filter: unreadable (" + s.ToString() + ")\n";
  }
  const uint64_t keys = filter.metadata.num_keys();
  size_t coded = 0;  // Partitions storing coded keys (format 3).
  for (const LoudsSparse& p : filter.partitions) {
    coded += p.key_code() != nullptr;
  }
  char buf[320];
  snprintf(
      buf, sizeof(buf),
      "CRaFT range filter\n"
      "------------------------------\n"
      "  partitions: %zu\n  keys: %" PRIu64 "\n  bytes: %" PRIu64
      "\n  bits per key: %.2f\n  order-preserving key code: %s\n",
      filter.metadata.partitions().size(), keys, filter.bytes,
      keys ? 8.0 * static_cast<double>(filter.bytes) / static_cast<double>(keys)
           : 0.0,
      coded == 0
          ? "no"
          : (coded == filter.partitions.size() ? "yes" : "some partitions"));
  return buf;
}

namespace {

// RememberCraftMaybe's seek: identified by the target's bytes in place (the
// level iterator hands its table iterator the same Slice).
struct CraftMaybe {
  const BlockBasedTable::Rep* rep = nullptr;
  const char* target = nullptr;
  size_t size = 0;
  bool checked = false;
};
thread_local CraftMaybe tls_craft_maybe;

}  // namespace

void RememberCraftMaybe(const BlockBasedTable::Rep* rep,
                        const Slice& internal_target, bool checked) {
  tls_craft_maybe =
      CraftMaybe{rep, internal_target.data(), internal_target.size(), checked};
}

bool CraftFilterSeekMayMatch(const BlockBasedTable::Rep* rep,
                             const ReadOptions& read_options,
                             TableReaderCaller caller,
                             const Slice& internal_target, bool forward,
                             bool* checked) {
  const CraftTableReader* craft = rep->craft.get();
  if (craft == nullptr || caller == TableReaderCaller::kCompaction ||
      internal_target.size() < kNumInternalBytes) {
    return true;  // (Before any thread-local.)
  }
  if (tls_craft_maybe.rep != nullptr) {
    const CraftMaybe maybe = tls_craft_maybe;
    tls_craft_maybe = CraftMaybe{};
    if (forward && maybe.rep == rep && maybe.target == internal_target.data() &&
        maybe.size == internal_target.size()) {
      if (checked != nullptr) {
        *checked = maybe.checked;  // Its outcome still counts.
      }
      return true;
    }
  }
  const Slice* bound = forward ? read_options.iterate_upper_bound
                               : read_options.iterate_lower_bound;
  if (bound == nullptr) {
    return true;
  }
  const Slice target = ExtractUserKey(internal_target);
  std::string through;  // Backward: [lower, target] as a half-open range.
  if (!forward) {
    through.reserve(target.size() + 1);
    through.assign(target.data(), target.size());
    through.push_back('\0');
  }
  const Slice lo = forward ? target : *bound;
  const Slice hi = forward ? *bound : Slice(through);
  const uint32_t weight = craft->ShouldCheck(lo, hi);
  if (weight == 0) {
    return true;  // Likely keys in range, or mostly non-empty here lately.
  }
  const bool may_match = craft->RangeMayExist(lo, hi, read_options);
  Statistics* stats = rep->ioptions.stats;
  RecordTick(stats, CRAFT_FILTER_CHECKED);
  if (!may_match) {
    RecordTick(stats, CRAFT_FILTER_EMPTY);
  }
  craft->CountCheck(/*empty=*/!may_match, weight);
  if (checked != nullptr) {
    *checked = true;
  }
  return may_match;
}

void NoteCraftSeekOutcome(const BlockBasedTable::Rep* rep,
                          const ReadOptions& read_options, bool forward,
                          bool valid, const Slice& internal_key) {
  bool in_range = false;
  if (valid && internal_key.size() >= kNumInternalBytes) {
    const Comparator* ucmp = rep->internal_comparator.user_comparator();
    const Slice user_key = ExtractUserKey(internal_key);
    in_range =
        forward
            ? ucmp->Compare(user_key, *read_options.iterate_upper_bound) < 0
            : ucmp->Compare(user_key, *read_options.iterate_lower_bound) >= 0;
  }
  if (!in_range) {
    RecordTick(rep->ioptions.stats, CRAFT_FILTER_FALSE_POSITIVE);
    if (rep->craft != nullptr) {
      rep->craft->CountFalsePositive();
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
