#include "utilities/lodestone/db_properties.h"

#include <cinttypes>
#include <cstdio>

#include "db/column_family.h"
#include "db/tombstone/read_path_range_tombstones.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

const char* const kLodestonePropertyPrefix = "rocksdb.lodestone.";
const char* const kTombstonesPerLevelProperty =
    "rocksdb.lodestone.tombstones-per-level";

namespace {

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
  if (name == kReadPathRangeTombstonesProperty) {
    *value = ReadPathRangeTombstonesReport(cfd);
    return true;
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
