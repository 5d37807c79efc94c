#include "db/tombstone_compaction/tombstone_properties.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/column_family.h"
#include "db/version_set.h"
#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {

const char* const kTombstoneCompactionProperty =
    "rocksdb.lodestone.tombstone-compaction";
const char* const kTombstonesPerLevelProperty =
    "rocksdb.lodestone.tombstones-per-level";

std::string TombstoneCompactionReport(ColumnFamilyData* cfd) {
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
    const uint64_t t = c.file->tombstone_stats.oldest_time;
    snprintf(
        buf, sizeof(buf), "L%d %" PRIu64 " %s %.3f %" PRIu64 " %" PRIu64 "\n",
        c.level, c.file->fd.GetNumber(),
        c.reason == CompactionReason::kTombstoneDensity ? "density"
                                                        : "deadline",
        c.rank, c.file->tombstone_stats.count, t > 0 && now > t ? now - t : 0);
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
std::string TombstonesPerLevelReport(ColumnFamilyData* cfd) {
  const VersionStorageInfo& vstorage = *cfd->current()->storage_info();
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

}  // namespace ROCKSDB_NAMESPACE
