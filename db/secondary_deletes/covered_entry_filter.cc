#include "db/secondary_deletes/covered_entry_filter.h"

#include <utility>

#include "db/column_family.h"
#include "db/dbformat.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_set.h"
#include "memory/arena.h"
#include "monitoring/statistics_impl.h"

namespace ROCKSDB_NAMESPACE {

CoveredEntryFilterIterator::CoveredEntryFilterIterator(
    InternalIterator* input, Input ownership, const CoveredEntries& covered,
    Tickers counted_in,
    std::shared_ptr<const LiveSecondaryTombstones> keep_alive,
    std::shared_ptr<const DeleteKeyExtractor> extractor)
    : input_(input),
      ownership_(ownership),
      covered_(covered),
      counted_in_(counted_in),
      keep_alive_(std::move(keep_alive)),
      extractor_(std::move(extractor)) {
  assert(covered_.active());
}

CoveredEntryFilterIterator::CoveredEntryFilterIterator(
    std::unique_ptr<InternalIterator> input,
    const DeleteKeyExtractor* extractor,
    const SecondaryTombstoneSet* tombstones)
    : CoveredEntryFilterIterator(
          input.release(), Input::kOwned,
          CoveredEntries(extractor, tombstones, kMaxSequenceNumber, nullptr),
          SECONDARY_DELETE_ENTRIES_HIDDEN, nullptr, nullptr) {}

CoveredEntryFilterIterator::~CoveredEntryFilterIterator() {
  if (entries_hidden_ > 0) {
    RecordTick(covered_.stats, counted_in_, entries_hidden_);
  }
  switch (ownership_) {
    case Input::kOwned:
      delete input_;
      break;
    case Input::kInArena:
      input_->~InternalIterator();
      break;
    case Input::kBorrowed:
      break;
  }
}

bool CoveredEntryFilterIterator::Covered() {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(input_->key(), &parsed, /*log_err_key=*/false).ok() ||
      (parsed.type != kTypeValue && parsed.type != kTypeValueInitial &&
       parsed.type != kTypeMerge)) {
    return false;  // Corrupt keys are the reader's to report.
  }
  // A compaction's input has every value at hand and refuses the call.
  if (ownership_ != Input::kBorrowed && !input_->PrepareValue()) {
    return false;  // Invalid now, with the error as status.
  }
  return covered_.Covers(parsed, input_->value());
}

void CoveredEntryFilterIterator::SkipCoveredForward() {
  while (input_->Valid() && Covered()) {
    ++entries_hidden_;
    input_->Next();
  }
}

void CoveredEntryFilterIterator::SkipCoveredBackward() {
  while (input_->Valid() && Covered()) {
    ++entries_hidden_;
    input_->Prev();
  }
}

void CoveredEntryFilterIterator::SeekToFirst() {
  input_->SeekToFirst();
  SkipCoveredForward();
}

void CoveredEntryFilterIterator::SeekToLast() {
  input_->SeekToLast();
  SkipCoveredBackward();
}

void CoveredEntryFilterIterator::Seek(const Slice& target) {
  input_->Seek(target);
  SkipCoveredForward();
}

void CoveredEntryFilterIterator::SeekForPrev(const Slice& target) {
  input_->SeekForPrev(target);
  SkipCoveredBackward();
}

void CoveredEntryFilterIterator::Next() {
  input_->Next();
  SkipCoveredForward();
}

void CoveredEntryFilterIterator::Prev() {
  input_->Prev();
  SkipCoveredBackward();
}

InternalIterator* HideCoveredEntries(InternalIterator* input,
                                     const SuperVersion& sv,
                                     SequenceNumber read_seq, Arena* arena) {
  const std::shared_ptr<const LiveSecondaryTombstones>& live =
      sv.current->storage_info()->secondary_tombstones();
  const CoveredEntries covered(*sv.current->storage_info(),
                               sv.mutable_cf_options, read_seq,
                               sv.cfd->ioptions()->stats);
  if (!covered.active()) {
    return input;
  }
  using Input = CoveredEntryFilterIterator::Input;
  const std::shared_ptr<const DeleteKeyExtractor>& extractor =
      sv.mutable_cf_options.delete_key_extractor;
  if (arena == nullptr) {
    return new CoveredEntryFilterIterator(input, Input::kOwned, covered,
                                          SECONDARY_DELETE_ENTRIES_HIDDEN, live,
                                          extractor);
  }
  void* mem = arena->AllocateAligned(sizeof(CoveredEntryFilterIterator));
  return new (mem) CoveredEntryFilterIterator(input, Input::kInArena, covered,
                                              SECONDARY_DELETE_ENTRIES_HIDDEN,
                                              live, extractor);
}

}  // namespace ROCKSDB_NAMESPACE
