#include "rocksdb/location_cache.h"

#include <array>
#include <set>
#include <string>
#include <vector>

#include "cache/location/location_descriptor.h"
#include "db/dbformat.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "table/block_based/block.h"
#include "table/block_based/block_builder.h"
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
  constexpr uint32_t kKey = 0x5eed1234;
  // Every field at its largest.
  LocationSlotWords words;
  ASSERT_TRUE(LocationDescriptor::Encode(
      15, (uint64_t{1} << 30) - 1, (uint64_t{1} << 30) - 1,
      (uint64_t{1} << 20) - 1, (uint64_t{1} << 16) - 1, 3, kKey, &words));
  LocationDescriptor d;
  ASSERT_TRUE(LocationDescriptor::Decode(words, kKey, &d));
  EXPECT_EQ(d.owner, 15u);
  EXPECT_EQ(d.file_number, (uint64_t{1} << 30) - 1);
  EXPECT_EQ(d.block_offset, (uint64_t{1} << 30) - 1);
  EXPECT_EQ(d.block_size, (uint64_t{1} << 20) - 1);
  EXPECT_EQ(d.value_offset_words, ((1u << 16) - 1) >> 2);
  EXPECT_EQ(d.tag, 3u);
  EXPECT_EQ(LocationDescriptor::OwnerOf(words.head), 15u);
  EXPECT_EQ(LocationDescriptor::TagOf(words.head), 3u);

  // What a production table needs: a 16 KiB block past 64 MiB of a file
  // numbered past 2^24, an entry past 4 KiB in it.
  ASSERT_TRUE(LocationDescriptor::Encode(1, uint64_t{1} << 25,
                                         (uint64_t{70} << 20) + 3, 7001, 12345,
                                         1, kKey, &words));
  ASSERT_TRUE(LocationDescriptor::Decode(words, kKey, &d));
  EXPECT_EQ(d.file_number, uint64_t{1} << 25);
  EXPECT_EQ(d.block_offset, (uint64_t{70} << 20) + 3);
  EXPECT_EQ(d.block_size, 7001u);
  EXPECT_EQ(d.value_offset_words, 12345u >> 2);
  EXPECT_EQ(d.tag, 1u);

  // What does not fit is not cached.
  EXPECT_FALSE(LocationDescriptor::Encode(0, 7, 0, 0, 0, 0, kKey, &words));
  EXPECT_FALSE(LocationDescriptor::Encode(16, 7, 0, 0, 0, 0, kKey, &words));
  EXPECT_FALSE(LocationDescriptor::Encode(1, uint64_t{1} << 30, 0, 0, 0, 0,
                                          kKey, &words));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 7, uint64_t{1} << 30, 0, 0, 0,
                                          kKey, &words));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 7, 0, uint64_t{1} << 20, 0, 0,
                                          kKey, &words));
  EXPECT_FALSE(
      LocationDescriptor::Encode(1, 7, 0, 0, 1u << 16, 0, kKey, &words));
  EXPECT_FALSE(LocationDescriptor::Encode(1, 7, 0, 0, 0, 4, kKey, &words));
}

// A tail written for another head, as a reader sees it while a writer is
// between its two stores, is not taken: every field of the head and of the
// tail is covered by the check, and so is the key's fingerprint.
TEST(LocationDescriptorTest, TornPairFailsTheCheck) {
  constexpr uint32_t kKey = 0x5eed1234;
  LocationSlotWords base;
  ASSERT_TRUE(
      LocationDescriptor::Encode(3, 1000, 1 << 20, 4000, 800, 2, kKey, &base));
  LocationDescriptor d;
  ASSERT_TRUE(LocationDescriptor::Decode(base, kKey, &d));
  const std::vector<std::array<uint64_t, 6>> others = {
      {4, 1000, 1 << 20, 4000, 800, 2},        // owner
      {3, 1001, 1 << 20, 4000, 800, 2},        // file
      {3, 1000, (1 << 20) + 4, 4000, 800, 2},  // block offset
      {3, 1000, (1 << 20) + 1, 4000, 800, 2},  // its low bits
      {3, 1000, 1 << 20, 4001, 800, 2},        // block size
      {3, 1000, 1 << 20, 4000, 804, 2},        // value offset
      {3, 1000, 1 << 20, 4000, 800, 1},        // tag
  };
  for (const auto& f : others) {
    LocationSlotWords other;
    ASSERT_TRUE(LocationDescriptor::Encode(
        static_cast<uint32_t>(f[0]), f[1], f[2], f[3], f[4],
        static_cast<uint32_t>(f[5]), kKey, &other));
    ASSERT_NE(other, base);
    if (other.head != base.head) {
      EXPECT_FALSE(
          LocationDescriptor::Decode({base.head, other.tail}, kKey, &d));
      EXPECT_FALSE(
          LocationDescriptor::Decode({other.head, base.tail}, kKey, &d));
    } else {
      // Same head, another entry of the same block: a pair some writer
      // wrote, naming that entry (the hit then finds another key there).
      ASSERT_TRUE(
          LocationDescriptor::Decode({base.head, other.tail}, kKey, &d));
      EXPECT_EQ(d.block_offset, f[2]);
      EXPECT_EQ(d.block_size, f[3]);
      EXPECT_EQ(d.value_offset_words, f[4] >> 2);
    }
  }
  // Another key's descriptor: every bit of the key's fingerprint counts.
  for (int bit = 0; bit < 32; bit++) {
    EXPECT_FALSE(LocationDescriptor::Decode(base, kKey ^ (1u << bit), &d))
        << bit;
  }
  // A slot whose tail was never written (zero) under a live head.
  EXPECT_FALSE(LocationDescriptor::Decode({base.head, 0}, kKey, &d));
}

