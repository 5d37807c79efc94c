#include "table/craft/craft_filter_property.h"

#include <cinttypes>
#include <cstdio>

#include "db/column_family.h"
#include "db/version_set.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

const char* const kCraftFilterProperty = "rocksdb.lodestone.craft-filter";

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

}  // namespace ROCKSDB_NAMESPACE
