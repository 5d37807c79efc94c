// Lodestone: the location cache.
//
// A direct-mapped array of 16-byte descriptors, one slot per hashed
// (column family, user key), naming the table file, data block and entry of
// the key's newest persisted version. A point lookup that hits reads that one
// entry instead of searching every level. It stores no keys or values, so its
// memory is exactly 16 bytes per slot. See docs/location_cache.md.
//
// Set DBOptions::location_cache to enable it; one cache may serve several
// DBs and column families.

#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

struct ConfigOptions;
class LocationCacheBinding;

struct LocationCacheOptions {
  // Memory for the descriptor array, in bytes (16 bytes per slot).
  size_t capacity = 0;

  // When > 0 and `capacity` is 0, the capacity is this fraction of the block
  // cache of the first DB that opens with this cache (its default column
  // family's BlockBasedTableOptions::block_cache), resolved at DB::Open.
  double block_cache_fraction = 0.0;
};

// Obtain caches from Create or CreateFromString only: the DB relies on their
// implementation (cache/location/).
class LocationCache {
 public:
  // Creates a cache. A capacity of 0 with a block_cache_fraction is sized
  // when the first DB opens with it.
  static std::shared_ptr<LocationCache> Create(
      const LocationCacheOptions& options);

  // Parses "64M", "capacity=64M" or "block_cache_fraction=0.1" (also inside
  // braces, as options strings nest them). An empty value or "nullptr"
  // yields nullptr.
  static Status CreateFromString(const ConfigOptions& config_options,
                                 const std::string& value,
                                 std::shared_ptr<LocationCache>* result);

  virtual ~LocationCache() = default;

  // The options this cache was created with.
  virtual const LocationCacheOptions& GetOptions() const = 0;

  // Bytes the descriptor array takes (16 bytes per slot; 0 until sized).
  virtual size_t GetCapacity() const = 0;

  // The options string that recreates this cache ("capacity=...").
  virtual std::string ToString() const = 0;

  // Slots in use (a scan of the array: for properties and tests).
  virtual size_t GetUsage() const = 0;

  // Internal: the per-DB view a DB binds this cache to when it opens
  // (cache/location/location_cache_impl.h); nullptr for the shared cache.
  virtual LocationCacheBinding* binding() { return nullptr; }
};

}  // namespace ROCKSDB_NAMESPACE
