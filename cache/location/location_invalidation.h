// Lodestone: invalidating the location cache when a new table file brings
// newer versions of keys (flush, ingestion).
//
// Compaction needs nothing: it never makes a newer version, and a
// descriptor naming a file that is gone is dropped when a reader sees it
// (location_lookup.cc). A trivially moved file keeps its number and contents,
// so its descriptors stay right.

#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct LocationSlot;

class ExternalSstFileIngestionJob;
class LocationCache;
class LocationCacheBinding;
struct Options;
class Statistics;

// One per table built by a flush (db/builder.cc). Construction bumps the
// owner's epoch; every key added clears its slot (a few keys later, after a
// prefetch of the slot's line, so that the flush does not wait on each
// slot's memory miss; all before the table is installed). A range tombstone
// clears nothing: the keys it covers are not enumerable, and a hit asks its
// Version's range tombstones instead (location_range_tombstones.h).
class LocationCacheFlushInvalidator {
 public:
  LocationCacheFlushInvalidator(LocationCache* cache, uint32_t cf_id,
                                Statistics* stats);
  ~LocationCacheFlushInvalidator();

  LocationCacheFlushInvalidator(const LocationCacheFlushInvalidator&) = delete;
  LocationCacheFlushInvalidator& operator=(
      const LocationCacheFlushInvalidator&) = delete;

  void OnKey(const Slice& internal_key);

 private:
  static constexpr size_t kPipeline = 8;  // slots prefetched, not cleared yet
  void ClearPending();

  LocationCacheBinding* const binding_;
  const uint32_t cf_id_;
  Statistics* const stats_;
  uint64_t invalidated_ = 0;
  std::array<LocationSlot*, kPipeline> pending_{};
  size_t next_pending_ = 0;
};

// External file ingestion (DBImpl::IngestExternalFiles), from when its
// files sit prepared in the DB directory until after the new version is
// installed: nothing is remembered meanwhile (LocationCacheBinding::
// BeginIngestion). Forget() clears the slots of the keys a job ingests,
// deletions included, read back from its files; or all of this DB's slots
// when the files carry range deletions, cannot be read, or hold more keys
// than reading back is worth.
class LocationCacheIngestion {
 public:
  LocationCacheIngestion(LocationCache* cache, Statistics* stats);
  ~LocationCacheIngestion();

  LocationCacheIngestion(const LocationCacheIngestion&) = delete;
  LocationCacheIngestion& operator=(const LocationCacheIngestion&) = delete;

  bool active() const { return binding_ != nullptr; }
  // `options`: the column family's, to read the ingested files with.
  void Forget(const Options& options, const ExternalSstFileIngestionJob& job);

 private:
  LocationCacheBinding* const binding_;
  Statistics* const stats_;
  uint64_t invalidated_ = 0;
  bool cleared_all_ = false;
};

}  // namespace ROCKSDB_NAMESPACE
