// CRaFT's trie: no false negatives on any key set, SuRF's two published
// false-negative bugs, robust decoding of damaged blocks, and the builder's
// output pinned over many key sets.

#include "table/craft/louds_sparse.h"

#include <algorithm>
#include <memory>
#include <random>
#include <set>

#include "table/craft/bit_stream.h"
#include "table/craft/common_prefix.h"
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

std::string BigEndian(uint64_t v) {
  std::string k(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) k[i] = static_cast<char>(v & 0xff);
  return k;
}

// A code fitted to the keys' bytes (format 3).
std::shared_ptr<const OrderPreservingCode> FittedCode(
    const std::set<std::string>& keys) {
  uint64_t weights[256] = {};
  for (const std::string& k : keys) {
    for (char c : k) ++weights[static_cast<uint8_t>(c)];
  }
  return std::make_shared<OrderPreservingCode>(
      OrderPreservingCode::Optimal(weights));
}

// Coding may merge keys (zero padding), so the trie may count fewer.
LoudsSparse BuildCoded(const std::set<std::string>& keys,
                       LoudsSparseOptions options, std::string* block) {
  options.key_code = FittedCode(keys);
  LoudsSparseBuilder builder(options);
  for (const std::string& k : keys) builder.Add(k);
  block->clear();
  builder.Finish(block);
  EXPECT_EQ((*block)[0], 3);
  LoudsSparse trie;
  EXPECT_OK(LoudsSparse::Decode(*block, &trie));
  EXPECT_LE(trie.num_keys(), keys.size());
  return trie;
}

}  // namespace

// AppendBits moves a BitList a word at a time; the result must be the bits
// appended one by one, at every offset in a word and every length.
TEST(LoudsSparseTest, AppendBitsMatchesBitByBit) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 500; ++round) {
    std::vector<uint64_t> words, expected;
    size_t num_bits = 0, expected_bits = 0;
    for (int list = 0; list < 4; ++list) {
      craft_bits::BitList bits;
      const size_t n = rng() % 200;
      for (size_t i = 0; i < n; ++i) {
        const bool bit = rng() % 3 == 0;
        bits.push_back(bit);
        if (expected_bits % 64 == 0) expected.push_back(0);
        if (bit) expected.back() |= uint64_t{1} << (expected_bits % 64);
        ++expected_bits;
      }
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(bits[i], ((expected[(expected_bits - n + i) / 64] >>
                             ((expected_bits - n + i) % 64)) &
                            1) != 0);
      }
      craft_bits::AppendBits(bits, &words, &num_bits);
      ASSERT_EQ(num_bits, expected_bits);
      ASSERT_EQ(words, expected) << round << " " << list;
    }
  }
}

// The label stream's writer, which keeps its current word out of memory,
// writes what a bit-at-a-time writer writes: fields of every width at every
// offset, and unary runs that end inside a word, on its last bit, or words
// later.
TEST(LoudsSparseTest, BitWriterMatchesBitByBit) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 300; ++round) {
    craft_bits::BitWriter writer;
    std::vector<bool> expected;
    const int writes = static_cast<int>(rng() % 300);
    for (int i = 0; i < writes; ++i) {
      if (rng() % 2 == 0) {
        const uint32_t width = static_cast<uint32_t>(rng() % 65);
        const uint64_t value =
            width == 64 ? rng() : rng() & ((uint64_t{1} << width) - 1);
        writer.Write(width, value);
        for (uint32_t b = 0; b < width; ++b) {
          expected.push_back((value >> b) & 1);
        }
      } else {
        const uint64_t zeros =
            rng() % 4 == 0 ? rng() % 200 : 63 - expected.size() % 64;
        writer.WriteUnary(zeros);
        expected.insert(expected.end(), zeros, false);
        expected.push_back(true);
      }
      ASSERT_EQ(writer.bits(), expected.size());
    }
    const std::vector<uint64_t>& words = writer.Finish();
    ASSERT_EQ(words.size(), craft_bits::Words(expected.size())) << round;
    for (size_t b = 0; b < words.size() * 64; ++b) {
      const bool bit = (words[b / 64] >> (b % 64)) & 1;
      ASSERT_EQ(bit, b < expected.size() && expected[b]) << round << " " << b;
    }
  }
}

