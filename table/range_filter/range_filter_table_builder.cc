#include "table/range_filter/range_filter_table_builder.h"

#include "table/table_builder.h"

namespace ROCKSDB_NAMESPACE {

std::unique_ptr<RangeFilterBuilder> NewRangeFilterBuilder(
    const BlockBasedTableOptions& table_options,
    const TableBuilderOptions& table_builder_options, Logger* info_log) {
  if (table_options.range_filter == nullptr) {
    return nullptr;
  }
  RangeFilterBuildContext context;
  context.user_comparator =
      table_builder_options.internal_comparator.user_comparator();
  context.info_log = info_log;
  context.level_at_creation = table_builder_options.level_at_creation;
  return table_options.range_filter->NewBuilder(context);
}

std::string RangeFilterMetaBlockName(const RangeFilterPolicy& policy) {
  return std::string("filter.lodestone.") + policy.CompatibilityName();
}

}  // namespace ROCKSDB_NAMESPACE
