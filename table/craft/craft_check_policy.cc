#include "table/craft/craft_check_policy.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// When a table's filter is asked (ShouldCheck).
constexpr uint32_t kWarmupChecks = 64;
constexpr uint32_t kWindowChecks = 256;
constexpr uint32_t kMinEmptyPercent = 40;
constexpr uint32_t kSampleEvery = 8;
constexpr double kMaxExpectedKeysToCheck = 1.0;

// A relaxed load and store, not an atomic add (see the header).
template <typename T>
void Bump(std::atomic<T>* counter, T by = 1) {
  counter->store(counter->load(std::memory_order_relaxed) + by,
                 std::memory_order_relaxed);
}

}  // namespace

CraftCheckPolicy::SeekCounts CraftCheckPolicy::seek_counts() const {
  SeekCounts counts;
  counts.checked = checked_.load(std::memory_order_relaxed);
  counts.empty = empty_.load(std::memory_order_relaxed);
  counts.false_positive = false_positive_.load(std::memory_order_relaxed);
  return counts;
}

void CraftCheckPolicy::CountCheck(bool empty, uint32_t weight) const {
  Bump(&checked_);
  if (empty) {
    Bump(&empty_);
  }
  checks_.Note(empty, weight);
  seeks_.Note(empty, weight);
}

void CraftCheckPolicy::Window::Note(bool empty, uint32_t weight) const {
  const uint32_t seen = seen_.load(std::memory_order_relaxed) + weight;
  uint32_t seen_empty = empty_.load(std::memory_order_relaxed);
  if (empty) {
    seen_empty += weight;
  }
  if (seen >= kWindowChecks) {
    seen_.store(seen / 2, std::memory_order_relaxed);
    empty_.store(seen_empty / 2, std::memory_order_relaxed);
  } else {
    seen_.store(seen, std::memory_order_relaxed);
    empty_.store(seen_empty, std::memory_order_relaxed);
  }
}

bool CraftCheckPolicy::Window::OftenEmpty() const {
  const uint32_t seen = seen_.load(std::memory_order_relaxed);
  return seen < kWarmupChecks ||
         100 * static_cast<uint64_t>(empty_.load(std::memory_order_relaxed)) >=
             kMinEmptyPercent * static_cast<uint64_t>(seen);
}

uint32_t CraftCheckPolicy::ShouldCheck(double expected_keys) const {
  if (expected_keys >= kMaxExpectedKeysToCheck) {
    // A seek the filter would not have helped, in the seeks window only
    // (see the header).
    seeks_.Note(/*empty=*/false, 1);
    return 0;
  }
  if (ChecksEverySeek()) {
    return 1;
  }
  const uint32_t skipped = skipped_.load(std::memory_order_relaxed);
  skipped_.store(skipped + 1, std::memory_order_relaxed);
  // A sampled check stands for the seeks skipped since the last one.
  return skipped % kSampleEvery == 0 ? kSampleEvery : 0;
}

void CraftCheckPolicy::CountFalsePositive() const { Bump(&false_positive_); }

}  // namespace ROCKSDB_NAMESPACE
