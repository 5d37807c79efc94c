// Scan-time conversion of point-tombstone runs into a range tombstone
// (column family option min_tombstones_for_range_conversion).
//
// A DBIter merges every memtable and level at its read sequence number, so
// it is the one place that can prove a run of point tombstones has no live
// key between them. When a run of at least `threshold` tombstones ends, the
// tracker hands [first, end) to the DB, which inserts a range tombstone at
// the iterator's read sequence into the mutable memtable (see
// tombstone_run_conversion.cc for the guards that make that safe). The
// tombstone is logically redundant: every key it covers was already deleted
// at that sequence number, so no read at any sequence changes.
//
// One run never spans two DBIter calls: a forward step starts on a live key
// (or a seek target) and ends on the next live key or the end of the range,
// and so does a backward step. The tracker is therefore reset at the start
// of every step and needs no invalidation on seeks or direction changes.
//
// A run pays for its conversion only through the entries it holds below the
// mutable memtable (tombstones and the versions they hide in immutable
// memtables and files): MergingIterator seeks those levels past a range
// tombstone's end, but steps over the covered entries of the tombstone's own
// level one by one, so a run that lives in the mutable memtable alone would
// be stepped over as before, plus the cost of the insertion. The tracker
// therefore counts, per run, the entries it examined below the mutable
// memtable, by sequence number: every entry of the mutable memtable that
// the iterator can see is at or above the smallest sequence number the
// memtable held when the iterator was created (MemTable's first sequence
// number; its "earliest" one is 0 in the memtable a DB opens with, until
// the first switch, so it cannot serve). Backward steps do not see the
// hidden versions' sequence numbers and count every tombstone as below;
// entries a DBIter reseek jumps over are not counted.
//
// A run whose tombstones delete initial puts (WriteBatch::PutInitial) is
// left to early pruning: the first flush or compaction that holds a
// tombstone and the bottom of its key's chain, an initial put, drops the
// whole chain (db/initial_put), whereas a range tombstone would stay until
// the last level and make every reader and compaction on its way handle
// it. A tombstone counts as pruned early when the oldest version the
// iterator saw below it is an initial put; a run with fewer than
// `threshold` other tombstones is discarded (kLeftToPruning) unless a
// snapshot could keep those chains (the DB decides, under its mutex:
// tombstone_run_conversion.h). Versions a DBIter reseek jumps over are not
// seen, so such a tombstone counts as one that stays.
//
// The tracker only proves runs; what becomes of one is the DB's business
// (tombstone_run_conversion.h): inserted at once when the write thread is
// free and the run is worth it, handed to the next write group when it is
// busy, so that a reader never waits for a writer, and counted either way.

#pragma once

#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "rocksdb/slice.h"
#include "rocksdb/types.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class Comparator;
class DBImpl;

// Where a DBIter sends the runs it proves: the DB, the column family and the
// SuperVersion the iterator reads. Conversions are refused unless that
// SuperVersion is still the column family's current one.
struct TombstoneRunTarget {
  DBImpl* db = nullptr;
  ColumnFamilyData* cfd = nullptr;
  const Comparator* user_comparator = nullptr;
  uint64_t super_version_number = 0;
  // The smallest sequence number in that SuperVersion's mutable memtable
  // when the iterator was created; 0 if it was empty, when every entry the
  // iterator sees is below it (later writes are above the read sequence).
  SequenceNumber memtable_first_seq = 0;
};

class TombstoneRunTracker {
 public:
  // A positive threshold; the DBIter allocates a tracker only where its
  // reads allow conversion.
  void Enable(uint32_t threshold, const TombstoneRunTarget& target) {
    threshold_ = threshold;
    target_ = target;
  }

  // Forward steps.
  void BeginForward() {
    count_ = 0;
    oldest_is_initial_ = false;  // A step that ended early left it set.
  }
  void OnForwardTombstone(const Slice& user_key, SequenceNumber seq) {
    if (count_++ == 0) {
      start_.assign(user_key.data(), user_key.size());
      below_memtable_ = 0;
      pruned_early_ = 0;
    } else {
      EndTombstone();
    }
    below_memtable_ += BelowMemtable(seq) ? 1 : 0;
  }
  // An older version of the key last seen, hidden by it (versions come
  // newest first): counted only inside a run (a live key's own older
  // versions come before it).
  void OnForwardHiddenVersion(SequenceNumber seq, ValueType type) {
    if (count_ > 0) {
      below_memtable_ += BelowMemtable(seq) ? 1 : 0;
      oldest_is_initial_ = type == kTypeValueInitial;
    }
  }
  // A live key ends the run: [first tombstone, live key) holds no live key.
  void OnForwardLiveKey(const Slice& live_key, SequenceNumber seq) {
    EndForwardRun(live_key, seq);
  }
  // The range ended (bound, end of data). Nothing past `last_examined` was
  // looked at, so it is the exclusive end: every key below it was seen.
  void EndForward(const Slice& last_examined, SequenceNumber seq) {
    EndForwardRun(last_examined, seq);
  }

  // Backward steps. The run's first (largest) tombstone is its exclusive
  // end: remembering the live key above it would cost a key copy on every
  // Prev(), and a converted run is then skipped in one step anyway.
  void BeginBackward() { count_ = 0; }
  void OnBackwardTombstone(const Slice& user_key) {
    if (count_++ == 0) {
      end_.assign(user_key.data(), user_key.size());
    } else {
      start_.assign(user_key.data(), user_key.size());
    }
  }
  // A live key below the run, a bound or the start of data: every key in
  // [last tombstone, first tombstone) was examined.
  void EndBackward(SequenceNumber seq) {
    if (count_ >= threshold_ && count_ > 1) {
      Convert(start_, end_, seq, /*entries_below_memtable=*/count_,
              /*pruned_early=*/0);
    }
    count_ = 0;
  }

 private:
  // The last tombstone's versions are all seen.
  void EndTombstone() {
    pruned_early_ += oldest_is_initial_ ? 1 : 0;
    oldest_is_initial_ = false;
  }
  void EndForwardRun(const Slice& end, SequenceNumber seq) {
    if (count_ > 0) {
      EndTombstone();
    }
    if (count_ >= threshold_) {
      Convert(start_, end, seq, below_memtable_, pruned_early_);
    }
    count_ = 0;
  }

  bool BelowMemtable(SequenceNumber seq) const {
    return target_.memtable_first_seq == 0 || seq < target_.memtable_first_seq;
  }

  // Hands [start, end), whose run held `entries_below_memtable` entries
  // below the mutable memtable, to TombstoneRunInserter
  // (tombstone_run_conversion.h), unless early pruning removes all but
  // fewer than threshold_ of its tombstones.
  void Convert(const Slice& start, const Slice& end, SequenceNumber seq,
               uint64_t entries_below_memtable, uint32_t pruned_early);

  uint32_t threshold_ = 0;
  uint32_t count_ = 0;              // Tombstones in the current run.
  uint64_t below_memtable_ = 0;     // Its entries below the mutable memtable.
  uint32_t pruned_early_ = 0;       // Its tombstones over initial-put chains.
  bool oldest_is_initial_ = false;  // The current tombstone's, so far.
  TombstoneRunTarget target_;
  std::string start_;
  std::string end_;
};

}  // namespace ROCKSDB_NAMESPACE
