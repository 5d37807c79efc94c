// Lodestone: the location cache's slot array and the per-DB view of it.
//
// LocationCacheImpl is what LocationCache::Create returns: one array of
// 16-byte slots (location_descriptor.h) that several DBs may share.
// Each DB that opens with it binds a LocationCacheBinding, which carries
// the DB's owner id (stamped into every descriptor it writes, so one DB
// never acts on another's) and that owner's invalidation epoch.
//
// Concurrency: readers use atomic loads only. Population stores a slot's
// tail and then swaps its head in (one compare-and-swap, skipped on
// contention). Flush and ingestion bump the
// owner's epoch and then clear the slots of the keys they write; a reader
// remembers the epoch from before it acquired its SuperVersion and undoes
// its population if the epoch moved meanwhile (location_read_scope.h explains
// why that closes the race with a flush). While an ingestion runs nobody
// populates at all.

#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cache/location/location_descriptor.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

struct ColumnFamilyDescriptor;
struct DBOptions;

class LocationCacheImpl : public LocationCache {
 public:
  explicit LocationCacheImpl(const LocationCacheOptions& options);
  ~LocationCacheImpl() override;

  const LocationCacheOptions& GetOptions() const override { return options_; }
  size_t GetCapacity() const override;
  std::string ToString() const override;
  size_t GetUsage() const override { return CountOwned(0); }

  // DB::Open: allocates the array for a cache configured as a fraction of
  // the block cache (a no-op once allocated) and sets *capacity to the
  // array's bytes. Fails when the array could not be allocated, now or when
  // the cache was created (a capacity beyond this machine's memory).
  Status EnsureAllocated(size_t block_cache_capacity, size_t* capacity);

  size_t num_slots() const {
    return num_slots_.load(std::memory_order_acquire);
  }
  LocationSlot* slot(uint64_t hash) const;

  // Owner ids 1..15; 0 when all are taken (that DB runs without the cache).
  uint32_t AcquireOwner();
  void ReleaseOwner(uint32_t owner);

  std::atomic<uint64_t>& epoch(uint32_t owner) { return epochs_[owner].value; }

  // Drops every descriptor `owner` wrote.
  size_t ClearOwner(uint32_t owner);
  // Descriptors in use: of `owner`, or of anyone when `owner` is 0.
  size_t CountOwned(uint32_t owner) const;

 private:
  // REQUIRES: mu_ held, or called from the constructor.
  Status Allocate(size_t capacity);

  const LocationCacheOptions options_;
  std::mutex mu_;             // allocation and owner ids
  Status allocation_status_;  // of the constructor's Allocate
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, FreeDeleter> storage_;
  std::atomic<LocationSlot*> slots_{nullptr};
  std::atomic<size_t> num_slots_{0};
  uint32_t owners_in_use_ = 0;     // bit per owner id, under mu_
  uint32_t owners_ever_used_ = 0;  // ditto
  struct alignas(64) PaddedEpoch {
    std::atomic<uint64_t> value{0};
  };
  PaddedEpoch epochs_[LocationDescriptor::kMaxOwner + 1];
};

class LocationCacheBinding : public LocationCache {
 public:
  LocationCacheBinding(std::shared_ptr<LocationCacheImpl> shared,
                       uint32_t owner);
  ~LocationCacheBinding() override;

  const LocationCacheOptions& GetOptions() const override {
    return shared_->GetOptions();
  }
  size_t GetCapacity() const override { return shared_->GetCapacity(); }
  std::string ToString() const override { return shared_->ToString(); }
  size_t GetUsage() const override { return shared_->CountOwned(owner_); }
  LocationCacheBinding* binding() override { return this; }

  LocationCacheImpl* shared() const { return shared_.get(); }
  const std::shared_ptr<LocationCacheImpl>& shared_ptr_to_shared() const {
    return shared_;
  }
  uint32_t owner() const { return owner_; }
  // Unique in the process, never reused: owners are reused once a DB
  // closes, and each shared cache numbers its own.
  uint64_t instance_id() const { return instance_id_; }
  bool enabled() const { return owner_ != 0 && shared_->num_slots() > 0; }

