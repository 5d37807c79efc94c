// The CRaFT check a level iterator runs before it builds a file's table
// iterator (patch 0025): a file the filter proves empty in the seek's range
// is passed over without an iterator, an index search or a data block read.

#pragma once

#include "rocksdb/slice.h"
#include "rocksdb/table_reader_caller.h"
#include "table/craft/craft_seek_decision.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;
struct LevelFilesBrief;
struct MutableCFOptions;
struct ReadOptions;

// Whether a level iterator for `caller` over tables of this factory may ask
// files' filters before building their iterators: user reads of block-based
// tables (each file's reader holds a filter only if it was opened under a
// CRaFT range_filter). Decided once per level iterator.
bool CraftLevelCheckApplies(TableReaderCaller caller,
                            const MutableCFOptions& mutable_cf_options);

// Whether a bounded user iterator should put each L0 file behind a
// one-file level iterator, whose table iterator is built only if the
// file's filter lets the seek through: when most L0 files' filters have
// lately been answering "empty". Where they mostly say "maybe", building
// every table iterator up front, as upstream does, is cheaper (no heap
// allocation per file and seek, no level iterator in between).
bool CraftLevelZeroOpensLazily(const LevelFilesBrief& level_zero);

// False when `file` provably holds no key in [target, iterate_upper_bound)
// and no range tombstone (whose effect on older levels must not be skipped).
// A file without a loaded table reader, or one with range tombstones, is
// "maybe". A "maybe" from the filter, or a decision not to ask (sampling),
// is written to `*decision` for the file's table iterator
// (craft_seek_decision.h), whose seek then does not decide again.
bool CraftLevelFileMayMatch(const FileMetaData& file,
                            const ReadOptions& read_options,
                            const Slice& internal_target,
                            CraftSeekDecision* decision);

}  // namespace ROCKSDB_NAMESPACE
