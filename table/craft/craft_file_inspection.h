// A table file's CRaFT (range filter) blocks read straight from the file,
// whatever the options say: for sst_dump (patch 0016), ldb craft_query and
// tests.

#pragma once

#include <string>
#include <vector>

#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "table/craft/craft_filter.h"
#include "table/craft/craft_partition.h"

namespace ROCKSDB_NAMESPACE {

// The filter of a table file read straight from the file, whatever the
// options say (sst_dump, tests): NotFound if the table has none.
struct CraftFileFilter {
  CraftMetadata metadata;
  std::vector<CraftPartition> partitions;
  uint64_t bytes = 0;  // Partitions plus metadata.
};
Status ReadCraftFilterFromFile(const std::string& path, const Options& options,
                               CraftFileFilter* filter);

// A few lines for sst_dump --show_properties; empty without a filter.
std::string DescribeCraftFilter(const std::string& path,
                                const Options& options);

}  // namespace ROCKSDB_NAMESPACE
