// KiWi's tile partition: which of a delete tile's h data blocks each of its
// entries goes to (docs/kiwi.md, "The layout").
//
// A delete tile is a run of a table's entries, in user key (S) order, that
// the table builder writes as up to h data blocks instead of one. The
// partition orders the blocks by delete key (D) so that a secondary range
// delete of [lo, hi) covers whole blocks of the tile except at most the two
// that hold lo and hi, which is what lets a reader or a compaction skip a
// covered block without decoding it (Lethe, SIGMOD 2020, section 4.2).
//
// What PartitionTile guarantees, for entries e and f of one tile:
//   (1) Blocks are ordered by delete key: if e's block comes before f's and
//       both have a delete key, then D(e) < D(f). Equal delete keys share a
//       block, so no delete key spans two blocks.
//   (2) Entries without a delete key go to the last block, after every
//       entry that has one (a block holding them is never dropped whole).
//   (3) Within a block, entries keep the tile's S order (a stable
//       partition): the block builder gets them sorted, no sort needed.
//   (4) Blocks are about equal in bytes: the cuts are the byte quantiles of
//       the tile's delete keys, each moved to the nearest change of delete
//       key (ties go to the later change). A block is never empty.
// With h = 1, or a tile whose entries share one delete key, the result is
// one block holding the tile in S order: today's layout.
//
// A pure function of its input: no state, no allocation kept.

#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

// One entry of a tile, as the partition needs it.
struct TileEntry {
  // The entry's delete key, as the column family's extractor gave it;
  // ignored unless `has_delete_key`. Compared bytewise.
  Slice delete_key;
  bool has_delete_key = false;
  // The bytes the entry adds to its block (a weight: only ratios matter).
  size_t bytes = 1;
};

struct TilePartition {
  // Blocks the tile is written as, 1..max_blocks (0 only for an empty tile).
  uint32_t block_count = 0;
  // `block_of[i]` is the block of entry i, in [0, block_count).
  std::vector<uint32_t> block_of;
};

// Partitions `entries` (one tile, in S order) into at most `max_blocks`
// blocks (h, at least 1) with guarantees (1)-(4) above.
TilePartition PartitionTile(const std::vector<TileEntry>& entries,
                            uint32_t max_blocks);

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
