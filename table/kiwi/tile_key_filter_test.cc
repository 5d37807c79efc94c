// The tile key filter (tile_key_filter.h): no false negatives, about the
// false positive rate its bits per key give, and its bytes pinned (a
// change to them is a new tile map version in FORMAT.md). Linked into
// kiwi_layout_test.

#include "table/kiwi/tile_key_filter.h"

#include <string>

#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

std::string KeyOf(int filter, int i) {
  char key[32];
  snprintf(key, sizeof(key), "f%04d-key%06d", filter, i);
  return key;
}

}  // namespace

TEST(TileKeyFilterTest, HoldsEveryKeyAndFewOthers) {
  constexpr int kFilters = 500, kKeysPerFilter = 14, kProbes = 200;
  int others = 0, false_positives = 0;
  for (int f = 0; f < kFilters; ++f) {
    TileKeyFilterBuilder builder;
    for (int i = 0; i < kKeysPerFilter; ++i) {
      builder.AddUserKey(KeyOf(f, 2 * i));
    }
    const std::string filter = builder.Finish();
    ASSERT_TRUE(ValidTileKeyFilter(filter));
    EXPECT_EQ(filter.size(), 1 + (kKeysPerFilter * 10 + 7) / 8);
    for (int i = 0; i < kKeysPerFilter; ++i) {
      ASSERT_TRUE(TileKeyFilterMayMatch(filter, KeyOf(f, 2 * i)));
    }
    for (int i = 0; i < kProbes; ++i) {
      ++others;
      false_positives += TileKeyFilterMayMatch(filter, KeyOf(f, 2 * i + 1));
    }
  }
  // 10 bits a key and 6 probes: about 0.8%.
  const double rate = static_cast<double>(false_positives) / others;
  EXPECT_GT(rate, 0.001);
  EXPECT_LT(rate, 0.025);
}

TEST(TileKeyFilterTest, VersionsOfAKeyCountOnce) {
  TileKeyFilterBuilder once, thrice;
  once.AddUserKey("a");
  once.AddUserKey("b");
  for (int v = 0; v < 3; ++v) {
    thrice.AddUserKey("a");
  }
  thrice.AddUserKey("b");
  EXPECT_EQ(once.Finish(), thrice.Finish());
}

TEST(TileKeyFilterTest, NoKeysNoFilter) {
  TileKeyFilterBuilder builder;
  EXPECT_EQ(builder.Finish(), "");
  EXPECT_TRUE(TileKeyFilterMayMatch("", "anything"));
  EXPECT_TRUE(ValidTileKeyFilter(""));
  EXPECT_FALSE(ValidTileKeyFilter("\x06"));  // No bits.
  EXPECT_FALSE(ValidTileKeyFilter(std::string("\x00\xff", 2)));
  EXPECT_FALSE(ValidTileKeyFilter("\x1f\xff"));  // 31 probes.
  EXPECT_TRUE(ValidTileKeyFilter("\x1e\xff"));   // 30.
}

// The filter of "a" and "b": 6 probes, 3 bytes of bits (20 rounded up), at
// the bits Hash64 (util/hash.h) gives.
TEST(TileKeyFilterTest, GoldenBytes) {
  TileKeyFilterBuilder builder;
  builder.AddUserKey("a");
  builder.AddUserKey("b");
  EXPECT_EQ(Slice(builder.Finish()).ToString(true), "061062FC");
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
