// The tile map's bytes (table/kiwi/FORMAT.md), pinned: a change to the
// golden bytes below is a new format version there; the version before
// still reads. And what the decoder refuses.

#include "table/kiwi/tile_map.h"

#include <string>
#include <vector>

#include "table/kiwi/tile_map_test_blocks.h"
#include "test_util/testharness.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

// Two tiles: the first of two blocks (one droppable whole, one holding
// something else as well) with key filters and its last key, the second of
// one block without delete keys, key filter or last key.
std::vector<Tile> GoldenTiles() {
  std::vector<Tile> tiles{Tile{{KeyedBlock(0, 100, 7, "a", "f", true),
                                KeyedBlock(105, 90, 5, "g", "z", false)}},
                          Tile{{UnkeyedBlock(200, 50, 3)}}};
  tiles[0].last_user_key = "k9";
  // Valid filters (a probe count, a byte of bits); what they hold is
  // tile_key_filter_test.cc's to pin.
  tiles[0].blocks[0].key_filter = "\x06\x81";
  tiles[0].blocks[1].key_filter = "\x06\x18";
  return tiles;
}

// The same map as version 1 holds it: no key filters, no last keys.
std::vector<Tile> GoldenTilesVersion1() {
  std::vector<Tile> tiles = GoldenTiles();
  for (Tile& tile : tiles) {
    tile.last_user_key.clear();
    for (TileBlock& block : tile.blocks) {
      block.key_filter.clear();
    }
  }
  return tiles;
}

// Written out by hand from FORMAT.md, not by the encoder. The offsets in
// RefusesWhatTheEncoderCannotWrite count bytes from here.
const char* const kGoldenHex =
    "02"      // 0: version 2
    "02"      // 1: two tiles
    "02"      // 2: tile 0: two blocks
    "026b39"  // 3: last user key "k9"
    "00"
    "64"  // 6: handle: offset 0, size 100
    "07"  // 8: 7 entries
    "03"  // 9: flags: delete keys, only coverable entries
    "0161"
    "0166"    // 10: delete keys "a" .. "f"
    "020681"  // 14: key filter: 6 probes, one byte of bits
    "69"
    "5a"  // 17: handle: offset 105, size 90
    "05"  // 19: 5 entries
    "01"  // 20: flags: delete keys
    "0167"
    "017a"    // 21: delete keys "g" .. "z"
    "020618"  // 25: key filter
    "01"      // 28: tile 1: one block
    "00"      // 29: no last user key
    "c801"
    "32"   // 30: handle: offset 200, size 50
    "03"   // 33: 3 entries
    "00"   // 34: flags: none, no delete keys
    "00";  // 35: no key filter

// Version 1 of the same map, as tables written before version 2 hold it.
const char* const kVersion1Hex =
    "01"                // version 1
    "02"                // two tiles
    "02"                // tile 0: two blocks
    "0064070301610166"  // offset 0, size 100, 7 entries, flags 3, "a".."f"
    "695a05010167017a"  // offset 105, size 90, 5 entries, flags 1, "g".."z"
    "01"                // tile 1: one block
    "c801320300";       // offset 200, size 50, 3 entries, no flags

std::string Bytes(const char* hex) {
  std::string out;
  EXPECT_TRUE(Slice(hex).DecodeHex(&out));
  return out;
}

Status Decode(const std::string& bytes, std::vector<Tile>* tiles) {
  return DecodeTileMap(bytes, tiles);
}

}  // namespace

TEST(TileMapTest, GoldenBytes) {
  std::string encoded;
  EncodeTileMap(GoldenTiles(), &encoded);
  EXPECT_EQ(Slice(encoded).ToString(true),
            Slice(Bytes(kGoldenHex)).ToString(true));

  std::vector<Tile> decoded;
  ASSERT_OK(Decode(Bytes(kGoldenHex), &decoded));
  EXPECT_TRUE(decoded == GoldenTiles());
}

