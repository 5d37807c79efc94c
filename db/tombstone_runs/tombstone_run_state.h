// Scan-time conversion's state for one column family: what became of its
// runs, and the runs waiting for the DB's next write group
// (tombstone_run_conversion.h). ColumnFamilyData holds one
// (ColumnFamilyData::tombstone_runs(), patch 0024), as it holds its
// InternalStats, so both go with their family; upstream never looks inside,
// only tombstone_run_conversion.cc does.

#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/types.h"

namespace ROCKSDB_NAMESPACE {

class DBImpl;

// What became of a proven run.
enum class TombstoneRunOutcome {
  kInserted,
  // Discarded:
  kSuperVersionChanged,  // a flush, compaction or ingestion since the read
  kOlderThanMemtable,    // read sequence below the mutable memtable's first
  kNotAdded,             // the memtable refused it (the same run, twice)
  kStopped,              // column family dropped or DB stopped
  kPushedOut,            // more runs waiting than the family keeps
  kWriteThreadBusy,      // busy under two_write_queues (nothing handed off)
  kCheaperToStep,        // too few entries below the mutable memtable
  kLeftToPruning,        // too few tombstones left after early pruning
                         // (tombstone_run_tracker.h)
  kCount
};

// What the tracker learned of a run, for deciding whether it is worth
// inserting (tombstone_run_conversion.h).
struct TombstoneRunWorth {
  // Its tombstones and the versions they hide below the mutable memtable.
  uint64_t entries_below_memtable = 0;
  // Early pruning would leave fewer than the threshold of its tombstones,
  // if no snapshot keeps their chains.
  bool pruning_removes_it = false;
};

struct TombstoneRunCounts {
  uint64_t inserted = 0;
  uint64_t discarded = 0;  // The sum of by_outcome[k] for every discard.
  uint64_t by_outcome[static_cast<int>(TombstoneRunOutcome::kCount)] = {};
};

class TombstoneRunState {
 public:
  // A run handed to the next write group (TombstoneRunInserter::Insert).
  struct WaitingRun {
    uint64_t super_version_number;
    SequenceNumber seq;
    std::string start;
    std::string end;
    TombstoneRunWorth worth;
  };

  TombstoneRunState() = default;
  // Runs still waiting are dropped uncounted.
  ~TombstoneRunState();

  TombstoneRunState(const TombstoneRunState&) = delete;
  TombstoneRunState& operator=(const TombstoneRunState&) = delete;

  // All guarded by the conversion's one mutex (tombstone_run_conversion.cc),
  // which is taken after the DB mutex when both are held.
  TombstoneRunCounts counts;
  std::deque<WaitingRun> waiting;  // oldest first
  // Where the waiting runs go; set with the first of them.
  DBImpl* db = nullptr;
  uint32_t column_family_id = 0;
};

}  // namespace ROCKSDB_NAMESPACE
