// Lodestone: the location cache under Version::MultiGet.
//
// Keys with a remembered location leave the batch through
// LocationCacheLookup::TryServe before the file search. For the keys left,
// a LocationCacheMultiGetPopulator lends each key's GetContext a
// LocationCacheFoundEntry (location_found_entry.h): MultiGetFromSST reports
// the table that decided the key and BlockBasedTable::MultiGet the entry.
// Once the batch's file search is done, Populate() remembers the locations
// of the keys a plain value answered; a key whose entry was not reported
// (another table path) is looked up once more in its table, whose blocks
// the batch just read.
//
// Call grammar, on the thread running the batch:
//   LocationCacheMultiGetPopulator p(..., scope, range)  // after TryServe
//   (file search of `range`)
//   p.Populate()
// The populator must outlive the file search: the GetContexts point at it.

#pragma once

#include <utility>
#include <vector>

#include "cache/location/location_found_entry.h"
#include "cache/location/location_lookup.h"
#include "table/multiget_context.h"

namespace ROCKSDB_NAMESPACE {

class LocationCache;
class LocationCacheReadScope;
struct ReadOptions;

class LocationCacheMultiGetPopulator {
 public:
  // Listens to every key left in `range` (each has its GetContext) when the
  // cache is active and this read may remember locations: within `scope`,
  // of the latest state, without user timestamps.
  LocationCacheMultiGetPopulator(LocationCache* cache,
                                 const LocationCacheVersion& version,
                                 const ReadOptions& read_options,
                                 const LocationCacheReadScope* scope,
                                 MultiGetContext::Range* range);
  ~LocationCacheMultiGetPopulator();

  LocationCacheMultiGetPopulator(const LocationCacheMultiGetPopulator&) =
      delete;
  LocationCacheMultiGetPopulator& operator=(
      const LocationCacheMultiGetPopulator&) = delete;

  void Populate();

 private:
  LocationCache* const cache_;
  const LocationCacheVersion& version_;
  const ReadOptions& read_options_;
  const LocationCacheReadScope* const scope_;
  // One per key listened to; never reallocated while GetContexts point
  // into it.
  std::vector<std::pair<KeyContext*, LocationCacheFoundEntry>> keys_;
};

}  // namespace ROCKSDB_NAMESPACE
