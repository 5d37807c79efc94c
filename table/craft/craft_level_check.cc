#include "table/craft/craft_level_check.h"

#include <cstring>

#include "db/version_edit.h"
#include "options/cf_options.h"
#include "rocksdb/table.h"
#include "table/craft/craft_seek.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

bool CraftLevelCheckApplies(TableReaderCaller caller,
                            const MutableCFOptions& mutable_cf_options) {
  if (caller != TableReaderCaller::kUserIterator) {
    return false;  // Never compaction reads; other callers are unbounded.
  }
  // Whether a file has a filter is its table reader's to say (a reader
  // loads one only under a CRaFT range_filter): looking the option up here,
  // by name through the factory's option registry, would cost every bounded
  // iterator hundreds of instructions per level with the feature off.
  const TableFactory* factory = mutable_cf_options.table_factory.get();
  return factory != nullptr &&
         std::strcmp(factory->Name(), TableFactory::kBlockBasedTableName()) ==
             0;
}

namespace {

// The table's block-based rep if the file holds an open table reader.
const BlockBasedTable::Rep* OpenRep(const FileMetaData& file) {
  // Only a table reader the file already holds (max_open_files = -1, or
  // loaded earlier): looking one up is a cost the check must not add.
  // CraftLevelCheckApplies saw a block-based table factory, which opens
  // only BlockBasedTables.
  TableReader* reader = file.fd.table_reader;
  return reader == nullptr
             ? nullptr
             : static_cast<const BlockBasedTable*>(reader)->get_rep();
}

}  // namespace

bool CraftLevelZeroOpensLazily(const LevelFilesBrief& level_zero) {
  size_t paying = 0;
  for (size_t i = 0; i < level_zero.num_files; ++i) {
    const BlockBasedTable::Rep* rep =
        OpenRep(*level_zero.files[i].file_metadata);
    if (rep != nullptr && rep->craft != nullptr &&
        rep->craft->check_policy().SeeksOftenEmpty()) {
      ++paying;
    }
  }
  return 2 * paying > level_zero.num_files;
}

bool CraftLevelFileMayMatch(const FileMetaData& file,
                            const ReadOptions& read_options,
                            const Slice& internal_target,
                            CraftSeekDecision* decision) {
  const BlockBasedTable::Rep* rep = OpenRep(file);
  if (rep == nullptr || rep->craft == nullptr ||
      rep->table_properties == nullptr ||
      rep->table_properties->num_range_deletions > 0) {
    return true;  // CraftSeekMayMatch checks the rest (filter, bound).
  }
  bool checked = false;
  if (!CraftSeekMayMatch(rep, read_options, TableReaderCaller::kUserIterator,
                         internal_target, /*forward=*/true, &checked)) {
    return false;
  }
  decision->decided = true;
  decision->checked = checked;
#ifndef NDEBUG
  decision->target = internal_target;
#endif
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
