#include "cache/location/location_lookup.h"

#include "cache/location/location_cache_impl.h"
#include "cache/location/location_range_tombstones.h"
#include "cache/location/location_read_scope.h"
#include "cache/location/version_file_memo.h"
#include "db/dbformat.h"
#include "db/merge_context.h"
#include "db/secondary_deletes/covered_entries.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "port/port.h"
#include "rocksdb/comparator.h"
#include "table/block_based/block.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/block_based/block_based_table_reader_impl.h"
#include "table/get_context.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

// Declared in db/version_set.h (patch 0022).
LocationCacheVersion Version::ForLocationCache() const {
  return LocationCacheVersion{&storage_info_,
                              table_cache_,
                              &file_options_,
                              &mutable_cf_options_,
                              internal_comparator(),
                              db_statistics_,
                              cfd_->GetID(),
                              version_number_,
                              info_log_,
                              clock_};
}

void LocationCacheLookup::Init(LocationCache* cache,
                               const LocationCacheReadScope* scope,
                               GetContext* get_context) {
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
  get_context_ = get_context;
  if (scope != nullptr && scope->binding() == binding_) {
    scope_ = scope;  // Its prefetched slot serves TryServe either way.
  }
  may_remember_ = MayRemember(binding_, scope, read_options_, version_);
  if (may_remember_) {
    epoch_ = scope->epoch();
    if (get_context != nullptr) {
      assert(get_context->location_found() == nullptr);
      get_context->set_location_found(&found_);
      listening_ = true;
    }
  }
}

bool LocationCacheLookup::MayRemember(const LocationCacheBinding* binding,
                                      const LocationCacheReadScope* scope,
                                      const ReadOptions& read_options,
                                      const LocationCacheVersion& version) {
  return binding != nullptr && scope != nullptr &&
         scope->binding() == binding && read_options.snapshot == nullptr &&
         !read_options.ignore_range_deletions &&
         version.icmp->user_comparator()->timestamp_size() == 0;
}

void LocationCacheLookup::StopListening() {
  get_context_->set_location_found(nullptr);
}

void LocationCacheLookup::LoadSlot() {
  slot_ = scope_ != nullptr
              ? scope_->SlotFor(version_.cf_id, key_.user_key(), &fingerprint_)
              : nullptr;
  if (slot_ == nullptr) {
    slot_ = binding_->Slot(version_.cf_id, key_.user_key(), &fingerprint_);
  }
  // The head first (location_descriptor.h): the tail is then the head's or
  // a later writer's, which the check tells apart.
  observed_.head = slot_->head.load(std::memory_order_acquire);
  observed_.tail = slot_->tail.load(std::memory_order_relaxed);
}

