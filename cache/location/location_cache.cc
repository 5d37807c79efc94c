#include "rocksdb/location_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>

#include "cache/location/location_cache_impl.h"
#include "options/options_helper.h"
#include "rocksdb/advanced_cache.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "util/fastrange.h"
#include "util/hash.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

size_t MaxLocationCacheCapacity() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) {
    return SIZE_MAX / 2;  // unknown: still refuse what no address space holds
  }
  const uint64_t bytes =
      static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  return bytes > SIZE_MAX / 2 ? SIZE_MAX / 2 : static_cast<size_t>(bytes);
}

Status CheckLocationCacheCapacity(size_t capacity) {
  const size_t max = MaxLocationCacheCapacity();
  if (capacity > max) {
    return Status::InvalidArgument(
        "location_cache: capacity " + std::to_string(capacity) +
        " bytes is more than this machine's memory (" + std::to_string(max) +
        " bytes); the slot array is allocated whole when the cache is made");
  }
  return Status::OK();
}

namespace {
// Strict "<digits>[KMGT]": upstream's ParseSizeT accepts trailing garbage and
// wraps negative numbers.
bool ParseByteSize(const std::string& text, size_t* bytes) {
  size_t i = 0;
  uint64_t n = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (n > (UINT64_MAX - 9) / 10) {
      return false;
    }
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) {
    return false;
  }
  int shift = 0;
  if (i + 1 == text.size()) {
    static const char kUnits[] = "kmgt";
    const char* unit =
        strchr(kUnits, tolower(static_cast<unsigned char>(text[i])));
    if (unit == nullptr || *unit == '\0') {
      return false;
    }
    shift = 10 * static_cast<int>(unit - kUnits + 1);
  } else if (i != text.size()) {
    return false;
  }
  if (shift > 0 && n > (uint64_t{SIZE_MAX} >> shift)) {
    return false;
  }
  *bytes = static_cast<size_t>(n << shift);
  return true;
}

bool ParseFraction(const std::string& text, double* fraction) {
  if (text.empty()) {
    return false;
  }
  char* end = nullptr;
  *fraction = strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && *fraction > 0 && *fraction <= 1;
}

Status ParseLocationCacheOptions(const std::string& value,
                                 LocationCacheOptions* options) {
  std::string body = trim(value);
  if (body.size() >= 2 && body.front() == '{' && body.back() == '}') {
    body = trim(body.substr(1, body.size() - 2));
  }
  const Status bad = Status::InvalidArgument(
      "location_cache: expected <bytes>, capacity=<bytes> or "
      "block_cache_fraction=<(0,1]>, got \"" +
      value + "\"");
  if (body.find('=') == std::string::npos) {
    if (!ParseByteSize(body, &options->capacity)) {
      return bad;
    }
    return CheckLocationCacheCapacity(options->capacity);
  }
  std::unordered_map<std::string, std::string> fields;
  Status s = StringToMap(body, &fields);
  if (!s.ok()) {
    return bad;
  }
  for (const auto& [name, field] : fields) {
    if (name == "capacity") {
      if (!ParseByteSize(field, &options->capacity)) {
        return bad;
      }
      s = CheckLocationCacheCapacity(options->capacity);
      if (!s.ok()) {
        return s;
      }
    } else if (name == "block_cache_fraction") {
      if (!ParseFraction(field, &options->block_cache_fraction)) {
        return bad;
      }
    } else {
      return bad;
    }
  }
  return Status::OK();
}

}  // namespace

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
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::string* log_line) {
  log_line->clear();
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
  Status s = shared->EnsureAllocated(block_cache_capacity, &bytes);
  if (!s.ok()) {
    return s;
  }
  char buf[160];
  snprintf(buf, sizeof(buf),
           "Lodestone location cache: %s, %zu bytes (%zu slots of 16 bytes)%s",
           shared->ToString().c_str(), bytes, bytes / sizeof(LocationSlot),
           bytes == 0 ? ": no block cache to size it from, disabled" : "");
  *log_line = buf;
  return Status::OK();
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

std::shared_ptr<LocationCache> LocationCache::Create(
    const LocationCacheOptions& options) {
  return std::make_shared<LocationCacheImpl>(options);
}

Status LocationCache::CreateFromString(const ConfigOptions& /*config_options*/,
                                       const std::string& value,
                                       std::shared_ptr<LocationCache>* result) {
  const std::string trimmed = trim(value);
  if (trimmed.empty() || trimmed == kNullptrString) {
    result->reset();
    return Status::OK();
  }
  LocationCacheOptions options;
  Status s = ParseLocationCacheOptions(trimmed, &options);
  if (s.ok()) {
    *result = Create(options);
  }
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
