#include "table/kiwi/tile_table_builder.h"

#include <cassert>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "rocksdb/comparator.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/table.h"
#include "table/block_based/block_builder.h"
#include "table/meta_blocks.h"
#include "table/table_builder.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

std::unique_ptr<TileTableBuilder> TileTableBuilder::Create(
    const TableBuilderOptions& tbo, const BlockBasedTableOptions& table_options,
    Status* status) {
  *status = Status::OK();
  const uint32_t h = tbo.moptions.delete_tile_blocks;
  if (h <= 1) {
    return nullptr;
  }
  const char* conflict = nullptr;
  if (tbo.moptions.delete_key_extractor == nullptr) {
    conflict = "no delete_key_extractor";
  } else if (h > kMaxTileBlocks) {
    conflict = "more blocks per tile than a tile map holds";
  } else if (tbo.compression_opts.max_dict_bytes > 0 ||
             tbo.compression_opts.parallel_threads > 1) {
    conflict = "dictionary or parallel compression";
  } else if (table_options.data_block_index_type ==
             BlockBasedTableOptions::kDataBlockBinaryAndHash) {
    conflict = "a hash index in data blocks";
  } else if (tbo.internal_comparator.user_comparator()->timestamp_size() > 0) {
    conflict = "user-defined timestamps";
  }
  if (conflict != nullptr) {
    *status = Status::InvalidArgument(
        std::string("delete_tile_blocks > 1 does not work with ") + conflict);
    return nullptr;
  }
  TileWriter::Options options;
  options.max_blocks = h;
  options.block_restart_interval = table_options.block_restart_interval;
  options.use_delta_encoding = table_options.use_delta_encoding;
  return std::unique_ptr<TileTableBuilder>(
      new TileTableBuilder(options, tbo.moptions.delete_key_extractor));
}

TileTableBuilder::TileTableBuilder(
    const TileWriter::Options& options,
    std::shared_ptr<const DeleteKeyExtractor> extractor)
    : writer_(options),
      max_blocks_(options.max_blocks),
      extractor_(std::move(extractor)) {}

bool TileTableBuilder::EndsTile(BlockBuilder* data_block) {
  if (++verdicts_ >= max_blocks_) {
    return true;
  }
  data_block->Reset();
  return false;
}

void TileTableBuilder::Add(const Slice& internal_key, const Slice& value) {
  Slice delete_key;
  const bool has_delete_key =
      extractor_->Extract(ExtractUserKey(internal_key), value, &delete_key);
  writer_.Add(internal_key, value, has_delete_key ? &delete_key : nullptr);
}

Status TileTableBuilder::WriteTile(const WriteBlockFn& write_block,
                                   BlockHandle* tile_handle) {
  verdicts_ = 0;
  if (writer_.empty()) {
    return Status::OK();
  }
  Tile tile;
  const std::string last_user_key = writer_.last_user_key().ToString();
  for (TileWriter::Block& block : writer_.Finish()) {
    Status s = write_block(block.contents, &block.map_entry.handle);
    if (!s.ok()) {
      return s;
    }
    tile.blocks.push_back(std::move(block.map_entry));
  }
  if (tile.blocks.size() > 1) {
    // Only a lookup that passes over some of a tile's blocks asks for it.
    tile.last_user_key = last_user_key;
  }
  const BlockHandle& first = tile.blocks.front().handle;
  const BlockHandle& last = tile.blocks.back().handle;
  // Blocks are written one after another: the span ends at the last one's
  // trailer, and like a block's handle its size leaves one trailer out.
  *tile_handle =
      BlockHandle(first.offset(), last.offset() + last.size() - first.offset());
  tiles_.push_back(std::move(tile));
  return Status::OK();
}

Status TileTableBuilder::WriteTileMap(const WriteBlockFn& write_meta_block,
                                      MetaIndexBuilder* meta_index) {
  if (tiles_.empty()) {
    return Status::OK();
  }
  std::string contents;
  EncodeTileMap(tiles_, &contents);
  BlockHandle handle;
  Status s = write_meta_block(contents, &handle);
  if (s.ok()) {
    meta_index->Add(kTileMapBlockName, handle);
  }
  return s;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
