#include "rocksdb/location_cache.h"

#include "cache/location/location_descriptor.h"
#include "rocksdb/convenience.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

class LocationCacheOptionsTest : public testing::Test {
 protected:
  Status Parse(const std::string& value) {
    return LocationCache::CreateFromString(ConfigOptions(), value, &cache_);
  }
  std::shared_ptr<LocationCache> cache_;
};

TEST_F(LocationCacheOptionsTest, PlainSize) {
  ASSERT_OK(Parse("64M"));
  ASSERT_NE(cache_, nullptr);
  EXPECT_EQ(cache_->GetOptions().capacity, size_t{64} << 20);
  EXPECT_EQ(cache_->GetCapacity(), size_t{64} << 20);
  EXPECT_EQ(cache_->ToString(), "capacity=67108864");
}

TEST_F(LocationCacheOptionsTest, Fields) {
  ASSERT_OK(Parse("{capacity=1024}"));
  EXPECT_EQ(cache_->GetCapacity(), 1024u);
  ASSERT_OK(Parse("block_cache_fraction=0.1"));
  EXPECT_DOUBLE_EQ(cache_->GetOptions().block_cache_fraction, 0.1);
  EXPECT_EQ(cache_->GetCapacity(), 0u);  // Sized when a DB opens.
  EXPECT_EQ(cache_->ToString(), "block_cache_fraction=0.1");
}

TEST_F(LocationCacheOptionsTest, RoundTrip) {
  ASSERT_OK(Parse("capacity=4K"));
  std::shared_ptr<LocationCache> again;
  ASSERT_OK(LocationCache::CreateFromString(ConfigOptions(), cache_->ToString(),
                                            &again));
  EXPECT_EQ(again->ToString(), cache_->ToString());
}

TEST_F(LocationCacheOptionsTest, NullAndEmpty) {
  cache_ = LocationCache::Create(LocationCacheOptions());
  ASSERT_OK(Parse("nullptr"));
  EXPECT_EQ(cache_, nullptr);
  ASSERT_OK(Parse(""));
  EXPECT_EQ(cache_, nullptr);
}

TEST_F(LocationCacheOptionsTest, BadInputIsAStatus) {
  EXPECT_TRUE(Parse("lots").IsInvalidArgument());
  EXPECT_TRUE(Parse("capacity=").IsInvalidArgument());
  EXPECT_TRUE(Parse("size=64M").IsInvalidArgument());
  EXPECT_TRUE(Parse("block_cache_fraction=0").IsInvalidArgument());
  EXPECT_TRUE(Parse("block_cache_fraction=1.5").IsInvalidArgument());
  EXPECT_TRUE(Parse("block_cache_fraction=x").IsInvalidArgument());
}

TEST(LocationDescriptorTest, RoundTripAndLimits) {
  uint64_t word = 0;
  ASSERT_TRUE(LocationDescriptor::Encode(15, (1u << 24) - 1,
                                         (uint64_t{1} << 26) - 4, 4095, 3,
                                         &word));
  LocationDescriptor d = LocationDescriptor::Decode(word);
  EXPECT_EQ(d.owner, 15u);
  EXPECT_EQ(d.file_number, (1u << 24) - 1);
  EXPECT_EQ(d.block_offset, (uint64_t{1} << 26) - 4);
  EXPECT_EQ(d.value_quad, 4095u >> 2);
  EXPECT_EQ(d.tag, 3u);
  EXPECT_EQ(LocationDescriptor::OwnerOf(word), 15u);
  EXPECT_EQ(LocationDescriptor::TagOf(word), 3u);

  ASSERT_TRUE(LocationDescriptor::Encode(1, 7, 4096, 13, 1, &word));
  d = LocationDescriptor::Decode(word);
  EXPECT_EQ(d.file_number, 7u);
  EXPECT_EQ(d.block_offset, 4096u);
  EXPECT_EQ(d.value_quad, 3u);
  EXPECT_EQ(d.tag, 1u);

  // What does not fit is not cached.
  EXPECT_FALSE(LocationDescriptor::Encode(0, 7, 0, 0, 0, &word));
  EXPECT_FALSE(LocationDescriptor::Encode(16, 7, 0, 0, 0, &word));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 1u << 24, 0, 0, 0, &word));
  EXPECT_FALSE(
      LocationDescriptor::Encode(1, 7, uint64_t{1} << 26, 0, 0, &word));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 7, 0, 4096, 0, &word));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 7, 0, 0, 4, &word));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
