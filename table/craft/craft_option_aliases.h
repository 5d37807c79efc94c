// The option names CRaFT had before BlockBasedTableOptions::range_filter
// replaced them (craft_range_filter, craft_partition_size,
// craft_real_suffix_bits, craft_hash_suffix_bits, craft_range_hash_bits),
// kept as aliases so that option strings and OPTIONS files written by
// earlier Lodestone releases still load, with their old meaning:
//   craft_range_filter=true   range_filter becomes CRaFT with the knobs set
//                             so far (by aliases) or the defaults
//   craft_range_filter=false  no filter; knobs set so far are kept
//   craft_<knob>=v            the CRaFT policy gets <knob>=v; with the
//                             filter off it is kept for a later
//                             craft_range_filter=true in the same string
// An alias over another policy than CRaFT is refused. Aliases are parsed,
// never serialized or compared (OptionVerificationType::kAlias): the next
// OPTIONS file names range_filter. A string that names both spellings
// parses in no defined order (unsupported).

#pragma once

#include <string>
#include <unordered_map>

#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

// Adds the aliases to `table_type_info`, each parsing into the
// std::shared_ptr<RangeFilterPolicy> at `range_filter_offset`.
void AddCraftOptionAliases(
    int range_filter_offset,
    std::unordered_map<std::string, OptionTypeInfo>* table_type_info);

}  // namespace ROCKSDB_NAMESPACE
