// Tombstone-aware compaction candidates: the VersionStorageInfo hook that
// patch 0006 declares together with the per-file tombstone fields, so that
// the picker (issue: tombstone-aware compaction) will not touch
// version_set.h again. Until the picker lands, no caller asks for
// candidates and the list stays empty.

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

void VersionStorageInfo::ComputeTombstoneCompactionCandidates(
    const ImmutableOptions& /*ioptions*/,
    const MutableCFOptions& /*mutable_cf_options*/) {
  tombstone_compaction_candidates_.clear();
  next_tombstone_deadline_ = 0;
}

}  // namespace ROCKSDB_NAMESPACE
