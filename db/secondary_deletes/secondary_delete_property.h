// The DB property of secondary range deletes (format: docs/properties.md;
// served through utilities/lodestone/db_properties.h):
//
//   rocksdb.lodestone.secondary-deletes
//       the column family's extractor and h (delete_tile_blocks), the
//       watermark, then one line per live tombstone, oldest first: its
//       delete key range (hex), sequence number and the files that may
//       still hold puts it covers (which keep it live).

#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kSecondaryDeletesProperty;

// REQUIRES: the DB mutex is held.
std::string SecondaryDeletesReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