// The word-at-a-time common prefix the builders use agrees with a byte
// scan, wherever in a word the keys first differ and however long they are.
TEST(LoudsSparseTest, CommonPrefixLengthMatchesAByteScan) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string a = RandomKey(rng, std::string("a\0\x80\xff", 4), 40);
    std::string b = a.substr(0, rng() % (a.size() + 1));
    b += RandomKey(rng, std::string("a\0\x80\xff", 4), 40);
    EXPECT_EQ(CommonPrefixLength(a, b), Slice(a).difference_offset(b));
    EXPECT_EQ(CommonPrefixLength(b, a), Slice(a).difference_offset(b));
  }
}

// The builder's bytes over many key sets (repeats, the empty key, keys that
// are prefixes of others, every label coding, suffix bits, coded keys) are
// pinned by a digest: a change to how the builder computes the trie must
// not change what it writes. (The format tests pin a few tries byte by
// byte; this covers the builder's corner cases in bulk.)
TEST(LoudsSparseTest, BuilderOutputIsPinned) {
  std::mt19937_64 rng(20261127);
  const std::string alphabets[] = {"ab", std::string("a\0b\xff", 4),
                                   "0123456789"};
  uint64_t digest = 14695981039346656037ull;  // FNV-1a, 64 bits.
  size_t blocks = 0;
  for (int round = 0; round < 300; ++round) {
    const std::string& alphabet = alphabets[round % 3];
    std::vector<std::string> keys;
    const size_t n = rng() % 400;
    const size_t max_len = 1 + rng() % 24;
    for (size_t i = 0; i < n; ++i)
      keys.push_back(RandomKey(rng, alphabet, max_len));
    std::sort(keys.begin(), keys.end());
    LoudsSparseOptions options;
    options.compact_labels = round % 4 != 0;
    options.real_suffix_bits = static_cast<uint32_t>(rng() % 9);
    options.hash_suffix_bits = static_cast<uint32_t>(rng() % 3) * 4;
    if (round % 4 == 3) {
      options.key_code =
          FittedCode(std::set<std::string>(keys.begin(), keys.end()));
    }
    LoudsSparseBuilder builder(options);
    for (const std::string& k : keys) {
      builder.Add(k);
      if (rng() % 5 == 0) builder.Add(k);  // An older version of the key.
    }
    std::string block;
    builder.Finish(&block);
    LoudsSparse trie;
    ASSERT_OK(LoudsSparse::Decode(block, &trie));
    for (unsigned char c : block) {
      digest = (digest ^ c) * 1099511628211ull;
    }
    ++blocks;
  }
  EXPECT_EQ(blocks, 300u);
  EXPECT_EQ(digest, 6227084402088946450ull) << digest;
}

// Finish resets the builder for the table's next partition, keeping its
// levels' buffers: a reused builder must write exactly what a new one
// writes, after tries deeper and shallower than the next one.
TEST(LoudsSparseTest, ReusedBuilderWritesWhatANewOneWrites) {
  std::mt19937_64 rng(20261128);
  LoudsSparseOptions options;
  options.real_suffix_bits = 8;
  options.hash_suffix_bits = 4;
  LoudsSparseBuilder reused(options);
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> keys;
    const size_t n = rng() % 300;
    const size_t max_len = 1 + rng() % (round % 2 == 0 ? 40 : 3);
    for (size_t i = 0; i < n; ++i)
      keys.push_back(RandomKey(rng, "abc", max_len));
    std::sort(keys.begin(), keys.end());
    LoudsSparseBuilder fresh(options);
    for (const std::string& k : keys) {
      fresh.Add(k);
      reused.Add(k);
    }
    std::string expected, actual;
    fresh.Finish(&expected);
    reused.Finish(&actual);
    ASSERT_EQ(expected, actual) << "round " << round;
  }
}