bool LocationCacheLookup::TryServeActive(
    const MergeContext& merge_context,
    SequenceNumber max_covering_tombstone_seq, ReadCallback* callback,
    bool do_merge) {
  assert(get_context_ != nullptr);
  // Merge operands or a covering range tombstone from the memtables, a read
  // callback (WritePrepared/WriteUnprepared) or an operands-only read need
  // the full search.
  if (get_context_->State() != GetContext::kNotFound ||
      merge_context.GetNumOperands() > 0 || max_covering_tombstone_seq > 0 ||
      callback != nullptr || !do_merge) {
    may_remember_ = false;
    return false;
  }
  LoadSlot();
  Outcome outcome = Outcome::kMiss;
  // Another key's descriptor, told by its fingerprint (the tag, then the
  // check), is a plain miss; so is a tail that does not belong to the head
  // (a writer is in between).
  LocationDescriptor loc;
  if (observed_.head != 0 &&
      LocationDescriptor::OwnerOf(observed_.head) == binding_->owner() &&
      (!fingerprinted_ || LocationDescriptor::TagOf(observed_.head) ==
                              (fingerprint_ & LocationDescriptor::kTagMask)) &&
      LocationDescriptor::Decode(observed_, fingerprint_, &loc)) {
    outcome = Serve(loc);
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

bool LocationCacheLookup::PositionInBlock(BlockBasedTable* table,
                                          const BlockHandle& handle,
                                          DataBlockIter* biter) const {
  Status s;
  if (read_options_.verify_checksums) {
    // The block as the full search would get it: from the block cache, or
    // read from the table (and cached, per the read's options) without an
    // index or filter lookup. The block's checksum vouches for the size the
    // slot holds; kBlockCacheTier reads get Incomplete instead of a read.
    BlockCacheLookupContext lookup_context(TableReaderCaller::kUserGet);
    table->NewDataBlockIterator<DataBlockIter>(
        read_options_, handle, biter, BlockType::kData, get_context_,
        &lookup_context, /*prefetch_buffer=*/nullptr,
        /*for_compaction=*/false, /*async_read=*/false, s,
        /*use_block_cache_for_lookup=*/true);
  } else {
    // Without checksums nothing would catch a torn slot's size: only a
    // block already cached serves (only the offset keys the cache).
    CachableEntry<Block> block;
    if (table->get_rep()->table_options.block_cache != nullptr) {
      s = table->LookupAndPinBlocksInCache<Block_kData>(
          read_options_, handle, &block.As<Block_kData>());
    }
    if (!s.ok() || block.GetValue() == nullptr) {
      // It may have read the table's compression dictionary and failed.
      IGNORE_STATUS_IF_ERROR(s);
      return false;
    }
    table->NewDataBlockIterator<DataBlockIter>(read_options_, block, biter,
                                               Status::OK());
  }
  // A failed read makes this a miss: the full search reads, and reports
  // the error, for itself.
  IGNORE_STATUS_IF_ERROR(s);
  return s.ok() && biter->status().ok();
}

LocationCacheLookup::Outcome LocationCacheLookup::Serve(
    const LocationDescriptor& loc) {
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
  DataBlockIter biter;
  if (PositionInBlock(table, BlockHandle(loc.block_offset, loc.block_size),
                      &biter)) {
    // The remembered entry, found by its offset alone. It was the newest
    // version of its key in this immutable file when remembered, so its
    // key, type and a sequence number this read may see prove it is what
    // a seek for the key would return (a newer point version anywhere
    // else invalidated the slot; newer range tombstones are asked below).
    const Slice ikey = key_.internal_key();
    ParsedInternalKey parsed;
    outcome = Outcome::kFalseHit;
    if (biter.SeekToEntryByValueOffset(loc.value_offset_words) &&
        TagFor(biter.ValueOffset()) == loc.tag &&
        ParseInternalKey(biter.key(), &parsed, /*log_err_key=*/false).ok() &&
        LocationCacheServesType(parsed.type) &&
        parsed.sequence <= GetInternalKeySeqno(ikey) &&
        version_.icmp->user_comparator()->Equal(parsed.user_key,
                                                key_.user_key())) {
      outcome = Outcome::kHit;
    }
    // A range tombstone flushed after the entry was remembered may cover
    // it (location_range_tombstones.h): the full search decides, and the
    // slot, which can only lead here again, is let go.
    if (outcome == Outcome::kHit &&
        NewerRangeTombstoneMayCover(version_, binding_->instance_id(),
                                    read_options_, key_.user_key(),
                                    parsed.sequence)) {
      uint64_t expected = observed_.head;
      slot_->head.compare_exchange_strong(expected, 0,
                                          std::memory_order_seq_cst);
      outcome = Outcome::kStale;
    }
    // An entry a secondary range tombstone covers stays covered until a
    // compaction drops it: the full search finds the key's older version.
    if (outcome == Outcome::kHit &&
        get_context_->covered_entries() != nullptr &&
        get_context_->covered_entries()->Covers(parsed, biter.value())) {
      uint64_t expected = observed_.head;
      slot_->head.compare_exchange_strong(expected, 0,
                                          std::memory_order_seq_cst);
      outcome = Outcome::kStale;
    }
    if (outcome == Outcome::kHit) {
      bool matched = false;
      Status read_status;
      get_context_->SaveValue(parsed, biter.value(), &matched, &read_status,
                              biter.IsValuePinned() ? &biter : nullptr);
      // A plain value leaves nothing else to decide.
      assert(read_status.ok());
      assert(get_context_->State() == GetContext::kFound);
    }
  }
  if (table_handle != nullptr) {
    table_cache->get_cache().Release(table_handle);
  }
  return outcome;
}

void LocationCacheLookup::Remember(const FileMetaData& file,
                                   const MergeContext& merge_context,
                                   bool is_blob_index) {
  // Only a plain value: a remembered entity would make every later probe
  // of its key a false hit.
  if (slot_ == nullptr || !found_.has_entry || !found_.plain_value ||
      merge_context.GetNumOperands() > 0 || is_blob_index) {
    return;
  }
  LocationSlotWords desired;
  if (!LocationDescriptor::Encode(
          binding_->owner(), file.fd.GetNumber(), found_.block_offset,
          found_.block_size, found_.value_offset, TagFor(found_.value_offset),
          fingerprint_, &desired)) {
    RecordTick(version_.stats, LOCATION_CACHE_POPULATE_SKIPPED);
    return;
  }
  if (desired == observed_) {
    return;  // remembered already (a hit that could not be served)
  }
  RecordTick(version_.stats,
             binding_->Populate(slot_, observed_.head, desired, epoch_)
                 ? LOCATION_CACHE_POPULATE
                 : LOCATION_CACHE_POPULATE_SKIPPED);
}

void LocationCacheLookup::RememberEntry(const FileMetaData& file,
                                        const LocationCacheFoundEntry& entry) {
  if (!may_remember_) {
    return;
  }
  LoadSlot();
  found_ = entry;
  Remember(file, MergeContext(), /*is_blob_index=*/false);
}

void LocationCacheLookup::RememberBySearching(const FileMetaData& file) {
  if (!may_remember_) {
    return;
  }
  LoadSlot();
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
  found_ = LocationCacheFoundEntry();
  get_context.set_location_found(&found_);
  Status s = version_.table_cache->Get(read_options_, *version_.icmp, file,
                                       key_.internal_key(), &get_context,
                                       *version_.mutable_cf_options);
  if (s.ok() && get_context.State() == GetContext::kFound) {
    Remember(file, merge_context, /*is_blob_index=*/false);
  }
  // The Get was answered already; this read only remembers a location.
  IGNORE_STATUS_IF_ERROR(s);
}

}  // namespace ROCKSDB_NAMESPACE
