// The DB properties of tombstone-aware compaction (format:
// docs/properties.md; served through utilities/lodestone/db_properties.h):
//
//   rocksdb.lodestone.tombstone-compaction
//       the picker's options, its candidates (best first) and the time
//       until the next tombstone becomes overdue.
//
//   rocksdb.lodestone.tombstones-per-level
//       per level: files, entries, point tombstones, range tombstones and
//       the tombstone share of entries (from each file's statistics); then
//       totals.

#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kTombstoneCompactionProperty;
extern const char* const kTombstonesPerLevelProperty;

// REQUIRES: the DB mutex is held (both).
std::string TombstoneCompactionReport(ColumnFamilyData* cfd);
std::string TombstonesPerLevelReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
