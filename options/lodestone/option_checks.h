// Lodestone: range checks of our column family options, run wherever
// upstream validates column family options (ColumnFamilyData::
// ValidateOptions: DB::Open, CreateColumnFamily, SetOptions; patch 0039).
// A value outside its documented range is refused with InvalidArgument
// naming the option, so a typo never turns a feature silently off or makes
// a table build allocate without bound. (A range filter policy checks its
// knobs where it is configured: RangeFilterPolicy::CreateFromString,
// NewCraftRangeFilterPolicy.)

#pragma once

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// Also refuses what secondary range deletes cannot work with: a delete key
// extractor under user-defined timestamps, a row cache or MemPurge (each
// would answer or rewrite without the tombstones), and delete tiles without
// an extractor.
Status CheckLodestoneColumnFamilyOptions(const DBOptions& db_options,
                                         const ColumnFamilyOptions& options);

}  // namespace ROCKSDB_NAMESPACE
