// Counters of scan-time tombstone-run conversions per column family, for the
// DB property rocksdb.lodestone.read-path-range-tombstones (the statistics
// tickers READ_PATH_RANGE_TOMBSTONES_{INSERTED,DISCARDED} count the same
// events DB-wide, when statistics are on).

#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class DBImpl;

extern const char* const kReadPathRangeTombstonesProperty;

struct ReadPathRangeTombstoneCounts {
  uint64_t inserted = 0;
  uint64_t discarded = 0;
};

ReadPathRangeTombstoneCounts GetReadPathRangeTombstoneCounts(
    const ColumnFamilyData* cfd);

// Drops a column family's counts; ~ColumnFamilyData calls it (patch 0024),
// so that a family allocated later at the same address starts from zero.
void ForgetReadPathRangeTombstoneCounts(const ColumnFamilyData* cfd);

// Counts a conversion given up after the write thread stayed busy
// (TombstoneRunTracker): the per-family count and the ticker.
void CountReadPathRangeTombstoneDiscarded(DBImpl* db,
                                          const ColumnFamilyData* cfd);

// "inserted: N\ndiscarded: M\n" plus the option's current value.
std::string ReadPathRangeTombstonesReport(ColumnFamilyData* cfd);

}  // namespace ROCKSDB_NAMESPACE
