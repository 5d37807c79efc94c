// What BlockBasedTableBuilder needs to write a range filter (patch 0013):
// the builder for a new table, from the table options' policy and an
// explicit context, and the metaindex name its meta block goes under.

#pragma once

#include <memory>
#include <string>

#include "rocksdb/range_filter_policy.h"
#include "rocksdb/table.h"

namespace ROCKSDB_NAMESPACE {

struct TableBuilderOptions;

// nullptr when the options name no policy or the policy writes no filter
// for this table.
std::unique_ptr<RangeFilterBuilder> NewRangeFilterBuilder(
    const BlockBasedTableOptions& table_options,
    const TableBuilderOptions& table_builder_options, Logger* info_log);

// "filter.lodestone." + the policy's CompatibilityName(). Stock RocksDB's
// meta block classifier (VerifyChecksum) asserts in debug builds on names
// it does not know and ignores the obsolete "filter." prefix.
std::string RangeFilterMetaBlockName(const RangeFilterPolicy& policy);

}  // namespace ROCKSDB_NAMESPACE
