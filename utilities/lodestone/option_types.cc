#include "utilities/lodestone/option_types.h"

#include <memory>

#include "rocksdb/location_cache.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {
using LocationCachePtr = std::shared_ptr<LocationCache>;

std::string Serialize(const LocationCachePtr& cache) {
  return cache ? cache->ToString() : kNullptrString;
}

Status ParseLocationCache(const ConfigOptions& opts,
                          const std::string& /*name*/, const std::string& value,
                          void* addr) {
  return LocationCache::CreateFromString(opts, value,
                                         static_cast<LocationCachePtr*>(addr));
}

Status SerializeLocationCache(const ConfigOptions& /*opts*/,
                              const std::string& /*name*/, const void* addr,
                              std::string* value) {
  *value = Serialize(*static_cast<const LocationCachePtr*>(addr));
  return Status::OK();
}

// Two caches are equal options when they are configured alike.
bool LocationCachesEqual(const ConfigOptions& /*opts*/, const std::string& name,
                         const void* addr1, const void* addr2,
                         std::string* mismatch) {
  if (Serialize(*static_cast<const LocationCachePtr*>(addr1)) ==
      Serialize(*static_cast<const LocationCachePtr*>(addr2))) {
    return true;
  }
  *mismatch = name;
  return false;
}
}  // namespace

OptionTypeInfo LocationCacheOptionTypeInfo(int offset) {
  OptionTypeInfo info(offset, OptionType::kUnknown,
                      OptionVerificationType::kNormal,
                      OptionTypeFlags::kAllowNull);
  info.SetParseFunc(ParseLocationCache)
      .SetSerializeFunc(SerializeLocationCache)
      .SetEqualsFunc(LocationCachesEqual);
  return info;
}

std::string DescribeLocationCache(const LocationCache* cache) {
  return cache == nullptr ? "None" : cache->ToString();
}

}  // namespace ROCKSDB_NAMESPACE
