#include "rocksdb/location_cache.h"

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "options/options_helper.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// The configuration of a cache. The slot array (8 bytes per slot) comes
// with the Get hooks (docs/location_cache.md); until then nothing is
// allocated and the capacity is what the slots will take.
class LocationCacheImpl : public LocationCache {
 public:
  explicit LocationCacheImpl(const LocationCacheOptions& options)
      : options_(options) {}

  const LocationCacheOptions& GetOptions() const override { return options_; }

  size_t GetCapacity() const override {
    return options_.capacity / sizeof(uint64_t) * sizeof(uint64_t);
  }

  std::string ToString() const override {
    char buf[64];
    if (options_.capacity > 0 || options_.block_cache_fraction <= 0) {
      snprintf(buf, sizeof(buf), "capacity=%zu", options_.capacity);
    } else {
      snprintf(buf, sizeof(buf), "block_cache_fraction=%g",
               options_.block_cache_fraction);
    }
    return buf;
  }

 private:
  const LocationCacheOptions options_;
};

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
    return ParseByteSize(body, &options->capacity) ? Status::OK() : bad;
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
