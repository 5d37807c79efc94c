#include "db/secondary_deletes/covered_entries.h"

#include <algorithm>

#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "options/cf_options.h"
#include "rocksdb/delete_key_extractor.h"

namespace ROCKSDB_NAMESPACE {

CoveredEntries::CoveredEntries(const VersionStorageInfo& vstorage,
                               const MutableCFOptions& mutable_cf_options,
                               SequenceNumber read, Statistics* statistics)
    : extractor(nullptr),
      tombstones(nullptr),
      read_seq(read),
      stats(statistics) {
  const LiveSecondaryTombstones* live = vstorage.secondary_tombstones().get();
  // A version with live tombstones opened only with their extractor
  // (CheckSecondaryTombstoneExtractors), which options cannot change.
  if (live != nullptr && !live->empty() &&
      mutable_cf_options.delete_key_extractor != nullptr) {
    extractor = mutable_cf_options.delete_key_extractor.get();
    tombstones = &live->set();
  }
}

SequenceNumber CoveredEntries::ReadSeqFor(SequenceNumber entry_seq) const {
  if (snapshots == nullptr) {
    return read_seq;
  }
  auto at_or_above =
      std::lower_bound(snapshots->begin(), snapshots->end(), entry_seq);
  return at_or_above == snapshots->end() ? kMaxSequenceNumber : *at_or_above;
}

bool CoveredEntries::Covers(const ParsedInternalKey& key,
                            const Slice& value) const {
  if (tombstones == nullptr ||
      (key.type != kTypeValue && key.type != kTypeValueInitial &&
       key.type != kTypeMerge)) {
    return false;
  }
  Slice delete_key;
  return extractor->Extract(key.user_key, value, &delete_key) &&
         tombstones->Covers(delete_key, key.sequence, ReadSeqFor(key.sequence));
}

bool CoveredEntries::Hides(const ParsedInternalKey& key,
                           const Slice& value) const {
  if (!Covers(key, value)) {
    return false;
  }
  RecordTick(stats, SECONDARY_DELETE_ENTRIES_HIDDEN);
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
