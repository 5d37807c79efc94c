// KiWi's delete tiles in the block-based table reader (patch 0051).
//
// A table written with tiles (tile_table_builder.h) has one index entry per
// tile, whose handle spans the tile's data blocks, and the tile map meta
// block listing them. The reader loads the map when it opens the table,
// whatever the column family's options say (a table's layout is its own),
// and BlockBasedTable::NewDataBlockIterator hands every data block handle
// to OpenTile first. A handle that spans several blocks is a tile: OpenTile
// reads each of its blocks through the table's own block path (its own
// checksum and block cache entry, the same prefetch buffer) and points the
// data block iterator at their merge, in internal key order: one block
// whose entries are the tile's. Iterators, point lookups, compactions and
// sst_dump then read a tile as they read a block.
//
// A block a secondary range delete covers whole for the read
// (table/kiwi/tile_drop.h) is not read at all: point lookups skip it (their
// GetContext carries the covered entries at their snapshot), compactions
// drop it (ReadOptions::covered_entries, set by CompactionJob), counted in
// SECONDARY_DELETE_BLOCKS_SKIPPED and SECONDARY_DELETE_BLOCKS_DROPPED_FULL
// with its bytes in SECONDARY_DELETE_BYTES_RECLAIMED. User iterators read
// every block and the covered entry filter above them hides what is covered
// (db/secondary_deletes/covered_entry_filter.h).
//
// The merged block is built per opening and owned by the iterator. For an
// iterator or a compaction it holds every entry of the tile's live blocks:
// a decode and an encode of the tile on top of its blocks' reads. For a
// point lookup (a GetContext, no user timestamps) it holds what the lookup
// can reach: each live block whose key filter (tile_key_filter.h) may hold
// the user key is seeked to it, and the merge is the key's entries and the
// smallest entry after them, at which the lookup stops. When none of those
// blocks holds an entry after the key's and the tile's last key lies after
// it, a stop entry of that key stands in (else the lookup would go on to the
// next tile). A map of version 1 has neither filters nor last keys: its
// lookups read every live block. Tiles of one block are read as blocks (no
// merge).

#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include "rocksdb/status.h"
#include "table/format.h"
#include "table/internal_iterator.h"
#include "table/kiwi/tile_map.h"

namespace ROCKSDB_NAMESPACE {

class BlockBasedTable;
class DataBlockIter;
class FilePrefetchBuffer;
class GetContext;
struct BlockCacheLookupContext;
struct ReadOptions;

namespace kiwi {

// A table's tile map, with its tiles found by their span handles.
// Immutable; shared by every reader of the table.
class TileMapReader {
 public:
  explicit TileMapReader(std::vector<Tile> tiles);

  // The tile whose span `handle` is (an index entry of a tiled table), or
  // null for a handle that spans one block: a tile of one block, or a block
  // of a tile.
  const Tile* FindMultiBlockTile(const BlockHandle& handle) const;

  // The tile whose span `handle` is, of one block or more, or null.
  const Tile* Find(const BlockHandle& handle) const;

  const std::vector<Tile>& tiles() const { return tiles_; }

 private:
  std::vector<Tile> tiles_;
  std::vector<BlockHandle> spans_;  // Per tile, ascending.
};

// At open (BlockBasedTable::PrefetchIndexAndFilterBlocks): loads the tile
// map named in the metaindex into `*tiles`, or leaves it null when the
// table has none. Corruption when the map is damaged: a table whose map
// cannot be read cannot be read at all.
Status LoadTileMap(const BlockBasedTable& table,
                   InternalIterator* metaindex_iter,
                   FilePrefetchBuffer* prefetch_buffer, const ReadOptions& ro,
                   std::shared_ptr<const TileMapReader>* tiles);

// BlockBasedTable::NewDataBlockIterator, for a data block handle of a table
// with tiles: when `handle` is a tile's span, points `iter` at the merge of
// the tile's live blocks (or invalidates it with their read error, or
// leaves it empty when every block was dropped) and returns true; returns
// false for a handle to read as one block. A tile of one block that a
// secondary range delete covers whole is the empty iterator too.
bool OpenTile(const BlockBasedTable& table, const ReadOptions& ro,
              const BlockHandle& handle, GetContext* get_context,
              BlockCacheLookupContext* lookup_context,
              FilePrefetchBuffer* prefetch_buffer, bool for_compaction,
              DataBlockIter* iter);

// BlockBasedTable::VerifyChecksumInBlocks, for an index entry's `handle` of
// a table with tiles: when it spans a tile, reads each of the tile's blocks
// (checking its checksum) into `*s` and returns true; false for a handle
// to check as one block.
bool VerifyTileChecksums(const BlockBasedTable& table, const ReadOptions& ro,
                         FilePrefetchBuffer* prefetch_buffer,
                         const BlockHandle& handle, Status* s);

// sst_dump's raw dump (BlockBasedTable::DumpTable): per tile, its blocks'
// handles, entry counts, delete key ranges (hex), key filter sizes and
// flags.
void DumpTileMap(const TileMapReader& tiles, std::ostream& out);

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
