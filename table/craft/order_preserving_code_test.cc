// The order-preserving key code of CRaFT format 3: optimal lengths, order
// kept on any strings, lengths bounded, damaged code tables rejected.
// (Linked into louds_sparse_test.)

#include "table/craft/order_preserving_code.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::string Coded(const OrderPreservingCode& code, const Slice& key) {
  std::string out;
  code.Encode(key, &out);
  return out;
}

std::string RandomString(std::mt19937_64& rng, const std::string& alphabet,
                         size_t max_len) {
  std::string s;
  const size_t len = rng() % (max_len + 1);
  for (size_t i = 0; i < len; ++i) {
    s.push_back(alphabet.empty() ? static_cast<char>(rng())
                                 : alphabet[rng() % alphabet.size()]);
  }
  return s;
}

// The least weighted depth of an alphabetic tree over these leaves, by the
// textbook dynamic program over intervals (Knuth's O(n^2) form).
uint64_t AlphabeticTreeCost(const std::vector<uint64_t>& w) {
  const int n = static_cast<int>(w.size());
  std::vector<uint64_t> prefix(n + 1, 0);
  for (int i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + w[i];
  std::vector<std::vector<uint64_t>> cost(n, std::vector<uint64_t>(n, 0));
  std::vector<std::vector<int>> split(n, std::vector<int>(n, 0));
  for (int i = 0; i < n; ++i) split[i][i] = i;
  for (int len = 1; len < n; ++len) {
    for (int i = 0; i + len < n; ++i) {
      const int j = i + len;
      const int lo = len == 1 ? i : split[i][j - 1];
      const int hi = len == 1 ? i : std::min(split[i + 1][j], j - 1);
      uint64_t best = ~uint64_t{0};
      for (int k = lo; k <= hi; ++k) {
        const uint64_t c = cost[i][k] + cost[k + 1][j];
        if (c <= best) {
          best = c;
          split[i][j] = k;
        }
      }
      cost[i][j] = best + prefix[j + 1] - prefix[i];
    }
  }
  return cost[0][n - 1];
}

}  // namespace

// Optimal() finds the lengths with Garsia-Wachs; the interval program is the
// reference. Weights stay under 2^16 in total, so each byte's floor is 1.
TEST(OrderPreservingCodeTest, LengthsAreOptimal) {
  std::mt19937_64 rng(2027);
  for (int round = 0; round < 40; ++round) {
    uint64_t weights[256] = {};
    const int kind = round % 4;
    for (int b = 0; b < 256; ++b) {
      if (kind == 0) weights[b] = rng() % 200;
      if (kind == 1 && b >= 'a' && b <= 'z') weights[b] = 1 + rng() % 2000;
      if (kind == 2 && rng() % 8 == 0) weights[b] = rng() % 1500;
      if (kind == 3) weights[b] = b == '0' ? 30000 : rng() % 100;
    }
    std::vector<uint64_t> floored(weights, weights + 256);
    uint64_t coded_cost = 0;
    const OrderPreservingCode code = OrderPreservingCode::Optimal(weights);
    for (int b = 0; b < 256; ++b) {
      floored[b] += 1;
      coded_cost += floored[b] * code.length(static_cast<uint8_t>(b));
    }
    ASSERT_EQ(coded_cost, AlphabeticTreeCost(floored)) << round;
  }
}

TEST(OrderPreservingCodeTest, EqualWeightsCodeEachByteAsItself) {
  uint64_t weights[256];
  std::fill(weights, weights + 256, 1000);
  const OrderPreservingCode code = OrderPreservingCode::Optimal(weights);
  for (int b = 0; b < 256; ++b) {
    ASSERT_EQ(code.length(static_cast<uint8_t>(b)), 8u);
  }
  const std::string key(
      "\x00\x7f\x80\xff"
      "abc",
      7);
  EXPECT_EQ(Coded(code, key), key);
}

TEST(OrderPreservingCodeTest, LettersGetAbout5Bits) {
  uint64_t weights[256] = {};
  for (int c = 'a'; c <= 'z'; ++c) weights[c] = 1000;
  const OrderPreservingCode code = OrderPreservingCode::Optimal(weights);
  uint64_t bits = 0;
  for (int c = 'a'; c <= 'z'; ++c) {
    ASSERT_LE(code.length(static_cast<uint8_t>(c)), 6u);
    bits += code.length(static_cast<uint8_t>(c));
  }
  EXPECT_LT(bits, 26u * 5 + 13);  // log2(26) = 4.7; an alphabetic code ~5.
  EXPECT_LT(code.CodedBits(weights) * 8, 26000u * 8 * 7);
}

