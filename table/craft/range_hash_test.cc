// The range hash (range_hash.h) and version 4 partitions: no false
// negatives on any range, the false positive bound on ranges next to
// stored keys, which keys get a section, and decoding of damaged sections.

#include "table/craft/range_hash.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "table/craft/craft_partition.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::string BigEndian(uint64_t v, size_t bytes = 8) {
  std::string s(bytes, '\0');
  for (size_t i = bytes; i-- > 0; v >>= 8) {
    s[i] = static_cast<char>(v & 0xff);
  }
  return s;
}

std::string Section(const std::vector<std::string>& keys, uint32_t bits) {
  RangeHashBuilder builder(bits);
  for (const std::string& k : keys) {
    builder.Add(k);
  }
  std::string out;
  EXPECT_TRUE(builder.Finish(&out));
  return out;
}

RangeHash Decoded(const std::string& section) {
  RangeHash r;
  EXPECT_OK(RangeHash::Decode(section, &r));
  return r;
}

bool Truth(const std::vector<std::string>& sorted, const std::string& lo,
           const std::string& hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it < hi;
}

}  // namespace

// Every range that holds a key says so, whatever the key width, prefix mix
// and range shape: integer ranges, ranges with bounds longer than the keys,
// across blocks, and arbitrary byte strings.
TEST(RangeHashTest, NoFalseNegatives) {
  std::mt19937_64 rng(7);
  for (size_t width : {1, 2, 4, 8, 12}) {
    for (uint32_t bits : {3u, 8u, 14u, 20u}) {
      std::set<std::string> set;
      const size_t prefixes = width > 8 ? 3 : 1;
      const size_t n = width == 1 ? 100 : 2000;  // Width 1 has 256 keys.
      while (set.size() < n) {
        std::string k = BigEndian(rng() % prefixes, width > 8 ? width - 8 : 0);
        // Clustered tails, so that ranges next to keys are common.
        const uint64_t tail = (rng() % 64) * 1000 + rng() % 200;
        k += BigEndian(tail, std::min<size_t>(width, 8));
        set.insert(k);
      }
      const std::vector<std::string> keys(set.begin(), set.end());
      const RangeHash r = Decoded(Section(keys, bits));
      ASSERT_EQ(r.key_bytes(), width);
      for (int i = 0; i < 20000; ++i) {
        const std::string& k = keys[rng() % keys.size()];
        std::string lo = k;
        std::string hi = k;
        // k with its last byte moved by `delta`, clamped to a byte.
        auto moved = [&k](int delta) {
          const int last = static_cast<uint8_t>(k.back()) + delta;
          return k.substr(0, k.size() - 1) +
                 static_cast<char>(std::min(255, std::max(0, last)));
        };
        switch (rng() % 4) {
          case 0:  // Exactly the key.
            hi.push_back('\0');
            break;
          case 1:  // A short integer range around it.
            lo = moved(-static_cast<int>(rng() % 4));
            hi = moved(1 + static_cast<int>(rng() % 4));
            break;
          case 2:  // Bounds longer than the keys.
            lo = moved(-1) + "\x7f";
            hi = k + "\x01";
            break;
          default:  // Random bounds.
            lo = BigEndian(rng(), width).substr(0, 1 + rng() % width);
            hi = lo + std::string(1 + rng() % 3, '\xff');
            break;
        }
        if (lo >= hi) {
          continue;
        }
        if (Truth(keys, lo, hi)) {
          ASSERT_TRUE(r.RangeMayExist(lo, hi))
              << "width " << width << " bits " << bits << " lo "
              << Slice(lo).ToString(true) << " hi " << Slice(hi).ToString(true);
        }
      }
    }
  }
}

// The point of the section: ranges 1..64 past a stored key are rejected at
// about width / 2^(bits - 2), where the trie alone says "maybe" every time.
TEST(RangeHashTest, CorrelatedRangesAreMostlyRejected) {
  std::mt19937_64 rng(11);
  std::set<uint64_t> ints;
  while (ints.size() < 20000) {
    ints.insert(rng());
  }
  std::vector<std::string> keys;
  for (uint64_t v : ints) {
    keys.push_back(BigEndian(v));
  }
  const std::string section = Section(keys, 14);
  // About 14 bits per key.
  EXPECT_LT(section.size() * 8, keys.size() * 15);
  const RangeHash r = Decoded(section);
  size_t empty = 0;
  size_t positives = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t lo =
        *std::next(ints.begin(), static_cast<long>(rng() % 2000)) + 1 +
        rng() % 64;
    const std::string a = BigEndian(lo);
    const std::string b = BigEndian(lo + 64);
    if (lo + 64 < lo || Truth(keys, a, b)) {
      continue;
    }
    ++empty;
    positives += r.RangeMayExist(a, b);
  }
  ASSERT_GT(empty, 90000u);
  // Bound 64 / 2^12 = 1.6%; allow sampling noise.
  EXPECT_LT(static_cast<double>(positives) / static_cast<double>(empty), 0.025);
}

