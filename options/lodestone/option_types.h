// Lodestone: OptionTypeInfo for option fields whose type is ours, so that
// upstream's option tables only name a function (patches/0002).

#pragma once

#include <string>

#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

class DeleteKeyExtractor;
class LocationCache;

// DBOptions::location_cache: parsed by LocationCache::CreateFromString,
// serialized by LocationCache::ToString, compared by configuration.
OptionTypeInfo LocationCacheOptionTypeInfo(int offset);

// One line for the options dump in the LOG: the configuration and the
// descriptor array's size.
std::string DescribeLocationCache(const LocationCache* cache);

// ColumnFamilyOptions::delete_key_extractor: parsed by
// DeleteKeyExtractor::CreateFromString, serialized by its ToString (nothing
// when unset, which leaves the option out), compared by configuration.
OptionTypeInfo DeleteKeyExtractorOptionTypeInfo(int offset);

// For the options dump: the configuration, or "None".
std::string DescribeDeleteKeyExtractor(const DeleteKeyExtractor* extractor);

// Plain Lodestone options that stay out of serialized options (OPTIONS
// files, GetString*Options) while they hold their default: with every
// Lodestone option off, OPTIONS files read exactly like stock's, so stock
// tools (ldb, LoadLatestOptions) open the DB. A set option is written and
// read back as usual.
OptionTypeInfo LodestoneBoolOption(int offset, OptionTypeFlags flags,
                                   bool default_value);
OptionTypeInfo LodestoneUInt32Option(int offset, OptionTypeFlags flags,
                                     uint32_t default_value);
OptionTypeInfo LodestoneUInt64Option(int offset, OptionTypeFlags flags,
                                     uint64_t default_value);
OptionTypeInfo LodestoneDoubleOption(int offset, OptionTypeFlags flags,
                                     double default_value);

}  // namespace ROCKSDB_NAMESPACE
