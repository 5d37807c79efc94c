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
// Two windows, because two decisions read them. The checks window holds
// the outcomes of checks alone and decides the sampling: a scan over a
// range expected to hold keys says nothing about whether the next range
// expected empty is, and a table read by wide scans and by empty probes
// in turn (a store's scans of populated regions, then queries of the empty
// regions between them) would otherwise sample its probes out. The seeks
// window also counts each seek not asked for its expected keys as one the
// filter would not have helped, and decides whether L0 files open lazily
// (craft_level_check.h), which pays only where most of a file's seeks,
// not just its checks, come out empty.
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
  // outcome in the windows (1, or 8 for a sampled check), for CountCheck.
  uint32_t ShouldCheck(double expected_keys) const;
  // Whether this table's recent checks came out empty often enough that
  // every seek expecting no key asks (ShouldCheck's second test).
  bool ChecksEverySeek() const { return checks_.OftenEmpty(); }
  // Whether this table's recent bounded seeks, the ones not asked for their
  // expected keys included, came out empty often enough that L0 files
  // should open lazily (craft_level_check.h).
  bool SeeksOftenEmpty() const { return seeks_.OftenEmpty(); }

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
  // A decaying count of recent outcomes: both counts halve when it fills.
  class Window {
   public:
    // Adds `weight` seeks' outcome.
    void Note(bool empty, uint32_t weight) const;
    // In the warm-up, or empty at least kMinEmptyPercent of the time.
    bool OftenEmpty() const;

   private:
    mutable std::atomic<uint32_t> seen_{0};
    mutable std::atomic<uint32_t> empty_{0};
  };

  mutable std::atomic<uint64_t> checked_{0};
  mutable std::atomic<uint64_t> empty_{0};
  mutable std::atomic<uint64_t> false_positive_{0};
  mutable std::atomic<uint32_t> skipped_{0};
  Window checks_;
  Window seeks_;
};

}  // namespace ROCKSDB_NAMESPACE
