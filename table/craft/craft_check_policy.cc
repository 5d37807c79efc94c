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
  NoteRecentOutcome(empty, weight);
}

void CraftCheckPolicy::NoteRecentOutcome(bool empty, uint32_t weight) const {
  const uint32_t recent =
      recent_checked_.load(std::memory_order_relaxed) + weight;
  uint32_t recent_empty = recent_empty_.load(std::memory_order_relaxed);
  if (empty) {
    recent_empty += weight;
  }
  // The window: halve both counts when it fills.
  if (recent >= kWindowChecks) {
    recent_checked_.store(recent / 2, std::memory_order_relaxed);
    recent_empty_.store(recent_empty / 2, std::memory_order_relaxed);
  } else {
    recent_checked_.store(recent, std::memory_order_relaxed);
    recent_empty_.store(recent_empty, std::memory_order_relaxed);
  }
}

bool CraftCheckPolicy::ChecksEverySeek() const {
  const uint32_t checked = recent_checked_.load(std::memory_order_relaxed);
  return checked < kWarmupChecks ||
         100 * static_cast<uint64_t>(
                   recent_empty_.load(std::memory_order_relaxed)) >=
             kMinEmptyPercent * static_cast<uint64_t>(checked);
}

uint32_t CraftCheckPolicy::ShouldCheck(double expected_keys) const {
  if (expected_keys >= kMaxExpectedKeysToCheck) {
    // Counted as a seek the filter would not have helped, so that the
    // recent share, which also decides whether L0 files open lazily
    // (craft_level_check.h), reflects this table's seeks and not just the
    // ones it checked.
    NoteRecentOutcome(/*empty=*/false, 1);
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
