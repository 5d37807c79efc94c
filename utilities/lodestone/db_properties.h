// Lodestone's DB properties, answered by DB::GetProperty (patch 0012):
//
//   rocksdb.lodestone.tombstones-per-level
//       per level: files, entries, point tombstones, range tombstones, and
//       the tombstone share of entries; then totals.
//
//   rocksdb.lodestone.tombstone-compaction
//       the tombstone-aware picker's options, candidates (best first) and
//       the time until the next tombstone becomes overdue.
//
//   rocksdb.lodestone.tombstone-runs
//       scan-time tombstone-run conversion: the option's value, range
//       tombstones inserted and attempts discarded by this column family.
//
//   rocksdb.lodestone.craft-filter
//       per level: files, files with an open CRaFT filter, keys, filter
//       bytes and bits per key, and the bounded seeks those filters
//       answered (checked, empty, false positives) since their tables
//       were opened.
//
// Names and formats are listed in docs/properties.md.

#pragma once

#include <string>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kLodestonePropertyPrefix;  // "rocksdb.lodestone."
extern const char* const kTombstonesPerLevelProperty;
extern const char* const kTombstoneCompactionProperty;
extern const char* const kLocationCacheProperty;
extern const char* const kCraftFilterProperty;

inline bool IsLodestoneProperty(const Slice& name) {
  return name.starts_with(kLodestonePropertyPrefix);
}

// REQUIRES: the DB mutex is held. Returns false for an unknown name.
bool GetLodestoneProperty(ColumnFamilyData* cfd, const Slice& name,
                          std::string* value);

}  // namespace ROCKSDB_NAMESPACE
