// Per-table tombstone statistics for tombstone-aware compaction
// (tombstone_density_trigger, delete_persistence_threshold).
//
// A table collector counts point tombstones (Delete, SingleDelete,
// DeleteWithTimestamp) and range tombstones, the most point tombstones in
// any window of `tombstone_density_window` consecutive entries, the data
// blocks in which at least half the entries are tombstones, and the oldest
// tombstone's sequence number. They are written as table properties only
// while a column family has the feature on, so tables of a DB without it
// are stock's bytes. Flush and compaction copy them into FileMetaData,
// which the MANIFEST persists (kLodestoneTombstoneStats): the picker reads
// them for every file without opening any.

#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/types.h"

namespace ROCKSDB_NAMESPACE {

class InternalTblPropCollFactory;
class VersionEdit;
struct FileMetaData;
struct MutableCFOptions;
struct TableProperties;

// Table property names (values are decimal strings).
extern const char* const kTombstonePointProperty;
extern const char* const kTombstoneRangeProperty;
extern const char* const kTombstoneWindowProperty;
extern const char* const kTombstoneWindowPeakProperty;
extern const char* const kTombstoneDenseBlocksProperty;
extern const char* const kTombstoneDataBlocksProperty;
extern const char* const kTombstoneMinSeqnoProperty;

// Whether a column family with these options collects tombstone statistics.
bool TombstoneStatsEnabled(const MutableCFOptions& options);

// The collector factory every column family carries (patch 0020). It creates
// no collector while the feature is off.
InternalTblPropCollFactory* NewTombstoneStatsCollectorFactory(
    const MutableCFOptions& options);

// SetOptions: updates a factory made by NewTombstoneStatsCollectorFactory
// (other factories are ignored).
void ConfigureTombstoneStats(InternalTblPropCollFactory* factory,
                             const MutableCFOptions& options);

// Fills meta's tombstone fields from a table's properties. The oldest
// tombstone's time comes from the table's seqno-to-time mapping (written
// when preserve_internal_time_seconds is set), else `fallback_time` (the
// file's oldest ancestor time): either way never younger than the truth.
// Leaves meta untouched when the table has no tombstone statistics.
void SetTombstoneStats(const TableProperties& props, uint64_t fallback_time,
                       FileMetaData* meta);

// Flush records its file in the VersionEdit field by field; this carries the
// statistics over to the file the edit added last.
void AddTombstoneStatsToNewFile(const FileMetaData& from, VersionEdit* edit);

// MANIFEST encoding of the fields (custom tag kLodestoneTombstoneStats).
void EncodeTombstoneStats(const FileMetaData& meta, std::string* dst);
bool DecodeTombstoneStats(const std::string& field, FileMetaData* meta);

}  // namespace ROCKSDB_NAMESPACE
