// KiWi's tile map: the meta block of a table written with delete tiles,
// which says, per tile, where its data blocks are and which delete keys
// each holds. Bytes and versions: table/kiwi/FORMAT.md; the design:
// docs/kiwi.md.
//
// A reader (or a compaction) deciding whether a secondary range delete
// covers a block wholly needs only the block's entry here: the delete key
// range and whether every entry is a put carrying a delete key. It never
// reads the block to decide.
//
// Tiles are listed in the table's key order, one per index entry; their
// blocks in delete key order (table/kiwi/tile_partition.h). DecodeTileMap
// refuses any input that EncodeTileMap could not have written, with
// Status::Corruption, and never reads past its input.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/format.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

// The meta block's name in the table's metaindex.
inline constexpr char kTileMapBlockName[] = "kiwi.lodestone.tiles";
// The version EncodeTileMap writes. DecodeTileMap reads it and every
// version before it (FORMAT.md): 1 has no key filters and no last keys.
inline constexpr uint32_t kTileMapFormatVersion = 2;
// Most blocks a tile may have (h at most this).
inline constexpr uint32_t kMaxTileBlocks = 256;

struct TileBlock {
  BlockHandle handle;
  // The entries the block holds (at least one): what a compaction that
  // drops the block unread counts among its input records.
  uint32_t entries = 1;
  // Some entry of the block has a delete key; the two keys below are the
  // smallest and largest of them (bytewise). Both empty when false.
  bool has_delete_keys = false;
  std::string smallest_delete_key;
  std::string largest_delete_key;
  // Every entry is one a secondary range delete may cover (a put, initial
  // put or merge operand: db/secondary_deletes/covered_entries.h) with a
  // delete key: a delete covering [smallest, largest] may drop the block
  // whole. Deletes, range deletion sentinels, other entry types and
  // entries without a delete key make it false. Implies has_delete_keys.
  bool only_coverable_entries = false;
  // The Bloom filter on the block's user keys (table/kiwi/tile_key_filter.h)
  // that lets a point lookup pass over the block; empty when the block has
  // none (a tile of one block, or a map of version 1).
  std::string key_filter;

  bool operator==(const TileBlock& other) const;
};

struct Tile {
  // One or more blocks (at most kMaxTileBlocks), in delete key order, at
  // ascending, non-overlapping offsets.
  std::vector<TileBlock> blocks;
  // The user key of the tile's last entry, which tells a point lookup that
  // read only some of the blocks whether the tile holds a key after its
  // own; empty when unknown (a tile of one block, or a map of version 1).
  std::string last_user_key;

  bool operator==(const Tile& other) const {
    return blocks == other.blocks && last_user_key == other.last_user_key;
  }
};

// Appends the map of `tiles` to `*dst`. REQUIRES: every tile is valid as
// Tile describes (DecodeTileMap would accept the result).
void EncodeTileMap(const std::vector<Tile>& tiles, std::string* dst);

// Replaces `*tiles` with the map in `contents`. On Corruption (an unknown
// version or flag, a truncated or trailing byte, a tile of no or too many
// blocks, blocks out of order or overlapping, a delete key range whose
// smallest exceeds its largest, a key filter ValidTileKeyFilter refuses)
// `*tiles` is left empty.
Status DecodeTileMap(Slice contents, std::vector<Tile>* tiles);

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
