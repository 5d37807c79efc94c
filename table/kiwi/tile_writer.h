// KiWi's tile writer: turns one delete tile's entries, handed in table
// order, into up to h data blocks in delete key order
// (table/kiwi/tile_partition.h), each with the tile map entry that says
// which delete keys it holds (table/kiwi/tile_map.h). The table builder
// writes the blocks (compression, trailer) and fills in their handles.
//
// Call grammar, per tile:
//   Add+ Finish
// Finish empties the writer, which then takes the next tile. Add copies
// what it keeps, so its arguments need not outlive the call. One thread.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "table/kiwi/tile_map.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

class TileWriter {
 public:
  struct Options {
    // h: the most blocks a tile is written as (1 to kMaxTileBlocks).
    uint32_t max_blocks = 1;
    // As the table's data blocks use them (BlockBasedTableOptions).
    int block_restart_interval = 16;
    bool use_delta_encoding = true;
  };

  struct Block {
    // The block's contents as a data block builder finishes them:
    // uncompressed, without a trailer.
    std::string contents;
    // Its tile map entry, with its key filter when the tile has more than
    // one block; the handle is the caller's to set.
    TileBlock map_entry;
  };

  explicit TileWriter(const Options& options);

  // One entry of the tile: `internal_key` after every earlier one in table
  // order, `delete_key` null when the entry has none.
  void Add(const Slice& internal_key, const Slice& value,
           const Slice* delete_key);

  bool empty() const { return entries_.empty(); }
  // The user key of the last entry added since the last Finish (a view of
  // it, valid until the next Add or Finish). REQUIRES: !empty().
  Slice last_user_key() const;
  // The keys' and values' bytes added since the last Finish.
  size_t buffered_bytes() const { return buffered_bytes_; }

  // The tile's blocks, in delete key order; entries keep table order within
  // each. REQUIRES: !empty().
  std::vector<Block> Finish();

 private:
  struct Entry {
    std::string internal_key;
    std::string value;
    std::string delete_key;
    bool has_delete_key;
  };

  const Options options_;
  std::vector<Entry> entries_;
  size_t buffered_bytes_ = 0;
};

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
