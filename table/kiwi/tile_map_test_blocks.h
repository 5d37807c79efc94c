// Tile map entries for tests and fuzz seeds (tile_map_test.cc,
// tile_map_fuzz.cc).

#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "table/kiwi/tile_map.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

// A block of `entries` entries without delete keys.
inline TileBlock UnkeyedBlock(uint64_t offset, uint64_t size,
                              uint32_t entries) {
  TileBlock block;
  block.handle = BlockHandle(offset, size);
  block.entries = entries;
  return block;
}

// A block whose delete keys span [smallest, largest].
inline TileBlock KeyedBlock(uint64_t offset, uint64_t size, uint32_t entries,
                            std::string smallest, std::string largest,
                            bool only_coverable_entries) {
  TileBlock block = UnkeyedBlock(offset, size, entries);
  block.has_delete_keys = true;
  block.smallest_delete_key = std::move(smallest);
  block.largest_delete_key = std::move(largest);
  block.only_coverable_entries = only_coverable_entries;
  return block;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
