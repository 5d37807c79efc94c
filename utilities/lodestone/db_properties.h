// Lodestone's DB properties, answered by DB::GetProperty (patch 0012). Each
// feature's folder defines its property's name and report; this file keeps
// only the one name-to-report table (as db/internal_stats.cc keeps
// upstream's):
//
//   rocksdb.lodestone.location-cache
//       cache/location/location_cache_property.h
//   rocksdb.lodestone.craft-filter
//       table/craft/craft_filter_property.h
//   rocksdb.lodestone.tombstone-compaction, tombstones-per-level
//       db/tombstone_compaction/tombstone_properties.h
//   rocksdb.lodestone.tombstone-runs
//       db/tombstone_runs/tombstone_run_conversion.h
//
// Names and formats are listed in docs/properties.md.

#pragma once

#include <string>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kLodestonePropertyPrefix;  // "rocksdb.lodestone."

inline bool IsLodestoneProperty(const Slice& name) {
  return name.starts_with(kLodestonePropertyPrefix);
}

// REQUIRES: the DB mutex is held. Returns false for an unknown name.
bool GetLodestoneProperty(ColumnFamilyData* cfd, const Slice& name,
                          std::string* value);

}  // namespace ROCKSDB_NAMESPACE
