#include "cache/location/location_range_tombstones.h"

#include <memory>
#include <vector>

#include "cache/location/location_lookup.h"
#include "db/range_tombstone_fragmenter.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "rocksdb/comparator.h"
#include "table/table_reader.h"
#include "test_util/lodestone/planted_bugs.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// The files of one Version that hold range tombstones, or may: a file whose
// table reader is not open cannot say without I/O.
struct TombstoneFiles {
  uint64_t binding_instance = 0;  // 0: empty (instance ids start at 1)
  uint64_t version_number = 0;
  std::vector<const FileMetaData*> files;
};

// Direct-mapped by Version number: a reading thread moves between a few
// live Versions (column families, a Version being replaced).
constexpr size_t kMemoEntries = 4;
thread_local TombstoneFiles tls_memo[kMemoEntries];

// Runs `fn(reader)` with `file`'s table reader if it is open (held by the
// file, or in the table cache); returns false, without calling, otherwise.
template <typename Fn>
bool WithOpenReader(const LocationCacheVersion& version,
                    const ReadOptions& read_options, const FileMetaData& file,
                    Fn&& fn) {
  TableReader* reader = file.fd.table_reader;
  TableCache::TypedHandle* handle = nullptr;
  if (reader == nullptr) {
    Status s = version.table_cache->FindTable(
        read_options, *version.file_options, *version.icmp, file, &handle,
        *version.mutable_cf_options, /*no_io=*/true);
    if (!s.ok()) {
      return false;
    }
    reader = version.table_cache->get_cache().Value(handle);
  }
  fn(reader);
  if (handle != nullptr) {
    version.table_cache->get_cache().Release(handle);
  }
  return true;
}

const std::vector<const FileMetaData*>& FilesWithTombstones(
    const LocationCacheVersion& version, uint64_t binding_instance,
    const ReadOptions& read_options) {
  TombstoneFiles& memo = tls_memo[version.version_number % kMemoEntries];
  if (memo.binding_instance == binding_instance &&
      memo.version_number == version.version_number) {
    return memo.files;
  }
  memo.binding_instance = 0;  // Not trusted until filled.
  memo.files.clear();
  const VersionStorageInfo& vstorage = *version.vstorage;
  for (int level = 0; level < vstorage.num_non_empty_levels(); ++level) {
    for (const FileMetaData* file : vstorage.LevelFiles(level)) {
      bool has_tombstones = true;  // Unless its open reader says otherwise.
      WithOpenReader(version, read_options, *file, [&](TableReader* reader) {
        const std::shared_ptr<const TableProperties> props =
            reader->GetTableProperties();
        has_tombstones = props == nullptr || props->num_range_deletions > 0;
      });
      if (has_tombstones) {
        memo.files.push_back(file);
      }
    }
  }
  memo.version_number = version.version_number;
  memo.binding_instance = binding_instance;
  return memo.files;
}

}  // namespace

bool NewerRangeTombstoneMayCover(const LocationCacheVersion& version,
                                 uint64_t binding_instance,
                                 const ReadOptions& read_options,
                                 const Slice& user_key,
                                 SequenceNumber entry_sequence) {
  if (PlantedBugActive(PlantedBug::kLocationCacheIgnoreRangeTombstones)) {
    return false;
  }
  const Comparator* ucmp = version.icmp->user_comparator();
  for (const FileMetaData* file :
       FilesWithTombstones(version, binding_instance, read_options)) {
    // Nothing in the file is newer than the entry, or the key is outside
    // every tombstone the file holds (a file's bounds include its
    // tombstones' ends, exclusive ends included: a conservative test).
    if (file->fd.largest_seqno <= entry_sequence ||
        ucmp->Compare(user_key, file->smallest.user_key()) < 0 ||
        ucmp->Compare(user_key, file->largest.user_key()) > 0) {
      continue;
    }
    bool covers = true;  // Unless its open reader says otherwise.
    WithOpenReader(version, read_options, *file, [&](TableReader* reader) {
      std::unique_ptr<FragmentedRangeTombstoneIterator> tombstones(
          reader->NewRangeTombstoneIterator(read_options));
      covers = tombstones != nullptr && tombstones->MaxCoveringTombstoneSeqnum(
                                            user_key) > entry_sequence;
    });
    if (covers) {
      return true;
    }
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
