#include "cache/location/location_read_scope.h"

#include "cache/location/location_cache_impl.h"
#include "port/port.h"

namespace ROCKSDB_NAMESPACE {

void LocationCacheReadScope::Open(LocationCache* cache) {
  binding_ = ActiveLocationCache(cache);
  if (binding_ != nullptr) {
    epoch_ = binding_->Epoch();
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

}  // namespace ROCKSDB_NAMESPACE