// Keys of more than one width get no section: a range could hold a key
// the section never saw.
TEST(RangeHashTest, MixedWidthsGetNoSection) {
  RangeHashBuilder builder(14);
  builder.Add("aaaa");
  builder.Add("aaab");
  builder.Add("aaabc");
  std::string out;
  EXPECT_FALSE(builder.Finish(&out));
  EXPECT_TRUE(out.empty());
  // The builder is reset: the next partition may have one.
  builder.Add("b");
  builder.Add("c");
  EXPECT_TRUE(builder.Finish(&out));
  EXPECT_FALSE(out.empty());
  // An empty key has no tail.
  builder.Add("");
  EXPECT_FALSE(builder.Finish(&out));
}

// Ranges the section cannot judge are "maybe": bounds shorter than the
// keys, bounds whose prefixes differ, and ranges wider than two blocks.
TEST(RangeHashTest, AnswersMaybeWhereItCannotTell) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 100; ++i) {
    keys.push_back("p" + BigEndian(i * 1000000));
  }
  const RangeHash r = Decoded(Section(keys, 10));  // Blocks of 256.
  EXPECT_TRUE(r.RangeMayExist("p", "q"));
  EXPECT_TRUE(r.RangeMayExist("p" + BigEndian(5), "q" + BigEndian(0)));
  EXPECT_TRUE(r.RangeMayExist("p" + BigEndian(1), "p" + BigEndian(999)));
  // Within one width and prefix, at most two blocks: judged. A range of
  // 20 next to a key is a false positive about 20 / 256 of the time.
  size_t positives = 0;
  for (uint64_t i = 0; i < 100; ++i) {
    positives += r.RangeMayExist("p" + BigEndian(i * 1000000 + 1),
                                 "p" + BigEndian(i * 1000000 + 21));
  }
  EXPECT_LT(positives, 25u);
  // No key of the width lies between a key's successor strings.
  EXPECT_FALSE(
      r.RangeMayExist("p" + BigEndian(5) + "a", "p" + BigEndian(5) + "b"));
}

// A version 4 partition is "maybe" only where both its trie and its range
// hash are; the trie alone answers for a version 2 block.
TEST(RangeHashTest, PartitionCombinesTrieAndRangeHash) {
  LoudsSparseOptions options;
  options.real_suffix_bits = 0;
  LoudsSparseBuilder trie_builder(options);
  RangeHashBuilder hash_builder(14);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 1000; ++i) {
    keys.push_back(BigEndian(i << 40));
    trie_builder.Add(keys.back());
    hash_builder.Add(keys.back());
  }
  std::string trie, section, block;
  trie_builder.Finish(&trie);
  ASSERT_TRUE(hash_builder.Finish(&section));
  CraftPartition::Encode(trie, section, &block);
  EXPECT_EQ(block[0], CraftPartition::kFormatWithRangeHash);
  CraftPartition with, without;
  ASSERT_OK(CraftPartition::Decode(block, &with));
  ASSERT_OK(CraftPartition::Decode(trie, &without));
  ASSERT_NE(with.range_hash(), nullptr);
  EXPECT_EQ(without.range_hash(), nullptr);
  size_t with_positives = 0, without_positives = 0;
  for (uint64_t i = 0; i < 1000; ++i) {
    const std::string lo = BigEndian((i << 40) + 1);
    const std::string hi = BigEndian((i << 40) + 65);
    with_positives += with.RangeMayExist(lo, hi);
    without_positives += without.RangeMayExist(lo, hi);
    ASSERT_TRUE(with.RangeMayExist(keys[i], hi));
  }
  EXPECT_EQ(without_positives, 1000u);  // The trie cannot tell.
  EXPECT_LT(with_positives, 50u);
}

// Every truncation and many byte flips of a section and of a version 4
// block decode to Corruption or to a valid section, never a crash.
TEST(RangeHashTest, DamagedSectionsAreRejected) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 300; ++i) {
    keys.push_back(BigEndian(i * 977));
  }
  const std::string section = Section(keys, 12);
  for (size_t n = 0; n < section.size(); ++n) {
    RangeHash r;
    EXPECT_TRUE(RangeHash::Decode(Slice(section.data(), n), &r).IsCorruption())
        << n;
  }
  RangeHash r;
  EXPECT_TRUE(RangeHash::Decode(section + "x", &r).IsCorruption());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = section;
    damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
    RangeHash d;
    if (RangeHash::Decode(damaged, &d).ok()) {
      d.RangeMayExist(BigEndian(rng()), BigEndian(rng()) + "x");
    }
  }
  CraftPartition p;
  std::string nested = "\x04\x05" + std::string("\x04xxxx");
  EXPECT_TRUE(CraftPartition::Decode(nested, &p).IsCorruption());
  EXPECT_TRUE(
      CraftPartition::Decode(std::string("\x04\x7f", 2), &p).IsCorruption());
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