// Rank, select and next-set-bit against a plain scan, over sizes around
// the word, block and sample boundaries and densities from sparse to full.
TEST(LoudsSparseTest, RankSelectMatchesAScan) {
  std::mt19937_64 rng(64);
  for (int round = 0; round < 300; ++round) {
    const size_t bits = rng() % 3000;
    const uint64_t one_in = 1 + rng() % 70;
    std::vector<bool> v(bits);
    std::vector<uint64_t> words((bits + 63) / 64, 0);
    for (size_t i = 0; i < bits; ++i) {
      v[i] = round % 10 == 0 || rng() % one_in == 0;
      if (v[i]) words[i / 64] |= uint64_t{1} << (i % 64);
    }
    RankSelect rs;
    rs.Init(words, bits);
    size_t ones = 0;
    for (size_t i = 0; i <= bits; ++i) {
      ASSERT_EQ(rs.Rank1(i), ones) << round << " " << i;
      if (i < bits && v[i]) {
        ASSERT_EQ(rs.Select1(ones), i) << round;
        ++ones;
      }
    }
    ASSERT_EQ(rs.Count(), ones);
    size_t next = bits;
    for (size_t i = bits; i-- > 0;) {
      if (v[i]) next = i;
      ASSERT_EQ(rs.NextSetBit(i), next) << round << " " << i;
    }
  }
}

// Random key sets over small alphabets (0x00 and 0xFF bytes, keys that are
// prefixes of others), random suffix widths, random ranges: never a false
// negative. Coded: the keys stored in format 3, and queries that also use
// bytes the code was not fitted to.
void ExpectNoFalseNegatives(bool coded) {
  std::mt19937_64 rng(coded ? 20261125 : 20261122);
  const std::string alphabets[] = {
      std::string("ab"), std::string("\x00\x01\xff", 3),
      std::string(coded ? "abcdefghijklmnopqrstuvwxyz" : "abcdefg"),
      std::string("\x00\x7f\x80\xfe\xff", 5)};
  const uint32_t reals[] = {0, 1, 3, 8, 13};
  const size_t key_len = coded ? 7 : 6;
  uint64_t queries = 0, positives = 0;
  for (int round = 0; round < (coded ? 2000 : 3000); ++round) {
    const std::string& alphabet = alphabets[round % 4];
    std::set<std::string> keys;
    const int n = 1 + static_cast<int>(rng() % (coded ? 60 : 40));
    for (int i = 0; i < n; ++i) keys.insert(RandomKey(rng, alphabet, key_len));
    LoudsSparseOptions options;
    options.real_suffix_bits =
        coded ? (rng() % 2 ? 0 : rng() % 12) : reals[rng() % 5];
    options.hash_suffix_bits = rng() % 2 ? 4 : 0;
    std::string block;
    const LoudsSparse trie = coded ? BuildCoded(keys, options, &block)
                                   : Build(keys, options, &block);
    for (const std::string& k : keys) {
      ASSERT_TRUE(trie.KeyMayExist(k)) << Slice(k).ToString(true);
      ASSERT_TRUE(trie.RangeMayExist(k, k + std::string(1, '\0')));
    }
    for (int q = 0; q < 60; ++q) {
      const std::string& query_alphabet =
          coded && rng() % 4 == 0 ? alphabets[rng() % 4] : alphabet;
      std::string lo = RandomKey(rng, query_alphabet, key_len + 1);
      std::string hi = RandomKey(rng, query_alphabet, key_len + 1);
      if (hi < lo) std::swap(lo, hi);
      const bool truth = BruteForce(keys, lo, hi);
      ++queries;
      positives += truth;
      ASSERT_TRUE(!truth || trie.RangeMayExist(lo, hi))
          << "false negative: [" << Slice(lo).ToString(true) << ", "
          << Slice(hi).ToString(true) << ") round " << round;
      const uint64_t less = static_cast<uint64_t>(
          std::distance(keys.begin(), keys.lower_bound(lo)));
      ASSERT_LE(trie.CountLess(lo), less) << round;
    }
  }
  EXPECT_GT(positives, queries / 10);  // The queries were not all empty.
}

TEST(LoudsSparseTest, NoFalseNegativesOnRandomKeySets) {
  ExpectNoFalseNegatives(/*coded=*/false);
}

// Format 3 (keys stored coded): the same guarantees.
TEST(LoudsSparseTest, CodedKeysHaveNoFalseNegatives) {
  ExpectNoFalseNegatives(/*coded=*/true);
}

