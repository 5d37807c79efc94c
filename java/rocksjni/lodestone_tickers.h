// Lodestone: our tickers as org.rocksdb.TickerType values. Upstream's
// TickerTypeJni (rocksjni/portal.h, patch 0038) maps every upstream ticker in
// its switches and asks this table in their default branches.
//
// Java holds a ticker in a byte; upstream 9.10 assigns down to -0x57 and
// TICKER_ENUM_MAX is pinned at -0x54, so ours take -0x58 downwards. Keep
// this table and the constants in java/.../TickerType.java (patch 0038) in
// step: LodestoneTickersTest checks every Java constant against its C++
// name.

#pragma once

#include <jni.h>

#include "rocksdb/statistics.h"

namespace ROCKSDB_NAMESPACE {
namespace lodestone_jni {

struct LodestoneTicker {
  Tickers ticker;
  jbyte java_value;
};

inline constexpr LodestoneTicker kLodestoneTickers[] = {
    {LOCATION_CACHE_HIT, -0x58},
    {LOCATION_CACHE_MISS, -0x59},
    {LOCATION_CACHE_FALSE_HIT, -0x5A},
    {LOCATION_CACHE_STALE, -0x5B},
    {LOCATION_CACHE_POPULATE, -0x5C},
    {LOCATION_CACHE_POPULATE_SKIPPED, -0x5D},
    {LOCATION_CACHE_INVALIDATE, -0x5E},
    {CRAFT_FILTER_CHECKED, -0x5F},
    {CRAFT_FILTER_EMPTY, -0x60},
    {CRAFT_FILTER_FALSE_POSITIVE, -0x61},
    {CRAFT_FILTER_BYTES_READ, -0x62},
    {INITIAL_CHAINS_PRUNED, -0x63},
    {TOMBSTONES_PRUNED_EARLY, -0x64},
    {TOMBSTONES_REACHED_BOTTOMMOST, -0x65},
    {INITIAL_PUT_CONTRACT_VIOLATIONS, -0x66},
    {COMPACTION_TOMBSTONE_DENSITY_PICKS, -0x67},
    {COMPACTION_TOMBSTONE_DEADLINE_PICKS, -0x68},
    {READ_PATH_RANGE_TOMBSTONES_INSERTED, -0x69},
    {READ_PATH_RANGE_TOMBSTONES_DISCARDED, -0x6A},
    {COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER, -0x6B},
    {COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE, -0x6C},
    {SECONDARY_DELETE_TOMBSTONES_ADDED, -0x6D},
    {SECONDARY_DELETE_TOMBSTONES_RETIRED, -0x6E},
    {SECONDARY_DELETE_ENTRIES_HIDDEN, -0x6F},
    {SECONDARY_DELETE_ENTRIES_DROPPED, -0x70},
    {SECONDARY_DELETE_BLOCKS_SKIPPED, -0x71},
    {SECONDARY_DELETE_BLOCKS_DROPPED_FULL, -0x72},
    {SECONDARY_DELETE_BLOCKS_DROPPED_PARTIAL, -0x73},
    {SECONDARY_DELETE_BYTES_RECLAIMED, -0x74},
};

// The Java value of one of our tickers; 0x0 (upstream's "undefined") for
// any other.
inline jbyte ToJavaTickerType(Tickers ticker) {
  for (const LodestoneTicker& t : kLodestoneTickers) {
    if (t.ticker == ticker) {
      return t.java_value;
    }
  }
  return 0x0;
}

// The C++ ticker of a Java value of ours; false for any other.
inline bool ToCppTicker(jbyte java_value, Tickers* ticker) {
  for (const LodestoneTicker& t : kLodestoneTickers) {
    if (t.java_value == java_value) {
      *ticker = t.ticker;
      return true;
    }
  }
  return false;
}

}  // namespace lodestone_jni
}  // namespace ROCKSDB_NAMESPACE
