#include "table/craft/craft_test_defaults.h"

#include <cstdlib>

#include "table/craft/craft_range_filter_policy.h"

namespace ROCKSDB_NAMESPACE {

void ApplyCraftTestDefaults(BlockBasedTableOptions* options) {
#ifdef NDEBUG
  (void)options;
#else
  const char* value = std::getenv("LODESTONE_TEST_CRAFT");
  if (value == nullptr) {
    return;
  }
  // A test's own CRaFT knobs stay; the partition size is the variable's.
  const CraftRangeFilterPolicy* own =
      CraftRangeFilterPolicy::From(options->range_filter.get());
  CraftRangeFilterOptions craft =
      own ? own->options() : CraftRangeFilterOptions();
  const long partition_size = std::strtol(value, nullptr, 10);
  if (partition_size > 0) {
    craft.partition_size = static_cast<uint32_t>(partition_size);
  }
  options->range_filter = std::make_shared<CraftRangeFilterPolicy>(craft);
#endif
}

}  // namespace ROCKSDB_NAMESPACE
