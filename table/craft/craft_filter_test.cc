// CRaFT's partitioned filter: partitions and metadata together never give a
// false negative; metadata decoding rejects damage.

#include "table/craft/craft_filter.h"

#include <random>
#include <set>

#include "table/craft/craft_builder_pool.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

struct Built {
  std::vector<std::string> partitions;
  std::string metadata;
};

Built BuildFilter(const std::set<std::string>& keys, uint32_t partition_size,
                  uint32_t keys_per_block) {
  CraftFilterOptions options;
  options.partition_size = partition_size;
  options.trie.real_suffix_bits = 4;
  CraftFilterBuilder builder(options);
  uint32_t i = 0;
  for (const std::string& k : keys) {
    // Two versions of some keys, as a table holds them.
    builder.Add(k, i / keys_per_block);
    if (i % 3 == 0) builder.Add(k, i / keys_per_block);
    ++i;
  }
  Built built;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder.Finish(&built.partitions, &infos, &last_key);
  CraftMetadata::Encode(infos, last_key, &built.metadata);
  return built;
}

// Decodes every partition once; the loader hands out pointers into it.
struct Loader {
  explicit Loader(const Built& built) : tries(built.partitions.size()) {
    for (size_t i = 0; i < tries.size(); ++i) {
      EXPECT_OK(CraftPartition::Decode(built.partitions[i], &tries[i]));
    }
  }
  CraftPartitionLoader Get() {
    return [this](size_t index, const CraftPartition** trie, Cleanable*) {
      if (index >= tries.size()) {
        return Status::Corruption("no such partition");
      }
      *trie = &tries[index];
      return Status::OK();
    };
  }
  std::vector<CraftPartition> tries;
};

std::string RandomKey(std::mt19937_64& rng, size_t max_len) {
  static const char kAlphabet[] = "abcxyz\x01\xfe";
  std::string k;
  const size_t len = 1 + rng() % max_len;
  for (size_t i = 0; i < len; ++i) {
    k.push_back(kAlphabet[rng() % (sizeof(kAlphabet) - 1)]);
  }
  return k;
}

}  // namespace

TEST(CraftFilterTest, NoFalseNegativesAcrossPartitions) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 40; ++round) {
    std::set<std::string> keys;
    const int n = 50 + static_cast<int>(rng() % 3000);
    for (int i = 0; i < n; ++i) keys.insert(RandomKey(rng, 10));
    const uint32_t partition_size = 64u << (rng() % 6);
    Built built = BuildFilter(keys, partition_size, 16);
    CraftMetadata metadata;
    ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
    ASSERT_EQ(metadata.partitions().size(), built.partitions.size());
    ASSERT_EQ(metadata.num_keys(), keys.size());
    CraftFilterReader reader(metadata);
    Loader tries(built);
    const CraftPartitionLoader loader = tries.Get();
    for (int q = 0; q < 2000; ++q) {
      std::string lo = RandomKey(rng, 10), hi = RandomKey(rng, 10);
      if (hi < lo) std::swap(lo, hi);
      auto it = keys.lower_bound(lo);
      const bool truth = it != keys.end() && *it < hi;
      ASSERT_TRUE(!truth || reader.RangeMayExist(lo, hi, loader))
          << "round " << round << " [" << Slice(lo).ToString(true) << ", "
          << Slice(hi).ToString(true) << ")";
    }
  }
}

