// Lodestone location cache: range tombstones newer than a remembered entry.
//
// A remembered entry was the newest visible version of its key when it was
// remembered. A flush that writes a newer point version clears the key's
// slot (location_invalidation.h), but the keys a range tombstone covers
// cannot be enumerated. Instead of clearing every slot when a flush writes
// one, a hit asks its reader's own Version whether any table file there
// holds a range tombstone that covers the key with a sequence number above
// the entry's; if so, the hit turns into a miss and the full search, which
// applies the tombstone, answers. Only keys under such tombstones lose
// their hits.
//
// Why the reader's Version is enough: a reader's SuperVersion pairs its
// memtables with its Version. A tombstone still in a memtable reaches the
// lookup as max_covering_tombstone_seq, which sends it down the full path;
// once flushed, it is in a table file of every later Version, until a
// compaction drops it, which it does only together with the entries it
// covers (their files then leave the Version, and their descriptors go
// stale).
//
// Cost: the files of a Version that carry range tombstones are found once
// per Version and reading thread (a small per-thread memo, keyed by the
// DB's cache binding, unique in the process, and the Version's number,
// unique in the DB);
// a hit then tests each such file's largest sequence number and key range,
// and only a file that passes both is asked for its tombstones. A Version
// without range tombstones costs a hit one empty-list check.

#pragma once

#include <cstdint>

#include "db/dbformat.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct LocationCacheVersion;
struct ReadOptions;

// Whether a range tombstone in `version`, with a sequence number above
// `entry_sequence`, may cover `user_key`. True also when a file that may
// hold one cannot tell without I/O (its table reader is not open): a miss
// is always safe. `binding_instance`: the DB's cache binding's
// instance_id() (with version.version_number, the memo's key).
bool NewerRangeTombstoneMayCover(const LocationCacheVersion& version,
                                 uint64_t binding_instance,
                                 const ReadOptions& read_options,
                                 const Slice& user_key,
                                 SequenceNumber entry_sequence);

}  // namespace ROCKSDB_NAMESPACE
