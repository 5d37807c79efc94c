// Fuzz target kiwi_tile_map: a tile map meta block as DecodeTileMap meets
// it. An accepted map must say what Tile promises (blocks per tile, order,
// delete key ranges, key filters a lookup can probe) and survive an encode
// and a decode unchanged.

#include "table/kiwi/tile_key_filter.h"
#include "table/kiwi/tile_map.h"
#include "table/kiwi/tile_map_test_blocks.h"
#include "tests/fuzz/fuzz_target.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::vector<std::string> Seeds() {
  std::vector<std::vector<kiwi::Tile>> maps(3);
  maps[0].push_back(
      {{kiwi::KeyedBlock(0, 4000, 40, "2026-01-01", "2026-03-31", true),
        kiwi::KeyedBlock(4005, 4100, 41, "2026-04-01", "2026-11-30", true),
        kiwi::UnkeyedBlock(8110, 300, 3)}});
  maps[0].push_back(
      {{kiwi::KeyedBlock(8415, 4090, 39, "2025-06-01", "2026-11-30", false)}});
  for (uint64_t t = 0; t < 40; ++t) {  // h = 4, timestamps as 8 bytes.
    kiwi::Tile tile;
    for (uint64_t b = 0; b < 4; ++b) {
      const uint64_t offset = (t * 4 + b) * 16389;
      std::string lo(8, '\0'), hi(8, '\0');
      lo[7] = static_cast<char>(b * 60);
      hi[7] = static_cast<char>(b * 60 + 59);
      tile.blocks.push_back(
          kiwi::KeyedBlock(offset, 16384, 160, lo, hi, b != 3));
      kiwi::TileKeyFilterBuilder filter;
      for (uint64_t k = 0; k < 40; ++k) {
        filter.AddUserKey("user" + std::to_string(t * 160 + k * 4 + b));
      }
      tile.blocks.back().key_filter = filter.Finish();
    }
    tile.last_user_key = "user" + std::to_string(t * 160 + 159);
    maps[1].push_back(tile);
  }
  // maps[2]: no tiles (a table with delete tiles but no data blocks).
  std::vector<std::string> seeds;
  for (const std::vector<kiwi::Tile>& map : maps) {
    seeds.emplace_back();
    kiwi::EncodeTileMap(map, &seeds.back());
  }
  return seeds;
}

bool Run(const Slice& input) {
  std::vector<kiwi::Tile> tiles;
  if (!kiwi::DecodeTileMap(input, &tiles).ok()) {
    if (!tiles.empty()) {
      fuzz::FuzzFail("a refused map leaves no tiles", "");
    }
    return false;
  }
  const kiwi::TileBlock* previous = nullptr;
  for (const kiwi::Tile& tile : tiles) {
    if (tile.blocks.empty() || tile.blocks.size() > kiwi::kMaxTileBlocks) {
      fuzz::FuzzFail("a tile has 1 to kMaxTileBlocks blocks",
                     std::to_string(tile.blocks.size()));
    }
    for (const kiwi::TileBlock& block : tile.blocks) {
      if (previous != nullptr &&
          block.handle.offset() <
              previous->handle.offset() + previous->handle.size()) {
        fuzz::FuzzFail("blocks are in order and do not overlap", "");
      }
      if (block.smallest_delete_key > block.largest_delete_key ||
          (block.only_coverable_entries && !block.has_delete_keys)) {
        fuzz::FuzzFail("a block's delete key range is well formed", "");
      }
      if (!kiwi::ValidTileKeyFilter(block.key_filter)) {
        fuzz::FuzzFail("a block's key filter is one a lookup can probe", "");
      }
      // Probing an accepted filter stays inside it (sanitizers watch).
      kiwi::TileKeyFilterMayMatch(block.key_filter, input);
      previous = &block;
    }
  }
  // Varints may arrive over-long, so the bytes need not round-trip; the
  // map must.
  std::string again;
  kiwi::EncodeTileMap(tiles, &again);
  std::vector<kiwi::Tile> decoded_again;
  if (!kiwi::DecodeTileMap(again, &decoded_again).ok() ||
      decoded_again != tiles) {
    fuzz::FuzzFail("an accepted map round-trips", input.ToString(true));
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(kiwi_tile_map, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