// Text keys get the order-preserving key code (format 3 partitions), fitted
// to the first keys; uniform binary keys keep their bytes (format 2). No
// false negatives either way, also for keys unlike the sampled ones.
TEST(CraftFilterTest, KeyCodeOnlyWhereItPays) {
  std::mt19937_64 rng(17);
  for (const bool text : {true, false}) {
    std::set<std::string> keys;
    while (keys.size() < 20000) {
      std::string k;
      if (text) {
        const size_t len = 3 + rng() % 9;
        for (size_t i = 0; i < len; ++i) k.push_back('a' + rng() % 26);
        k += std::to_string(rng() % 100) + "@example.com";
      } else {
        for (int i = 0; i < 8; ++i) k.push_back(static_cast<char>(rng()));
      }
      keys.insert(k);
    }
    // Past the sample: keys of other bytes the code was not fitted to.
    for (int i = 0; i < 500; ++i) {
      keys.insert(std::string("\xfe") + RandomKey(rng, 12));
    }
    Built built = BuildFilter(keys, 16384, 16);
    for (const std::string& p : built.partitions) {
      ASSERT_EQ(p[0], text ? 3 : 2);
    }
    CraftMetadata metadata;
    ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
    CraftFilterReader reader(metadata);
    Loader tries(built);
    const CraftPartitionLoader loader = tries.Get();
    for (const std::string& k : keys) {
      ASSERT_TRUE(reader.RangeMayExist(k, k + std::string(1, '\0'), loader));
    }
    for (int q = 0; q < 20000; ++q) {
      std::string lo, hi;
      if (text) {
        for (size_t i = 1 + rng() % 8; i > 0; --i)
          lo.push_back('a' + rng() % 26);
        hi = lo + std::string(1 + rng() % 2, static_cast<char>(rng()));
      } else {
        lo = RandomKey(rng, 10);
        hi = RandomKey(rng, 10);
      }
      if (hi < lo) std::swap(lo, hi);
      auto it = keys.lower_bound(lo);
      const bool truth = it != keys.end() && *it < hi;
      ASSERT_TRUE(!truth || reader.RangeMayExist(lo, hi, loader))
          << text << " [" << Slice(lo).ToString(true) << ", "
          << Slice(hi).ToString(true) << ")";
    }
  }
}

std::string BigEndian64(uint64_t v) {
  std::string k(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) k[i] = static_cast<char>(v & 0xff);
  return k;
}

// The metadata's key density predicts how many keys a range holds (what
// decides whether a seek asks the filter); format 1 metadata has no last
// key and says "unknown" for the last partition.
TEST(CraftFilterTest, ExpectedKeysFollowTheKeyDensity) {
  std::mt19937_64 rng(23);
  std::set<std::string> keys;
  const uint64_t kSpace = uint64_t{1} << 40;
  while (keys.size() < 50000) {
    keys.insert("user" + BigEndian64(rng() % kSpace) + "x");
  }
  Built built = BuildFilter(keys, 4096, 16);
  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  ASSERT_GT(metadata.partitions().size(), 10u);
  for (int q = 0; q < 2000; ++q) {
    const uint64_t lo = rng() % kSpace;
    const uint64_t width = kSpace >> (8 + rng() % 16);  // ~0.003..200 keys.
    const std::string lo_key = "user" + BigEndian64(lo);
    const std::string hi_key = "user" + BigEndian64(lo + width);
    const double expected = metadata.ExpectedKeys(lo_key, hi_key);
    const double truth = static_cast<double>(
        std::distance(keys.lower_bound(lo_key), keys.lower_bound(hi_key)));
    const double mean = 50000.0 * static_cast<double>(width) / kSpace;
    if (mean >= 30 && mean < 150) {
      // Within one partition or spanning: in proportion either way.
      EXPECT_GT(expected, truth / 3) << q;
    } else if (mean < 0.01 && expected >= 0) {
      EXPECT_LT(expected, 0.5) << q;
    }
  }
  EXPECT_EQ(metadata.ExpectedKeys("a", "b"), 0);  // Before the first key.
  EXPECT_EQ(metadata.ExpectedKeys("user\xff", "user\xff\x01"), 0);
  EXPECT_GE(metadata.ExpectedKeys("user", "v"), 1.0);

  // Format 1: the same blocks without the last key.
  std::string v1 = built.metadata;
  const size_t last_key_bytes = keys.rbegin()->size() + 1;
  v1.resize(v1.size() - last_key_bytes);
  v1[0] = 1;
  CraftMetadata old;
  ASSERT_OK(CraftMetadata::Decode(v1, &old));
  EXPECT_EQ(old.num_keys(), metadata.num_keys());
  const std::string& last_first = old.partitions().back().first_key;
  EXPECT_EQ(old.ExpectedKeys(last_first, last_first + "\x01"), -1);
  // And a last key before the last partition's first key is damage.
  std::string bad;
  std::vector<CraftPartitionInfo> infos(metadata.partitions());
  CraftMetadata::Encode(infos, "a", &bad);
  EXPECT_TRUE(CraftMetadata::Decode(bad, &old).IsCorruption());
}

