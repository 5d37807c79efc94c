#include "options/lodestone/option_checks.h"

#include <string>

namespace ROCKSDB_NAMESPACE {

namespace {

// The largest tombstone_density_window: each table build keeps one bit per
// entry of the window.
constexpr uint32_t kMaxTombstoneDensityWindow = uint32_t{1} << 20;

// The largest delete_persistence_threshold (34 years): it becomes
// preserve_internal_time_seconds, whose seqno-to-time mapping cannot reach
// back before the Unix epoch, and deadlines add shares of it to Unix times.
constexpr uint64_t kMaxDeletePersistenceThreshold = uint64_t{1} << 30;

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
  if (options.delete_persistence_threshold > kMaxDeletePersistenceThreshold) {
    return Status::InvalidArgument(
        "delete_persistence_threshold must be at most " +
        std::to_string(kMaxDeletePersistenceThreshold) + " seconds, not " +
        std::to_string(options.delete_persistence_threshold));
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
