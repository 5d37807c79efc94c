#include "cache/location/location_get.h"

#include "cache/location/location_cache_impl.h"
#include "cache/location/version_file_memo.h"
#include "db/dbformat.h"
#include "db/merge_context.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "port/port.h"
#include "rocksdb/comparator.h"
#include "table/block_based/block.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/block_based/block_based_table_reader_impl.h"
#include "table/get_context.h"
#include "table/multiget_context.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// On this thread: the scope of the DBImpl Get/MultiGet call, if any; the
// sink of the LocationCacheGet listening for the table reader's answer; the
// MultiGet populator collecting which table answered each key. Thread-locals
// because they sit several calls and a virtual table interface away from
// where they are used, and all those calls are synchronous.
thread_local const LocationCacheReadScope* tls_read_scope = nullptr;
thread_local LocationCacheGet::FoundEntry* tls_found_sink = nullptr;
thread_local LocationCacheMultiGetPopulator* tls_multiget = nullptr;

}  // namespace

void LocationCacheReadScope::Open(LocationCache* cache) {
  binding_ = ActiveLocationCache(cache);
  if (binding_ != nullptr) {
    epoch_ = binding_->Epoch();
    outer_ = tls_read_scope;
    tls_read_scope = this;
  }
}

void LocationCacheReadScope::Open(LocationCache* cache, uint32_t cf_id,
                                  const Slice& user_key) {
  Open(cache);
  if (binding_ != nullptr) {
    slot_ = binding_->Slot(cf_id, user_key, &fingerprint_);
    cf_id_ = cf_id;
    key_ = user_key;
    PREFETCH(slot_, 0 /* rw */, 1 /* locality */);
  }
}

void LocationCacheReadScope::Close() { tls_read_scope = outer_; }

void NoteLocationOfFoundEntry(uint64_t block_offset, uint32_t value_offset) {
  LocationCacheGet::FoundEntry* sink = tls_found_sink;
  if (sink != nullptr) {
    sink->block_offset = block_offset;
    sink->value_offset = value_offset;
    sink->valid = true;
  }
}

void LocationCacheGet::Init(LocationCache* cache, bool may_populate) {
  binding_ = ActiveLocationCache(cache);
  if (binding_ == nullptr) {
    return;
  }
  if (version_.icmp->user_comparator()->timestamp_size() > 0 ||
      read_options_.read_tier == kMemtableTier) {
    binding_ = nullptr;
    return;
  }
  fingerprinted_ = version_.icmp->user_comparator() == BytewiseComparator();
  // Only a read of the latest state may remember a location: an older
  // snapshot may find a version that is not the newest, and a read that
  // ignores range deletions may find one they cover.
  const LocationCacheReadScope* scope = tls_read_scope;
  if (scope != nullptr && scope->binding() == binding_) {
    scope_ = scope;
  }
  may_populate_ = may_populate && scope != nullptr &&
                  scope->binding() == binding_ &&
                  read_options_.snapshot == nullptr &&
                  !read_options_.ignore_range_deletions;
  if (may_populate_) {
    epoch_ = scope->epoch();
    listening_ = true;
    outer_sink_ = tls_found_sink;
    tls_found_sink = &found_;
  }
}

void LocationCacheGet::StopListening() { tls_found_sink = outer_sink_; }

bool LocationCacheGet::TryServeActive(GetContext* get_context,
                                      const MergeContext& merge_context,
                                      SequenceNumber max_covering_tombstone_seq,
                                      ReadCallback* callback, bool do_merge) {
  // Merge operands or a covering range tombstone from the memtables, a read
  // callback (WritePrepared/WriteUnprepared) or an operands-only read need
  // the full search.
  if (get_context->State() != GetContext::kNotFound ||
      merge_context.GetNumOperands() > 0 || max_covering_tombstone_seq > 0 ||
      callback != nullptr || !do_merge) {
    may_populate_ = false;
    return false;
  }
  slot_ = scope_ != nullptr ? scope_->SlotFor(version_.cf_id,
                                              key_.user_key(), &fingerprint_)
                            : nullptr;
  if (slot_ == nullptr) {
    slot_ = binding_->Slot(version_.cf_id, key_.user_key(), &fingerprint_);
  }
  observed_ = slot_->load(std::memory_order_acquire);
  Outcome outcome = Outcome::kMiss;
  // Another key's descriptor, told by its fingerprint, is a plain miss.
  if (observed_ != 0 &&
      LocationDescriptor::OwnerOf(observed_) == binding_->owner() &&
      (!fingerprinted_ ||
       LocationDescriptor::TagOf(observed_) == fingerprint_)) {
    outcome = Serve(get_context, observed_);
  }
  switch (outcome) {
    case Outcome::kHit:
      RecordTick(version_.stats, LOCATION_CACHE_HIT);
      return true;
    case Outcome::kMiss:
      RecordTick(version_.stats, LOCATION_CACHE_MISS);
      break;
    case Outcome::kStale:
      RecordTick(version_.stats, LOCATION_CACHE_STALE);
      break;
    case Outcome::kFalseHit:
      RecordTick(version_.stats, LOCATION_CACHE_FALSE_HIT);
      break;
  }
  return false;
}

