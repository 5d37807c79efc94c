// Lodestone: the CRaFT range filter, and what it can tell without reading
// data.
//
// Tables written under a CRaFT range filter policy carry a partitioned trie
// of their keys and a metadata block counting the keys of each partition
// (table/craft/FORMAT.md). Iterator seeks with an upper bound (lower bound
// in reverse) then skip tables that hold no key in the range, without an
// index or data block read.

#pragma once

#include <cstdint>
#include <memory>

#include "rocksdb/db.h"
#include "rocksdb/range_filter_policy.h"

namespace ROCKSDB_NAMESPACE {

// The knobs of a CRaFT policy; in option strings
// `range_filter={id=craft;partition_size=16384;range_hash_bits=14}`. They
// shape the filters written; readers need none (a table's filter says what
// it holds). Needs the bytewise comparator without timestamps; under any
// other no filter is written.
struct CraftRangeFilterOptions {
  // Target size in bytes of one trie partition (a block of its own in the
  // block cache), cut at the first key boundary at or past it: any value
  // works, one larger than the table gives one partition. 0 = the default
  // (16 KiB).
  uint32_t partition_size = 0;

  // Suffix bits stored per key after its shortest distinguishing prefix:
  // real key bits (help range queries, 0..56) and hashed key bits (help
  // point-width ranges, 0..32), at most 64 together.
  uint32_t real_suffix_bits = 8;
  uint32_t hash_suffix_bits = 0;

  // Bits per key of a range hash beside each trie partition (partition
  // format 4), which rejects short ranges that start just past a stored key
  // (k+1 .. k+64): a range of l key values is a false positive with
  // probability about l / 2^(bits-2). Only partitions whose keys all have
  // one length get one. 0 = none; otherwise 3..58.
  uint32_t range_hash_bits = 0;

  // Tables written for levels below this one get no filter, as RocksDB's
  // bloom_before_level gives short-lived files the cheaper filter: a flush
  // and an L0 compaction write level 0, so 1 leaves L0 without filters and
  // 2 also L1. A filter costs several times a bloom filter's CPU per key to
  // build, on every flush and compaction, and files in the upper levels
  // live briefly. But a bounded seek then reads the index and a data block
  // of each such file where a filter would have answered "empty", and a
  // file keeps what it was written with when it moves down without a
  // rewrite (a trivial move): a tree filled by moves keeps unfiltered files
  // below min_level too. With level_compaction_dynamic_level_bytes, L0
  // compacts into the base level, so any min_level up to it leaves only L0
  // without filters. Tables of unknown level (SstFileWriter) get a filter.
  // 0 = every table; at most 64.
  uint32_t min_level = 0;
};

// The policy for BlockBasedTableOptions::range_filter; InvalidArgument
// naming the knob when one is out of range.
Status NewCraftRangeFilterPolicy(const CraftRangeFilterOptions& options,
                                 std::shared_ptr<RangeFilterPolicy>* policy);

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
