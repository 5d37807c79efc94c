#include "options/lodestone/option_types.h"

#include <cstdio>
#include <memory>

#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/location_cache.h"
#include "util/string_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {
using LocationCachePtr = std::shared_ptr<LocationCache>;

// An unset cache serializes to nothing, which leaves the option out.
std::string Serialize(const LocationCachePtr& cache) {
  return cache ? cache->ToString() : std::string();
}

// Serializes like a plain option of `type`, or to nothing at the default.
template <typename T>
class SerializeUnlessDefault {
 public:
  SerializeUnlessDefault(OptionType type, T default_value)
      : type_(type), default_value_(default_value) {}

  Status operator()(const ConfigOptions& opts, const std::string& name,
                    const void* addr, std::string* value) const {
    if (*static_cast<const T*>(addr) == default_value_) {
      value->clear();
      return Status::OK();
    }
    // Offset 0: `addr` already points at the field.
    return OptionTypeInfo(0, type_, OptionVerificationType::kNormal,
                          OptionTypeFlags::kNone)
        .Serialize(opts, name, addr, value);
  }

 private:
  OptionType type_;
  T default_value_;
};

// Parses like a plain option of `type`; an empty value (what some
// serializers write for an omitted option) means the default.
template <typename T>
class ParseOrDefault {
 public:
  ParseOrDefault(OptionType type, T default_value)
      : type_(type), default_value_(default_value) {}

  Status operator()(const ConfigOptions& opts, const std::string& name,
                    const std::string& value, void* addr) const {
    if (value.empty()) {
      *static_cast<T*>(addr) = default_value_;
      return Status::OK();
    }
    return OptionTypeInfo(0, type_, OptionVerificationType::kNormal,
                          OptionTypeFlags::kNone)
        .Parse(opts, name, value, addr);
  }

 private:
  OptionType type_;
  T default_value_;
};

template <typename T>
OptionTypeInfo OmittedWhileDefault(int offset, OptionType type,
                                   OptionTypeFlags flags, T default_value) {
  OptionTypeInfo info(offset, type, OptionVerificationType::kNormal, flags);
  info.SetSerializeFunc(SerializeUnlessDefault<T>(type, default_value));
  info.SetParseFunc(ParseOrDefault<T>(type, default_value));
  return info;
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
using ExtractorPtr = std::shared_ptr<const DeleteKeyExtractor>;

// One token whatever the caller's delimiter: an OPTIONS file writes one
// option per line, and the knobs stay inside the braces.
std::string SerializeExtractor(const ConfigOptions& opts,
                               const ExtractorPtr& extractor) {
  if (extractor == nullptr) {
    return std::string();
  }
  ConfigOptions embedded = opts;
  embedded.delimiter = ";";
  return extractor->ToString(embedded);
}

Status ParseDeleteKeyExtractor(const ConfigOptions& opts,
                               const std::string& /*name*/,
                               const std::string& value, void* addr) {
  return DeleteKeyExtractor::CreateFromString(opts, value,
                                              static_cast<ExtractorPtr*>(addr));
}

Status SerializeDeleteKeyExtractor(const ConfigOptions& opts,
                                   const std::string& /*name*/,
                                   const void* addr, std::string* value) {
  *value = SerializeExtractor(opts, *static_cast<const ExtractorPtr*>(addr));
  return Status::OK();
}

bool DeleteKeyExtractorsEqual(const ConfigOptions& opts,
                              const std::string& name, const void* addr1,
                              const void* addr2, std::string* mismatch) {
  if (SerializeExtractor(opts, *static_cast<const ExtractorPtr*>(addr1)) ==
      SerializeExtractor(opts, *static_cast<const ExtractorPtr*>(addr2))) {
    return true;
  }
  *mismatch = name;
  return false;
}
}  // namespace

OptionTypeInfo DeleteKeyExtractorOptionTypeInfo(int offset) {
  OptionTypeInfo info(offset, OptionType::kUnknown,
                      OptionVerificationType::kNormal,
                      OptionTypeFlags::kAllowNull);
  info.SetParseFunc(ParseDeleteKeyExtractor)
      .SetSerializeFunc(SerializeDeleteKeyExtractor)
      .SetEqualsFunc(DeleteKeyExtractorsEqual);
  return info;
}

std::string DescribeDeleteKeyExtractor(const DeleteKeyExtractor* extractor) {
  return extractor == nullptr ? "None" : extractor->ToString(ConfigOptions());
}

OptionTypeInfo LocationCacheOptionTypeInfo(int offset) {
  OptionTypeInfo info(offset, OptionType::kUnknown,
                      OptionVerificationType::kNormal,
                      OptionTypeFlags::kAllowNull);
  info.SetParseFunc(ParseLocationCache)
      .SetSerializeFunc(SerializeLocationCache)
      .SetEqualsFunc(LocationCachesEqual);
  return info;
}

OptionTypeInfo LodestoneBoolOption(int offset, OptionTypeFlags flags,
                                   bool default_value) {
  return OmittedWhileDefault(offset, OptionType::kBoolean, flags,
                             default_value);
}

OptionTypeInfo LodestoneUInt32Option(int offset, OptionTypeFlags flags,
                                     uint32_t default_value) {
  return OmittedWhileDefault(offset, OptionType::kUInt32T, flags,
                             default_value);
}

OptionTypeInfo LodestoneUInt64Option(int offset, OptionTypeFlags flags,
                                     uint64_t default_value) {
  return OmittedWhileDefault(offset, OptionType::kUInt64T, flags,
                             default_value);
}

OptionTypeInfo LodestoneDoubleOption(int offset, OptionTypeFlags flags,
                                     double default_value) {
  return OmittedWhileDefault(offset, OptionType::kDouble, flags, default_value);
}

std::string DescribeLocationCache(const LocationCache* cache) {
  if (cache == nullptr) {
    return "None";
  }
  // DB::Open has sized the cache by the time the DB dumps its options.
  const size_t bytes = cache->GetCapacity();
  char buf[160];
  snprintf(buf, sizeof(buf), "%s, %zu bytes (%zu slots of 16 bytes)%s",
           cache->ToString().c_str(), bytes, bytes / 16,
           bytes == 0 ? ": no block cache to size it from, disabled" : "");
  return buf;
}

}  // namespace ROCKSDB_NAMESPACE
