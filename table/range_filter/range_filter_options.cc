#include "table/range_filter/range_filter_options.h"

#include <cstddef>
#include <memory>

#include "rocksdb/convenience.h"
#include "rocksdb/range_filter_policy.h"
#include "rocksdb/table.h"
#include "table/craft/craft_option_aliases.h"

namespace ROCKSDB_NAMESPACE {

namespace {

using PolicyPtr = std::shared_ptr<RangeFilterPolicy>;

// Empty when no filter is written (no policy, or one that serializes to
// nothing): the option is then left out.
std::string Serialize(const ConfigOptions& opts,
                      const RangeFilterPolicy* policy) {
  if (policy == nullptr) {
    return std::string();
  }
  ConfigOptions embedded = opts;
  embedded.delimiter = ";";
  return policy->ToString(embedded);
}

// Named functions, not lambdas: GCC 12 warns (maybe-uninitialized) on the
// std::function made from an empty lambda, and warnings are errors.
Status ParseRangeFilter(const ConfigOptions& opts, const std::string& /*name*/,
                        const std::string& value, void* addr) {
  return RangeFilterPolicy::CreateFromString(opts, value,
                                             static_cast<PolicyPtr*>(addr));
}

Status SerializeRangeFilter(const ConfigOptions& opts,
                            const std::string& /*name*/, const void* addr,
                            std::string* value) {
  *value = Serialize(opts, static_cast<const PolicyPtr*>(addr)->get());
  return Status::OK();
}

bool RangeFiltersEqual(const ConfigOptions& opts, const std::string& name,
                       const void* addr1, const void* addr2,
                       std::string* mismatch) {
  if (Serialize(opts, static_cast<const PolicyPtr*>(addr1)->get()) ==
      Serialize(opts, static_cast<const PolicyPtr*>(addr2)->get())) {
    return true;
  }
  *mismatch = name;
  return false;
}

}  // namespace

void AddRangeFilterOptionTypes(
    std::unordered_map<std::string, OptionTypeInfo>* table_type_info) {
  const int offset = offsetof(struct BlockBasedTableOptions, range_filter);
  OptionTypeInfo info(offset, OptionType::kUnknown,
                      OptionVerificationType::kNormal,
                      OptionTypeFlags::kAllowNull);
  info.SetParseFunc(ParseRangeFilter)
      .SetSerializeFunc(SerializeRangeFilter)
      .SetEqualsFunc(RangeFiltersEqual);
  table_type_info->emplace("range_filter", info);
  AddCraftOptionAliases(offset, table_type_info);
}

std::string DescribeRangeFilter(const RangeFilterPolicy* policy) {
  const std::string configuration = Serialize(ConfigOptions(), policy);
  return "  range_filter: " +
         (configuration.empty() ? std::string("None") : configuration) + "\n";
}

}  // namespace ROCKSDB_NAMESPACE
