#include "table/craft/craft_test_defaults.h"

#include <cstdlib>

namespace ROCKSDB_NAMESPACE {

void ApplyCraftTestDefaults(BlockBasedTableOptions* options) {
#ifdef NDEBUG
  (void)options;
#else
  const char* value = std::getenv("LODESTONE_TEST_CRAFT");
  if (value == nullptr) {
    return;
  }
  options->craft_range_filter = true;
  const long partition_size = std::strtol(value, nullptr, 10);
  if (partition_size > 0) {
    options->craft_partition_size = static_cast<uint32_t>(partition_size);
  }
#endif
}

}  // namespace ROCKSDB_NAMESPACE
