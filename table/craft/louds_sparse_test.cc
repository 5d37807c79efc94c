// CRaFT's trie: no false negatives on any key set, SuRF's two published
// false-negative bugs, and robust decoding of damaged blocks.

#include "table/craft/louds_sparse.h"

#include <algorithm>
#include <random>
#include <set>

#include "test_util/testharness.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

LoudsSparse Build(const std::set<std::string>& keys,
                  const LoudsSparseOptions& options, std::string* block) {
  LoudsSparseBuilder builder(options);
  for (const std::string& k : keys) builder.Add(k);
  block->clear();
  builder.Finish(block);
  LoudsSparse trie;
  EXPECT_OK(LoudsSparse::Decode(*block, &trie));
  EXPECT_EQ(trie.num_keys(), keys.size());
  return trie;
}

bool BruteForce(const std::set<std::string>& keys, const std::string& lo,
                const std::string& hi) {
  auto it = keys.lower_bound(lo);
  return it != keys.end() && Slice(*it).compare(hi) < 0;
}

std::string RandomKey(std::mt19937_64& rng, const std::string& alphabet,
                      size_t max_len) {
  std::string k;
  const size_t len = rng() % (max_len + 1);
  for (size_t i = 0; i < len; ++i)
    k.push_back(alphabet[rng() % alphabet.size()]);
  return k;
}

}  // namespace

TEST(LoudsSparseTest, NoFalseNegativesOnRandomKeySets) {
  std::mt19937_64 rng(20261122);
  const std::string alphabets[] = {
      std::string("ab"), std::string("\x00\x01\xff", 3), std::string("abcdefg"),
      std::string("\x00\x7f\x80\xfe\xff", 5)};
  const uint32_t reals[] = {0, 1, 3, 8, 13};
  uint64_t queries = 0, positives = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::string& alphabet = alphabets[round % 4];
    std::set<std::string> keys;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) keys.insert(RandomKey(rng, alphabet, 6));
    LoudsSparseOptions options;
    options.real_suffix_bits = reals[rng() % 5];
    options.hash_suffix_bits = rng() % 2 ? 4 : 0;
    std::string block;
    LoudsSparse trie = Build(keys, options, &block);
    for (const std::string& k : keys) {
      ASSERT_TRUE(trie.KeyMayExist(k)) << Slice(k).ToString(true);
      ASSERT_TRUE(trie.RangeMayExist(k, k + std::string(1, '\0')));
    }
    for (int q = 0; q < 60; ++q) {
      std::string lo = RandomKey(rng, alphabet, 7);
      std::string hi = RandomKey(rng, alphabet, 7);
      if (hi < lo) std::swap(lo, hi);
      const bool truth = BruteForce(keys, lo, hi);
      ++queries;
      positives += truth;
      ASSERT_TRUE(!truth || trie.RangeMayExist(lo, hi))
          << "false negative: [" << Slice(lo).ToString(true) << ", "
          << Slice(hi).ToString(true) << ") round " << round;
    }
  }
  EXPECT_GT(positives, queries / 10);  // The queries were not all empty.
}

// SuRF bug (a): a seek into a node that starts with the terminator when the
// seek byte is absent ran into the next node.
TEST(LoudsSparseTest, SurfTerminatorSeekRegression) {
  std::set<std::string> keys = {"mart",  "marta",  "marte", "marti",
                                "martl", "martyr", "mb"};
  for (uint32_t real : {0u, 8u}) {
    std::string block;
    LoudsSparse trie = Build(keys, {real, 0}, &block);
    EXPECT_TRUE(trie.RangeMayExist("martu", "martz"));
    EXPECT_TRUE(trie.RangeMayExist("martu", "mb"));
    EXPECT_TRUE(trie.RangeMayExist("mart", "marta"));
    EXPECT_TRUE(trie.RangeMayExist("martm", "mb\x01"));
  }
}