  // The slot of (column family, user key), and optionally the key's
  // fingerprint: 32 bits of its hash that the slot index does not use (the
  // descriptor's tag and check, location_descriptor.h). Requires enabled().
  LocationSlot* Slot(uint32_t cf_id, const Slice& user_key,
                     uint32_t* fingerprint = nullptr) const;

  uint64_t Epoch() const {
    return shared_->epoch(owner_).load(std::memory_order_seq_cst);
  }

  // Flush: BeginInvalidation() before the first Invalidate().
  void BeginInvalidation() {
    shared_->epoch(owner_).fetch_add(1, std::memory_order_seq_cst);
  }
  // Ingestion: BeginIngestion() before the first Invalidate(), EndIngestion()
  // once the ingested files are visible. In between no population succeeds:
  // a reader may still hold a SuperVersion without the new files, and no
  // flush will clear the older location it would remember. The epoch counts
  // running ingestions in its high bits, so one load tells both.
  void BeginIngestion() {
    shared_->epoch(owner_).fetch_add(kIngestingOne + 1,
                                     std::memory_order_seq_cst);
  }
  void EndIngestion() {
    shared_->epoch(owner_).fetch_sub(kIngestingOne - 1,
                                     std::memory_order_seq_cst);
  }
  static bool Ingesting(uint64_t epoch) { return epoch >= kIngestingOne; }
  void Invalidate(uint32_t cf_id, const Slice& user_key) const {
    ClearSlot(Slot(cf_id, user_key));
  }
  // Another owner's descriptor in the slot is cleared too: a lost entry,
  // never a wrong one. The load keeps clean slots' cache lines clean. The
  // head alone says whether a slot is in use.
  static void ClearSlot(LocationSlot* slot) {
    if (slot->head.load(std::memory_order_relaxed) != 0) {
      slot->head.store(0, std::memory_order_seq_cst);
    }
  }
  size_t InvalidateAll() { return shared_->ClearOwner(owner_); }

  // Publishes `desired` in `slot` if its head still holds `observed_head`
  // and this owner's epoch is still `epoch`; undone if the epoch moves
  // during the swap. False when skipped.
  bool Populate(LocationSlot* slot, uint64_t observed_head,
                const LocationSlotWords& desired, uint64_t epoch) const;

 private:
  static constexpr uint64_t kIngestingOne = uint64_t{1} << 40;

  const std::shared_ptr<LocationCacheImpl> shared_;
  const uint32_t owner_;
  const uint64_t instance_id_;
};

// The largest array a location cache may have: this machine's physical
// memory (the array is allocated, and zeroed, whole).
size_t MaxLocationCacheCapacity();

// InvalidArgument when a cache of `capacity` bytes cannot be honoured.
Status CheckLocationCacheCapacity(size_t capacity);

// DB::Open: sizes a fraction-of-block-cache location cache from the default
// column family's block cache (the options dump in the LOG then shows its
// size). Fails, and the open with it, when the cache's array cannot be
// allocated.
Status PrepareLocationCache(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families);

// SanitizeOptions: the DB's own binding of the configured cache (nullptr
// stays nullptr; a binding given back in is rebound to its shared cache).
std::shared_ptr<LocationCache> BindLocationCache(
    const std::shared_ptr<LocationCache>& cache);

// The binding a column family reads through, or nullptr when the cache is
// off or not usable.
inline LocationCacheBinding* ActiveLocationCache(LocationCache* cache) {
  if (cache == nullptr) {
    return nullptr;
  }
  LocationCacheBinding* b = cache->binding();
  return b != nullptr && b->enabled() ? b : nullptr;
}

}  // namespace ROCKSDB_NAMESPACE