// A hit finds its entry by value offset alone
// (DataBlockIter::SeekToEntryByValueOffset, patch 0026): every entry is found
// by its own offset, with its key and value, and an offset where no value
// starts finds nothing. Per key-value checksums
// (block_protection_bytes_per_key) check the entry index the seek keeps: an
// index off by one fails the checksum.
namespace {

void CheckSeekToEntryByValueOffset(int restart_interval,
                                   uint8_t protection_bytes) {
  SCOPED_TRACE("restart_interval " + std::to_string(restart_interval) +
               ", protection bytes " + std::to_string(protection_bytes));
  BlockBuilder builder(restart_interval);
  std::vector<std::string> keys;
  std::vector<std::string> values;
  for (int i = 0; i < 300; ++i) {
    // Shared prefixes of several lengths, empty and long values.
    std::string user_key = "key" + std::to_string(1000 + i / 3);
    user_key.append(static_cast<size_t>(i % 3), 'x');
    keys.push_back(
        InternalKey(user_key, 500 - i, kTypeValue).Encode().ToString());
    values.push_back(std::string(static_cast<size_t>(i % 7) * 9, 'v'));
    builder.Add(keys.back(), values.back());
  }
  BlockContents contents;
  contents.data = builder.Finish();
  Block block(std::move(contents));
  if (protection_bytes > 0) {
    block.InitializeDataBlockProtectionInfo(protection_bytes,
                                            BytewiseComparator());
  }
  auto new_iter = [&block]() {
    return std::unique_ptr<DataBlockIter>(block.NewDataIterator(
        BytewiseComparator(), kDisableGlobalSequenceNumber));
  };

  std::vector<uint32_t> offsets;
  std::unique_ptr<DataBlockIter> scan = new_iter();
  for (scan->SeekToFirst(); scan->Valid(); scan->Next()) {
    offsets.push_back(scan->ValueOffset());
  }
  ASSERT_EQ(offsets.size(), keys.size());
  std::set<uint32_t> words;
  for (size_t i = 0; i < offsets.size(); ++i) {
    std::unique_ptr<DataBlockIter> iter = new_iter();
    ASSERT_TRUE(iter->SeekToEntryByValueOffset(offsets[i] >> 2)) << i;
    ASSERT_OK(iter->status());
    EXPECT_EQ(iter->key().ToString(), keys[i]);
    EXPECT_EQ(iter->value().ToString(), values[i]);
    words.insert(offsets[i] >> 2);
  }
  ASSERT_EQ(words.size(), offsets.size());  // one entry per 4-byte word
  const uint32_t past_end = static_cast<uint32_t>(block.size() / 4) + 2;
  for (uint32_t word = 0; word < past_end; ++word) {
    if (words.count(word) == 0) {
      EXPECT_FALSE(new_iter()->SeekToEntryByValueOffset(word)) << word;
    }
  }
}

}  // namespace

TEST(LocationBlockSeekTest, FindsEveryEntryByItsValueOffsetAndNothingElse) {
  for (int restart_interval : {1, 4, 16}) {
    for (uint8_t protection_bytes : {0, 8}) {
      CheckSeekToEntryByValueOffset(restart_interval, protection_bytes);
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