// Ids printed in decimal (Kafka Streams' keys, SQL engines' text keys) are
// as dense as the numbers: read as bytes, a digit position spans 256
// values where it uses 10, and a short scan over ten orders looked like
// 0.1 keys, so every such scan asked the filter for nothing.
TEST(CraftFilterTest, ExpectedKeysReadDecimalIdsAsNumbers) {
  constexpr int kRegions = 10;
  constexpr long kGap = 1000;
  auto order = [](int region, long id) {
    char key[64];
    snprintf(key, sizeof(key), "region-%02d/order-%09ld", region, id);
    return std::string(key);
  };
  std::set<std::string> keys;
  for (long n = 0; n < 20000; ++n) {  // Even regions only, ids kGap apart.
    keys.insert(
        order(2 * static_cast<int>(n % kRegions), (n / kRegions) * kGap));
  }
  Built built = BuildFilter(keys, 1024, 16);
  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  ASSERT_GT(metadata.partitions().size(), 20u);
  const long max_id = 20000 / kRegions * kGap;
  std::mt19937_64 rng(29);
  int same_region = 0;
  int ten_orders_below_one = 0;
  for (int q = 0; q < 1000; ++q) {
    const int region = 2 * static_cast<int>(rng() % kRegions);
    const long id = static_cast<long>(rng() % (20000 / kRegions)) * kGap;
    // Over ten orders, in a partition within the region (one holding the
    // end of a region and the start of the next looks, to the metadata,
    // evenly spread over the empty region between: those are checked).
    const std::string lo = order(region, id);
    const std::string hi = order(region, id + 10 * kGap);
    const int p = metadata.FindPartition(lo);
    if (id + 10 * kGap <= max_id && p >= 0 &&
        static_cast<size_t>(p) + 1 < metadata.partitions().size() &&
        metadata.partitions()[p].first_key.compare(0, 9, lo, 0, 9) == 0 &&
        metadata.partitions()[p + 1].first_key.compare(0, 9, lo, 0, 9) == 0) {
      ++same_region;
      if (metadata.ExpectedKeys(lo, hi) < 1.0) {
        ++ten_orders_below_one;
      }
    }
    // Between two neighbouring orders: empty, and expected so.
    const double gap = metadata.ExpectedKeys(order(region, id + kGap / 10),
                                             order(region, id + kGap * 9 / 10));
    EXPECT_LT(gap, 1.0) << order(region, id);
    EXPECT_GE(gap, 0.0) << order(region, id);
    // An empty region, between two partitions' keys.
    EXPECT_LT(metadata.ExpectedKeys(order(region + 1, id),
                                    order(region + 1, id + 100 * kGap)),
              1.0)
        << order(region + 1, id);
  }
  EXPECT_GT(same_region, 500);
  EXPECT_EQ(ten_orders_below_one, 0);
  // Across a carry ("...999000" to "...001000"): two orders, not hundreds.
  const std::string before = order(4, 999 * kGap);
  const std::string after = order(4, 1001 * kGap);
  const double carry = metadata.ExpectedKeys(before, after);
  EXPECT_GE(carry, 1.0);
  if (metadata.FindPartition(before) == metadata.FindPartition(after)) {
    EXPECT_LT(carry, 10.0);
  }
}

TEST(CraftFilterTest, PartitionsHonourTheTargetSize) {
  std::mt19937_64 rng(3);
  std::set<std::string> keys;
  while (keys.size() < 20000) keys.insert(RandomKey(rng, 16));
  Built built = BuildFilter(keys, 4096, 32);
  ASSERT_GT(built.partitions.size(), 4u);
  for (size_t i = 0; i + 1 < built.partitions.size(); ++i) {
    EXPECT_LT(built.partitions[i].size(), 4096u + 512u);
  }
  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  CraftFilterReader reader(metadata);
  // Every key lands in a partition whose block range holds its block.
  uint32_t i = 0;
  for (const std::string& k : keys) {
    uint32_t first = 0, last = 0;
    ASSERT_TRUE(reader.BlockRange(k, &first, &last));
    EXPECT_LE(first, i / 32);
    EXPECT_GE(last, i / 32);
    ++i;
  }
  // Counts: the whole range is every key; estimates stay in proportion.
  EXPECT_EQ(metadata.num_keys(), keys.size());
  const uint64_t est = reader.EstimateKeys("", "\xff\xff");
  EXPECT_GT(est, keys.size() / 2);
  EXPECT_LE(est, keys.size());
}

