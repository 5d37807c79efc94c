#include "table/craft/craft_option_aliases.h"

#include <functional>
#include <memory>

#include "table/craft/craft_range_filter_policy.h"

namespace ROCKSDB_NAMESPACE {

namespace {

using PolicyPtr = std::shared_ptr<RangeFilterPolicy>;

// Changes the CRaFT settings parsed so far.
using Apply = std::function<Status(
    const ConfigOptions& opts, const std::string& value,
    CraftRangeFilterOptions* options, bool* writes_filters)>;

OptionTypeInfo Alias(int offset, Apply apply) {
  OptionTypeInfo info(offset, OptionType::kUnknown,
                      OptionVerificationType::kAlias, OptionTypeFlags::kNone);
  info.SetParseFunc([apply](const ConfigOptions& opts, const std::string& name,
                            const std::string& value, void* addr) {
    auto* field = static_cast<PolicyPtr*>(addr);
    CraftRangeFilterOptions options;
    bool writes_filters = false;
    if (*field != nullptr) {
      const CraftRangeFilterPolicy* craft =
          CraftRangeFilterPolicy::From(field->get());
      if (craft == nullptr) {
        return Status::InvalidArgument(name +
                                       " configures CRaFT, but "
                                       "range_filter is " +
                                       std::string((*field)->Name()));
      }
      options = craft->options();
      writes_filters = craft->writes_filters();
    }
    Status s = apply(opts, value, &options, &writes_filters);
    if (!s.ok()) {
      return s;
    }
    const CraftRangeFilterOptions defaults;
    const bool default_knobs =
        options.partition_size == defaults.partition_size &&
        options.real_suffix_bits == defaults.real_suffix_bits &&
        options.hash_suffix_bits == defaults.hash_suffix_bits &&
        options.range_hash_bits == defaults.range_hash_bits &&
        options.min_level == defaults.min_level;
    if (!writes_filters && default_knobs) {
      field->reset();
    } else {
      *field =
          std::make_shared<CraftRangeFilterPolicy>(options, writes_filters);
    }
    return Status::OK();
  });
  return info;
}

OptionTypeInfo KnobAlias(int offset, const std::string& knob,
                         uint32_t CraftRangeFilterOptions::*member) {
  return Alias(offset, [knob, member](const ConfigOptions& opts,
                                      const std::string& value,
                                      CraftRangeFilterOptions* options,
                                      bool* /*writes_filters*/) {
    return CraftRangeFilterPolicy::ParseKnob(opts, knob, value,
                                             &(options->*member));
  });
}

// craft_range_filter. (A function, not a lambda: GCC 12 warns,
// maybe-uninitialized, on the std::function made from an empty lambda.)
Status SetWritesFilters(const ConfigOptions& opts, const std::string& value,
                        CraftRangeFilterOptions* /*options*/,
                        bool* writes_filters) {
  return OptionTypeInfo(0, OptionType::kBoolean)
      .Parse(opts, "craft_range_filter", value, writes_filters);
}

}  // namespace

void AddCraftOptionAliases(
    int range_filter_offset,
    std::unordered_map<std::string, OptionTypeInfo>* table_type_info) {
  const int offset = range_filter_offset;
  table_type_info->emplace("craft_range_filter",
                           Alias(offset, SetWritesFilters));
  table_type_info->emplace("craft_partition_size",
                           KnobAlias(offset, "partition_size",
                                     &CraftRangeFilterOptions::partition_size));
  table_type_info->emplace(
      "craft_real_suffix_bits",
      KnobAlias(offset, "real_suffix_bits",
                &CraftRangeFilterOptions::real_suffix_bits));
  table_type_info->emplace(
      "craft_hash_suffix_bits",
      KnobAlias(offset, "hash_suffix_bits",
                &CraftRangeFilterOptions::hash_suffix_bits));
  table_type_info->emplace(
      "craft_range_hash_bits",
      KnobAlias(offset, "range_hash_bits",
                &CraftRangeFilterOptions::range_hash_bits));
}

}  // namespace ROCKSDB_NAMESPACE
