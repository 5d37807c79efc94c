#include "table/kiwi/tile_writer.h"

#include <cassert>
#include <memory>

#include "db/dbformat.h"
#include "table/block_based/block_builder.h"
#include "table/kiwi/tile_key_filter.h"
#include "table/kiwi/tile_partition.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// An entry a secondary range delete may cover (covered_entries.h): its
// delete key alone decides.
bool Coverable(const Slice& internal_key) {
  const ValueType type = ExtractValueType(internal_key);
  return type == kTypeValue || type == kTypeValueInitial || type == kTypeMerge;
}

}  // namespace

TileWriter::TileWriter(const Options& options) : options_(options) {
  assert(options_.max_blocks >= 1 && options_.max_blocks <= kMaxTileBlocks);
}

void TileWriter::Add(const Slice& internal_key, const Slice& value,
                     const Slice* delete_key) {
  entries_.push_back({internal_key.ToString(), value.ToString(),
                      delete_key != nullptr ? delete_key->ToString() : "",
                      delete_key != nullptr});
  buffered_bytes_ += internal_key.size() + value.size();
}

Slice TileWriter::last_user_key() const {
  assert(!empty());
  return ExtractUserKey(entries_.back().internal_key);
}

std::vector<TileWriter::Block> TileWriter::Finish() {
  assert(!empty());
  std::vector<TileEntry> partition_input(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) {
    partition_input[i].delete_key = entries_[i].delete_key;
    partition_input[i].has_delete_key = entries_[i].has_delete_key;
    partition_input[i].bytes =
        entries_[i].internal_key.size() + entries_[i].value.size();
  }
  const TilePartition partition =
      PartitionTile(partition_input, options_.max_blocks);

  std::vector<Block> blocks(partition.block_count);
  std::vector<std::unique_ptr<BlockBuilder>> builders(partition.block_count);
  for (auto& builder : builders) {
    builder.reset(new BlockBuilder(options_.block_restart_interval,
                                   options_.use_delta_encoding));
  }
  // A tile of one block is read as a block, after the table's own filter:
  // only blocks that share a tile get a key filter.
  const bool filtered = partition.block_count > 1;
  std::vector<TileKeyFilterBuilder> filters(filtered ? partition.block_count
                                                     : 0);
  std::vector<bool> coverable(partition.block_count, true);
  std::vector<uint32_t> entries(partition.block_count, 0);
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    const uint32_t b = partition.block_of[i];
    builders[b]->Add(e.internal_key, e.value);
    if (filtered) {
      filters[b].AddUserKey(ExtractUserKey(e.internal_key));
    }
    TileBlock& map_entry = blocks[b].map_entry;
    map_entry.entries = ++entries[b];
    if (e.has_delete_key) {
      if (!map_entry.has_delete_keys) {
        map_entry.has_delete_keys = true;
        map_entry.smallest_delete_key = e.delete_key;
        map_entry.largest_delete_key = e.delete_key;
      } else if (e.delete_key < map_entry.smallest_delete_key) {
        map_entry.smallest_delete_key = e.delete_key;
      } else if (e.delete_key > map_entry.largest_delete_key) {
        map_entry.largest_delete_key = e.delete_key;
      }
    }
    if (!e.has_delete_key || !Coverable(e.internal_key)) {
      coverable[b] = false;
    }
  }
  for (uint32_t b = 0; b < partition.block_count; ++b) {
    blocks[b].contents = builders[b]->Finish().ToString();
    blocks[b].map_entry.only_coverable_entries = coverable[b];
    if (filtered) {
      blocks[b].map_entry.key_filter = filters[b].Finish();
    }
  }
  entries_.clear();
  buffered_bytes_ = 0;
  return blocks;
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
