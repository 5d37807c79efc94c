#include "db/secondary_deletes/secondary_delete_property.h"

#include <cinttypes>
#include <cstdio>

#include "db/column_family.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

const char* const kSecondaryDeletesProperty =
    "rocksdb.lodestone.secondary-deletes";

std::string SecondaryDeletesReport(ColumnFamilyData* cfd) {
  const VersionStorageInfo& vstorage = *cfd->current()->storage_info();
  const MutableCFOptions& mo = *cfd->GetLatestMutableCFOptions();
  const LiveSecondaryTombstones* live = vstorage.secondary_tombstones().get();
  std::string out =
      "delete_key_extractor: " +
      (mo.delete_key_extractor == nullptr
           ? std::string("None")
           : DescribeExtractor(*mo.delete_key_extractor)) +
      "\ndelete_tile_blocks: " + std::to_string(mo.delete_tile_blocks) +
      "\nwatermark: " +
      std::to_string(live == nullptr ? 0 : live->watermark()) +
      "\nlive_tombstones: " +
      std::to_string(live == nullptr ? 0 : live->tombstones().size()) +
      "\ndelete_persistence_threshold: " +
      std::to_string(mo.delete_persistence_threshold) +
      "\nlo hi seq issued_at due_at files_holding_covered\n";
  if (live == nullptr) {
    return out;
  }
  for (const SecondaryRangeTombstone& t : live->tombstones()) {
    uint64_t files = 0;
    for (int level = 0; level < vstorage.num_levels(); ++level) {
      for (const FileMetaData* f : vstorage.LevelFiles(level)) {
        files += LiveSecondaryTombstones::MayHoldCovered(*f, t) ? 1 : 0;
      }
    }
    // due_at: when its files are compacted for the deadline (FADE), "-"
    // without one.
    const std::string due = mo.delete_persistence_threshold == 0
                                ? std::string("-")
                                : std::to_string(LiveSecondaryTombstones::DueAt(
                                      t, mo.delete_persistence_threshold));
    out += Slice(t.lo).ToString(/*hex=*/true) + " " +
           Slice(t.hi).ToString(/*hex=*/true) + " " + std::to_string(t.seq) +
           " " + std::to_string(t.issued_at) + " " + due + " " +
           std::to_string(files) + "\n";
  }
  return out;
}

}  // namespace ROCKSDB_NAMESPACE