// With a range hash, partitions of fixed-width keys are written as version
// 4 and a partition of mixed widths without one; no false negatives either
// way, and ranges just past a stored key are mostly rejected.
TEST(CraftFilterTest, RangeHashPerPartition) {
  std::mt19937_64 rng(5);
  std::set<std::string> keys;
  while (keys.size() < 6000) {
    std::string k(8, '\0');
    const uint64_t v = rng() >> 8;
    for (int b = 0; b < 8; ++b) {
      k[b] = static_cast<char>(v >> (56 - 8 * b));
    }
    keys.insert(k);
  }
  keys.insert(std::string(8, '\xff') +
              "x");  // The last partition's width differs.
  CraftFilterOptions options;
  options.partition_size = 4096;
  options.trie.real_suffix_bits = 4;
  options.range_hash_bits = 14;
  CraftFilterBuilder builder(options);
  for (const std::string& k : keys) {
    builder.Add(k, 0);
  }
  Built built;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder.Finish(&built.partitions, &infos, &last_key);
  CraftMetadata::Encode(infos, last_key, &built.metadata);
  ASSERT_GT(built.partitions.size(), 3u);
  for (size_t i = 0; i + 1 < built.partitions.size(); ++i) {
    EXPECT_EQ(built.partitions[i][0], CraftPartition::kFormatWithRangeHash);
  }
  EXPECT_NE(built.partitions.back()[0], CraftPartition::kFormatWithRangeHash);

  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  CraftFilterReader reader(metadata);
  Loader partitions(built);
  size_t empty = 0, positives = 0;
  for (const std::string& k : keys) {
    ASSERT_TRUE(reader.RangeMayExist(k, k + '\0', partitions.Get()));
    if (k.size() != 8 || static_cast<uint8_t>(k[7]) >= 0x80) {
      continue;
    }
    std::string lo = k, hi = k;
    lo[7] = static_cast<char>(k[7] + 1 + static_cast<int>(rng() % 32));
    hi[7] = static_cast<char>(lo[7] + 32);
    auto next = keys.lower_bound(lo);
    if (next != keys.end() && *next < hi) {
      continue;
    }
    ++empty;
    positives += reader.RangeMayExist(lo, hi, partitions.Get());
  }
  ASSERT_GT(empty, 2000u);
  EXPECT_LT(positives * 20, empty);  // Under 5%; the trie alone: all.
}

TEST(CraftFilterTest, DamagedMetadataIsCorruption) {
  std::set<std::string> keys = {"a", "b", "c", "d", "e"};
  Built built = BuildFilter(keys, 64, 2);
  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  for (size_t cut = 0; cut < built.metadata.size(); ++cut) {
    Status s =
        CraftMetadata::Decode(Slice(built.metadata.data(), cut), &metadata);
    EXPECT_TRUE(s.IsCorruption()) << cut;
  }
  std::string bad = built.metadata;
  bad[0] = 9;  // A future version.
  EXPECT_TRUE(CraftMetadata::Decode(bad, &metadata).IsCorruption());
  std::string reordered;
  CraftMetadata::Encode({{"b", 1, 0, 0, 0, 1}, {"a", 1, 0, 0, 0, 1}}, "b",
                        &reordered);
  EXPECT_TRUE(CraftMetadata::Decode(reordered, &metadata).IsCorruption());
}

TEST(CraftFilterTest, UnreadablePartitionAnswersMaybe) {
  std::set<std::string> keys = {"apple", "banana", "cherry"};
  Built built = BuildFilter(keys, 1 << 20, 8);
  CraftMetadata metadata;
  ASSERT_OK(CraftMetadata::Decode(built.metadata, &metadata));
  CraftFilterReader reader(metadata);
  Status status;
  auto broken = [](size_t, const CraftPartition**, Cleanable*) {
    return Status::Corruption("checksum mismatch");
  };
  EXPECT_TRUE(reader.RangeMayExist("b", "bz", broken, &status));
  EXPECT_TRUE(status.IsCorruption());
  // With a good loader the same empty range is filtered.
  Loader tries(built);
  EXPECT_FALSE(reader.RangeMayExist("bz", "bzz", tries.Get()));
}

namespace {

// One table's filter as Finish hands it out.
struct FinishedTable {
  std::vector<std::string> partitions;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
};

FinishedTable FinishTable(CraftFilterBuilder* builder,
                          const std::vector<std::string>& keys) {
  uint32_t block = 0;
  for (const std::string& k : keys) builder->Add(k, block++ / 16);
  FinishedTable t;
  builder->Finish(&t.partitions, &t.infos, &t.last_key);
  return t;
}

}  // namespace

