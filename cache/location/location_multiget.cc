#include "cache/location/location_multiget.h"

#include "cache/location/location_cache_impl.h"
#include "cache/location/location_read_scope.h"
#include "db/dbformat.h"
#include "rocksdb/comparator.h"
#include "table/get_context.h"

namespace ROCKSDB_NAMESPACE {

LocationCacheMultiGet::LocationCacheMultiGet(
    LocationCache* cache, const LocationCacheVersion& version,
    const ReadOptions& read_options, const LocationCacheReadScope* scope,
    ReadCallback* callback, MultiGetContext::Range* range)
    : cache_(cache),
      version_(version),
      read_options_(read_options),
      scope_(scope) {
  if (cache == nullptr) {
    return;
  }
  for (auto iter = range->begin(); iter != range->end(); ++iter) {
    // Scope-less: a lookup that answers remembers nothing.
    LocationCacheLookup lookup(cache, version, read_options, *iter->lkey,
                               /*scope=*/nullptr, iter->get_context);
    if (lookup.TryServe(iter->merge_context, iter->max_covering_tombstone_seq,
                        callback, /*do_merge=*/true)) {
      range->MarkKeyDone(iter);
    }
  }
  if (!LocationCacheLookup::MayRemember(ActiveLocationCache(cache), scope,
                                        read_options, version)) {
    return;
  }
  keys_.reserve(range->KeysLeft());
  for (auto iter = range->begin(); iter != range->end(); ++iter) {
    if (iter->get_context != nullptr) {
      assert(keys_.size() < keys_.capacity());  // never reallocates
      keys_.emplace_back(&*iter, LocationCacheFoundEntry());
      assert(iter->get_context->location_found() == nullptr);
      iter->get_context->set_location_found(&keys_.back().second);
    }
  }
}

LocationCacheMultiGet::~LocationCacheMultiGet() {
  for (auto& [key, found] : keys_) {
    key->get_context->set_location_found(nullptr);
  }
}

void LocationCacheMultiGet::Populate() {
  for (const auto& [key, found] : keys_) {
    // Only keys a plain value answered, as on the Get path.
    if (found.file == nullptr ||
        key->get_context->State() != GetContext::kFound ||
        key->merge_context.GetNumOperands() > 0 || key->is_blob_index) {
      continue;
    }
    LocationCacheLookup lookup(cache_, version_, read_options_, *key->lkey,
                               scope_, /*get_context=*/nullptr);
    if (found.has_entry) {
      lookup.RememberEntry(*found.file, found);
    } else {
      lookup.RememberBySearching(*found.file);
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
