// A DB's binding to a (possibly shared) location cache: its owner id, the
// slot a key hashes to, populating a slot, and sizing and binding the cache
// when the DB opens (location_cache_impl.h).

#include <atomic>
#include <cinttypes>
#include <cstdio>

#include "cache/location/location_cache_impl.h"
#include "rocksdb/advanced_cache.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "util/fastrange.h"
#include "util/hash.h"

namespace ROCKSDB_NAMESPACE {

namespace {
// From 1: a memo keyed by instance id can use 0 as "empty".
std::atomic<uint64_t> next_instance_id{1};
}  // namespace

LocationCacheBinding::LocationCacheBinding(
    std::shared_ptr<LocationCacheImpl> shared, uint32_t owner)
    : shared_(std::move(shared)),
      owner_(owner),
      instance_id_(next_instance_id.fetch_add(1, std::memory_order_relaxed)) {}

LocationCacheBinding::~LocationCacheBinding() { shared_->ReleaseOwner(owner_); }

namespace {
uint64_t SlotHash(uint32_t owner, uint32_t cf_id, const Slice& user_key) {
  return Hash64(user_key.data(), user_key.size(),
                (uint64_t{owner} << 32) | cf_id);
}
}  // namespace

LocationSlot* LocationCacheBinding::Slot(uint32_t cf_id, const Slice& user_key,
                                         uint32_t* fingerprint) const {
  const uint64_t hash = SlotHash(owner_, cf_id, user_key);
  if (fingerprint != nullptr) {
    // The slot index comes from the hash's high bits (FastRange64).
    *fingerprint = static_cast<uint32_t>(hash);
  }
  return shared_->slot(hash);
}

bool LocationCacheBinding::Populate(LocationSlot* slot, uint64_t observed_head,
                                    const LocationSlotWords& desired,
                                    uint64_t epoch) const {
  std::atomic<uint64_t>& current_epoch = shared_->epoch(owner_);
  if (Ingesting(epoch) ||
      current_epoch.load(std::memory_order_seq_cst) != epoch ||
      slot->head.load(std::memory_order_relaxed) != observed_head) {
    return false;
  }
  // The tail first: a reader that sees the new head sees this tail or a
  // later writer's, which fails the check (location_descriptor.h).
  slot->tail.store(desired.tail, std::memory_order_relaxed);
  if (!slot->head.compare_exchange_strong(observed_head, desired.head,
                                          std::memory_order_seq_cst)) {
    return false;
  }
  // A flush or ingestion that bumped the epoch between our check and the
  // swap may have cleared this slot already; its clear must win.
  if (current_epoch.load(std::memory_order_seq_cst) != epoch) {
    uint64_t expected = desired.head;
    slot->head.compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
    return false;
  }
  return true;
}

Status PrepareLocationCache(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  LocationCache* cache = db_options.location_cache.get();
  if (cache == nullptr) {
    return Status::OK();
  }
  LocationCacheImpl* shared = cache->binding() != nullptr
                                  ? cache->binding()->shared()
                                  : static_cast<LocationCacheImpl*>(cache);
  size_t block_cache_capacity = 0;
  for (const auto& cf : column_families) {
    if (cf.name != kDefaultColumnFamilyName || !cf.options.table_factory) {
      continue;
    }
    const auto* bbto =
        cf.options.table_factory->GetOptions<BlockBasedTableOptions>();
    if (bbto != nullptr && bbto->block_cache != nullptr) {
      block_cache_capacity = bbto->block_cache->GetCapacity();
    }
  }
  size_t bytes = 0;
  return shared->EnsureAllocated(block_cache_capacity, &bytes);
}

std::shared_ptr<LocationCache> BindLocationCache(
    const std::shared_ptr<LocationCache>& cache) {
  if (cache == nullptr) {
    return nullptr;
  }
  std::shared_ptr<LocationCacheImpl> shared;
  if (cache->binding() != nullptr) {
    shared = std::static_pointer_cast<LocationCacheBinding>(cache)
                 ->shared_ptr_to_shared();
  } else {
    shared = std::static_pointer_cast<LocationCacheImpl>(cache);
  }
  const uint32_t owner = shared->AcquireOwner();
  return std::make_shared<LocationCacheBinding>(std::move(shared), owner);
}

}  // namespace ROCKSDB_NAMESPACE
