#include "db/secondary_deletes/compaction_secondary_deletes.h"

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

InternalIterator* DropCoveredEntries(const Compaction& compaction,
                                     InternalIterator* input,
                                     std::unique_ptr<InternalIterator>* owner) {
  const Version* input_version = compaction.input_version();
  if (input_version == nullptr) {
    return input;
  }
  const CoveredEntries covered(*input_version->storage_info(),
                               *compaction.mutable_cf_options(),
                               compaction.immutable_options()->stats);
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

void MarkSecondaryTombstonesApplied(const Compaction& compaction,
                                    FileMetaData* output) {
  const LiveSecondaryTombstones* live = LiveOf(compaction);
  if (live != nullptr) {
    output->secondary_tombstones_applied = live->watermark();
  }
}

}  // namespace ROCKSDB_NAMESPACE
