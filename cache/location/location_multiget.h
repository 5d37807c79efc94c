// Lodestone: the location cache under Version::MultiGet.
//
// Keys with a remembered location leave the batch through
// LocationCacheLookup::TryServe before the file search. For the keys left,
// a LocationCacheMultiGet lends each key's GetContext a
// LocationCacheFoundEntry (location_found_entry.h): MultiGetFromSST reports
// the table that decided the key and BlockBasedTable::MultiGet the entry.
// Once the batch's file search is done, Populate() remembers the locations
// of the keys a plain value answered; a key whose entry was not reported
// (another table path) is looked up once more in its table, whose blocks
// the batch just read.
//
// Call grammar, on the thread running the batch:
//   LocationCacheMultiGet m(..., scope, callback, range)  // serves, listens
//   (file search of the keys left in `range`)
//   m.Populate()
// The object must outlive the file search: the GetContexts point at it.

#pragma once

#include <utility>
#include <vector>

#include "cache/location/location_found_entry.h"
#include "cache/location/location_lookup.h"
#include "table/multiget_context.h"

namespace ROCKSDB_NAMESPACE {

class LocationCache;
class LocationCacheReadScope;
class ReadCallback;
struct ReadOptions;

class LocationCacheMultiGet {
 public:
  // When the cache is active: marks done in `range` every key (each has its
  // GetContext) a remembered location answers (`callback` as for
  // Version::MultiGet), then listens to the keys left when this read may
  // remember locations: within `scope`, of the latest state, without user
  // timestamps. `version` must outlive this object.
  LocationCacheMultiGet(LocationCache* cache,
                        const LocationCacheVersion& version,
                        const ReadOptions& read_options,
                        const LocationCacheReadScope* scope,
                        ReadCallback* callback, MultiGetContext::Range* range);
  ~LocationCacheMultiGet();

  LocationCacheMultiGet(const LocationCacheMultiGet&) = delete;
  LocationCacheMultiGet& operator=(const LocationCacheMultiGet&) = delete;

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
