// Lodestone: OptionTypeInfo for option fields whose type is ours, so that
// upstream's option tables only name a function (patches/0002).

#pragma once

#include <string>

#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

class LocationCache;

// DBOptions::location_cache: parsed by LocationCache::CreateFromString,
// serialized by LocationCache::ToString, compared by configuration.
OptionTypeInfo LocationCacheOptionTypeInfo(int offset);

// One line for the options dump in the LOG.
std::string DescribeLocationCache(const LocationCache* cache);

}  // namespace ROCKSDB_NAMESPACE
