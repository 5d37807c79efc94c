// When a table's CRaFT (range filter) check pays, and what the checks
// answered: one CraftCheckPolicy per table reader, shared by every reader
// thread of the table.
//
// A check costs about 0.4 of the index and data block work a table it
// proves empty saves, so checking pays only where at least ~40% of the
// checks come out empty. Not asked: a range where the metadata expects a key
// or more (the partition's keys spread evenly over its key range: empty less
// than e^-1 = 37% of the time); and, while this table's recent checks (a
// decaying window of a few hundred) came out empty less often than that,
// seven seeks in eight (the eighth keeps the share current, and counts for
// all eight). Skipping is always safe.
//
// Thread safety: every member may be called concurrently. The counters are
// bumped with a relaxed load and store, not an atomic add: they are
// statistics and a heuristic, every bounded seek touches them, and a locked
// add costs a measurable share of a filtered seek. Concurrent readers may
// lose an increment now and then.

#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class CraftCheckPolicy {
 public:
  // Whether a seek over a range where the metadata expects `expected_keys`
  // keys should ask the filter: 0 (do not ask) or the weight of the check's
  // outcome in the recent window (1, or 8 for a sampled check), for
  // CountCheck.
  uint32_t ShouldCheck(double expected_keys) const;
  // Whether this table's recent checks came out empty often enough that
  // every seek asks (ShouldCheck's first test; also whether L0 files open
  // lazily, craft_level_check.h).
  bool ChecksEverySeek() const;

  // A check's outcome; `weight` as ShouldCheck returned it.
  void CountCheck(bool empty, uint32_t weight) const;
  // A seek the filter let through found nothing in range after all.
  void CountFalsePositive() const;

  // Bounded seeks this table's filter answered since the table was opened,
  // for the rocksdb.lodestone.craft-filter property (sums per level).
  struct SeekCounts {
    uint64_t checked = 0;
    uint64_t empty = 0;
    uint64_t false_positive = 0;
  };
  SeekCounts seek_counts() const;

 private:
  // Adds `weight` seeks' outcome to the recent window.
  void NoteRecentOutcome(bool empty, uint32_t weight) const;

  mutable std::atomic<uint64_t> checked_{0};
  mutable std::atomic<uint64_t> empty_{0};
  mutable std::atomic<uint64_t> false_positive_{0};
  mutable std::atomic<uint32_t> recent_checked_{0};
  mutable std::atomic<uint32_t> recent_empty_{0};
  mutable std::atomic<uint32_t> skipped_{0};
};

}  // namespace ROCKSDB_NAMESPACE
