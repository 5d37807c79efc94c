// Tombstone-aware compaction candidates (VersionStorageInfo hook declared in
// patches/0006).

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

void VersionStorageInfo::ComputeTombstoneCompactionCandidates(
    const ImmutableOptions& /*ioptions*/,
    const MutableCFOptions& /*mutable_cf_options*/) {
  tombstone_compaction_candidates_.clear();
  next_tombstone_deadline_ = 0;
}

}  // namespace ROCKSDB_NAMESPACE