// Text keys: coding cuts the trie's bits and its false positives.
TEST(LoudsSparseTest, CodedTextKeysAreSmallerAndSharper) {
  std::mt19937_64 rng(5);
  std::set<std::string> keys;
  const std::string letters = "abcdefghijklmnopqrstuvwxyz";
  while (keys.size() < 20000) {
    keys.insert(RandomKey(rng, letters, 12) + "@example.com");
  }
  std::string plain_block, coded_block;
  const LoudsSparse plain = Build(keys, {4, 0}, &plain_block);
  const LoudsSparse coded = BuildCoded(keys, {4, 0}, &coded_block);
  int empty = 0, plain_fp = 0, coded_fp = 0;
  for (int q = 0; q < 20000; ++q) {
    const std::string lo = RandomKey(rng, letters, 10);
    const std::string hi = lo + "\xff";
    if (BruteForce(keys, lo, hi)) {
      ASSERT_TRUE(coded.RangeMayExist(lo, hi));
      continue;
    }
    ++empty;
    plain_fp += plain.RangeMayExist(lo, hi);
    coded_fp += coded.RangeMayExist(lo, hi);
  }
  fprintf(stderr, "text: %zu vs %zu bytes, FPR %.4f vs %.4f\n",
          plain_block.size(), coded_block.size(),
          static_cast<double>(plain_fp) / empty,
          static_cast<double>(coded_fp) / empty);
  EXPECT_LT(coded_block.size(), plain_block.size());
  EXPECT_LT(coded_fp * 2, plain_fp);
}

// SuRF bug (a): a seek into a node that starts with the terminator when the
// seek byte is absent ran into the next node.
// Regression (UBSAN, lodestone_options_test): real and hash suffixes wider
// than 64 bits together (56 + 32, each at its maximum) were packed into one
// 64-bit word per leaf, shifting by 64 and spilling into the next leaf's
// suffix. A builder keeps the two within 64 bits (the hash gives way), and a
// block that says otherwise is refused.
TEST(LoudsSparseTest, SuffixesWiderThanAWordKeepEveryKey) {
  std::mt19937_64 rng(64);
  std::set<std::string> keys;
  while (keys.size() < 300) {
    std::string k;
    for (int i = 0; i < 12; ++i) k.push_back(static_cast<char>(rng()));
    keys.insert(k);
  }
  std::string block;
  const LoudsSparse trie = Build(keys, {56, 32}, &block);
  for (const std::string& k : keys) {
    ASSERT_TRUE(trie.KeyMayExist(k)) << Slice(k).ToString(true);
    ASSERT_TRUE(trie.RangeMayExist(k, k + std::string(1, '\0')))
        << Slice(k).ToString(true);
  }
  // The header's widths (bytes 2 and 3): 56 and 8 as written; 56 and 32
  // from an older builder are refused.
  ASSERT_GE(block.size(), 4u);
  EXPECT_EQ(static_cast<uint8_t>(block[2]), 56);
  EXPECT_EQ(static_cast<uint8_t>(block[3]), 8);
  block[3] = 32;
  LoudsSparse refused;
  EXPECT_TRUE(LoudsSparse::Decode(block, &refused).IsCorruption());
}

