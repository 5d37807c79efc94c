// KiWi's delete tiles in the block-based table builder (patch 0050): what
// BlockBasedTableBuilder hands a table's entries to when its column family
// writes tiles (ColumnFamilyOptions::delete_tile_blocks, h, above 1).
//
// The builder keeps feeding every entry to its data block builder, which
// the flush policy measures, and to the index, filters, range filter and
// property collectors exactly as for a table without tiles; the entries
// also go to the TileTableBuilder. Of the flush policy's verdicts only
// every h-th ends a tile: the others reset the data block builder (so that
// it measures the next block's worth) and are otherwise ignored. A tile's
// end writes its entries as up to h data blocks ordered by delete key
// (table/kiwi/tile_writer.h), each compressed and checksummed by the
// builder's own WriteBlock, and the builder emits one index entry whose
// handle spans the tile's blocks. Finish writes the tile map
// (`kiwi.lodestone.tiles`, table/kiwi/FORMAT.md).
//
// Call grammar:
//   ((EndsTile | Add)* WriteTile)* WriteTileMap
// WriteTile writes nothing for an empty tile. One thread, like the builder.
//
// A tile's span handle covers its first block's offset to the end of its
// last block's trailer, with the size BlockHandle gives a block (without
// one trailer), so that BlockSizeWithTrailer(span) is the bytes a reader
// prefetches for the tile and the index's delta encoding of consecutive
// handles holds.

#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/format.h"
#include "table/kiwi/tile_map.h"
#include "table/kiwi/tile_writer.h"

namespace ROCKSDB_NAMESPACE {

class BlockBuilder;
class DeleteKeyExtractor;
class MetaIndexBuilder;
struct BlockBasedTableOptions;
struct TableBuilderOptions;

namespace kiwi {

class TileTableBuilder {
 public:
  // Writes a block's contents (uncompressed, without a trailer) as the
  // builder writes a data block, setting its handle; returns the builder's
  // status after the write.
  using WriteBlockFn =
      std::function<Status(const Slice& contents, BlockHandle* handle)>;

  // Null when the table gets no tiles (h of 1). InvalidArgument in *status
  // (null returned) for what tiles cannot be written with: no delete key
  // extractor, dictionary or parallel compression (which replay blocks one
  // index entry each), a hash index in data blocks, user-defined
  // timestamps.
  static std::unique_ptr<TileTableBuilder> Create(
      const TableBuilderOptions& tbo,
      const BlockBasedTableOptions& table_options, Status* status);

  // A flush policy verdict: whether it ends the tile (every h-th one).
  // Otherwise `data_block`, which only measures, is reset.
  bool EndsTile(BlockBuilder* data_block);

  // An entry of the table, after every earlier one.
  void Add(const Slice& internal_key, const Slice& value);

  bool empty() const { return writer_.empty(); }

  // Writes the tile's blocks with `write_block` and records them; sets
  // `*tile_handle` to the tile's span. Nothing for an empty tile.
  Status WriteTile(const WriteBlockFn& write_block, BlockHandle* tile_handle);

  // The tile map, written with `write_meta_block` and named in
  // `meta_index`; nothing when no tile was written.
  Status WriteTileMap(const WriteBlockFn& write_meta_block,
                      MetaIndexBuilder* meta_index);

  uint64_t tiles_written() const { return tiles_.size(); }

 private:
  TileTableBuilder(const TileWriter::Options& options,
                   std::shared_ptr<const DeleteKeyExtractor> extractor);

  TileWriter writer_;
  const uint32_t max_blocks_;
  const std::shared_ptr<const DeleteKeyExtractor> extractor_;
  uint32_t verdicts_ = 0;  // Flush verdicts since the tile began.
  std::vector<Tile> tiles_;
};

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
