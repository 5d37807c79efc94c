#include "utilities/lodestone/db_properties.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "cache/location/location_cache_impl.h"
#include "db/column_family.h"
#include "db/tombstone_runs/tombstone_run_conversion.h"
#include "db/version_set.h"
#include "rocksdb/system_clock.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

const char* const kLodestonePropertyPrefix = "rocksdb.lodestone.";
const char* const kTombstonesPerLevelProperty =
    "rocksdb.lodestone.tombstones-per-level";

const char* const kTombstoneCompactionProperty =
    "rocksdb.lodestone.tombstone-compaction";

const char* const kLocationCacheProperty = "rocksdb.lodestone.location-cache";

const char* const kCraftFilterProperty = "rocksdb.lodestone.craft-filter";

namespace {

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

// Per level of the current version: the filters of the files whose table
// readers are open (all of them when max_open_files is -1), their size, and
// the bounded seeks they answered since their tables were opened.
std::string CraftFilterReport(ColumnFamilyData* cfd) {
  const VersionStorageInfo& vstorage = *cfd->current()->storage_info();
  const bool block_based =
      cfd->GetLatestMutableCFOptions()->table_factory->IsInstanceOf(
          TableFactory::kBlockBasedTableName());
  std::string out =
      "level files with_filter unopened keys filter_bytes bits_per_key "
      "checked empty empty_pct false_positive not_loaded\n";
  char line[256];
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    uint64_t with_filter = 0, unopened = 0, not_loaded = 0, keys = 0, bytes = 0;
    CraftCheckPolicy::SeekCounts sum;
    const auto& files = vstorage.LevelFiles(level);
    for (const FileMetaData* f : files) {
      TableReader* table = f->fd.table_reader;
      if (table == nullptr || !block_based) {
        unopened += table == nullptr ? 1 : 0;
        continue;
      }
      const CraftTableReader* craft =
          static_cast<BlockBasedTable*>(table)->get_rep()->craft.get();
      if (craft == nullptr) {
        continue;
      }
      ++with_filter;
      // No read here, under the DB mutex: a filter no seek has asked yet
      // counts as not loaded.
      const CraftFilterReader* filter = craft->LoadedFilter();
      if (filter != nullptr) {
        keys += filter->metadata().num_keys();
        bytes += craft->stored_bytes();
      } else {
        ++not_loaded;
      }
      const CraftCheckPolicy::SeekCounts c =
          craft->check_policy().seek_counts();
      sum.checked += c.checked;
      sum.empty += c.empty;
      sum.false_positive += c.false_positive;
    }
    snprintf(line, sizeof(line),
             "L%d %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
             " %.2f %" PRIu64 " %" PRIu64 " %.2f %" PRIu64 " %" PRIu64 "\n",
             level, files.size(), with_filter, unopened, keys, bytes,
             keys ? 8.0 * static_cast<double>(bytes) / static_cast<double>(keys)
                  : 0.0,
             sum.checked, sum.empty,
             sum.checked ? 100.0 * static_cast<double>(sum.empty) /
                               static_cast<double>(sum.checked)
                         : 0.0,
             sum.false_positive, not_loaded);
    out += line;
  }
  return out;
}

std::string TombstoneCompaction(ColumnFamilyData* cfd) {
  const VersionStorageInfo& vstorage = *cfd->current()->storage_info();
  int64_t now_signed = 0;
  cfd->ioptions()->clock->GetCurrentTime(&now_signed).PermitUncheckedError();
  const uint64_t now = static_cast<uint64_t>(std::max<int64_t>(now_signed, 0));
  const MutableCFOptions& mo = *cfd->GetLatestMutableCFOptions();
  char buf[256];
  snprintf(buf, sizeof(buf),
           "delete_persistence_threshold: %" PRIu64
           "\ntombstone_density_trigger: %g\ntombstone_density_window: %u\n"
           "level file reason rank tombstones oldest_tombstone_age_s\n",
           mo.delete_persistence_threshold, mo.tombstone_density_trigger,
           mo.tombstone_density_window);
  std::string out = buf;
  for (const auto& c : vstorage.TombstoneCompactionCandidates()) {
    const uint64_t t = c.file->oldest_tombstone_time;
    snprintf(buf, sizeof(buf),
             "L%d %" PRIu64 " %s %.3f %" PRIu64 " %" PRIu64 "\n", c.level,
             c.file->fd.GetNumber(),
             c.reason == CompactionReason::kTombstoneDensity ? "density"
                                                             : "deadline",
             c.rank, c.file->tombstone_count, t > 0 && now > t ? now - t : 0);
    out += buf;
  }
  const uint64_t next = vstorage.NextTombstoneDeadline();
  snprintf(buf, sizeof(buf), "next_deadline_in_s: %" PRId64 "\n",
           next == 0 ? int64_t{-1}
                     : static_cast<int64_t>(next) - static_cast<int64_t>(now));
  out += buf;
  return out;
}

// Counts come from each file's table properties (FileMetaData), which
// versions load for every file when max_open_files is -1 and for a sample
// otherwise; unloaded files count as unknown.
std::string TombstonesPerLevel(const VersionStorageInfo& vstorage) {
  std::string out =
      "level files entries point_tombstones range_tombstones tombstone_pct "
      "unknown_files\n";
  uint64_t total_files = 0, total_entries = 0, total_point = 0, total_range = 0,
           total_unknown = 0;
  char line[160];
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    uint64_t entries = 0, point = 0, range = 0, unknown = 0;
    const auto& files = vstorage.LevelFiles(level);
    for (const FileMetaData* f : files) {
      if (!f->init_stats_from_file && f->num_entries == 0) {
        ++unknown;
        continue;
      }
      entries += f->num_entries;
      range += f->num_range_deletions;
      point +=
          f->num_deletions - std::min(f->num_deletions, f->num_range_deletions);
    }
    snprintf(line, sizeof(line),
             "L%d %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %.2f %" PRIu64 "\n",
             level, files.size(), entries, point, range,
             entries ? 100.0 * static_cast<double>(point + range) /
                           static_cast<double>(entries)
                     : 0.0,
             unknown);
    out += line;
    total_files += files.size();
    total_entries += entries;
    total_point += point;
    total_range += range;
    total_unknown += unknown;
  }
  snprintf(line, sizeof(line),
           "total %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.2f %" PRIu64
           "\n",
           total_files, total_entries, total_point, total_range,
           total_entries
               ? 100.0 * static_cast<double>(total_point + total_range) /
                     static_cast<double>(total_entries)
               : 0.0,
           total_unknown);
  out += line;
  return out;
}

}  // namespace

bool GetLodestoneProperty(ColumnFamilyData* cfd, const Slice& name,
                          std::string* value) {
  if (cfd == nullptr || cfd->current() == nullptr) {
    return false;
  }
  if (name == kTombstonesPerLevelProperty) {
    *value = TombstonesPerLevel(*cfd->current()->storage_info());
    return true;
  }
  if (name == kTombstoneCompactionProperty) {
    *value = TombstoneCompaction(cfd);
    return true;
  }
  if (name == kLocationCacheProperty) {
    *value = LocationCacheReport(cfd);
    return true;
  }
  if (name == kCraftFilterProperty) {
    *value = CraftFilterReport(cfd);
    return true;
  }
  if (name == kTombstoneRunsProperty) {
    *value = TombstoneRunsReport(cfd);
    return true;
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