TEST(LoudsSparseTest, SurfTerminatorSeekRegression) {
  std::set<std::string> keys = {"mart",  "marta",  "marte", "marti",
                                "martl", "martyr", "mb"};
  for (uint32_t real : {0u, 8u, 100u, 108u}) {
    std::string block;
    LoudsSparse trie = real < 100 ? Build(keys, {real, 0}, &block)
                                  : BuildCoded(keys, {real - 100, 0}, &block);
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
// Both formats; the second key set has dense levels (unary-coded labels).
TEST(LoudsSparseTest, DamagedBlocksNeverCrash) {
  std::mt19937_64 rng(99);
  std::set<std::string> keys;
  for (int i = 0; i < 300; ++i) keys.insert(RandomKey(rng, "abcdxyz", 8));
  std::set<std::string> dense;
  for (int i = 0; i < 3000; ++i) dense.insert(BigEndian(rng() >> 40));
  LoudsSparseOptions plain{5, 3};
  plain.compact_labels = false;
  std::string blocks[6];  // {sparse, dense} x {compact, plain, coded}
  Build(keys, {5, 3}, &blocks[0]);
  Build(dense, {5, 3}, &blocks[1]);
  Build(keys, plain, &blocks[2]);
  Build(dense, plain, &blocks[3]);
  BuildCoded(keys, {5, 3}, &blocks[4]);
  BuildCoded(dense, {5, 3}, &blocks[5]);
  int rejected = 0;
  for (int round = 0; round < 24000; ++round) {
    const std::string& good = blocks[round % 6];
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
  EXPECT_GT(rejected, 12000);
}

// CountLess is exact up to the one key a bound can share its cut prefix
// and real suffix with.
TEST(LoudsSparseTest, CountLessMatchesTheKeySet) {
  std::mt19937_64 rng(11);
  const std::string alphabet("ab\x00\xff", 4);
  for (int round = 0; round < 400; ++round) {
    std::set<std::string> keys;
    const bool dense = round % 2 == 0;
    const int n = 1 + static_cast<int>(rng() % (dense ? 3000 : 60));
    for (int i = 0; i < n; ++i) {
      keys.insert(dense ? BigEndian(rng() >> (rng() % 48))
                        : RandomKey(rng, alphabet, 6));
    }
    std::string block;
    LoudsSparseOptions options{round % 3 == 0 ? 0u : 8u, 0};
    const LoudsSparse trie = Build(keys, options, &block);
    EXPECT_GE(trie.CountLess(std::string(20, '\xff')) + 1, keys.size());
    EXPECT_EQ(trie.CountLess(""), 0u);
    for (int q = 0; q < 50; ++q) {
      const std::string x = dense ? BigEndian(rng() >> (rng() % 48))
                                  : RandomKey(rng, alphabet, 7);
      const uint64_t truth = static_cast<uint64_t>(
          std::distance(keys.begin(), keys.lower_bound(x)));
      const uint64_t counted = trie.CountLess(x);
      ASSERT_LE(counted, truth) << round;
      ASSERT_GE(counted + 1, truth) << round;
    }
  }
}

// Format 2 codes dense levels' labels in unary high parts and low bits: the
// same trie as format 1 (the same answer to every query), in fewer bytes.
TEST(LoudsSparseTest, CompactLabelsAnswerLikeByteLabels) {
  std::mt19937_64 rng(2026);
  for (const uint32_t real : {0u, 2u, 8u}) {
    std::set<std::string> keys;
    while (keys.size() < 20000) keys.insert(BigEndian(rng()));
    LoudsSparseOptions compact{real, 0};
    LoudsSparseOptions plain{real, 0};
    plain.compact_labels = false;
    std::string compact_block, plain_block;
    const LoudsSparse a = Build(keys, compact, &compact_block);
    const LoudsSparse b = Build(keys, plain, &plain_block);
    EXPECT_EQ(compact_block[0], 2);
    EXPECT_EQ(plain_block[0], 1);
    EXPECT_EQ(a.num_edges(), b.num_edges());
    // About two of a label's eight bits saved on the dense levels.
    EXPECT_LT(compact_block.size() * 8,
              plain_block.size() * 8 - a.num_edges() * 3 / 2)
        << compact_block.size() << " vs " << plain_block.size();
    for (int q = 0; q < 20000; ++q) {
      const uint64_t lo = rng();
      const uint64_t width = uint64_t{1} << (rng() % 40);
      const std::string lo_key = BigEndian(lo);
      const std::string hi_key =
          BigEndian(lo + width < lo ? ~uint64_t{0} : lo + width);
      const bool truth = BruteForce(keys, lo_key, hi_key);
      const bool answer = a.RangeMayExist(lo_key, hi_key);
      ASSERT_EQ(answer, b.RangeMayExist(lo_key, hi_key));
      ASSERT_TRUE(!truth || answer);
      ASSERT_EQ(a.KeyMayExist(lo_key), b.KeyMayExist(lo_key));
    }
    for (const std::string& k : keys) {
      ASSERT_TRUE(a.KeyMayExist(k));
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
