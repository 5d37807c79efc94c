// Lodestone's options. DBOptions inherits LodestoneDBOptions and
// AdvancedColumnFamilyOptions inherits LodestoneColumnFamilyOptions (patch
// 0002), so every field here is set and read like upstream's, e.g.
// `options.min_tombstones_for_range_conversion = 8`, and reaches the DB
// through options strings, OPTIONS files and, for the column family options,
// SetOptions(). Each is off by default; with all of them off, Lodestone
// behaves and writes exactly like stock RocksDB. docs/options.md lists them
// with their string forms.

#pragma once

#include <cstdint>
#include <memory>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class DeleteKeyExtractor;
class LocationCache;
struct CoveredEntries;

struct LodestoneDBOptions {
  // Location cache under Get/MultiGet (rocksdb/location_cache.h): remembers
  // the file, data block and entry of each key's newest persisted version.
  // May be shared by several DBs, like a block cache. From an options string:
  // "location_cache=64M", "location_cache={capacity=64M}" or
  // "location_cache={block_cache_fraction=0.1}".
  // Default: nullptr (off)
  std::shared_ptr<LocationCache> location_cache = nullptr;

  // Checks the WriteBatch::PutInitial contract on every write: a write that
  // would put an initial version over a key with a visible value fails with
  // Status::InvalidArgument and changes nothing. Costs a point lookup per
  // initial put; meant for tests and for validating an application.
  // Default: false
  bool verify_initial_puts = false;
};

// ReadOptions inherits LodestoneReadOptions (patch 0002).
struct LodestoneReadOptions {
  // Internal: RocksDB's compactions set it for the table readers of their
  // inputs (what secondary range deletes cover, so that KiWi tiles drop
  // covered blocks unread: table/kiwi/tile_table_reader.h). Leave it null.
  const CoveredEntries* covered_entries = nullptr;
};

// All but delete_key_extractor are dynamically changeable through the
// SetOptions() API.
struct LodestoneColumnFamilyOptions {
  // Scan-time conversion of tombstone runs: an iterator that steps over at
  // least this many consecutive point tombstones, contiguous in the whole LSM
  // at its snapshot, inserts one range tombstone covering them into the
  // mutable memtable so later scans skip the run in one step. Same name and
  // meaning as in upstream RocksDB. 0 = off.
  uint32_t min_tombstones_for_range_conversion = 0;

  // Tombstone-aware compaction (Lethe's FADE): every tombstone is persisted
  // (dropped, or at the last level) within this many seconds of its write.
  // Each level gets a share of the deadline that grows with its size; files
  // holding older tombstones are compacted first. Needs tombstone write
  // times, so preserve_internal_time_seconds is raised to at least this
  // value. 0 = off; at most 2^30 seconds (34 years): larger values are refused
  // (InvalidArgument at open and by SetOptions).
  uint64_t delete_persistence_threshold = 0;

  // Tombstone-aware compaction: a file in which some window of
  // `tombstone_density_window` consecutive entries holds at least this
  // fraction of tombstones becomes a compaction candidate, the densest first,
  // even when its level is within its size target. Range (0, 1]; 0 = off.
  // Anything else is refused (InvalidArgument at open and by SetOptions).
  double tombstone_density_trigger = 0;

  // The window, in entries, over which files written from now on measure
  // their tombstone density (a table property). Range [1, 2^20]; anything
  // else is refused (InvalidArgument at open and by SetOptions).
  uint32_t tombstone_density_window = 128;

  // Key counts that guide compaction (the paper's section 4): with
  // compaction_pri kMinOverlappingRatio, the leveled picker ranks a level's
  // files by the next-level bytes each overlaps per byte it holds, counting
  // a next-level file that straddles an end of the range whole. With this
  // option such a file counts by the share of its keys inside the range,
  // from its CRaFT metadata (table_options.range_filter); a file without
  // one still counts whole. Cost: preparing a new version reads the
  // metadata block of each file below L0 whose table reader has not read it
  // yet (once per table reader, as a bounded seek would), with the
  // version's read options and outside the DB mutex; never opens a file.
  // Leveled compaction only. Default false: upstream's ranking.
  bool compaction_overlap_by_keys = false;

  // Secondary range deletes (docs/kiwi.md): the delete key of each entry (a
  // timestamp, a tenant: an attribute other than the user key), which
  // DeleteByDeleteKeyRange (rocksdb/secondary_delete.h) deletes by. From an
  // options string: "delete_key_extractor={id=key_suffix;length=8}" or
  // "{id=value_prefix;length=8}" (rocksdb/delete_key_extractor.h). Not
  // changeable by SetOptions: while the column family holds live secondary
  // range tombstones (the DB property rocksdb.lodestone.secondary-deletes
  // lists them), it opens only with the extractor they were issued under.
  // Default: nullptr (no secondary range deletes)
  std::shared_ptr<const DeleteKeyExtractor> delete_key_extractor = nullptr;

  // KiWi delete tiles (h): tables written from now on group each run of this
  // many data blocks into a tile whose blocks are ordered by delete key, so
  // that a secondary range delete skips and drops whole blocks unread.
  // Needs delete_key_extractor; 1 writes tables as stock does. A lookup reads
  // about one block of a tile (a key filter per block), a scan all h. Range
  // [1, 256]; anything else is refused (InvalidArgument at open, SetOptions).
  // Default: 1 (no tiles)
  uint32_t delete_tile_blocks = 1;
};

}  // namespace ROCKSDB_NAMESPACE
