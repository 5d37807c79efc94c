// The DB side of scan-time tombstone-run conversion
// (min_tombstones_for_range_conversion; the reader side is
// tombstone_run_tracker.h): inserting a proven run as a range tombstone,
// handing it to the write path when the write thread is busy, and the
// per-column-family counts behind the DB property
// rocksdb.lodestone.read-path-range-tombstones (the statistics tickers
// READ_PATH_RANGE_TOMBSTONES_{INSERTED,DISCARDED} count the same events
// DB-wide, when statistics are on).
//
// A run is inserted by DBImpl::InsertReadPathRangeTombstone when the write
// thread is free, or else handed off: kept in a small per-family list that
// the next write group's leader drains (InsertHandedOffReadPathRangeTombstones)
// while it is the DB's only memtable writer. Every run ends exactly once as
// inserted or discarded, except runs still waiting when their column family
// is destroyed, which are dropped uncounted.

#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class DBImpl;

extern const char* const kReadPathRangeTombstonesProperty;

// What became of a proven run.
enum class ReadPathRangeTombstoneOutcome {
  kInserted,
  // Discarded:
  kSuperVersionChanged,  // a flush, compaction or ingestion since the read
  kOlderThanMemtable,    // read sequence below the mutable memtable's first
  kNotAdded,             // the memtable refused it (the same run, twice)
  kStopped,              // column family dropped or DB stopped
  kPushedOut,            // more runs waiting than the family keeps
  kWriteThreadBusy,      // busy under two_write_queues (nothing handed off)
  kCount
};

struct ReadPathRangeTombstoneCounts {
  uint64_t inserted = 0;
  uint64_t discarded = 0;  // The sum of by_outcome[k] for every discard.
  uint64_t by_outcome[static_cast<int>(ReadPathRangeTombstoneOutcome::kCount)] =
      {};
};

// The most runs one column family keeps waiting for a write group; a newer
// run pushes out the oldest, which is counted as discarded.
constexpr size_t kMaxHandedOffRunsPerColumnFamily = 8;

ReadPathRangeTombstoneCounts GetReadPathRangeTombstoneCounts(
    const ColumnFamilyData* cfd);

// The counts of every column family of every DB this process opened, since
// it started (db_stress reports why runs were discarded).
ReadPathRangeTombstoneCounts GetReadPathRangeTombstoneCountsInProcess();

// Drops a column family's counts and waiting runs; ~ColumnFamilyData calls
// it with the DB mutex held (patch 0024), so that a family allocated later
// at the same address starts from nothing.
void ForgetReadPathRangeTombstones(const ColumnFamilyData* cfd);

// Inserts the runs handed off for `db` whose column family's SuperVersion
// is still the one their iterator read; discards the others.
//
// REQUIRES: the caller is db's only memtable writer until it returns: a
// write group's leader after PreprocessWrite and before its group's
// memtable inserts (or, with enable_pipelined_write, a memtable writer
// group's leader before its inserts); DB mutex not held. Never called under
// two_write_queues, where nothing is handed off.
// Costs one relaxed atomic load while no run waits anywhere in the process.
void InsertHandedOffReadPathRangeTombstones(DBImpl* db);

// The option's current value, "inserted: N", "discarded: M" and a line per
// reason for discarding.
std::string ReadPathRangeTombstonesReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
