#include "table/craft/craft_builder_pool.h"

namespace ROCKSDB_NAMESPACE {

std::unique_ptr<CraftFilterBuilder> CraftBuilderPool::Take(
    const CraftFilterOptions& options) {
  std::unique_ptr<CraftFilterBuilder> builder;
  {
    std::lock_guard<std::mutex> lock(mu_);
    while (!idle_.empty() && builder == nullptr) {
      builder = std::move(idle_.back());
      idle_.pop_back();
      if (!builder->BuildsWith(options)) {
        builder.reset();  // Made before the knobs changed.
      }
    }
  }
  if (builder == nullptr) {
    builder = std::make_unique<CraftFilterBuilder>(options);
  }
  return builder;
}

void CraftBuilderPool::Give(std::unique_ptr<CraftFilterBuilder> builder) {
  if (builder == nullptr || !builder->idle() ||
      builder->RetainedBytes() > kMaxRetainedBytes) {
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < kMaxIdle) {
    idle_.push_back(std::move(builder));
  }
}

size_t CraftBuilderPool::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return idle_.size();
}

}  // namespace ROCKSDB_NAMESPACE
