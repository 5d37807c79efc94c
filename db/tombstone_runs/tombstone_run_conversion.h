// The DB side of scan-time tombstone-run conversion
// (min_tombstones_for_range_conversion; the reader side is
// tombstone_run_tracker.h): inserting a proven run as a range tombstone,
// handing it to the write path when the write thread is busy, and the
// per-column-family counts behind the DB property
// rocksdb.lodestone.tombstone-runs (the statistics tickers
// TOMBSTONE_RUNS_{INSERTED,DISCARDED} count the same events
// DB-wide, when statistics are on).
//
// A run is inserted only if it is worth what the insertion costs readers.
// It saves them steps only over its entries below the mutable memtable
// (tombstone_run_tracker.h). And upstream's memtable rebuilds its
// fragmented list of range tombstones on the first read after every range
// deletion (MemTable::Add installs an empty
// FragmentedRangeTombstoneListCache), so an insertion costs the next reader
// work in proportion to the range tombstones already in the mutable
// memtable. A run with no entry below the mutable memtable, or with fewer
// than the memtable has range tombstones, is discarded (kCheaperToStep).
// Each rebuild then costs no more than the steps its run saves one reader,
// so a memtable's rebuild work stays linear in the entries its conversions
// let readers skip; without the rule, a queue that converts at every
// dequeue rebuilds a list that grows by one each time (quadratic in its
// conversions) and saves nothing while its tombstones are still in the
// mutable memtable.
//
// A run whose tombstones mostly delete initial-put chains is left to early
// pruning (kLeftToPruning; tombstone_run_tracker.h) unless a snapshot older
// than the read could keep those chains: such a snapshot blocks pruning
// between the puts and the deletes, while a range tombstone still lets
// readers skip the run.
//
// A run worth inserting is inserted by TombstoneRunInserter when the write
// thread is free, or else handed off: kept in a small per-family list that
// the next write group's leader drains (InsertHandedOffTombstoneRuns)
// while it is the DB's only memtable writer. Every run ends exactly once as
// inserted or discarded, except runs still waiting when their column family
// is destroyed, which are dropped uncounted.

#pragma once

#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "db/tombstone_runs/tombstone_run_state.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class DBImpl;

extern const char* const kTombstoneRunsProperty;

// Puts a run into a DB's mutable memtable without waiting for writers: the
// one piece of Lodestone that enters DBImpl's write thread for a reader
// (through db/db_impl_access/).
class TombstoneRunInserter {
 public:
  explicit TombstoneRunInserter(DBImpl* db) : db_(db) {}

  // Inserts the range tombstone [start, end) of a run worth `worth` at
  // `seq` into the mutable memtable of `cfd` (no WAL record) if its
  // SuperVersion is still `super_version_number` and the run is worth it
  // (above); when writers are busy, hands it to the next write group
  // instead (Incomplete), or under two_write_queues discards it (Busy).
  // Every run is counted as inserted or discarded. Never blocks on a
  // writer; takes the DB mutex only after entering the write thread.
  Status Insert(ColumnFamilyData* cfd, uint64_t super_version_number,
                SequenceNumber seq, const Slice& start, const Slice& end,
                const TombstoneRunWorth& worth);

 private:
  DBImpl* const db_;
};

// The most runs one column family keeps waiting for a write group; a newer
// run pushes out the oldest, which is counted as discarded.
constexpr size_t kMaxHandedOffRunsPerColumnFamily = 8;

TombstoneRunCounts GetTombstoneRunCounts(ColumnFamilyData* cfd);

// The counts of every column family of every DB this process opened, since
// it started (db_stress reports why runs were discarded).
TombstoneRunCounts GetTombstoneRunCountsInProcess();

// Inserts the runs handed off for `db` whose column family's SuperVersion
// is still the one their iterator read; discards the others.
//
// REQUIRES: the caller is db's only memtable writer until it returns: a
// write group's leader after PreprocessWrite and before its group's
// memtable inserts (or, with enable_pipelined_write, a memtable writer
// group's leader before its inserts); DB mutex not held. Never called under
// two_write_queues, where nothing is handed off.
// Costs one relaxed atomic load while no run waits anywhere in the process.
void InsertHandedOffTombstoneRuns(DBImpl* db);

// The option's current value, "inserted: N", "discarded: M" and a line per
// reason for discarding.
std::string TombstoneRunsReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
