#include "cache/location/location_invalidation.h"

#include "cache/location/location_cache_impl.h"
#include "db/column_family.h"
#include "db/dbformat.h"
#include "db/external_sst_file_ingestion_job.h"
#include "monitoring/statistics_impl.h"
#include "port/port.h"
#include "rocksdb/sst_file_reader.h"
#include "test_util/lodestone/planted_bugs.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

LocationCacheFlushInvalidator::LocationCacheFlushInvalidator(
    LocationCache* cache, uint32_t cf_id, Statistics* stats)
    : binding_(ActiveLocationCache(cache)), cf_id_(cf_id), stats_(stats) {
  if (binding_ != nullptr) {
    binding_->BeginInvalidation();
  }
}

LocationCacheFlushInvalidator::~LocationCacheFlushInvalidator() {
  ClearPending();
  if (invalidated_ > 0) {
    RecordTick(stats_, LOCATION_CACHE_INVALIDATE, invalidated_);
  }
}

void LocationCacheFlushInvalidator::OnKey(const Slice& internal_key) {
  if (PlantedBugActive(PlantedBug::kLocationCacheSkipFlushInvalidation)) {
    return;
  }
  if (binding_ == nullptr) {
    return;
  }
  const uint32_t cf_id =
      PlantedBugActive(PlantedBug::kLocationCacheFlushInvalidatesDefaultFamily)
          ? 0
          : cf_id_;
  LocationSlot* slot = binding_->Slot(cf_id, ExtractUserKey(internal_key));
  PREFETCH(slot, 1 /* write */, 1 /* locality */);
  LocationSlot*& oldest = pending_[next_pending_++ % kPipeline];
  if (oldest != nullptr) {
    LocationCacheBinding::ClearSlot(oldest);
  }
  oldest = slot;
  ++invalidated_;
}

void LocationCacheFlushInvalidator::ClearPending() {
  for (LocationSlot*& slot : pending_) {
    if (slot != nullptr) {
      LocationCacheBinding::ClearSlot(slot);
      slot = nullptr;
    }
  }
}

LocationCacheIngestion::LocationCacheIngestion(LocationCache* cache,
                                               Statistics* stats)
    : binding_(ActiveLocationCache(cache)), stats_(stats) {
  if (binding_ != nullptr) {
    binding_->BeginIngestion();
  }
}

LocationCacheIngestion::~LocationCacheIngestion() {
  if (binding_ != nullptr) {
    binding_->EndIngestion();
  }
  if (invalidated_ > 0) {
    RecordTick(stats_, LOCATION_CACHE_INVALIDATE, invalidated_);
  }
}

void LocationCacheIngestion::Forget(const Options& options,
                                    const ExternalSstFileIngestionJob& job) {
  if (binding_ == nullptr || cleared_all_) {
    return;
  }
  const uint32_t cf_id = job.GetColumnFamilyData()->GetID();
  uint64_t entries = 0;
  bool range_deletions = false;
  for (const IngestedFileInfo& file : job.files_to_ingest()) {
    entries += file.num_entries;
    range_deletions |= file.num_range_deletions > 0;
  }
  // Reading a key back costs more than clearing a slot; past an eighth of
  // the slots, clearing them all is the cheaper way to the same safety.
  if (!range_deletions && entries <= binding_->shared()->num_slots() / 8) {
    uint64_t forgotten = 0;
    Status s;
    for (const IngestedFileInfo& file : job.files_to_ingest()) {
      SstFileReader reader(options);
      s = reader.Open(file.internal_file_path);
      if (!s.ok()) {
        break;
      }
      std::unique_ptr<Iterator> it = reader.NewTableIterator();
      if (it == nullptr) {
        s = Status::Corruption("no table iterator");
        break;
      }
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (it->key().size() >= kNumInternalBytes) {
          binding_->Invalidate(cf_id, ExtractUserKey(it->key()));
          ++forgotten;
        }
      }
      s = it->status();
      if (!s.ok()) {
        break;
      }
    }
    if (s.ok()) {
      invalidated_ += forgotten;
      return;
    }
    // Unreadable: every slot is cleared below instead.
    IGNORE_STATUS_IF_ERROR(s);
  }
  invalidated_ += binding_->InvalidateAll();
  cleared_all_ = true;
}

}  // namespace ROCKSDB_NAMESPACE
