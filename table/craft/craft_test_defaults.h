// Lets upstream's own table and iterator tests run with the CRaFT filter on
// (patch 0023): they build tables with their own BlockBasedTableOptions, so
// the factory asks here first.

#pragma once

#include "rocksdb/table.h"

namespace ROCKSDB_NAMESPACE {

// In builds with assertions on, when the environment variable
// LODESTONE_TEST_CRAFT is set, makes range_filter a CRaFT policy (a numeric
// value is the partition size; small ones exercise many partitions per
// table).
// Does nothing in release builds.
void ApplyCraftTestDefaults(BlockBasedTableOptions* options);

}  // namespace ROCKSDB_NAMESPACE
