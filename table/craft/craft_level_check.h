// The CRaFT check a level iterator runs before it builds a file's table
// iterator (patch 0025): a file the filter proves empty in the seek's range
// is passed over without an iterator, an index search or a data block read.

#pragma once

#include "rocksdb/slice.h"
#include "rocksdb/table_reader_caller.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;
struct MutableCFOptions;
struct ReadOptions;

// Whether a level iterator for `caller` over tables of this factory should
// ask before building file iterators: user reads of block-based tables with
// craft_range_filter on. Decided once per level iterator.
bool CraftLevelCheckApplies(TableReaderCaller caller,
                            const MutableCFOptions& mutable_cf_options);

// False when `file` provably holds no key in [target, iterate_upper_bound)
// and no range tombstone (whose effect on older levels must not be skipped).
// A file without a loaded table reader, or one with range tombstones, is
// "maybe". A "maybe" the filter gave is remembered for the table iterator's
// own check of the same seek, which then does not ask again.
bool CraftLevelFileMayMatch(const FileMetaData& file,
                            const ReadOptions& read_options,
                            const Slice& internal_target);

}  // namespace ROCKSDB_NAMESPACE