LocationCacheGet::Outcome LocationCacheGet::Serve(GetContext* get_context,
                                                  uint64_t descriptor) {
  const LocationDescriptor loc = LocationDescriptor::Decode(descriptor);
  // A file no longer in this reader's Version: dropped lazily, here.
  const FileMetaData* file =
      FindFileInVersion(version_.vstorage, loc.file_number);
  if (file == nullptr) {
    return Outcome::kStale;
  }
  TableCache* table_cache = version_.table_cache;
  TableCache::TypedHandle* table_handle = nullptr;
  TableReader* reader = file->fd.table_reader;
  if (reader == nullptr) {
    Status s = table_cache->FindTable(
        read_options_, *version_.file_options, *version_.icmp, *file,
        &table_handle, *version_.mutable_cf_options, /*no_io=*/true);
    if (!s.ok()) {
      return Outcome::kMiss;
    }
    reader = table_cache->get_cache().Value(table_handle);
  }
  // Only BlockBasedTable::Get reports locations, so a descriptor's file
  // (matched exactly by owner and number) is a block-based table.
  auto* table = static_cast<BlockBasedTable*>(reader);
  Outcome outcome = Outcome::kMiss;
  if (table->get_rep()->table_options.block_cache != nullptr) {
    // Only the offset matters to the block cache key; a block that is not
    // cached sends the lookup down the full path.
    const BlockHandle handle(loc.block_offset, /*size=*/0);
    CachableEntry<Block> block;
    Status s = table->LookupAndPinBlocksInCache<Block_kData>(
        read_options_, handle, &block.As<Block_kData>());
    // It may read the table's compression dictionary; a failed read makes
    // this a miss, and the full search reads (and reports) for itself.
    IGNORE_STATUS_IF_ERROR(s);
    if (s.ok() && block.GetValue() != nullptr) {
      DataBlockIter biter;
      table->NewDataBlockIterator<DataBlockIter>(read_options_, block, &biter,
                                                 Status::OK());
      // The remembered entry, found by its offset alone. It was the newest
      // version of its key in this immutable file when remembered, so its
      // key, type and a sequence number this read may see prove it is what
      // a seek for the key would return (a newer version anywhere else
      // invalidated the slot).
      const Slice ikey = key_.internal_key();
      ParsedInternalKey parsed;
      outcome = Outcome::kFalseHit;
      if (biter.SeekToValueQuad(loc.value_quad) &&
          TagFor(biter.ValueOffset()) == loc.tag &&
          ParseInternalKey(biter.key(), &parsed, /*log_err_key=*/false)
              .ok() &&
          (parsed.type == kTypeValue || parsed.type == kTypeValueInitial) &&
          parsed.sequence <= GetInternalKeySeqno(ikey) &&
          version_.icmp->user_comparator()->Equal(parsed.user_key,
                                                  key_.user_key())) {
        bool matched = false;
        Status read_status;
        get_context->SaveValue(parsed, biter.value(), &matched, &read_status,
                               biter.IsValuePinned() ? &biter : nullptr);
        // A plain value leaves nothing else to decide.
        assert(read_status.ok());
        assert(get_context->State() == GetContext::kFound);
        outcome = Outcome::kHit;
      }
    }
  }
  if (table_handle != nullptr) {
    table_cache->get_cache().Release(table_handle);
  }
  return outcome;
}

void LocationCacheGet::Remember(const FileMetaData& file,
                                const MergeContext& merge_context,
                                bool is_blob_index) {
  if (slot_ == nullptr || !found_.valid ||
      merge_context.GetNumOperands() > 0 || is_blob_index) {
    return;
  }
  uint64_t desired = 0;
  if (!LocationDescriptor::Encode(binding_->owner(), file.fd.GetNumber(),
                                  found_.block_offset, found_.value_offset,
                                  TagFor(found_.value_offset), &desired)) {
    RecordTick(version_.stats, LOCATION_CACHE_POPULATE_SKIPPED);
    return;
  }
  if (desired == observed_) {
    return;  // remembered already (its block was not cached)
  }
  RecordTick(version_.stats,
             binding_->Populate(slot_, observed_, desired, epoch_)
                 ? LOCATION_CACHE_POPULATE
                 : LOCATION_CACHE_POPULATE_SKIPPED);
}

