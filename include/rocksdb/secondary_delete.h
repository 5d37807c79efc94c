// Lodestone: secondary range deletes. A column family configured with a
// delete key extractor (ColumnFamilyOptions::delete_key_extractor,
// rocksdb/delete_key_extractor.h) can delete every entry whose delete key
// lies in a range, where the delete key is an attribute other than the
// user key the tree is sorted on: "every entry older than T", "everything
// of tenant X". docs/kiwi.md describes the design; with delete tiles
// (ColumnFamilyOptions::delete_tile_blocks) the space comes back by whole
// data blocks that compactions drop unread.

#pragma once

#include "rocksdb/db.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// Deletes every entry in `column_family` whose delete key d has lo <= d <
// hi (bytewise) and that was written before the call; entries written after
// it returns are not deleted. Returns once the deletion is durable (in the
// MANIFEST): from then on no read, at any snapshot, sees a deleted entry.
//
// What it means, exactly:
//   - Puts, initial puts and merge operands are deleted. Deletes, single
//     deletes and range deletions are never covered (that would bring back
//     what they deleted), nor wide-column entities, timed puts and blob
//     references, nor an entry the extractor gives no delete key.
//   - A deleted entry is as if never written: the key reads as its next
//     older version, if that one is not deleted too. With a delete key
//     taken from the user key (key_suffix), every version of a key written
//     before the call is deleted, and the key reads as deleted (or as the
//     merge operands written after the call). With one taken from the value,
//     keep it growing per key (a timestamp), so that older versions are
//     deleted too: otherwise a key may read as an older version until a
//     compaction drops that version as overwritten.
//   - Reads are MVCC, as under a Delete: a read at a snapshot taken before
//     the call, and an iterator opened before it, still see what it
//     deleted; a read at a later snapshot, or without one, never does.
//     Compactions keep a deleted entry while an older snapshot can see it.
//   - A write racing the call lands on either side of it.
//
// Cost: the call flushes the column family's memtables (waiting for the
// flush) and writes one MANIFEST record; it never reads or rewrites data.
// Writes wait for the memtable switch and the MANIFEST write. Reads then
// skip deleted entries one by one (point lookups and compactions, in
// tables with delete tiles, block by block) until compactions have
// rewritten every file that was written before the call; the tombstone
// then retires. Until it does, RocksDB releases without secondary range
// deletes refuse to open the DB.
//
// Returns InvalidArgument when lo >= hi, the column family has no
// delete_key_extractor or was dropped; NotSupported for a read-only,
// secondary or follower DB; TryAgain when writes are stopped (the flush
// cannot be scheduled), as Flush does; the DB's background error while it
// has one (retry once the DB has recovered or been resumed); the flush's or
// the MANIFEST write's error otherwise, a failed MANIFEST write stopping
// the DB as a failed flush does. A call that failed may still have taken
// effect (a MANIFEST write can fail after its record is durable); repeating
// it is harmless.
Status DeleteByDeleteKeyRange(DB* db, ColumnFamilyHandle* column_family,
                              const Slice& lo, const Slice& hi);

}  // namespace ROCKSDB_NAMESPACE
