#include "table/craft/craft_level_check.h"

#include "db/version_edit.h"
#include "options/cf_options.h"
#include "rocksdb/table.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

bool CraftLevelCheckApplies(TableReaderCaller caller,
                            const MutableCFOptions& mutable_cf_options) {
  if (caller != TableReaderCaller::kUserIterator) {
    return false;  // Never compaction reads; other callers are unbounded.
  }
  const TableFactory* factory = mutable_cf_options.table_factory.get();
  if (factory == nullptr ||
      !factory->IsInstanceOf(TableFactory::kBlockBasedTableName())) {
    return false;
  }
  const auto* options = factory->GetOptions<BlockBasedTableOptions>();
  return options != nullptr && options->craft_range_filter;
}

bool CraftLevelFileMayMatch(const FileMetaData& file,
                            const ReadOptions& read_options,
                            const Slice& internal_target) {
  // Only a table reader the file already holds (max_open_files = -1, or
  // loaded earlier): looking one up is a cost the check must not add.
  TableReader* reader = file.fd.table_reader;
  if (reader == nullptr) {
    return true;
  }
  // CraftLevelCheckApplies saw a block-based table factory, which opens
  // only BlockBasedTables.
  const BlockBasedTable::Rep* rep =
      static_cast<const BlockBasedTable*>(reader)->get_rep();
  if (rep->table_properties == nullptr ||
      rep->table_properties->num_range_deletions > 0) {
    return true;  // CraftSeekMayMatch checks the rest (filter, bound).
  }
  bool checked = false;
  if (!CraftSeekMayMatch(rep, read_options, TableReaderCaller::kUserIterator,
                         internal_target, /*forward=*/true, &checked)) {
    return false;
  }
  if (checked) {
    RememberCraftMaybe(rep, internal_target);
  }
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
