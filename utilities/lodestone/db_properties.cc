#include "utilities/lodestone/db_properties.h"

#include "cache/location/location_cache_property.h"
#include "db/column_family.h"
#include "db/secondary_deletes/secondary_delete_property.h"
#include "db/tombstone_compaction/tombstone_properties.h"
#include "db/tombstone_runs/tombstone_run_conversion.h"
#include "table/craft/craft_filter_property.h"

namespace ROCKSDB_NAMESPACE {

const char* const kLodestonePropertyPrefix = "rocksdb.lodestone.";

namespace {

struct LodestoneProperty {
  const char* const* name;  // The feature's name constant (initialized
                            // in another translation unit, so held by
                            // address).
  std::string (*report)(ColumnFamilyData* cfd);
};

const LodestoneProperty kLodestoneProperties[] = {
    {&kLocationCacheProperty, LocationCacheReport},
    {&kCraftFilterProperty, CraftFilterReport},
    {&kTombstoneCompactionProperty, TombstoneCompactionReport},
    {&kTombstonesPerLevelProperty, TombstonesPerLevelReport},
    {&kTombstoneRunsProperty, TombstoneRunsReport},
    {&kSecondaryDeletesProperty, SecondaryDeletesReport},
};

}  // namespace

bool GetLodestoneProperty(ColumnFamilyData* cfd, const Slice& name,
                          std::string* value) {
  if (cfd == nullptr || cfd->current() == nullptr) {
    return false;
  }
  for (const LodestoneProperty& p : kLodestoneProperties) {
    if (name == *p.name) {
      *value = p.report(cfd);
      return true;
    }
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
