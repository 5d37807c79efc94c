#include "table/kiwi/tile_map.h"

#include <cassert>

#include "table/kiwi/tile_key_filter.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// Block flags (FORMAT.md).
constexpr uint8_t kHasDeleteKeys = 1 << 0;
constexpr uint8_t kOnlyCoverableEntries = 1 << 1;
constexpr uint8_t kKnownFlags = kHasDeleteKeys | kOnlyCoverableEntries;

Status Corrupt(const char* what) {
  return Status::Corruption("KiWi tile map", what);
}

Status DecodeBlock(uint32_t version, Slice* in, const TileBlock* previous,
                   TileBlock* block) {
  Status s = block->handle.DecodeFrom(in);
  if (!s.ok()) {
    return Corrupt("truncated block handle");
  }
  if (previous != nullptr &&
      (previous->handle.offset() + previous->handle.size() <
           previous->handle.offset() ||
       block->handle.offset() <
           previous->handle.offset() + previous->handle.size())) {
    return Corrupt("blocks out of order or overlapping");
  }
  if (!GetVarint32(in, &block->entries)) {
    return Corrupt("truncated entry count");
  }
  if (block->entries == 0) {
    return Corrupt("a block of no entries");
  }
  if (in->empty()) {
    return Corrupt("truncated block flags");
  }
  const uint8_t flags = static_cast<uint8_t>((*in)[0]);
  in->remove_prefix(1);
  if ((flags & ~kKnownFlags) != 0) {
    return Corrupt("unknown block flags");
  }
  block->has_delete_keys = (flags & kHasDeleteKeys) != 0;
  block->only_coverable_entries = (flags & kOnlyCoverableEntries) != 0;
  if (block->only_coverable_entries && !block->has_delete_keys) {
    return Corrupt("coverable block without delete keys");
  }
  if (block->has_delete_keys) {
    Slice smallest, largest;
    if (!GetLengthPrefixedSlice(in, &smallest) ||
        !GetLengthPrefixedSlice(in, &largest)) {
      return Corrupt("truncated delete key range");
    }
    if (smallest.compare(largest) > 0) {
      return Corrupt("delete key range out of order");
    }
    block->smallest_delete_key = smallest.ToString();
    block->largest_delete_key = largest.ToString();
  }
  if (version >= 2) {
    Slice filter;
    if (!GetLengthPrefixedSlice(in, &filter)) {
      return Corrupt("truncated key filter");
    }
    if (!ValidTileKeyFilter(filter)) {
      return Corrupt("malformed key filter");
    }
    block->key_filter = filter.ToString();
  }
  return Status::OK();
}

}  // namespace

bool TileBlock::operator==(const TileBlock& other) const {
  return handle.offset() == other.handle.offset() &&
         handle.size() == other.handle.size() && entries == other.entries &&
         has_delete_keys == other.has_delete_keys &&
         smallest_delete_key == other.smallest_delete_key &&
         largest_delete_key == other.largest_delete_key &&
         only_coverable_entries == other.only_coverable_entries &&
         key_filter == other.key_filter;
}

void EncodeTileMap(const std::vector<Tile>& tiles, std::string* dst) {
  PutVarint32(dst, kTileMapFormatVersion);
  PutVarint32(dst, static_cast<uint32_t>(tiles.size()));
  for (const Tile& tile : tiles) {
    assert(!tile.blocks.empty() && tile.blocks.size() <= kMaxTileBlocks);
    PutVarint32(dst, static_cast<uint32_t>(tile.blocks.size()));
    PutLengthPrefixedSlice(dst, tile.last_user_key);
    for (const TileBlock& block : tile.blocks) {
      assert(!block.only_coverable_entries || block.has_delete_keys);
      assert(block.entries >= 1);
      block.handle.EncodeTo(dst);
      PutVarint32(dst, block.entries);
      dst->push_back(static_cast<char>(
          (block.has_delete_keys ? kHasDeleteKeys : 0) |
          (block.only_coverable_entries ? kOnlyCoverableEntries : 0)));
      if (block.has_delete_keys) {
        PutLengthPrefixedSlice(dst, block.smallest_delete_key);
        PutLengthPrefixedSlice(dst, block.largest_delete_key);
      }
      assert(ValidTileKeyFilter(block.key_filter));
      PutLengthPrefixedSlice(dst, block.key_filter);
    }
  }
}

Status DecodeTileMap(Slice contents, std::vector<Tile>* tiles) {
  tiles->clear();
  Slice in = contents;
  uint32_t version = 0;
  uint32_t tile_count = 0;
  if (!GetVarint32(&in, &version)) {
    return Corrupt("truncated version");
  }
  if (version < 1 || version > kTileMapFormatVersion) {
    return Corrupt("unknown version");
  }
  // A tile takes at least five bytes (a count, a handle's two varints, the
  // entry count and the flags), which bounds what a damaged count can make
  // us reserve.
  if (!GetVarint32(&in, &tile_count) || tile_count > in.size() / 5) {
    return Corrupt("truncated or impossible tile count");
  }
  std::vector<Tile> decoded(tile_count);
  const TileBlock* previous = nullptr;
  for (Tile& tile : decoded) {
    uint32_t block_count = 0;
    if (!GetVarint32(&in, &block_count)) {
      return Corrupt("truncated block count");
    }
    if (block_count == 0 || block_count > kMaxTileBlocks) {
      return Corrupt("a tile of no or too many blocks");
    }
    if (version >= 2) {
      Slice last_user_key;
      if (!GetLengthPrefixedSlice(&in, &last_user_key)) {
        return Corrupt("truncated last user key");
      }
      tile.last_user_key = last_user_key.ToString();
    }
    tile.blocks.resize(block_count);
    for (TileBlock& block : tile.blocks) {
      Status s = DecodeBlock(version, &in, previous, &block);
      if (!s.ok()) {
        return s;
      }
      previous = &block;
    }
  }
  if (!in.empty()) {
    return Corrupt("trailing bytes");
  }
  *tiles = std::move(decoded);
  return Status::OK();
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
