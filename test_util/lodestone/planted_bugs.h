// Lodestone: deliberate defects for testing the tests (docs/stress.md).
//
// Each planted bug is one `if (PlantedBugActive(...))` line in the code it
// breaks. db_stress switches them on with --lodestone_plant_bug=<name> to
// show that the stress and crash tests catch that class of bug; the
// differential harness's self-tests plant theirs with PlantBug. Only debug
// builds (no NDEBUG) can switch one on; in release builds every check is a
// constant false and compiles away. Off unless a test sets it.

#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

enum class PlantedBug : uint32_t {
  // cache/location/location_invalidation.cc: a flush does not clear the
  // location-cache slots of the keys it writes, so a Get can be served an
  // older version from an older table.
  kLocationCacheSkipFlushInvalidation = 0,
  // db/initial_put/initial_chains.cc: a Delete prunes an initial-put chain
  // whose initial put lies in an older snapshot stripe, so a reader of that
  // snapshot loses the key.
  kInitialPutPruneAcrossSnapshot = 1,
  // cache/location/location_range_tombstones.cc: a hit does not ask its
  // Version's range tombstones, so a Get can be served a key that a flushed
  // DeleteRange covers.
  kLocationCacheIgnoreRangeTombstones = 2,
  // table/craft/craft_filter_reader.cc: a range that starts inside an
  // odd-numbered partition and ends before the next one is answered empty
  // without asking the trie, so a bounded scan misses its keys.
  kCraftRangeFilterFalseNegative = 3,
  // db/tombstone_runs/tombstone_run_conversion.cc: the range tombstone of a
  // converted run reaches past its end, over the live key that ended the
  // run.
  kTombstoneRunConversionPastTheRun = 4,
  // cache/location/location_invalidation.cc: a flush clears the slots of
  // its keys as if they were the default column family's, so in any other
  // family a Get can be served an older version from an older table.
  // Planted by the differential harness (one family cannot show it).
  kLocationCacheFlushInvalidatesDefaultFamily = 5,
  // db/secondary_deletes/compaction_secondary_deletes.cc: compactions zero
  // the sequence numbers of puts written after a live secondary range
  // tombstone, which then covers them as if written before it.
  kSecondaryDeleteZeroesNewerPuts = 6,
};

#ifndef NDEBUG
// Bit i set: PlantedBug with value i is active.
inline std::atomic<uint32_t> planted_bugs{0};

inline bool PlantedBugActive(PlantedBug bug) {
  return (planted_bugs.load(std::memory_order_relaxed) &
          (uint32_t{1} << static_cast<uint32_t>(bug))) != 0;
}

inline void PlantBug(PlantedBug bug) {
  planted_bugs.fetch_or(uint32_t{1} << static_cast<uint32_t>(bug),
                        std::memory_order_relaxed);
}

inline void UnplantBug(PlantedBug bug) {
  planted_bugs.fetch_and(~(uint32_t{1} << static_cast<uint32_t>(bug)),
                         std::memory_order_relaxed);
}
#else
constexpr bool PlantedBugActive(PlantedBug) { return false; }
#endif

}  // namespace ROCKSDB_NAMESPACE
