// Lodestone: the location cache on the point-lookup path.
//
// DBImpl::GetImpl opens a LocationCacheReadScope before it acquires its
// SuperVersion. Version::Get and Version::MultiGet build a LocationCacheGet
// per key once the memtables missed: TryServe() answers from a remembered
// (file, data block, entry); otherwise the full search runs, and OnFound()
// remembers where it found the key.
//
// Why the epoch is read before the SuperVersion: a reader whose snapshot
// predates a write of key k may miss k in the memtable, find an older
// version in a table, and remember that location after the flush of k
// already cleared k's slot. Every flush bumps the owner's epoch before it
// clears slots, and the reader only keeps a population made under the epoch
// it saw before taking its SuperVersion. A reader that saw the bumped epoch
// took its SuperVersion and sequence number after the flushed memtable was
// sealed, so it finds k in that memtable or in the new table: it never
// reaches the older location.

#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "cache/location/location_descriptor.h"
#include "db/dbformat.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class GetContext;
class Logger;
class SystemClock;
struct KeyContext;
class InternalKeyComparator;
class LocationCache;
class LocationCacheBinding;
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

class LocationCacheReadScope {
 public:
  // Also starts loading the key's slot, whose memory miss then overlaps the
  // memtable lookups. Inline so that a DB without a location cache pays one
  // null check per read (the same for every member below).
  LocationCacheReadScope(LocationCache* cache, uint32_t cf_id,
                         const Slice& user_key) {
    if (cache != nullptr) {
      Open(cache, cf_id, user_key);
    }
  }
  // MultiGet: no prefetch.
  explicit LocationCacheReadScope(LocationCache* cache) {
    if (cache != nullptr) {
      Open(cache);
    }
  }
  ~LocationCacheReadScope() {
    if (binding_ != nullptr) {
      Close();
    }
  }

  LocationCacheReadScope(const LocationCacheReadScope&) = delete;
  LocationCacheReadScope& operator=(const LocationCacheReadScope&) = delete;

  LocationCacheBinding* binding() const { return binding_; }
  uint64_t epoch() const { return epoch_; }

  // The slot and fingerprint the prefetching constructor computed, if it
  // was for this (column family, user key): saves hashing the key twice.
  std::atomic<uint64_t>* SlotFor(uint32_t cf_id, const Slice& user_key,
                                 uint32_t* fingerprint) const {
    if (slot_ == nullptr || cf_id != cf_id_ || user_key != key_) {
      return nullptr;
    }
    *fingerprint = fingerprint_;
    return slot_;
  }

 private:
  void Open(LocationCache* cache);
  void Open(LocationCache* cache, uint32_t cf_id, const Slice& user_key);
  void Close();

  LocationCacheBinding* binding_ = nullptr;
  uint64_t epoch_ = 0;
  const LocationCacheReadScope* outer_ = nullptr;
  std::atomic<uint64_t>* slot_ = nullptr;  // prefetched
  uint32_t fingerprint_ = 0;
  uint32_t cf_id_ = 0;
  Slice key_;  // the caller's, alive for the whole read
};

// BlockBasedTable::Get, when an entry decided the lookup: its data block
// and the offset of its value within the block. Ignored unless a LocationCacheGet listens.
void NoteLocationOfFoundEntry(uint64_t block_offset, uint32_t value_offset);

// What a lookup needs from its Version.
struct LocationCacheVersion {
  const VersionStorageInfo* vstorage;
  TableCache* table_cache;
  const FileOptions* file_options;
  const MutableCFOptions* mutable_cf_options;
  const InternalKeyComparator* icmp;
  Statistics* stats;
  uint32_t cf_id;
  Logger* logger = nullptr;      // MultiGet population only
  SystemClock* clock = nullptr;  // ditto
};

class LocationCacheGet {
 public:
  // `may_populate` is false for MultiGet, whose table path does not report
  // locations.
  LocationCacheGet(LocationCache* cache, const LocationCacheVersion& version,
                   const ReadOptions& read_options, const LookupKey& key,
                   bool may_populate)
      : version_(version), read_options_(read_options), key_(key) {
    if (cache != nullptr) {
      Init(cache, may_populate);
    }
  }
  ~LocationCacheGet() {
    if (listening_) {
      StopListening();
    }
  }

  LocationCacheGet(const LocationCacheGet&) = delete;
  LocationCacheGet& operator=(const LocationCacheGet&) = delete;

