// A table file's tombstone statistics, as FileMetaData::tombstone_stats
// holds them for the tombstone-aware picker (patch 0006 adds the member).
// Filled from the file's tombstone table properties (tombstone_stats.h) and
// persisted in the MANIFEST (custom tag kLodestoneTombstoneStats) only when
// known, so files written with the feature off are recorded exactly as by
// stock RocksDB.

#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct FileTombstoneStats {
  // Whether the fields below describe the file.
  bool known = false;
  // Point tombstones: Delete, SingleDelete, DeleteWithTimestamp.
  uint64_t count = 0;
  // Most tombstones in any window of `window` consecutive entries.
  uint32_t window_peak = 0;
  uint32_t window = 0;
  // Unix time of the oldest tombstone (point or range); 0 = none or unknown.
  uint64_t oldest_time = 0;
  // Written at its inputs' own level by a tombstone-aware compaction, which
  // dropped every tombstone it could: what is left is kept for a snapshot,
  // for user-defined timestamps at or above full_history_ts_low, by
  // ingest-behind or by per-key placement. The tombstone-aware picker skips
  // the file, since compacting it again would change nothing. In memory
  // only (not in the MANIFEST): a reopened DB may pick such a file once more.
  bool written_in_place = false;
};

}  // namespace ROCKSDB_NAMESPACE