// Any two strings keep their order (ties only where zero padding hides the
// difference), whatever the weights and the bytes, unseen ones included.
TEST(OrderPreservingCodeTest, OrderIsKept) {
  std::mt19937_64 rng(2026);
  const std::string alphabets[] = {"", "abcdefghijklmnopqrstuvwxyz",
                                   std::string("\x00\x01\xfe\xff", 4), "ab"};
  for (int round = 0; round < 200; ++round) {
    uint64_t weights[256] = {};
    const int kind = round % 4;
    for (int b = 0; b < 256; ++b) {
      if (kind == 0) weights[b] = rng() % 100;
      if (kind == 1 && b >= 'a' && b <= 'z') weights[b] = 1 + rng() % 50;
      if (kind == 2 && rng() % 8 == 0) weights[b] = rng() % 1000000;
    }
    if (kind == 3) weights[rng() % 256] = uint64_t{1} << 40;
    const OrderPreservingCode code = OrderPreservingCode::Optimal(weights);
    for (int b = 0; b < 256; ++b) {
      ASSERT_GE(code.length(static_cast<uint8_t>(b)), 1u);
      ASSERT_LE(code.length(static_cast<uint8_t>(b)),
                OrderPreservingCode::kMaxCodeBits);
    }
    std::vector<std::string> strings;
    for (int i = 0; i < 300; ++i) {
      strings.push_back(RandomString(rng, alphabets[rng() % 4], 6));
    }
    std::sort(strings.begin(), strings.end());
    for (size_t i = 1; i < strings.size(); ++i) {
      ASSERT_LE(Coded(code, strings[i - 1]), Coded(code, strings[i]))
          << round << " " << Slice(strings[i - 1]).ToString(true) << " < "
          << Slice(strings[i]).ToString(true);
    }
    // Distinct single bytes never tie (a whole code differs).
    for (int b = 1; b < 256; ++b) {
      const std::string x(1, static_cast<char>(b - 1));
      const std::string y(1, static_cast<char>(b));
      ASSERT_LT(Coded(code, x + "q"), Coded(code, y)) << round << " " << b;
    }
  }
}

TEST(OrderPreservingCodeTest, EncodeToDecodeFromRoundTrips) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    uint64_t weights[256] = {};
    for (uint64_t& w : weights) w = rng() % 8 == 0 ? rng() % 5000 : 0;
    const OrderPreservingCode code = OrderPreservingCode::Optimal(weights);
    std::string table;
    code.EncodeTo(&table);
    // A run per change of length: a few hundred bytes at most, against
    // the 256 lengths' 128 bytes or more uncoded.
    EXPECT_LT(table.size(), 240u);
    table += "tail";
    Slice in(table);
    OrderPreservingCode decoded;
    ASSERT_OK(OrderPreservingCode::DecodeFrom(&in, &decoded));
    EXPECT_EQ(in.ToString(), "tail");
    for (int i = 0; i < 100; ++i) {
      const std::string s = RandomString(rng, "", 10);
      ASSERT_EQ(Coded(code, s), Coded(decoded, s));
      ASSERT_EQ(code.EncodedLength(s), Coded(code, s).size());
    }
  }
}

TEST(OrderPreservingCodeTest, DamagedTablesAreCorruption) {
  auto decode = [](const std::string& table) {
    Slice in(table);
    OrderPreservingCode code;
    return OrderPreservingCode::DecodeFrom(&in, &code);
  };
  std::string all9;  // Incomplete: 256 codes of 9 bits fill half the space.
  all9.push_back(1);
  all9.push_back(9);
  all9.append("\x80\x02");  // 256 as a varint.
  EXPECT_TRUE(decode(all9).IsCorruption());
  std::string all8 = all9;
  all8[1] = 8;
  EXPECT_OK(decode(all8));
  all8[1] = 0;  // Zero-length codes.
  EXPECT_TRUE(decode(all8).IsCorruption());
  all8[1] = 7;  // Over-full.
  EXPECT_TRUE(decode(all8).IsCorruption());
  EXPECT_TRUE(decode("").IsCorruption());
  EXPECT_TRUE(decode(std::string("\x01\x08\x80", 3)).IsCorruption());
  EXPECT_TRUE(decode(std::string("\x01\x08\x10", 3)).IsCorruption());
  std::mt19937_64 rng(3);
  int rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string garbage = RandomString(rng, "", 40);
    if (round % 2 == 0 && !garbage.empty()) garbage[0] = 1 + rng() % 8;
    rejected += decode(garbage).IsCorruption();
  }
  EXPECT_GT(rejected, 19000);
}

}  // namespace ROCKSDB_NAMESPACE