// A builder reused table after table (as CraftBuilderPool reuses them)
// writes what a new one writes: tables that take the key code and tables
// that do not, one after the other, empty tables, tables past the key-code
// sample and of several partitions, with and without a range hash.
TEST(CraftFilterTest, ReusedBuilderWritesWhatANewOneWrites) {
  std::mt19937_64 rng(20261129);
  for (const uint32_t range_hash_bits : {0u, 10u}) {
    CraftFilterOptions options;
    options.partition_size = 2048;
    options.range_hash_bits = range_hash_bits;
    CraftFilterBuilder reused(options);
    int coded = 0, plain = 0;
    for (int table = 0; table < 24; ++table) {
      std::set<std::string> set;
      const size_t n = table % 5 == 4 ? 0 : rng() % 12000;
      while (set.size() < n) {
        std::string k;
        if (table % 2 == 0) {  // Text: coded.
          for (size_t i = 3 + rng() % 9; i > 0; --i)
            k.push_back('a' + rng() % 26);
          k += "@example.com";
        } else {  // Integers: plain.
          for (int i = 0; i < 8; ++i) k.push_back(static_cast<char>(rng()));
        }
        set.insert(k);
      }
      const std::vector<std::string> keys(set.begin(), set.end());
      CraftFilterBuilder fresh(options);
      const FinishedTable expected = FinishTable(&fresh, keys);
      const FinishedTable actual = FinishTable(&reused, keys);
      ASSERT_TRUE(reused.idle());
      ASSERT_EQ(expected.partitions, actual.partitions) << table;
      ASSERT_EQ(expected.last_key, actual.last_key) << table;
      ASSERT_EQ(expected.infos.size(), actual.infos.size()) << table;
      for (size_t i = 0; i < expected.infos.size(); ++i) {
        EXPECT_EQ(expected.infos[i].first_key, actual.infos[i].first_key);
        EXPECT_EQ(expected.infos[i].num_keys, actual.infos[i].num_keys);
        EXPECT_EQ(expected.infos[i].first_block, actual.infos[i].first_block);
        EXPECT_EQ(expected.infos[i].last_block, actual.infos[i].last_block);
      }
      if (n > 0) {
        ++(actual.partitions[0][0] == 3 ? coded : plain);
      }
    }
    // The builder went from coded tables to plain ones and back.
    EXPECT_GE(coded, 5);
    EXPECT_GE(plain, 5);
  }
}

// The pool hands an idle builder to the next table and keeps only idle
// builders made with the table's options, at most kMaxIdle of them.
TEST(CraftFilterTest, BuilderPoolReusesIdleBuilders) {
  CraftBuilderPool pool;
  CraftFilterOptions options;
  std::unique_ptr<CraftFilterBuilder> first = pool.Take(options);
  CraftFilterBuilder* const address = first.get();
  FinishTable(first.get(), {"a", "b", "c"});
  pool.Give(std::move(first));
  EXPECT_EQ(pool.idle(), 1u);
  std::unique_ptr<CraftFilterBuilder> again = pool.Take(options);
  EXPECT_EQ(again.get(), address);
  EXPECT_EQ(pool.idle(), 0u);

  // A table abandoned midway leaves its builder out of the pool.
  again->Add("a", 0);
  EXPECT_FALSE(again->idle());
  pool.Give(std::move(again));
  EXPECT_EQ(pool.idle(), 0u);

  // Builders of other options are not handed out.
  pool.Give(pool.Take(options));
  CraftFilterOptions other = options;
  other.range_hash_bits = 12;
  std::unique_ptr<CraftFilterBuilder> hashed = pool.Take(other);
  EXPECT_TRUE(hashed->BuildsWith(other));
  EXPECT_FALSE(hashed->BuildsWith(options));
  EXPECT_EQ(pool.idle(), 0u);

  // At most kMaxIdle stay.
  std::vector<std::unique_ptr<CraftFilterBuilder>> many;
  for (size_t i = 0; i < CraftBuilderPool::kMaxIdle + 3; ++i) {
    many.push_back(pool.Take(options));
  }
  for (auto& b : many) pool.Give(std::move(b));
  EXPECT_EQ(pool.idle(), CraftBuilderPool::kMaxIdle);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