void LocationCacheGet::PopulateFrom(const FileMetaData& file) {
  if (binding_ == nullptr || !may_populate_) {
    return;
  }
  slot_ = binding_->Slot(version_.cf_id, key_.user_key(), &fingerprint_);
  observed_ = slot_->load(std::memory_order_acquire);
  PinnableSlice value;
  MergeContext merge_context;
  SequenceNumber max_covering_tombstone_seq = 0;
  GetContext get_context(version_.icmp->user_comparator(),
                         /*merge_operator=*/nullptr, version_.logger,
                         /*statistics=*/nullptr, GetContext::kNotFound,
                         key_.user_key(), &value, /*columns=*/nullptr,
                         /*timestamp=*/nullptr, /*value_found=*/nullptr,
                         &merge_context, /*do_merge=*/true,
                         &max_covering_tombstone_seq, version_.clock);
  Status s = version_.table_cache->Get(
      read_options_, *version_.icmp, file, key_.internal_key(), &get_context,
      *version_.mutable_cf_options);
  if (s.ok() && get_context.State() == GetContext::kFound) {
    OnFound(file, merge_context, /*is_blob_index=*/false);
  }
  // The Get was answered already; this read only remembers a location.
  IGNORE_STATUS_IF_ERROR(s);
}

void LocationCacheGet::PopulateAt(const FileMetaData& file,
                                  const FoundEntry& entry) {
  if (binding_ == nullptr || !may_populate_) {
    return;
  }
  slot_ = binding_->Slot(version_.cf_id, key_.user_key(), &fingerprint_);
  observed_ = slot_->load(std::memory_order_acquire);
  found_ = entry;
  OnFound(file, MergeContext(), /*is_blob_index=*/false);
}

LocationCacheMultiGetPopulator::LocationCacheMultiGetPopulator(
    LocationCache* cache, const LocationCacheVersion& version,
    const ReadOptions& read_options)
    : cache_(cache), version_(version), read_options_(read_options) {
  const LocationCacheReadScope* scope = tls_read_scope;
  LocationCacheBinding* binding = ActiveLocationCache(cache);
  active_ = binding != nullptr && scope != nullptr &&
            scope->binding() == binding && read_options.snapshot == nullptr &&
            !read_options.ignore_range_deletions &&
            version.icmp->user_comparator()->timestamp_size() == 0;
  if (active_) {
    outer_ = tls_multiget;
    tls_multiget = this;
  }
}

LocationCacheMultiGetPopulator::~LocationCacheMultiGetPopulator() {
  if (active_) {
    tls_multiget = outer_;
  }
}

void LocationCacheMultiGetPopulator::Note(const KeyContext* key,
                                          const FileMetaData* file) {
  found_.emplace_back(key, file);
}

void LocationCacheMultiGetPopulator::NoteEntry(const KeyContext* key,
                                               uint64_t block_offset,
                                               uint32_t value_offset) {
  LocationCacheGet::FoundEntry entry;
  entry.block_offset = block_offset;
  entry.value_offset = value_offset;
  entry.valid = true;
  entries_.emplace_back(key, entry);
}

void LocationCacheMultiGetPopulator::Populate() {
  if (!active_) {
    return;
  }
  for (const auto& [key, file] : found_) {
    // Only keys a plain value answered, as on the Get path.
    if (key->get_context == nullptr ||
        key->get_context->State() != GetContext::kFound ||
        key->merge_context.GetNumOperands() > 0 || key->is_blob_index) {
      continue;
    }
    LocationCacheGet get(cache_, version_, read_options_, *key->lkey,
                         /*may_populate=*/true);
    // The entry the batch reported for this key, the latest if several.
    const LocationCacheGet::FoundEntry* entry = nullptr;
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->first == key) {
        entry = &it->second;
        break;
      }
    }
    if (entry != nullptr) {
      get.PopulateAt(*file, *entry);
    } else {
      get.PopulateFrom(*file);
    }
  }
}

void NoteLocationCacheMultiGetFound(const KeyContext* key,
                                    const FileMetaData* file) {
  LocationCacheMultiGetPopulator* populator = tls_multiget;
  if (populator != nullptr) {
    populator->Note(key, file);
  }
}

void NoteLocationOfMultiGetEntry(const KeyContext* key, uint64_t block_offset,
                                 uint32_t value_offset) {
  LocationCacheMultiGetPopulator* populator = tls_multiget;
  if (populator != nullptr) {
    populator->NoteEntry(key, block_offset, value_offset);
  }
}

}  // namespace ROCKSDB_NAMESPACE
