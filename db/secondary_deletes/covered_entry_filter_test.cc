// CoveredEntryFilterIterator against a model: the entries it passes on, in
// both directions and from any seek, are exactly the input's entries that
// no tombstone covers. Linked into secondary_deletes_test.

#include "db/secondary_deletes/covered_entry_filter.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "rocksdb/comparator.h"
#include "test_util/testharness.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {

namespace {

struct Entry {
  std::string internal_key;
  std::string value;
};

// Values start with a two-byte delete key ("d0".."d9"); some are shorter
// and have none.
std::vector<Entry> RandomEntries(std::mt19937_64& rng,
                                 const InternalKeyComparator& icmp) {
  std::vector<Entry> entries;
  SequenceNumber seq = 1;
  for (int k = 0; k < 40; ++k) {
    const std::string user_key = "key" + std::to_string(100 + k);
    const int versions = 1 + static_cast<int>(rng() % 3);
    for (int v = 0; v < versions; ++v) {
      const uint64_t kind = rng() % 10;
      const ValueType type = kind == 0   ? kTypeDeletion
                             : kind == 1 ? kTypeMerge
                             : kind == 2 ? kTypeValueInitial
                                         : kTypeValue;
      std::string value;
      if (type != kTypeDeletion && rng() % 8 != 0) {
        value = "d" + std::to_string(rng() % 10) + "payload";
      }
      entries.push_back(
          {InternalKey(user_key, seq++, type).Encode().ToString(), value});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [&](const Entry& a, const Entry& b) {
              return icmp.Compare(a.internal_key, b.internal_key) < 0;
            });
  return entries;
}

bool ModelCovered(const Entry& e,
                  const std::vector<SecondaryRangeTombstone>& tombstones) {
  ParsedInternalKey parsed;
  EXPECT_OK(ParseInternalKey(e.internal_key, &parsed, false));
  if ((parsed.type != kTypeValue && parsed.type != kTypeValueInitial &&
       parsed.type != kTypeMerge) ||
      e.value.size() < 2) {
    return false;
  }
  const std::string d = e.value.substr(0, 2);
  for (const SecondaryRangeTombstone& t : tombstones) {
    if (t.lo <= d && d < t.hi && parsed.sequence < t.seq) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> Forward(InternalIterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  EXPECT_OK(it->status());
  return keys;
}

std::vector<std::string> Backward(InternalIterator* it) {
  std::vector<std::string> keys;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    keys.push_back(it->key().ToString());
  }
  EXPECT_OK(it->status());
  std::reverse(keys.begin(), keys.end());
  return keys;
}

}  // namespace

TEST(CoveredEntryFilterTest, PassesExactlyTheUncoveredEntries) {
  std::mt19937_64 rng(2020);
  const InternalKeyComparator icmp(BytewiseComparator());
  const auto extractor = NewValuePrefixDeleteKeyExtractor(2);
  uint64_t hidden_total = 0;
  for (int round = 0; round < 300; ++round) {
    const std::vector<Entry> entries = RandomEntries(rng, icmp);
    std::vector<SecondaryRangeTombstone> tombstones;
    for (int t = static_cast<int>(rng() % 3); t > 0; --t) {
      int lo = static_cast<int>(rng() % 10), hi = static_cast<int>(rng() % 10);
      if (lo > hi) {
        std::swap(lo, hi);
      }
      tombstones.push_back({"d" + std::to_string(lo),
                            hi == 9 ? "e" : "d" + std::to_string(hi + 1),
                            1 + rng() % (entries.size() + 1)});
    }
    const SecondaryTombstoneSet set(tombstones);

    std::vector<std::string> keys, values, expected;
    for (const Entry& e : entries) {
      keys.push_back(e.internal_key);
      values.push_back(e.value);
      if (!ModelCovered(e, tombstones)) {
        expected.push_back(e.internal_key);
      }
    }
    CoveredEntryFilterIterator it(
        std::make_unique<VectorIterator>(keys, values, &icmp), extractor.get(),
        &set);
    ASSERT_EQ(Forward(&it), expected) << round;
    ASSERT_EQ(Backward(&it), expected) << round;

    // Seeks to every key, and a step each way from where they land.
    auto less = [&](const std::string& a, const std::string& b) {
      return icmp.Compare(a, b) < 0;
    };
    for (const Entry& target : entries) {
      auto ge = std::lower_bound(expected.begin(), expected.end(),
                                 target.internal_key, less);
      it.Seek(target.internal_key);
      ASSERT_EQ(it.Valid(), ge != expected.end());
      if (it.Valid()) {
        ASSERT_EQ(it.key().ToString(), *ge);
        it.Prev();
        ASSERT_EQ(it.Valid(), ge != expected.begin());
        if (it.Valid()) {
          ASSERT_EQ(it.key().ToString(), *(ge - 1));
        }
      }
      auto le = std::upper_bound(expected.begin(), expected.end(),
                                 target.internal_key, less);
      it.SeekForPrev(target.internal_key);
      ASSERT_EQ(it.Valid(), le != expected.begin());
      if (it.Valid()) {
        ASSERT_EQ(it.key().ToString(), *(le - 1));
        it.Next();
        ASSERT_EQ(it.Valid(), le != expected.end());
        if (it.Valid()) {
          ASSERT_EQ(it.key().ToString(), *le);
        }
      }
    }
    hidden_total += it.entries_hidden();
  }
  EXPECT_GT(hidden_total, 0) << "the rounds covered something";
}

TEST(CoveredEntryFilterTest, OlderVersionShowsThrough) {
  // key@3 (d5) over key@2 (d1): a tombstone over d5 at 10 leaves key@2.
  const InternalKeyComparator icmp(BytewiseComparator());
  std::vector<std::string> keys{
      InternalKey("key", 3, kTypeValue).Encode().ToString(),
      InternalKey("key", 2, kTypeValue).Encode().ToString()};
  std::vector<std::string> values{"d5new", "d1old"};
  const SecondaryTombstoneSet set({{"d5", "d6", 10}});
  const auto extractor = NewValuePrefixDeleteKeyExtractor(2);
  CoveredEntryFilterIterator it(
      std::make_unique<VectorIterator>(keys, values, &icmp), extractor.get(),
      &set);
  it.SeekToFirst();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.value().ToString(), "d1old");
  EXPECT_EQ(it.entries_hidden(), 1);
}

}  // namespace ROCKSDB_NAMESPACE
