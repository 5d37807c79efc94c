// The entry-by-entry half of secondary range deletes (docs/rfcs/kiwi.md,
// "Dropping"): an internal iterator that passes on every entry of its input
// except the puts that live secondary range tombstones cover. Under a
// DBIter it hides them from reads; as a compaction's input it drops them.
// Either way a covered put is as if never written, so the key's next older
// version shows through, as the design says (an older version of its own
// delete key may be covered too, and is then skipped as well).
//
// What is covered: a put or initial put whose delete key (the column
// family's extractor, on its user key and value) the tombstone set covers
// at its sequence number. Deletes, single deletes, merge operands, blob
// references, wide-column entries and range deletion sentinels always pass:
// dropping a tombstone would bring back what it deleted, dropping an
// operand would change a merge, and a blob reference's value is not at
// hand.
//
// Tables with delete tiles skip whole covered blocks before this filter
// sees them (table/kiwi); tables without tiles go through it alone, which
// is what lets both kinds live in one DB.
//
// The extractor and the tombstone set outlive the iterator, which owns its
// input. One thread at a time, like any iterator.

#pragma once

#include <cstdint>
#include <memory>

#include "db/secondary_deletes/secondary_tombstones.h"
#include "rocksdb/delete_key_extractor.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class CoveredEntryFilterIterator : public InternalIterator {
 public:
  // REQUIRES: input's keys are internal keys.
  CoveredEntryFilterIterator(std::unique_ptr<InternalIterator> input,
                             const DeleteKeyExtractor* extractor,
                             const SecondaryTombstoneSet* tombstones);

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

  // Entries skipped as covered since construction.
  uint64_t entries_hidden() const { return entries_hidden_; }

 private:
  // Whether the entry the input is at is covered. May load its value; an
  // error doing so leaves the input invalid with the error as its status.
  bool Covered();
  void SkipCoveredForward();
  void SkipCoveredBackward();

  std::unique_ptr<InternalIterator> input_;
  const DeleteKeyExtractor* const extractor_;
  const SecondaryTombstoneSet* const tombstones_;
  uint64_t entries_hidden_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
