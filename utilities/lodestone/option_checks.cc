#include "utilities/lodestone/option_checks.h"

#include <string>

namespace ROCKSDB_NAMESPACE {

namespace {

// The largest tombstone_density_window: each table build keeps one bit per
// entry of the window.
constexpr uint32_t kMaxTombstoneDensityWindow = uint32_t{1} << 20;

}  // namespace

Status CheckLodestoneColumnFamilyOptions(const ColumnFamilyOptions& options) {
  const double trigger = options.tombstone_density_trigger;
  // Written so that NaN fails too.
  if (!(trigger >= 0.0 && trigger <= 1.0)) {
    return Status::InvalidArgument(
        "tombstone_density_trigger must be in [0, 1] (0 = off), not " +
        std::to_string(trigger));
  }
  const uint32_t window = options.tombstone_density_window;
  if (window < 1 || window > kMaxTombstoneDensityWindow) {
    return Status::InvalidArgument("tombstone_density_window must be in [1, " +
                                   std::to_string(kMaxTombstoneDensityWindow) +
                                   "], not " + std::to_string(window));
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
