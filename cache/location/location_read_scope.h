// Lodestone: the location cache's view of one DB read call.
//
// DBImpl::GetImpl and the DBImpl MultiGet entry points open a
// LocationCacheReadScope before they acquire their SuperVersions and pass it
// down, through Version::Get / DBImpl::MultiGetImpl and Version::MultiGet,
// to the lookups (location_lookup.h) and the MultiGet hook
// (location_multiget.h). A lookup without a scope may answer from the cache
// but never remembers a location.
//
// Why the epoch is read before the SuperVersion: a reader whose snapshot
// predates a write of key k may miss k in the memtable, find an older
// version in a table, and remember that location after the flush of k
// already cleared k's slot. Every flush bumps the owner's epoch before it
// clears slots, and the reader only keeps a population made under the epoch
// it saw before taking its SuperVersion. A reader that saw the bumped epoch
// took its SuperVersion and sequence number after the flushed memtable was
// sealed, so it finds k in that memtable or in the new table: it never
// reaches the older location.

#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct LocationSlot;

class LocationCache;
class LocationCacheBinding;

class LocationCacheReadScope {
 public:
  // Get: also starts loading the key's slot, whose memory miss then
  // overlaps the memtable lookups. Inline so that a DB without a location
  // cache pays one null check per read.
  LocationCacheReadScope(LocationCache* cache, uint32_t cf_id,
                         const Slice& user_key) {
    if (cache != nullptr) {
      Open(cache, cf_id, user_key);
    }
  }
  // MultiGet: no prefetch.
  explicit LocationCacheReadScope(LocationCache* cache) {
    if (cache != nullptr) {
      Open(cache);
    }
  }

  LocationCacheReadScope(const LocationCacheReadScope&) = delete;
  LocationCacheReadScope& operator=(const LocationCacheReadScope&) = delete;

  // Null when the DB has no active location cache.
  LocationCacheBinding* binding() const { return binding_; }
  uint64_t epoch() const { return epoch_; }

  // The slot and fingerprint the prefetching constructor computed, if it
  // was for this (column family, user key): saves hashing the key twice.
  LocationSlot* SlotFor(uint32_t cf_id, const Slice& user_key,
                        uint32_t* fingerprint) const {
    if (slot_ == nullptr || cf_id != cf_id_ || user_key != key_) {
      return nullptr;
    }
    *fingerprint = fingerprint_;
    return slot_;
  }

 private:
  void Open(LocationCache* cache);
  void Open(LocationCache* cache, uint32_t cf_id, const Slice& user_key);

  LocationCacheBinding* binding_ = nullptr;
  uint64_t epoch_ = 0;
  LocationSlot* slot_ = nullptr;  // prefetched
  uint32_t fingerprint_ = 0;
  uint32_t cf_id_ = 0;
  Slice key_;  // the caller's, alive for the whole read
};

}  // namespace ROCKSDB_NAMESPACE
