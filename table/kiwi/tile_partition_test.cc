// PartitionTile's guarantees (tile_partition.h), on hand-made tiles and on
// random ones. Linked into kiwi_layout_test with tile_map_test.cc.

#include "table/kiwi/tile_partition.h"

#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// Delete keys of one tile in S order; "" for an entry without one.
struct Tile {
  std::vector<std::string> delete_keys;
  std::vector<size_t> bytes;  // Empty: one each.

  std::vector<TileEntry> Entries() const {
    std::vector<TileEntry> entries(delete_keys.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      entries[i].has_delete_key = !delete_keys[i].empty();
      entries[i].delete_key = delete_keys[i];
      entries[i].bytes = bytes.empty() ? 1 : bytes[i];
    }
    return entries;
  }
};

// Checks guarantees (1), (2) and (4) and returns each block's bytes.
std::vector<uint64_t> CheckGuarantees(const std::vector<TileEntry>& entries,
                                      uint32_t max_blocks,
                                      const TilePartition& p) {
  EXPECT_EQ(p.block_of.size(), entries.size());
  EXPECT_LE(p.block_count, max_blocks);
  EXPECT_EQ(p.block_count == 0, entries.empty());
  std::vector<uint64_t> block_bytes(p.block_count, 0);
  // Per block, its smallest and largest delete key.
  std::map<uint32_t, std::pair<std::string, std::string>> ranges;
  for (size_t i = 0; i < entries.size(); ++i) {
    const uint32_t b = p.block_of[i];
    EXPECT_LT(b, p.block_count);
    if (b >= p.block_count) {
      continue;
    }
    block_bytes[b] += entries[i].bytes;
    if (!entries[i].has_delete_key) {
      EXPECT_EQ(b, p.block_count - 1) << "(2): unkeyed entries go last";
      continue;
    }
    const std::string d = entries[i].delete_key.ToString();
    auto it = ranges.find(b);
    if (it == ranges.end()) {
      ranges[b] = {d, d};
    } else {
      it->second.first = std::min(it->second.first, d);
      it->second.second = std::max(it->second.second, d);
    }
  }
  for (uint64_t bytes : block_bytes) {
    EXPECT_GT(bytes, 0) << "(4): no block is empty";
  }
  const std::pair<std::string, std::string>* previous = nullptr;
  for (const auto& [block, range] : ranges) {
    if (previous != nullptr) {
      EXPECT_LT(previous->second, range.first)
          << "(1): blocks in delete key order, block " << block;
    }
    previous = &range;
  }
  return block_bytes;
}

}  // namespace

TEST(TilePartitionTest, EmptyTile) {
  TilePartition p = PartitionTile({}, 4);
  EXPECT_EQ(p.block_count, 0);
  EXPECT_TRUE(p.block_of.empty());
}

TEST(TilePartitionTest, OneBlockIsTodaysLayout) {
  const Tile tile{{"d", "b", "", "a", "c"}, {}};
  TilePartition p = PartitionTile(tile.Entries(), 1);
  EXPECT_EQ(p.block_count, 1);
  EXPECT_EQ(p.block_of, std::vector<uint32_t>(5, 0));
}

TEST(TilePartitionTest, OneDeleteKeyIsOneBlock) {
  const Tile tile{{"k", "k", "k", "k"}, {}};
  TilePartition p = PartitionTile(tile.Entries(), 8);
  EXPECT_EQ(p.block_count, 1);
  EXPECT_EQ(p.block_of, std::vector<uint32_t>(4, 0));
}

TEST(TilePartitionTest, BlocksFollowDeleteKeysNotUserKeys) {
  // Delete keys uncorrelated with S: h = 4 over 8 distinct keys.
  const Tile tile{{"g", "b", "h", "a", "e", "c", "f", "d"}, {}};
  TilePartition p = PartitionTile(tile.Entries(), 4);
  EXPECT_EQ(p.block_count, 4);
  EXPECT_EQ(p.block_of, (std::vector<uint32_t>{3, 0, 3, 0, 2, 1, 2, 1}));
}

TEST(TilePartitionTest, CutsMoveToTheNearestChangeOfDeleteKey) {
  // Target 2 of 4 bytes: the changes after "a" (1 byte before it) and after
  // the two "b" (3 bytes) are equally near; the later one wins.
  TilePartition p = PartitionTile(Tile{{"a", "b", "b", "c"}, {}}.Entries(), 2);
  EXPECT_EQ(p.block_of, (std::vector<uint32_t>{0, 0, 0, 1}));
  // Bytes, not entries, decide: one large "a" is half the tile.
  p = PartitionTile(Tile{{"b", "a", "c", "d"}, {1, 3, 1, 1}}.Entries(), 2);
  EXPECT_EQ(p.block_of, (std::vector<uint32_t>{1, 0, 1, 1}));
}

TEST(TilePartitionTest, EntriesWithoutDeleteKeyGoLast) {
  const Tile tile{{"", "b", "a", "", "d", "c"}, {}};
  TilePartition p = PartitionTile(tile.Entries(), 3);
  EXPECT_EQ(p.block_count, 3);
  EXPECT_EQ(p.block_of, (std::vector<uint32_t>{2, 0, 0, 2, 1, 1}));
  CheckGuarantees(tile.Entries(), 3, p);

  p = PartitionTile(Tile{{"", ""}, {}}.Entries(), 3);
  EXPECT_EQ(p.block_count, 1);
  EXPECT_EQ(p.block_of, (std::vector<uint32_t>{0, 0}));
}

TEST(TilePartitionTest, RandomTiles) {
  std::mt19937_64 rng(41);
  for (int round = 0; round < 2000; ++round) {
    const size_t n = rng() % 300;
    const uint32_t h = 1 + static_cast<uint32_t>(rng() % 16);
    const uint64_t distinct = 1 + rng() % 50;  // Few: many ties.
    const bool with_unkeyed = rng() % 3 == 0;
    Tile tile;
    for (size_t i = 0; i < n; ++i) {
      if (with_unkeyed && rng() % 10 == 0) {
        tile.delete_keys.emplace_back();
      } else {
        tile.delete_keys.push_back("d" + std::to_string(rng() % distinct));
      }
      tile.bytes.push_back(1 + rng() % 200);
    }
    const std::vector<TileEntry> entries = tile.Entries();
    const TilePartition p = PartitionTile(entries, h);
    const std::vector<uint64_t> block_bytes = CheckGuarantees(entries, h, p);
    if (HasFailure()) {
      FAIL() << "round " << round << " n " << n << " h " << h;
    }
    // (4): with many distinct keys and no unkeyed entries, h blocks of
    // about equal bytes (each within a few entries of total / h).
    if (!with_unkeyed && distinct == 50 && n >= 200) {
      EXPECT_EQ(p.block_count, h) << round;
      uint64_t total = 0;
      for (uint64_t b : block_bytes) {
        total += b;
      }
      for (uint64_t b : block_bytes) {
        EXPECT_LT(b, total / h + 3 * 200 * n / distinct) << round;
      }
    }
  }
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
