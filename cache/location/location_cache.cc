#include "rocksdb/location_cache.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

#include "options/options_helper.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {

class LocationCacheImpl : public LocationCache {
 public:
  explicit LocationCacheImpl(const LocationCacheOptions& options)
      : options_(options) {
    if (options_.capacity > 0) {
      Allocate(options_.capacity);
    }
  }

  const LocationCacheOptions& GetOptions() const override { return options_; }

  size_t GetCapacity() const override { return num_slots_ * sizeof(uint64_t); }

  std::string ToString() const override {
    char buf[64];
    if (options_.capacity > 0 || options_.block_cache_fraction <= 0) {
      snprintf(buf, sizeof(buf), "capacity=%zu",
               options_.capacity);
    } else {
      snprintf(buf, sizeof(buf), "block_cache_fraction=%g",
               options_.block_cache_fraction);
    }
    return buf;
  }

 private:
  void Allocate(size_t bytes) {
    num_slots_ = bytes / sizeof(uint64_t);
    slots_.reset(new std::atomic<uint64_t>[num_slots_]);
    for (size_t i = 0; i < num_slots_; ++i) {
      slots_[i].store(0, std::memory_order_relaxed);
    }
  }

  const LocationCacheOptions options_;
  size_t num_slots_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> slots_;
};

Status ParseLocationCacheOptions(const std::string& value,
                                 LocationCacheOptions* options) {
  std::string body = trim(value);
  if (body.size() >= 2 && body.front() == '{' && body.back() == '}') {
    body = trim(body.substr(1, body.size() - 2));
  }
  try {
    if (body.find('=') == std::string::npos) {
      options->capacity = ParseSizeT(body);
      return Status::OK();
    }
    std::unordered_map<std::string, std::string> fields;
    Status s = StringToMap(body, &fields);
    if (!s.ok()) {
      return s;
    }
    for (const auto& [name, field] : fields) {
      if (name == "capacity") {
        options->capacity = ParseSizeT(field);
      } else if (name == "block_cache_fraction") {
        options->block_cache_fraction = ParseDouble(field);
        if (!(options->block_cache_fraction > 0 &&
              options->block_cache_fraction <= 1)) {
          return Status::InvalidArgument(
              "location_cache: block_cache_fraction must be in (0, 1]: " +
              field);
        }
      } else {
        return Status::InvalidArgument("location_cache: unknown field " +
                                       name);
      }
    }
  } catch (const std::exception&) {
    return Status::InvalidArgument("location_cache: cannot parse \"" + value +
                                   "\"");
  }
  return Status::OK();
}

}  // namespace

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
