// The tile map's bytes (table/kiwi/FORMAT.md), pinned: a change to the
// golden bytes below is a new format version there. And what the decoder
// refuses.

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
// something else as well), the second of one block without delete keys.
std::vector<Tile> GoldenTiles() {
  return {Tile{{KeyedBlock(0, 100, 7, "a", "f", true),
                KeyedBlock(105, 90, 5, "g", "z", false)}},
          Tile{{UnkeyedBlock(200, 50, 3)}}};
}

// Written out by hand from FORMAT.md, not by the encoder.
const char* const kGoldenHex =
    "01"  // version 1
    "02"  // two tiles
    "02"  // tile 0: two blocks
    "00"
    "64"  //   handle: offset 0, size 100
    "07"  //   7 entries
    "03"  //   flags: delete keys, only coverable entries
    "0161"
    "0166"  //   delete keys "a" .. "f"
    "69"
    "5a"  //   handle: offset 105, size 90
    "05"  //   5 entries
    "01"  //   flags: delete keys
    "0167"
    "017a"  //   delete keys "g" .. "z"
    "01"    // tile 1: one block
    "c801"
    "32"   //   handle: offset 200, size 50
    "03"   //   3 entries
    "00";  //   flags: none, no delete keys

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

TEST(TileMapTest, EmptyMap) {
  std::string encoded;
  EncodeTileMap({}, &encoded);
  EXPECT_EQ(Slice(encoded).ToString(true), "0100");
  std::vector<Tile> decoded{Tile{{UnkeyedBlock(0, 1, 1)}}};
  ASSERT_OK(Decode(encoded, &decoded));
  EXPECT_TRUE(decoded.empty());
}

TEST(TileMapTest, EveryTruncationIsRefused) {
  const std::string golden = Bytes(kGoldenHex);
  for (size_t len = 0; len < golden.size(); ++len) {
    std::vector<Tile> decoded;
    Status s = Decode(golden.substr(0, len), &decoded);
    EXPECT_TRUE(s.IsCorruption()) << len << ": " << s.ToString();
    EXPECT_TRUE(decoded.empty());
  }
  std::vector<Tile> decoded;
  EXPECT_TRUE(Decode(golden + '\0', &decoded).IsCorruption());
}

// Each case changes one byte of the golden map (offset in the bytes above).
TEST(TileMapTest, RefusesWhatTheEncoderCannotWrite) {
  struct Case {
    size_t offset;
    char byte;
    const char* what;
  } cases[] = {
      {0, '\x02', "unknown version"},
      {1, '\x7f', "impossible tile count"},
      {2, '\x00', "a tile of no blocks"},
      {5, '\x00', "a block of no entries"},
      {6, '\x07', "unknown block flag"},
      {14, '\x02', "only coverable entries without delete keys"},
      {24, '\x02', "the same, in the last block"},
      {8, '\x7b', "smallest delete key above largest"},
      {11, '\x10', "a block starting inside the previous one"},
  };
  const std::string golden = Bytes(kGoldenHex);
  for (const Case& c : cases) {
    std::string bytes = golden;
    ASSERT_LT(c.offset, bytes.size());
    bytes[c.offset] = c.byte;
    std::vector<Tile> decoded;
    Status s = Decode(bytes, &decoded);
    EXPECT_TRUE(s.IsCorruption()) << c.what << ": " << s.ToString();
  }
}

TEST(TileMapTest, AtMostMaxTileBlocksPerTile) {
  auto map_of = [](uint32_t blocks) {
    std::string bytes;
    PutVarint32(&bytes, kTileMapFormatVersion);
    PutVarint32(&bytes, 1);  // One tile.
    PutVarint32(&bytes, blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
      BlockHandle(b * 10, 5).EncodeTo(&bytes);
      bytes.push_back('\x01');  // One entry.
      bytes.push_back('\0');    // No delete keys.
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
