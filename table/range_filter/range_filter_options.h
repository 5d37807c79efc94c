// BlockBasedTableOptions::range_filter in option strings, OPTIONS files and
// the LOG (patch 0002 calls these from block_based_table_factory.cc).

#pragma once

#include <string>
#include <unordered_map>

#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

class RangeFilterPolicy;

// Adds `range_filter` and the old CRaFT option names
// (table/craft/craft_option_aliases.h) to BlockBasedTableOptions' option
// table. `range_filter` parses with RangeFilterPolicy::CreateFromString
// (every value makes a new policy; none is edited in place), serializes to
// nothing while no filter is written, so that OPTIONS files read like
// stock's, and compares by configuration.
void AddRangeFilterOptionTypes(
    std::unordered_map<std::string, OptionTypeInfo>* table_type_info);

// The LOG's options dump line: "  range_filter: <configuration or None>\n".
std::string DescribeRangeFilter(const RangeFilterPolicy* policy);

}  // namespace ROCKSDB_NAMESPACE
