// rocksdb.lodestone.craft-filter: per level of the current version, the
// CRaFT filters of the files whose table readers are open, their keys and
// size, and the bounded seeks they answered since their tables were
// opened. Format: docs/properties.md. Served through
// utilities/lodestone/db_properties.h.

#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;

extern const char* const kCraftFilterProperty;

// REQUIRES: the DB mutex is held. Reads nothing from disk: a filter no
// seek has loaded yet counts as not loaded.
std::string CraftFilterReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
