// The entry-by-entry half of secondary range deletes (docs/kiwi.md): an
// internal iterator that passes on every entry of its input except those
// that live secondary range tombstones cover (covered_entries.h). Under a
// DBIter it hides them from reads (DBImpl's internal iterators, patch
// 0046); as a compaction's input it drops them (patch 0047). Either way a
// covered entry is as if never written, so the key's next older version
// shows through (when it is not covered as well).
//
// Tables with delete tiles skip whole covered blocks before this filter
// sees them (table/kiwi); tables without tiles go through it alone, which
// is what lets both kinds live in one DB.
//
// The iterator keeps the tombstones and the extractor alive itself: a
// tailing iterator outlives the version it was opened on. One thread at a
// time, like any iterator.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "db/secondary_deletes/covered_entries.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/statistics.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class Arena;
class Compaction;
class LiveSecondaryTombstones;
struct SuperVersion;

class CoveredEntryFilterIterator : public InternalIterator {
 public:
  // What the filter does with its input when destroyed. A borrowed input
  // is a compaction's, whose values are always prepared (PrepareValue is
  // not called on it).
  enum class Input { kOwned, kInArena, kBorrowed };

  // `covered` must be active; `counted_in` is the ticker the entries it
  // skips are added to when the filter is destroyed; `keep_alive` and
  // `extractor` own what `covered` points at (either may be null when the
  // caller keeps them alive). REQUIRES: input's keys are internal keys.
  CoveredEntryFilterIterator(
      InternalIterator* input, Input ownership, const CoveredEntries& covered,
      Tickers counted_in,
      std::shared_ptr<const LiveSecondaryTombstones> keep_alive,
      std::shared_ptr<const DeleteKeyExtractor> extractor);
  // Owns `input`; reads at the latest state and counts nothing (tests).
  CoveredEntryFilterIterator(std::unique_ptr<InternalIterator> input,
                             const DeleteKeyExtractor* extractor,
                             const SecondaryTombstoneSet* tombstones);
  ~CoveredEntryFilterIterator() override;

  CoveredEntryFilterIterator(const CoveredEntryFilterIterator&) = delete;
  CoveredEntryFilterIterator& operator=(const CoveredEntryFilterIterator&) =
      delete;

  bool Valid() const override { return input_->Valid(); }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return input_->key(); }
  Slice value() const override { return input_->value(); }
  Status status() const override { return input_->status(); }
  bool PrepareValue() override { return input_->PrepareValue(); }
  bool MayBeOutOfLowerBound() override {
    return input_->MayBeOutOfLowerBound();
  }
  IterBoundCheck UpperBoundCheckResult() override {
    return input_->UpperBoundCheckResult();
  }
  void SetPinnedItersMgr(PinnedIteratorsManager* pinned_iters_mgr) override {
    input_->SetPinnedItersMgr(pinned_iters_mgr);
  }
  bool IsKeyPinned() const override { return input_->IsKeyPinned(); }
  bool IsValuePinned() const override { return input_->IsValuePinned(); }
  uint64_t write_unix_time() const override {
    return input_->write_unix_time();
  }
  void SetRangeDelReadSeqno(SequenceNumber read_seqno) override {
    input_->SetRangeDelReadSeqno(read_seqno);
  }
  bool IsDeleteRangeSentinelKey() const override {
    return input_->IsDeleteRangeSentinelKey();
  }
  Status GetProperty(std::string prop_name, std::string* prop) override {
    return input_->GetProperty(std::move(prop_name), prop);
  }

  // Entries skipped as covered since construction.
  uint64_t entries_hidden() const { return entries_hidden_; }

 private:
  // Whether the entry the input is at is covered. May load its value; an
  // error doing so leaves the input invalid with the error as its status.
  bool Covered();
  void SkipCoveredForward();
  void SkipCoveredBackward();

  InternalIterator* const input_;
  const Input ownership_;
  const CoveredEntries covered_;
  const Tickers counted_in_;
  const std::shared_ptr<const LiveSecondaryTombstones> keep_alive_;
  const std::shared_ptr<const DeleteKeyExtractor> extractor_;
  uint64_t entries_hidden_ = 0;
};

// DBImpl's internal iterators (patch 0046): `input` under a filter of the
// tombstones of `sv`'s version for reads at `read_seq` (the iterator's
// sequence number), allocated in `arena` (which then owns `input` too) or,
// when null, on the heap owning `input`; or `input` itself when no
// tombstone is live.
InternalIterator* HideCoveredEntries(InternalIterator* input,
                                     const SuperVersion& sv,
                                     SequenceNumber read_seq, Arena* arena);

}  // namespace ROCKSDB_NAMESPACE
