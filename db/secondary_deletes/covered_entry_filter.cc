#include "db/secondary_deletes/covered_entry_filter.h"

#include <utility>

#include "db/dbformat.h"

namespace ROCKSDB_NAMESPACE {

CoveredEntryFilterIterator::CoveredEntryFilterIterator(
    std::unique_ptr<InternalIterator> input,
    const DeleteKeyExtractor* extractor,
    const SecondaryTombstoneSet* tombstones)
    : input_(std::move(input)),
      extractor_(extractor),
      tombstones_(tombstones) {}

bool CoveredEntryFilterIterator::Covered() {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(input_->key(), &parsed, /*log_err_key=*/false).ok() ||
      (parsed.type != kTypeValue && parsed.type != kTypeValueInitial)) {
    return false;  // Corrupt keys are the reader's to report.
  }
  if (!input_->PrepareValue()) {
    return false;  // Invalid now, with the error as status.
  }
  Slice delete_key;
  return extractor_->Extract(parsed.user_key, input_->value(), &delete_key) &&
         tombstones_->Covers(delete_key, parsed.sequence);
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

}  // namespace ROCKSDB_NAMESPACE