// SuRF bug (b): the bit-vector scan for the size of the last node ran past
// the end, near the largest key.
TEST(LoudsSparseTest, SurfLastNodeRegression) {
  std::set<std::string> keys;
  for (int i = 0; i < 70; ++i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "k%03d", i * 7);
    keys.insert(buf);
  }
  keys.insert("zz\xff\xff");
  keys.insert("zz\xff\xff\x01");
  std::string block;
  LoudsSparse trie = Build(keys, {0, 0}, &block);
  const std::string largest = *keys.rbegin();
  EXPECT_TRUE(trie.RangeMayExist(largest, largest + "\x01"));
  EXPECT_TRUE(trie.RangeMayExist("zz\xff\xff\x00", "zz\xff\xff\x02"));
  EXPECT_TRUE(trie.KeyMayExist(largest));
}

TEST(LoudsSparseTest, EmptyKeyAndEmptyTrie) {
  std::string block;
  LoudsSparse trie = Build({}, {8, 0}, &block);
  EXPECT_FALSE(trie.RangeMayExist("", "\xff"));
  EXPECT_FALSE(trie.KeyMayExist(""));
  trie = Build({""}, {8, 0}, &block);
  EXPECT_TRUE(trie.KeyMayExist(""));
  EXPECT_TRUE(trie.RangeMayExist("", "a"));
  EXPECT_FALSE(trie.RangeMayExist("a", "b"));
  trie = Build({"", "a", "ab"}, {8, 0}, &block);
  EXPECT_TRUE(trie.RangeMayExist("", "\x01"));
  EXPECT_TRUE(trie.RangeMayExist("a", "a\x01"));
  EXPECT_TRUE(trie.RangeMayExist("aa", "ac"));
}

TEST(LoudsSparseTest, EmptyRangesAreUsuallyFiltered) {
  // Uniform 64-bit keys, ranges starting between stored keys.
  std::mt19937_64 rng(7);
  std::set<std::string> keys;
  while (keys.size() < 20000) {
    std::string k;
    PutFixed64(&k, rng());
    std::reverse(k.begin(), k.end());  // Big-endian order.
    keys.insert(k);
  }
  std::string block;
  LoudsSparse trie = Build(keys, {8, 0}, &block);
  int empty = 0, said_maybe = 0;
  for (int q = 0; q < 20000; ++q) {
    uint64_t v = rng();
    std::string lo, hi;
    for (int s = 56; s >= 0; s -= 8) lo.push_back(static_cast<char>(v >> s));
    v += 1 + rng() % 1024;
    for (int s = 56; s >= 0; s -= 8) hi.push_back(static_cast<char>(v >> s));
    if (hi <= lo || BruteForce(keys, lo, hi)) continue;
    ++empty;
    said_maybe += trie.RangeMayExist(lo, hi);
  }
  const double bits_per_key = 8.0 * static_cast<double>(block.size()) /
                              static_cast<double>(keys.size());
  fprintf(stderr, "uniform64: %.2f bits/key, empty-range FPR %.4f\n",
          bits_per_key, static_cast<double>(said_maybe) / empty);
  EXPECT_LT(said_maybe, empty / 5);
}

// The decoder's fuzz target: damaged blocks give Corruption or a trie whose
// queries return, never a crash.
TEST(LoudsSparseTest, DamagedBlocksNeverCrash) {
  std::mt19937_64 rng(99);
  std::set<std::string> keys;
  for (int i = 0; i < 300; ++i) keys.insert(RandomKey(rng, "abcdxyz", 8));
  std::string good;
  Build(keys, {5, 3}, &good);
  int rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string bad = good;
    switch (round % 3) {
      case 0:  // Truncation.
        bad.resize(rng() % bad.size());
        break;
      case 1:  // Bit flips.
        for (int f = 0; f < 1 + round % 4; ++f) {
          bad[rng() % bad.size()] ^= static_cast<char>(1 << (rng() % 8));
        }
        break;
      default:  // Random garbage of a plausible size.
        for (char& c : bad) c = static_cast<char>(rng());
        break;
    }
    LoudsSparse trie;
    Status s = LoudsSparse::Decode(bad, &trie);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption());
      ++rejected;
      continue;
    }
    for (int q = 0; q < 5; ++q) {
      std::string lo = RandomKey(rng, "abcdxyz", 8);
      std::string hi = RandomKey(rng, "abcdxyz", 8);
      trie.RangeMayExist(lo, hi);
      trie.KeyMayExist(lo);
    }
  }
  EXPECT_GT(rejected, 10000);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
