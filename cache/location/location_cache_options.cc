// The location cache's option string and capacity limits:
// LocationCache::CreateFromString ("64M", "capacity=64M",
// "block_cache_fraction=0.1"; rocksdb/location_cache.h) and the checks
// every capacity passes.

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "cache/location/location_cache_impl.h"
#include "options/options_helper.h"
#include "rocksdb/location_cache.h"
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
