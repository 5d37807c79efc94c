#include "cache/location/location_cache_property.h"

#include <cinttypes>
#include <cstdio>

#include "cache/location/location_cache_impl.h"
#include "db/column_family.h"
#include "rocksdb/statistics.h"

namespace ROCKSDB_NAMESPACE {

const char* const kLocationCacheProperty = "rocksdb.lodestone.location-cache";

// Counts are the statistics tickers (when statistics are on); the slots in
// use come from a scan of the array.
std::string LocationCacheReport(ColumnFamilyData* cfd) {
  LocationCache* cache = cfd->ioptions()->location_cache.get();
  if (cache == nullptr) {
    return "location_cache: off\n";
  }
  LocationCacheBinding* binding = cache->binding();
  const size_t capacity = cache->GetCapacity();
  const size_t slots = capacity / sizeof(LocationSlot);
  char buf[512];
  snprintf(buf, sizeof(buf),
           "location_cache: %s\ncapacity_bytes: %zu\nslots: %zu\n"
           "owner: %u%s\nentries_used_by_this_db: %zu\n"
           "entries_used_by_all: %zu\n",
           cache->ToString().c_str(), capacity, slots,
           binding != nullptr ? binding->owner() : 0,
           binding != nullptr && binding->owner() == 0
               ? " (no free owner id: disabled for this DB)"
               : "",
           cache->GetUsage(),
           binding != nullptr ? binding->shared()->GetUsage() : 0);
  std::string out = buf;
  Statistics* stats = cfd->ioptions()->stats;
  if (stats != nullptr) {
    const uint64_t hit = stats->getTickerCount(LOCATION_CACHE_HIT);
    const uint64_t miss = stats->getTickerCount(LOCATION_CACHE_MISS);
    const uint64_t stale = stats->getTickerCount(LOCATION_CACHE_STALE);
    const uint64_t false_hit = stats->getTickerCount(LOCATION_CACHE_FALSE_HIT);
    const uint64_t probes = hit + miss + stale + false_hit;
    snprintf(
        buf, sizeof(buf),
        "hits: %" PRIu64 "\nmisses: %" PRIu64 "\nstale: %" PRIu64
        "\nfalse_hits: %" PRIu64 "\nhit_ratio: %.4f\npopulated: %" PRIu64
        "\npopulate_skipped: %" PRIu64 "\ninvalidated: %" PRIu64 "\n",
        hit, miss, stale, false_hit,
        probes ? static_cast<double>(hit) / static_cast<double>(probes) : 0.0,
        stats->getTickerCount(LOCATION_CACHE_POPULATE),
        stats->getTickerCount(LOCATION_CACHE_POPULATE_SKIPPED),
        stats->getTickerCount(LOCATION_CACHE_INVALIDATE));
    out += buf;
  } else {
    out += "hit_ratio: n/a (statistics off)\n";
  }
  return out;
}

}  // namespace ROCKSDB_NAMESPACE
