// Secondary range tombstones: the record's bytes, pinned, and the set's
// answers against a brute-force model. Linked into secondary_deletes_test
// with delete_key_extractor_test.cc.

#include "db/secondary_deletes/secondary_tombstones.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::string Bytes(const char* hex) {
  std::string out;
  EXPECT_TRUE(Slice(hex).DecodeHex(&out));
  return out;
}

bool ModelCovers(const std::vector<SecondaryRangeTombstone>& tombstones,
                 const std::string& d, SequenceNumber seq,
                 SequenceNumber read_seq) {
  for (const SecondaryRangeTombstone& t : tombstones) {
    if (t.lo <= d && d < t.hi && seq < t.seq && t.seq <= read_seq) {
      return true;
    }
  }
  return false;
}

// Delete keys of one or two bytes from a small alphabet, so that random
// tombstones overlap and share ends.
std::string RandomKey(std::mt19937_64& rng) {
  std::string k(1, static_cast<char>('a' + rng() % 6));
  if (rng() % 2 == 0) {
    k.push_back(static_cast<char>('a' + rng() % 3));
  }
  return k;
}

// Every key RandomKey makes, with the ends a tombstone may get (one "a"
// more), in bytewise order: no tombstone end lies strictly between two
// neighbours, so coverage is the same from each key up to the next.
std::vector<std::string> AllKeys() {
  std::vector<std::string> keys{""};
  for (char c = 'a'; c < 'a' + 7; ++c) {
    keys.emplace_back(1, c);
    for (char d = 'a'; d < 'a' + 4; ++d) {
      keys.push_back(std::string(1, c) + d);
      keys.push_back(std::string(1, c) + d + 'a');
    }
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

// The fields version 1 holds after its version byte, for the tombstone of
// GoldenBytes: "2026-01", "2026-04", 300 (ac 02), "id=key_suffix;length=7"
// (22 bytes).
constexpr const char* kVersion1FieldsHex =
    "07"
    "323032362D3031"
    "07"
    "323032362D3034"
    "AC02"
    "16"
    "69643D6B65795F7375666669783B6C656E6774683D37";

TEST(SecondaryRangeTombstoneTest, GoldenBytes) {
  SecondaryRangeTombstone t;
  t.lo = "2026-01";
  t.hi = "2026-04";
  t.seq = 300;
  t.extractor = "id=key_suffix;length=7";
  t.issued_at = 1800000000;
  std::string encoded;
  t.EncodeTo(&encoded);
  // Written out by hand: version 2, "2026-01", "2026-04", 300 (ac 02),
  // "id=key_suffix;length=7" (22 bytes), issued at 1800000000 (80 a4 a7 da
  // 06).
  EXPECT_EQ(Slice(encoded).ToString(true),
            "02" + std::string(kVersion1FieldsHex) + "80A4A7DA06");

  Slice in(encoded);
  SecondaryRangeTombstone decoded;
  ASSERT_OK(decoded.DecodeFrom(&in));
  EXPECT_TRUE(in.empty());
  EXPECT_TRUE(decoded == t);
}

// Version 1 (before issue times), as earlier builds wrote it, still reads:
// its issue time is unknown.
TEST(SecondaryRangeTombstoneTest, ReadsVersion1) {
  const std::string v1 = "01" + std::string(kVersion1FieldsHex);
  const std::string bytes = Bytes(v1.c_str());
  Slice in(bytes);
  SecondaryRangeTombstone decoded;
  ASSERT_OK(decoded.DecodeFrom(&in));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(decoded.lo, "2026-01");
  EXPECT_EQ(decoded.hi, "2026-04");
  EXPECT_EQ(decoded.seq, 300u);
  EXPECT_EQ(decoded.extractor, "id=key_suffix;length=7");
  EXPECT_EQ(decoded.issued_at, 0u);
}

TEST(SecondaryRangeTombstoneTest, RefusesWhatEncodeCannotWrite) {
  const char* bad[] = {
      "",  // nothing
      "03"
      "0161"
      "0162"
      "05"
      "0178"
      "01",  // version 3
      "02"
      "0161"
      "0162"
      "05"
      "0178",  // version 2 without its issue time
      "01"
      "0161"
      "0162",  // no seq
      "01"
      "0161"
      "0162"
      "05",  // no extractor
      "01"
      "0161"
      "0162"
      "05"
      "00",  // empty extractor
      "01"
      "0162"
      "0161"
      "05"
      "0178",  // lo above hi
      "01"
      "0161"
      "0161"
      "05"
      "0178",  // empty range
      "01"
      "0161"
      "0162"
      "00"
      "0178",  // seq 0
      "01"
      "0161"
      "0162"
      "FFFFFFFFFFFFFFFF01"
      "0178",  // above kMaxSequenceNumber
      "01"
      "0561"
      "0162"
      "05"
      "0178",  // lo longer than the input
  };
  for (const char* hex : bad) {
    std::string bytes = Bytes(hex);
    Slice in(bytes);
    SecondaryRangeTombstone t;
    Status s = t.DecodeFrom(&in);
    EXPECT_TRUE(s.IsCorruption()) << hex << ": " << s.ToString();
  }
}

TEST(SecondaryTombstoneSetTest, Empty) {
  SecondaryTombstoneSet set(std::vector<SecondaryRangeTombstone>{});
  EXPECT_TRUE(set.empty());
  EXPECT_FALSE(set.Covers("a", 0, kMaxSequenceNumber));
  EXPECT_FALSE(set.CoversRange("a", "z", 0, kMaxSequenceNumber));
}

TEST(SecondaryTombstoneSetTest, NewerTombstoneOverlapsOlder) {
  // [b, e) at 10 and [d, g) at 20.
  SecondaryTombstoneSet set({{"b", "e", 10}, {"d", "g", 20}});
  const SequenceNumber latest = kMaxSequenceNumber;
  EXPECT_FALSE(set.Covers("a", 1, latest));
  EXPECT_TRUE(set.Covers("b", 9, latest));
  EXPECT_FALSE(set.Covers("b", 10, latest));  // Written at it or after.
  EXPECT_TRUE(set.Covers("d", 19, latest));   // The newer tombstone over d.
  EXPECT_TRUE(set.Covers("f", 15, latest));
  EXPECT_FALSE(set.Covers("g", 1, latest));  // hi is exclusive.

  EXPECT_TRUE(set.CoversRange("b", "f", 9, latest));
  EXPECT_FALSE(set.CoversRange("b", "f", 10, latest));  // [b, d) below 10.
  EXPECT_TRUE(set.CoversRange("d", "fzz", 19, latest));
  EXPECT_FALSE(set.CoversRange("d", "g", 1, latest));  // g is not covered.
  EXPECT_FALSE(set.CoversRange("a", "c", 1, latest));
}

// A read at a snapshot older than a tombstone does not see it.
TEST(SecondaryTombstoneSetTest, ReadsSeeTombstonesUpToTheirSnapshot) {
  SecondaryTombstoneSet set({{"b", "e", 10}, {"d", "g", 20}});
  EXPECT_FALSE(set.Covers("c", 5, 9));  // Read before the tombstone.
  EXPECT_TRUE(set.Covers("c", 5, 10));
  EXPECT_FALSE(set.Covers("f", 15, 19));
  EXPECT_TRUE(set.Covers("f", 15, 20));
  // Under both: at 15 only the older one, which covers entries below 10.
  EXPECT_TRUE(set.Covers("d", 9, 15));
  EXPECT_FALSE(set.Covers("d", 12, 15));
  EXPECT_TRUE(set.Covers("d", 12, 20));
  EXPECT_FALSE(set.CoversRange("b", "f", 5, 15));  // [e, f] not yet.
  EXPECT_TRUE(set.CoversRange("b", "f", 5, 20));
  EXPECT_TRUE(set.Overlaps("a", "b", 10));
  EXPECT_FALSE(set.Overlaps("a", "b", 9));
  EXPECT_FALSE(set.Overlaps("e", "fz", 19));
  EXPECT_TRUE(set.Overlaps("e", "fz", 20));
  EXPECT_FALSE(set.Overlaps("g", "z", kMaxSequenceNumber));
  EXPECT_FALSE(set.Overlaps("", "a", kMaxSequenceNumber));
}

TEST(SecondaryTombstoneSetTest, GapBetweenTombstones) {
  SecondaryTombstoneSet set({{"a", "c", 10}, {"d", "f", 10}});
  const SequenceNumber latest = kMaxSequenceNumber;
  EXPECT_TRUE(set.CoversRange("a", "bz", 5, latest));
  EXPECT_FALSE(set.CoversRange("a", "d", 5, latest));  // [c, d) is not.
  EXPECT_TRUE(set.CoversRange("d", "e", 5, latest));
}

TEST(SecondaryTombstoneSetTest, AgainstModel) {
  std::mt19937_64 rng(49);
  const std::vector<std::string> keys = AllKeys();
  for (int round = 0; round < 500; ++round) {
    std::vector<SecondaryRangeTombstone> tombstones;
    const int n = static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      std::string lo = RandomKey(rng), hi = RandomKey(rng);
      if (lo == hi) {
        hi.push_back('a');
      }
      if (hi < lo) {
        std::swap(lo, hi);
      }
      tombstones.push_back({lo, hi, 1 + rng() % 40});
    }
    SecondaryTombstoneSet set(tombstones);
    for (SequenceNumber seq : {0, 5, 17, 39, 40}) {
      for (SequenceNumber read :
           {SequenceNumber{3}, SequenceNumber{20}, kMaxSequenceNumber}) {
        for (size_t i = 0; i < keys.size(); ++i) {
          ASSERT_EQ(set.Covers(keys[i], seq, read),
                    ModelCovers(tombstones, keys[i], seq, read))
              << round << " " << keys[i] << "@" << seq << " read " << read;
          // A range is covered for the entries at or below seq when every
          // key of it is covered at seq (an older entry is covered by every
          // tombstone that covers a newer one); AllKeys stand in for the
          // keys between them.
          bool all = true;
          for (size_t j = i; j < keys.size(); ++j) {
            all = all && ModelCovers(tombstones, keys[j], seq, read);
            ASSERT_EQ(set.CoversRange(keys[i], keys[j], seq, read), all)
                << round << " [" << keys[i] << ", " << keys[j] << "]@" << seq
                << " read " << read;
          }
        }
      }
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
