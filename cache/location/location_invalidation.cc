#include "cache/location/location_invalidation.h"

#include "cache/location/location_cache_impl.h"
#include "db/dbformat.h"
#include "monitoring/statistics_impl.h"

namespace ROCKSDB_NAMESPACE {

LocationCacheFlushInvalidator::LocationCacheFlushInvalidator(
    LocationCache* cache, uint32_t cf_id, Statistics* stats)
    : binding_(ActiveLocationCache(cache)), cf_id_(cf_id), stats_(stats) {
  if (binding_ != nullptr) {
    binding_->BeginInvalidation();
  }
}

LocationCacheFlushInvalidator::~LocationCacheFlushInvalidator() {
  if (invalidated_ > 0) {
    RecordTick(stats_, LOCATION_CACHE_INVALIDATE, invalidated_);
  }
}

void LocationCacheFlushInvalidator::OnKey(const Slice& internal_key) {
  if (binding_ != nullptr && !cleared_all_) {
    binding_->Invalidate(cf_id_, ExtractUserKey(internal_key));
    ++invalidated_;
  }
}

void LocationCacheFlushInvalidator::OnRangeTombstone() {
  if (binding_ != nullptr && !cleared_all_) {
    invalidated_ += binding_->InvalidateAll();
    cleared_all_ = true;
  }
}

void InvalidateLocationCacheForIngestion(LocationCache* cache,
                                         Statistics* stats) {
  LocationCacheBinding* binding = ActiveLocationCache(cache);
  if (binding != nullptr) {
    binding->BeginInvalidation();
    RecordTick(stats, LOCATION_CACHE_INVALIDATE, binding->InvalidateAll());
  }
}

}  // namespace ROCKSDB_NAMESPACE
