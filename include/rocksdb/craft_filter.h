// Lodestone: what the CRaFT range filter can tell without reading data.
//
// Tables written with BlockBasedTableOptions::craft_range_filter carry a
// partitioned trie of their keys and a metadata block counting the keys of
// each partition (table/craft/FORMAT.md).

#pragma once

#include <cstdint>

#include "rocksdb/db.h"

namespace ROCKSDB_NAMESPACE {

// Estimates how many keys of column family `column_family` (nullptr: the
// default one) lie in [begin, end) in its live tables, from the filters:
// partitions inside the range count from the metadata, the partitions at
// either end by their tries (low by at most a key per bound; by half if a
// partition cannot be read), and a table without a filter counts all its
// entries when its key range overlaps. Memtables are not counted; every version
// of a key counts once per table. NotSupported unless the tables are
// block-based.
Status EstimateKeysInRange(DB* db, ColumnFamilyHandle* column_family,
                           const Slice& begin, const Slice& end,
                           uint64_t* count);

}  // namespace ROCKSDB_NAMESPACE
