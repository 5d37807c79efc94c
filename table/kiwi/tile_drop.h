// Which blocks of a tile a secondary range delete removes without reading
// them (Lethe's "full page drops", docs/kiwi.md, "Dropping"). The
// reader skips such a block and a compaction leaves it out of its output;
// every other block is read, and its entries pass through the covered
// entry filter (db/secondary_deletes/covered_entry_filter.h) one by one.

#pragma once

#include "db/dbformat.h"
#include "db/secondary_deletes/secondary_tombstones.h"
#include "table/kiwi/tile_map.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

// Whether `block`, in a table whose entries are all at sequence numbers up
// to `table_largest_seqno`, holds nothing the tombstones leave visible to a
// read at `read_seq`: only coverable entries with delete keys, and every
// delete key of its range covered at that read for every entry the table
// can hold. The table's largest sequence number stands in for the block's,
// which the tile map does not record.
inline bool DroppedWhole(const TileBlock& block,
                         const SecondaryTombstoneSet& tombstones,
                         SequenceNumber table_largest_seqno,
                         SequenceNumber read_seq) {
  return block.only_coverable_entries &&
         tombstones.CoversRange(block.smallest_delete_key,
                                block.largest_delete_key, table_largest_seqno,
                                read_seq);
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
