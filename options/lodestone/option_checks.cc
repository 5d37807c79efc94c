#include "options/lodestone/option_checks.h"

#include <string>

#include "rocksdb/comparator.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/table.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// The largest tombstone_density_window: each table build keeps one bit per
// entry of the window.
constexpr uint32_t kMaxTombstoneDensityWindow = uint32_t{1} << 20;

// The largest delete_persistence_threshold (34 years): it becomes
// preserve_internal_time_seconds, whose seqno-to-time mapping cannot reach
// back before the Unix epoch, and deadlines add shares of it to Unix times.
constexpr uint64_t kMaxDeletePersistenceThreshold = uint64_t{1} << 30;

// The largest delete_tile_blocks: a tile map lists at most this many blocks
// per tile (table/kiwi/tile_map.h).
constexpr uint32_t kMaxDeleteTileBlocks = 256;

Status CheckSecondaryDeleteOptions(const DBOptions& db_options,
                                   const ColumnFamilyOptions& options) {
  const uint32_t h = options.delete_tile_blocks;
  if (h < 1 || h > kMaxDeleteTileBlocks) {
    return Status::InvalidArgument("delete_tile_blocks must be in [1, " +
                                   std::to_string(kMaxDeleteTileBlocks) +
                                   "], not " + std::to_string(h));
  }
  if (options.delete_key_extractor == nullptr) {
    if (h > 1) {
      return Status::InvalidArgument(
          "delete_tile_blocks > 1 needs a delete_key_extractor");
    }
    return Status::OK();
  }
  const char* conflict = nullptr;
  const auto* table =
      options.table_factory == nullptr
          ? nullptr
          : options.table_factory->GetOptions<BlockBasedTableOptions>();
  if (h > 1) {
    // Each replays or reorders data blocks one index entry apiece, where a
    // tile has several blocks under one (table/kiwi/tile_table_builder.h).
    if (options.compression_opts.max_dict_bytes > 0 ||
        options.bottommost_compression_opts.max_dict_bytes > 0) {
      conflict = "dictionary compression (max_dict_bytes)";
    } else if (options.compression_opts.parallel_threads > 1 ||
               options.bottommost_compression_opts.parallel_threads > 1) {
      conflict = "parallel compression (parallel_threads)";
    } else if (table != nullptr &&
               table->data_block_index_type ==
                   BlockBasedTableOptions::kDataBlockBinaryAndHash) {
      conflict = "a hash index in data blocks";
    }
    if (conflict != nullptr) {
      return Status::InvalidArgument(
          std::string("delete_tile_blocks > 1 does not work with ") + conflict);
    }
  }
  if (options.comparator != nullptr &&
      options.comparator->timestamp_size() > 0) {
    conflict = "user-defined timestamps";
  } else if (db_options.row_cache != nullptr) {
    conflict = "a row cache";
  } else if (options.experimental_mempurge_threshold > 0.0) {
    conflict = "MemPurge (experimental_mempurge_threshold)";
  } else if (db_options.allow_ingest_behind) {
    // Files ingested behind sit at sequence number 0 below everything.
    conflict = "allow_ingest_behind";
  } else if (db_options.compaction_service != nullptr) {
    // A remote compaction's outputs come back without the mark of the
    // tombstones it applied.
    conflict = "a compaction service (remote compaction)";
  }
  if (conflict != nullptr) {
    return Status::InvalidArgument(
        std::string("delete_key_extractor does not work with ") + conflict);
  }
  return Status::OK();
}

}  // namespace

Status CheckLodestoneColumnFamilyOptions(const DBOptions& db_options,
                                         const ColumnFamilyOptions& options) {
  const double trigger = options.tombstone_density_trigger;
  // Written so that NaN fails too.
  if (!(trigger >= 0.0 && trigger <= 1.0)) {
    return Status::InvalidArgument(
        "tombstone_density_trigger must be in [0, 1] (0 = off), not " +
        std::to_string(trigger));
  }
  const uint32_t window = options.tombstone_density_window;
  if (window < 1 || window > kMaxTombstoneDensityWindow) {
    return Status::InvalidArgument("tombstone_density_window must be in [1, " +
                                   std::to_string(kMaxTombstoneDensityWindow) +
                                   "], not " + std::to_string(window));
  }
  if (options.delete_persistence_threshold > kMaxDeletePersistenceThreshold) {
    return Status::InvalidArgument(
        "delete_persistence_threshold must be at most " +
        std::to_string(kMaxDeletePersistenceThreshold) + " seconds, not " +
        std::to_string(options.delete_persistence_threshold));
  }
  return CheckSecondaryDeleteOptions(db_options, options);
}

}  // namespace ROCKSDB_NAMESPACE