  // Before the table search. True when the lookup was answered (the value
  // is in `get_context`, whose state is kFound); false to search as usual.
  bool TryServe(GetContext* get_context, const MergeContext& merge_context,
                SequenceNumber max_covering_tombstone_seq,
                ReadCallback* callback, bool do_merge) {
    return binding_ != nullptr &&
           TryServeActive(get_context, merge_context,
                          max_covering_tombstone_seq, callback, do_merge);
  }

  // The table search found the key in `file` (state kFound).
  void OnFound(const FileMetaData& file, const MergeContext& merge_context,
               bool is_blob_index) {
    if (may_populate_) {
      Remember(file, merge_context, is_blob_index);
    }
  }

  // MultiGet population: reads the slot (TryServe's job on the Get path)
  // and looks the key up again in `file`, the table that answered it in the
  // batch, to learn the entry's location.
  void PopulateFrom(const FileMetaData& file);

  // Set by NoteLocationOfFoundEntry.
  struct FoundEntry {
    uint64_t block_offset = 0;
    uint32_t value_offset = 0;
    bool valid = false;
  };

  // MultiGet population where the batch's table lookup reported the entry
  // that answered the key (NoteLocationOfMultiGetEntry): no second lookup.
  void PopulateAt(const FileMetaData& file, const FoundEntry& entry);

 private:
  enum class Outcome { kHit, kMiss, kStale, kFalseHit };
  void Init(LocationCache* cache, bool may_populate);
  void StopListening();
  bool TryServeActive(GetContext* get_context,
                      const MergeContext& merge_context,
                      SequenceNumber max_covering_tombstone_seq,
                      ReadCallback* callback, bool do_merge);
  void Remember(const FileMetaData& file, const MergeContext& merge_context,
                bool is_blob_index);
  Outcome Serve(GetContext* get_context, uint64_t descriptor);
  // The descriptor tag this key's entry at `value_offset` carries
  // (location_descriptor.h).
  uint32_t TagFor(uint32_t value_offset) const {
    return fingerprinted_ ? fingerprint_
                          : value_offset & LocationDescriptor::kTagMask;
  }

  LocationCacheBinding* binding_ = nullptr;  // nullptr: inactive
  const LocationCacheVersion& version_;
  const ReadOptions& read_options_;
  const LookupKey& key_;
  bool may_populate_ = false;
  uint64_t epoch_ = 0;
  std::atomic<uint64_t>* slot_ = nullptr;
  uint32_t fingerprint_ = 0;    // of the key, from its slot hash
  bool fingerprinted_ = false;  // bytewise comparator: tags are fingerprints
  uint64_t observed_ = 0;
  FoundEntry found_;
  bool listening_ = false;  // found_ is this thread's sink
  FoundEntry* outer_sink_ = nullptr;
  const LocationCacheReadScope* scope_ = nullptr;  // of this thread's read
};

// Version::MultiGet: notes which table answered each key of the batch
// (MultiGetFromSST calls NoteLocationCacheMultiGetFound) and the entry that
// did (BlockBasedTable::MultiGet calls NoteLocationOfMultiGetEntry), and,
// once the batch is done, remembers those keys' locations. A key whose
// entry was not reported (another table path) is looked up once more in its
// table, whose blocks the batch just read.
class LocationCacheMultiGetPopulator {
 public:
  LocationCacheMultiGetPopulator(LocationCache* cache,
                                 const LocationCacheVersion& version,
                                 const ReadOptions& read_options);
  ~LocationCacheMultiGetPopulator();

  LocationCacheMultiGetPopulator(const LocationCacheMultiGetPopulator&) =
      delete;
  LocationCacheMultiGetPopulator& operator=(
      const LocationCacheMultiGetPopulator&) = delete;

  void Note(const KeyContext* key, const FileMetaData* file);
  void NoteEntry(const KeyContext* key, uint64_t block_offset,
                 uint32_t value_offset);
  void Populate();

 private:
  LocationCache* const cache_;
  const LocationCacheVersion& version_;
  const ReadOptions& read_options_;
  bool active_ = false;
  LocationCacheMultiGetPopulator* outer_ = nullptr;
  std::vector<std::pair<const KeyContext*, const FileMetaData*>> found_;
  std::vector<std::pair<const KeyContext*, LocationCacheGet::FoundEntry>>
      entries_;
};

void NoteLocationCacheMultiGetFound(const KeyContext* key,
                                    const FileMetaData* file);

// BlockBasedTable::MultiGet, when an entry decided `key`'s lookup: its data
// block and the offset of its value within the block.
void NoteLocationOfMultiGetEntry(const KeyContext* key, uint64_t block_offset,
                                 uint32_t value_offset);

}  // namespace ROCKSDB_NAMESPACE
