// EstimateKeysInRange (rocksdb/craft_filter.h).

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/version_set.h"
#include "rocksdb/craft_filter.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_table_reader.h"
#include "util/cast_util.h"

namespace ROCKSDB_NAMESPACE {

Status EstimateKeysInRange(DB* db, ColumnFamilyHandle* column_family,
                           const Slice& begin, const Slice& end,
                           uint64_t* count) {
  *count = 0;
  if (end.compare(begin) <= 0) {
    return Status::OK();
  }
  auto* impl = static_cast_with_check<DBImpl>(db->GetRootDB());
  auto* cfh = static_cast_with_check<ColumnFamilyHandleImpl>(
      column_family != nullptr ? column_family : db->DefaultColumnFamily());
  ColumnFamilyData* cfd = cfh->cfd();
  const Comparator* ucmp = cfd->user_comparator();
  SuperVersion* sv = impl->GetAndRefSuperVersion(cfd);
  if (!sv->mutable_cf_options.table_factory->IsInstanceOf(
          TableFactory::kBlockBasedTableName())) {
    impl->ReturnAndCleanupSuperVersion(cfd, sv);
    return Status::NotSupported("EstimateKeysInRange needs block-based tables");
  }
  const VersionStorageInfo* vstorage = sv->current->storage_info();
  for (int level = 0; level < vstorage->num_levels(); ++level) {
    for (const FileMetaData* f : vstorage->LevelFiles(level)) {
      if (ucmp->Compare(f->smallest.user_key(), end) >= 0 ||
          ucmp->Compare(f->largest.user_key(), begin) < 0) {
        continue;  // The table's keys are all outside the range.
      }
      auto* table = static_cast<const BlockBasedTable*>(f->fd.table_reader);
      const CraftTableReader* craft =
          table != nullptr ? table->get_rep()->craft.get() : nullptr;
      uint64_t keys = 0;
      *count += craft != nullptr && craft->EstimateKeys(begin, end, &keys)
                    ? keys
                    : f->num_entries;
    }
  }
  impl->ReturnAndCleanupSuperVersion(cfd, sv);
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
