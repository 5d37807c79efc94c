#include "db/compaction_overlap_by_keys/overlap_by_keys.h"

#include <algorithm>
#include <cstring>

#include "db/dbformat.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "options/cf_options.h"
#include "rocksdb/table.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

namespace {

bool IsBlockBased(const TableFactory* table_factory) {
  return table_factory != nullptr &&
         std::strcmp(table_factory->Name(),
                     TableFactory::kBlockBasedTableName()) == 0;
}

// The file's CRaFT reader, if it holds an open table reader with one. A
// block-based factory opens only BlockBasedTables.
const CraftTableReader* CraftOf(const FileMetaData& file) {
  if (file.fd.table_reader == nullptr) {
    return nullptr;
  }
  const auto* table = static_cast<const BlockBasedTable*>(file.fd.table_reader);
  return table->get_rep()->craft.get();
}

}  // namespace

OverlapByKeys::OverlapByKeys(const InternalKeyComparator& icmp,
                             const TableFactory* table_factory,
                             Statistics* statistics)
    : icmp_(icmp),
      block_based_(IsBlockBased(table_factory)),
      statistics_(statistics) {}

void OverlapByKeys::LoadMetadata(const VersionStorageInfo& vstorage,
                                 const MutableCFOptions& mutable_cf_options,
                                 const ReadOptions& read_options) {
  if (!IsBlockBased(mutable_cf_options.table_factory.get())) {
    return;
  }
  // L0's files are never a next level's.
  for (int level = 1; level < vstorage.num_levels(); ++level) {
    for (const FileMetaData* file : vstorage.LevelFiles(level)) {
      const CraftTableReader* craft = CraftOf(*file);
      if (craft != nullptr && craft->LoadedFilter() == nullptr) {
        craft->Filter(read_options);
      }
    }
  }
}

uint64_t OverlapByKeys::Ratio(
    const FileMetaData& f, const std::vector<FileMetaData*>& next_level) const {
  // The next-level files upstream's ranking counts: from the first whose
  // largest key is not before f's smallest, while their smallest key is
  // before f's largest.
  auto g =
      std::lower_bound(next_level.begin(), next_level.end(), &f,
                       [this](const FileMetaData* a, const FileMetaData* b) {
                         return icmp_.Compare(a->largest, b->smallest) < 0;
                       });
  uint64_t bytes = 0;
  for (; g != next_level.end() && icmp_.Compare((*g)->smallest, f.largest) < 0;
       ++g) {
    const bool inside = icmp_.Compare((*g)->smallest, f.smallest) >= 0 &&
                        icmp_.Compare((*g)->largest, f.largest) <= 0;
    bytes += inside ? (*g)->fd.file_size : StraddlingBytes(f, **g);
  }
  return bytes * 1024U / f.compensated_file_size;
}

uint64_t OverlapByKeys::StraddlingBytes(const FileMetaData& f,
                                        const FileMetaData& g) const {
  const CraftTableReader* craft = block_based_ ? CraftOf(g) : nullptr;
  const CraftFilterReader* filter =
      craft != nullptr ? craft->LoadedFilter() : nullptr;
  const uint64_t total = filter != nullptr ? filter->metadata().num_keys() : 0;
  if (total == 0) {
    RecordTick(statistics_, COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE);
    return g.fd.file_size;
  }
  RecordTick(statistics_, COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER);
  // g holds no key outside its own range, so its keys in f's range are its
  // keys in [f's smallest, f's largest): the estimate leaves out that one
  // largest key.
  const uint64_t keys = std::min(
      total, filter->EstimateKeys(f.smallest.user_key(), f.largest.user_key()));
  return static_cast<uint64_t>(static_cast<double>(g.fd.file_size) *
                               static_cast<double>(keys) /
                               static_cast<double>(total));
}

}  // namespace ROCKSDB_NAMESPACE
