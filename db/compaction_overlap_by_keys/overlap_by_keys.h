// Key counts that guide compaction (the paper's section 4; option
// compaction_overlap_by_keys, docs/rfcs/key_count_compaction.md).
//
// Upstream's kMinOverlappingRatio ranks a level's files by
//
//   (bytes of every next-level file whose range touches f's) * 1024
//     / compensated_file_size(f)
//
// and compacts the smallest first. A next-level file that straddles one end
// of f's range counts whole there, however few of its keys lie inside.
// OverlapByKeys counts such a file by the share of its keys inside f's range,
// read from its CRaFT metadata (whole partitions by their key counts, the
// partitions at the range's ends by half), in bytes, so that the ratio keeps
// upstream's units, its deletion compensation and its TTL boost. A file
// without loaded CRaFT metadata counts whole, as upstream counts it.
//
// Called while a version is prepared for appending (Version::PrepareAppend,
// patch 0044), outside the DB mutex: LoadMetadata with the caller's read
// options, then VersionStorageInfo::UpdateFilesByCompactionPri ranks, and
// the ranking reads nothing.

#pragma once

#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class InternalKeyComparator;
class Statistics;
class TableFactory;
class VersionStorageInfo;
struct FileMetaData;
struct MutableCFOptions;
struct ReadOptions;

class OverlapByKeys {
 public:
  // `table_factory`: the column family's; only block-based tables hold
  // CRaFT metadata. All three must outlive this object; `statistics` may be
  // null.
  OverlapByKeys(const InternalKeyComparator& icmp,
                const TableFactory* table_factory, Statistics* statistics);

  // Reads the CRaFT metadata block of every file below L0 that holds an
  // open table reader (max_open_files = -1, or loaded since) and has not
  // read it yet, with `read_options` (the version's caller's: its I/O
  // activity, rate limiting and checksum verification); a table reader
  // keeps it for its lifetime, as after a bounded seek. Opens no file. A
  // block that cannot be read leaves its file counted whole.
  static void LoadMetadata(const VersionStorageInfo& vstorage,
                           const MutableCFOptions& mutable_cf_options,
                           const ReadOptions& read_options);

  // f's rank, smaller first: the bytes of `next_level` (sorted, disjoint
  // files) inside f's key range * 1024 / f's compensated size, straddling
  // files counted by the metadata LoadMetadata read. Reads nothing.
  // REQUIRES: f.compensated_file_size > 0.
  uint64_t Ratio(const FileMetaData& f,
                 const std::vector<FileMetaData*>& next_level) const;

 private:
  // The bytes of `g`, which straddles an end of [f.smallest, f.largest],
  // inside f's range: by its CRaFT key counts, else all of them.
  uint64_t StraddlingBytes(const FileMetaData& f, const FileMetaData& g) const;

  const InternalKeyComparator& icmp_;
  const bool block_based_;
  Statistics* const statistics_;
};

}  // namespace ROCKSDB_NAMESPACE
