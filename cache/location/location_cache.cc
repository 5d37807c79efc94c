// The location cache's slot array (location_cache_impl.h): allocation
// (sized at open, possibly from the block cache's capacity), owner ids for
// the DBs that share it, and the scans behind its usage and ToString. The
// option string is parsed in location_cache_options.cc, a DB's binding
// lives in location_cache_binding.cc.

#include "rocksdb/location_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "cache/location/location_cache_impl.h"
#include "util/fastrange.h"

namespace ROCKSDB_NAMESPACE {

LocationCacheImpl::LocationCacheImpl(const LocationCacheOptions& options)
    : options_(options) {
  if (options_.capacity > 0) {
    allocation_status_ = Allocate(options_.capacity);
  }
}

LocationCacheImpl::~LocationCacheImpl() = default;

void LocationCacheImpl::FreeDeleter::operator()(void* p) const { free(p); }

Status LocationCacheImpl::Allocate(size_t capacity) {
  Status s = CheckLocationCacheCapacity(capacity);
  if (!s.ok()) {
    return s;
  }
  const size_t n = capacity / sizeof(LocationSlot);
  if (n == 0) {
    return Status::OK();
  }
  // Every lookup touches one random slot: in huge pages (where the kernel
  // grants them) that costs one memory miss instead of a miss plus a page
  // walk. The capacity check above keeps the rounding from overflowing.
  constexpr size_t kHugePage = size_t{2} << 20;
  const size_t bytes = n * sizeof(LocationSlot);
  const size_t alignment = bytes >= kHugePage ? kHugePage : 64;
  void* memory = nullptr;
  if (posix_memalign(&memory, alignment,
                     (bytes + alignment - 1) / alignment * alignment) != 0) {
    return Status::MemoryLimit("location_cache: cannot allocate " +
                               std::to_string(bytes) + " bytes");
  }
#if defined(MADV_HUGEPAGE)
  if (alignment == kHugePage) {
    madvise(memory, bytes, MADV_HUGEPAGE);
  }
#endif
  storage_.reset(memory);
  auto* slots = static_cast<LocationSlot*>(memory);
  for (size_t i = 0; i < n; ++i) {
    new (&slots[i]) LocationSlot();
  }
  slots_.store(slots, std::memory_order_release);
  num_slots_.store(n, std::memory_order_release);
  return Status::OK();
}

Status LocationCacheImpl::EnsureAllocated(size_t block_cache_capacity,
                                          size_t* capacity) {
  std::lock_guard<std::mutex> lock(mu_);
  Status s = allocation_status_;
  if (s.ok() && num_slots() == 0 && options_.block_cache_fraction > 0) {
    // In double: a block cache of "unlimited" size times the fraction need
    // not fit in size_t.
    const double bytes = static_cast<double>(block_cache_capacity) *
                         options_.block_cache_fraction;
    if (bytes > static_cast<double>(MaxLocationCacheCapacity())) {
      s = Status::InvalidArgument(
          "location_cache: block_cache_fraction=" +
          std::to_string(options_.block_cache_fraction) +
          " of a block cache of " + std::to_string(block_cache_capacity) +
          " bytes is more than this machine's memory (" +
          std::to_string(MaxLocationCacheCapacity()) + " bytes)");
    } else {
      s = Allocate(static_cast<size_t>(bytes));
    }
  }
  *capacity = GetCapacity();
  return s;
}

size_t LocationCacheImpl::GetCapacity() const {
  const size_t n = num_slots();
  if (n > 0) {
    return n * sizeof(LocationSlot);
  }
  // Not allocated yet (a fraction of the block cache), or refused.
  return allocation_status_.ok()
             ? options_.capacity / sizeof(LocationSlot) * sizeof(LocationSlot)
             : 0;
}

std::string LocationCacheImpl::ToString() const {
  char buf[64];
  if (options_.capacity > 0 || options_.block_cache_fraction <= 0) {
    snprintf(buf, sizeof(buf), "capacity=%zu", options_.capacity);
  } else {
    snprintf(buf, sizeof(buf), "block_cache_fraction=%g",
             options_.block_cache_fraction);
  }
  return buf;
}

LocationSlot* LocationCacheImpl::slot(uint64_t hash) const {
  return slots_.load(std::memory_order_relaxed) +
         FastRange64(hash, num_slots_.load(std::memory_order_relaxed));
}

uint32_t LocationCacheImpl::AcquireOwner() {
  uint32_t owner = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t id = 1; id <= LocationDescriptor::kMaxOwner; ++id) {
      if ((owners_in_use_ & (1u << id)) == 0) {
        owner = id;
        break;
      }
    }
    if (owner == 0) {
      return 0;
    }
    owners_in_use_ |= 1u << owner;
    if ((owners_ever_used_ & (1u << owner)) == 0) {
      owners_ever_used_ |= 1u << owner;
      return owner;
    }
  }
  // A reused id: its previous DB's descriptors would name that DB's files.
  ClearOwner(owner);
  return owner;
}

void LocationCacheImpl::ReleaseOwner(uint32_t owner) {
  if (owner == 0) {
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  owners_in_use_ &= ~(1u << owner);
}

size_t LocationCacheImpl::ClearOwner(uint32_t owner) {
  LocationSlot* slots = slots_.load(std::memory_order_acquire);
  const size_t n = num_slots();
  size_t cleared = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t d = slots[i].head.load(std::memory_order_relaxed);
    if (d != 0 && LocationDescriptor::OwnerOf(d) == owner &&
        slots[i].head.compare_exchange_strong(d, 0,
                                              std::memory_order_seq_cst)) {
      ++cleared;
    }
  }
  return cleared;
}

size_t LocationCacheImpl::CountOwned(uint32_t owner) const {
  LocationSlot* slots = slots_.load(std::memory_order_acquire);
  const size_t n = num_slots();
  size_t used = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t d = slots[i].head.load(std::memory_order_relaxed);
    used += d != 0 && (owner == 0 || LocationDescriptor::OwnerOf(d) == owner);
  }
  return used;
}

}  // namespace ROCKSDB_NAMESPACE
