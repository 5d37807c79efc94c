// rocksdb.lodestone.location-cache: the location cache's configuration,
// its slots in use (this DB's and every sharing DB's) and, when statistics
// are on, its hit, miss, stale and false-hit counts. Format:
// docs/properties.md. Served through utilities/lodestone/db_properties.h.

#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kLocationCacheProperty;

// REQUIRES: the DB mutex is held.
std::string LocationCacheReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
