// Tile map entries for tests and fuzz seeds (tile_map_test.cc,
// tile_map_fuzz.cc).

#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "table/kiwi/tile_map.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

// A block without delete keys.
inline TileBlock UnkeyedBlock(uint64_t offset, uint64_t size) {
  TileBlock block;
  block.handle = BlockHandle(offset, size);
  return block;
}

// A block whose delete keys span [smallest, largest].
inline TileBlock KeyedBlock(uint64_t offset, uint64_t size,
                            std::string smallest, std::string largest,
                            bool only_coverable_puts) {
  TileBlock block = UnkeyedBlock(offset, size);
  block.has_delete_keys = true;
  block.smallest_delete_key = std::move(smallest);
  block.largest_delete_key = std::move(largest);
  block.only_coverable_puts = only_coverable_puts;
  return block;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