// Tables written before version 2 stay readable.
TEST(TileMapTest, ReadsVersion1) {
  std::vector<Tile> decoded;
  ASSERT_OK(Decode(Bytes(kVersion1Hex), &decoded));
  EXPECT_TRUE(decoded == GoldenTilesVersion1());
}

TEST(TileMapTest, EmptyMap) {
  std::string encoded;
  EncodeTileMap({}, &encoded);
  EXPECT_EQ(Slice(encoded).ToString(true), "0200");
  std::vector<Tile> decoded{Tile{{UnkeyedBlock(0, 1, 1)}}};
  ASSERT_OK(Decode(encoded, &decoded));
  EXPECT_TRUE(decoded.empty());
}

TEST(TileMapTest, EveryTruncationIsRefused) {
  for (const char* hex : {kGoldenHex, kVersion1Hex}) {
    const std::string golden = Bytes(hex);
    for (size_t len = 0; len < golden.size(); ++len) {
      std::vector<Tile> decoded;
      Status s = Decode(golden.substr(0, len), &decoded);
      EXPECT_TRUE(s.IsCorruption()) << len << ": " << s.ToString();
      EXPECT_TRUE(decoded.empty());
    }
    std::vector<Tile> decoded;
    EXPECT_TRUE(Decode(golden + '\0', &decoded).IsCorruption());
  }
}

// Each case changes one byte of the golden map (offset in the bytes above).
TEST(TileMapTest, RefusesWhatTheEncoderCannotWrite) {
  struct Case {
    size_t offset;
    char byte;
    const char* what;
  } cases[] = {
      {0, '\x00', "version 0"},
      {0, '\x03', "unknown version"},
      {1, '\x7f', "impossible tile count"},
      {2, '\x00', "a tile of no blocks"},
      {3, '\x7f', "a last user key longer than the map"},
      {8, '\x00', "a block of no entries"},
      {9, '\x07', "unknown block flag"},
      {20, '\x02', "only coverable entries without delete keys"},
      {34, '\x02', "the same, in the last block"},
      {11, '\x7b', "smallest delete key above largest"},
      {17, '\x10', "a block starting inside the previous one"},
      {14, '\x01', "a key filter without bits"},
      {15, '\x00', "a key filter of no probes"},
      {15, '\x1f', "a key filter of more probes than a decoder takes"},
      {35, '\x05', "a key filter longer than the map"},
  };
  const std::string golden = Bytes(kGoldenHex);
  for (const Case& c : cases) {
    std::string bytes = golden;
    ASSERT_LT(c.offset, bytes.size());
    bytes[c.offset] = c.byte;
    std::vector<Tile> decoded;
    Status s = Decode(bytes, &decoded);
    EXPECT_TRUE(s.IsCorruption()) << c.what << ": " << s.ToString();
    EXPECT_TRUE(decoded.empty()) << c.what;
  }
}

TEST(TileMapTest, AtMostMaxTileBlocksPerTile) {
  auto map_of = [](uint32_t blocks) {
    std::string bytes;
    PutVarint32(&bytes, kTileMapFormatVersion);
    PutVarint32(&bytes, 1);  // One tile.
    PutVarint32(&bytes, blocks);
    bytes.push_back('\0');  // No last user key.
    for (uint32_t b = 0; b < blocks; ++b) {
      BlockHandle(b * 10, 5).EncodeTo(&bytes);
      bytes.push_back('\x01');  // One entry.
      bytes.push_back('\0');    // No delete keys.
      bytes.push_back('\0');    // No key filter.
    }
    return bytes;
  };
  std::vector<Tile> decoded;
  ASSERT_OK(Decode(map_of(kMaxTileBlocks), &decoded));
  ASSERT_EQ(decoded.size(), 1);
  EXPECT_EQ(decoded[0].blocks.size(), kMaxTileBlocks);
  EXPECT_TRUE(Decode(map_of(kMaxTileBlocks + 1), &decoded).IsCorruption());
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
