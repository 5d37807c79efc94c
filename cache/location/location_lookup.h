// Lodestone: the location cache on the point-lookup path.
//
// Version::Get builds a LocationCacheLookup once the memtables missed:
// TryServe() answers from a remembered (file, data block, entry); otherwise
// the full search runs, the table reader reports the deciding entry into
// the lookup's LocationCacheFoundEntry (location_found_entry.h), and
// OnFound() remembers where it was. Version::MultiGet leaves both to
// LocationCacheMultiGet (location_multiget.h), which asks TryServe() per key
// and uses the Remember* calls below.
//
// Only a lookup within a LocationCacheReadScope (location_read_scope.h),
// reading the latest state, may remember a location: an older snapshot may
// find a version that is not the newest, and a read that ignores range
// deletions may find one they cover.

#pragma once

#include <atomic>
#include <cstdint>

#include "cache/location/location_descriptor.h"
#include "cache/location/location_found_entry.h"
#include "db/dbformat.h"
#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class BlockBasedTable;
class BlockHandle;
class DataBlockIter;
class GetContext;
class Logger;
class SystemClock;
class InternalKeyComparator;
class LocationCache;
class LocationCacheBinding;
class LocationCacheReadScope;
class LookupKey;
class MergeContext;
class MutableCFOptions;
class ReadCallback;
class Statistics;
class TableCache;
class VersionStorageInfo;
struct FileMetaData;
struct FileOptions;
struct ReadOptions;

// What a lookup needs from its Version (Version::ForLocationCache()).
struct LocationCacheVersion {
  const VersionStorageInfo* vstorage;
  TableCache* table_cache;
  const FileOptions* file_options;
  const MutableCFOptions* mutable_cf_options;
  const InternalKeyComparator* icmp;
  Statistics* stats;
  uint32_t cf_id;
  uint64_t version_number;       // Version::GetVersionNumber()
  Logger* logger = nullptr;      // MultiGet population only
  SystemClock* clock = nullptr;  // ditto
};

class LocationCacheLookup {
 public:
  // `scope`: the read call's, or null (the lookup may then answer but not
  // remember). `get_context`: the key's, which the table reader reports
  // into while this lookup lives; null when the lookup only remembers
  // (MultiGet population). Inline so that a DB without a location cache
  // pays one null check per lookup (the same for every member below).
  LocationCacheLookup(LocationCache* cache, const LocationCacheVersion& version,
                      const ReadOptions& read_options, const LookupKey& key,
                      const LocationCacheReadScope* scope,
                      GetContext* get_context)
      : version_(version), read_options_(read_options), key_(key) {
    if (cache != nullptr) {
      Init(cache, scope, get_context);
    }
  }
  ~LocationCacheLookup() {
    if (listening_) {
      StopListening();
    }
  }

  LocationCacheLookup(const LocationCacheLookup&) = delete;
  LocationCacheLookup& operator=(const LocationCacheLookup&) = delete;

  // Before the table search. True when the lookup was answered (the value
  // is in the GetContext, whose state is kFound); false to search as usual.
  bool TryServe(const MergeContext& merge_context,
                SequenceNumber max_covering_tombstone_seq,
                ReadCallback* callback, bool do_merge) {
    return binding_ != nullptr &&
           TryServeActive(merge_context, max_covering_tombstone_seq, callback,
                          do_merge);
  }

  // The table search found the key in `file` (state kFound).
  void OnFound(const FileMetaData& file, const MergeContext& merge_context,
               bool is_blob_index) {
    if (may_remember_) {
      Remember(file, merge_context, is_blob_index);
    }
  }

  // MultiGet population, for a key the batch found in `file` with a plain
  // value: reads the slot (TryServe's job on the Get path) and remembers
  // `entry`, the one the batch's table lookup reported.
  void RememberEntry(const FileMetaData& file,
                     const LocationCacheFoundEntry& entry);

  // Ditto for a key whose entry was not reported (another table path):
  // looks the key up again in `file`, whose blocks the batch just read, to
  // learn the entry's location.
  void RememberBySearching(const FileMetaData& file);

  // Whether a read may remember locations in `binding`'s cache: within a
  // scope of that cache, reading the latest state (no explicit snapshot,
  // range deletions applied), without user-defined timestamps.
  static bool MayRemember(const LocationCacheBinding* binding,
                          const LocationCacheReadScope* scope,
                          const ReadOptions& read_options,
                          const LocationCacheVersion& version);

 private:
  enum class Outcome { kHit, kMiss, kStale, kFalseHit };
  void Init(LocationCache* cache, const LocationCacheReadScope* scope,
            GetContext* get_context);
  void StopListening();
  bool TryServeActive(const MergeContext& merge_context,
                      SequenceNumber max_covering_tombstone_seq,
                      ReadCallback* callback, bool do_merge);
  void Remember(const FileMetaData& file, const MergeContext& merge_context,
                bool is_blob_index);
  // Reads the key's slot into slot_/observed_.
  void LoadSlot();
  Outcome Serve(const LocationDescriptor& loc);
  // Points `biter` at the data block `handle` names in `table`: cached, or
  // read when the read's options allow. False when it cannot be had.
  bool PositionInBlock(BlockBasedTable* table, const BlockHandle& handle,
                       DataBlockIter* biter) const;
  // The descriptor tag this key's entry at `value_offset` carries
  // (location_descriptor.h).
  uint32_t TagFor(uint32_t value_offset) const {
    return fingerprinted_ ? fingerprint_ & LocationDescriptor::kTagMask
                          : value_offset & LocationDescriptor::kTagMask;
  }

  LocationCacheBinding* binding_ = nullptr;  // nullptr: inactive
  const LocationCacheVersion& version_;
  const ReadOptions& read_options_;
  const LookupKey& key_;
  const LocationCacheReadScope* scope_ = nullptr;  // of the same cache
  bool may_remember_ = false;
  uint64_t epoch_ = 0;  // the scope's
  LocationSlot* slot_ = nullptr;
  uint32_t fingerprint_ = 0;    // of the key, from its slot hash
  bool fingerprinted_ = false;  // bytewise comparator: tags are fingerprint
                                // bits
  LocationSlotWords observed_;
  GetContext* get_context_ = nullptr;
  LocationCacheFoundEntry found_;
  bool listening_ = false;  // get_context_->location_found() is &found_
};

}  // namespace ROCKSDB_NAMESPACE
