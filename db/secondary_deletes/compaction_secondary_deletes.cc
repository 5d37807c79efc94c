#include "db/secondary_deletes/compaction_secondary_deletes.h"

#include <algorithm>

#include "db/compaction/compaction.h"
#include "db/secondary_deletes/covered_entry_filter.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_set.h"
#include "test_util/lodestone/planted_bugs.h"

namespace ROCKSDB_NAMESPACE {

namespace {

const LiveSecondaryTombstones* LiveOf(const Compaction& compaction) {
  const Version* input_version = compaction.input_version();
  return input_version == nullptr
             ? nullptr
             : input_version->storage_info()->secondary_tombstones().get();
}

}  // namespace

CoveredEntries CompactionCoveredEntries(
    const Compaction& compaction,
    const std::vector<SequenceNumber>& snapshots) {
  const Version* input_version = compaction.input_version();
  Statistics* stats = compaction.immutable_options()->stats;
  if (input_version == nullptr) {
    return CoveredEntries(nullptr, nullptr, kMaxSequenceNumber, stats);
  }
  CoveredEntries covered(*input_version->storage_info(),
                         *compaction.mutable_cf_options(), kMaxSequenceNumber,
                         stats);
  covered.set_snapshots(&snapshots);
  return covered;
}

InternalIterator* DropCoveredEntries(const CoveredEntries& covered,
                                     InternalIterator* input,
                                     std::unique_ptr<InternalIterator>* owner) {
  if (!covered.active()) {
    return input;
  }
  // The compaction holds its input version, and the version its options:
  // nothing to keep alive here.
  owner->reset(new CoveredEntryFilterIterator(
      input, CoveredEntryFilterIterator::Input::kBorrowed, covered,
      SECONDARY_DELETE_ENTRIES_DROPPED, nullptr, nullptr));
  return owner->get();
}

uint64_t CoveredEntriesDropped(const InternalIterator* dropper) {
  return dropper == nullptr
             ? 0
             : static_cast<const CoveredEntryFilterIterator*>(dropper)
                   ->entries_hidden();
}

SequenceNumber SecondaryTombstoneSeqnoFloor(const Compaction& compaction) {
  const LiveSecondaryTombstones* live = LiveOf(compaction);
  if (live == nullptr ||
      PlantedBugActive(PlantedBug::kSecondaryDeleteZeroesNewerPuts)) {
    return kMaxSequenceNumber;
  }
  return live->oldest_seq();
}

void MarkSecondaryTombstonesApplied(
    const Compaction& compaction, const std::vector<SequenceNumber>& snapshots,
    FileMetaData* output) {
  const LiveSecondaryTombstones* live = LiveOf(compaction);
  if (live == nullptr) {
    return;
  }
  // The mark stands for every tombstone at or below it. A live tombstone
  // above the oldest snapshot may have left an entry it covers in this
  // output, kept for that snapshot: the mark stays below the first such
  // tombstone (a later compaction, once the snapshot is released, drops the
  // entry and marks its output higher). Every tombstone below it, live or
  // retired, covers nothing here: marking none at all would let a retired
  // one look as if it might, and live again when the MANIFEST is replayed.
  SequenceNumber mark = live->watermark();
  if (!snapshots.empty()) {
    for (const SecondaryRangeTombstone& t : live->tombstones()) {
      if (t.seq > snapshots.front()) {
        mark = std::min(mark, t.seq - 1);
        break;
      }
    }
  }
  output->secondary_tombstones_applied = mark;
}

}  // namespace ROCKSDB_NAMESPACE
