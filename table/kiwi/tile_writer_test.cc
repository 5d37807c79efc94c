// TileWriter: every entry of a tile comes back from exactly one block, in
// table order within it; the blocks' tile map entries tell the truth; and
// h = 1 writes today's data block byte for byte. Linked into
// kiwi_layout_test.

#include "table/kiwi/tile_writer.h"

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "rocksdb/comparator.h"
#include "table/block_based/block.h"
#include "table/block_based/block_builder.h"
#include "table/kiwi/tile_drop.h"
#include "table/kiwi/tile_key_filter.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

struct TestEntry {
  std::string internal_key;
  std::string value;
  bool has_delete_key;
  std::string delete_key;
};

std::vector<std::pair<std::string, std::string>> ReadBlock(
    const std::string& contents) {
  BlockContents block_contents{Slice(contents)};
  ROCKSDB_NAMESPACE::Block block(std::move(block_contents));
  std::unique_ptr<DataBlockIter> it(block.NewDataIterator(
      BytewiseComparator(), kDisableGlobalSequenceNumber));
  std::vector<std::pair<std::string, std::string>> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  EXPECT_OK(it->status());
  return out;
}

// A tile of `n` user keys in order, some with two versions; delete keys
// uncorrelated with the user keys; a few deletes, merge operands and
// entries without a delete key.
std::vector<TestEntry> RandomTile(std::mt19937_64& rng, int n) {
  std::vector<TestEntry> entries;
  SequenceNumber seq = 1000000;
  for (int i = 0; i < n; ++i) {
    char user_key[16];
    snprintf(user_key, sizeof(user_key), "user%06d", i);
    const int versions = rng() % 5 == 0 ? 2 : 1;
    for (int v = 0; v < versions; ++v) {
      const uint64_t kind = rng() % 20;
      const ValueType type = kind == 0   ? kTypeDeletion
                             : kind == 1 ? kTypeValueInitial
                             : kind == 2 ? kTypeMerge
                                         : kTypeValue;
      TestEntry e;
      e.internal_key = InternalKey(user_key, --seq, type).Encode().ToString();
      e.value = type == kTypeDeletion ? "" : std::string(rng() % 60, 'v');
      e.has_delete_key = rng() % 10 != 0;
      if (e.has_delete_key) {
        char d[8];
        snprintf(d, sizeof(d), "t%03d", static_cast<int>(rng() % 120));
        e.delete_key = d;
      }
      entries.push_back(e);
    }
  }
  return entries;
}

std::vector<TileWriter::Block> Write(const std::vector<TestEntry>& entries,
                                     uint32_t h) {
  TileWriter::Options options;
  options.max_blocks = h;
  TileWriter writer(options);
  for (const TestEntry& e : entries) {
    Slice d(e.delete_key);
    writer.Add(e.internal_key, e.value, e.has_delete_key ? &d : nullptr);
  }
  EXPECT_FALSE(writer.empty());
  EXPECT_EQ(writer.last_user_key().ToString(),
            ExtractUserKey(entries.back().internal_key).ToString());
  std::vector<TileWriter::Block> blocks = writer.Finish();
  EXPECT_TRUE(writer.empty());
  EXPECT_EQ(writer.buffered_bytes(), 0);
  return blocks;
}

}  // namespace

TEST(TileWriterTest, OneBlockIsTodaysDataBlock) {
  std::mt19937_64 rng(7);
  const std::vector<TestEntry> entries = RandomTile(rng, 100);
  std::vector<TileWriter::Block> blocks = Write(entries, 1);
  ASSERT_EQ(blocks.size(), 1);

  BlockBuilder stock(TileWriter::Options().block_restart_interval);
  for (const TestEntry& e : entries) {
    stock.Add(e.internal_key, e.value);
  }
  EXPECT_EQ(blocks[0].contents, stock.Finish().ToString());
}

TEST(TileWriterTest, EveryEntryOnceInTableOrderWithTruthfulMap) {
  std::mt19937_64 rng(41);
  const InternalKeyComparator icmp(BytewiseComparator());
  for (uint32_t h : {1u, 2u, 4u, 8u, 16u}) {
    const std::vector<TestEntry> entries = RandomTile(rng, 300);
    std::map<std::string, const TestEntry*> by_key;
    for (const TestEntry& e : entries) {
      by_key[e.internal_key] = &e;
    }
    const std::vector<TileWriter::Block> blocks = Write(entries, h);
    EXPECT_LE(blocks.size(), h);
    EXPECT_GE(blocks.size(), h == 1 ? 1 : 2);

    size_t seen = 0;
    const TileBlock* previous = nullptr;
    for (const TileWriter::Block& block : blocks) {
      const auto read = ReadBlock(block.contents);
      ASSERT_FALSE(read.empty());
      seen += read.size();
      std::string smallest, largest;
      bool any_delete_key = false, only_coverable = true;
      for (size_t i = 0; i < read.size(); ++i) {
        if (i > 0) {
          ASSERT_LT(icmp.Compare(read[i - 1].first, read[i].first), 0)
              << "table order within a block";
        }
        auto it = by_key.find(read[i].first);
        ASSERT_NE(it, by_key.end());
        const TestEntry& e = *it->second;
        EXPECT_EQ(read[i].second, e.value);
        if (e.has_delete_key) {
          smallest =
              any_delete_key ? std::min(smallest, e.delete_key) : e.delete_key;
          largest =
              any_delete_key ? std::max(largest, e.delete_key) : e.delete_key;
          any_delete_key = true;
        }
        const ValueType type = ExtractValueType(e.internal_key);
        only_coverable = only_coverable && e.has_delete_key &&
                         (type == kTypeValue || type == kTypeValueInitial ||
                          type == kTypeMerge);
      }
      const TileBlock& m = block.map_entry;
      EXPECT_EQ(m.entries, read.size());
      EXPECT_EQ(m.has_delete_keys, any_delete_key);
      EXPECT_EQ(m.smallest_delete_key, smallest);
      EXPECT_EQ(m.largest_delete_key, largest);
      EXPECT_EQ(m.only_coverable_entries, only_coverable);
      if (previous != nullptr && previous->has_delete_keys &&
          m.has_delete_keys) {
        EXPECT_LT(previous->largest_delete_key, m.smallest_delete_key)
            << "blocks in delete key order, h " << h;
      }
      previous = &m;
    }
    EXPECT_EQ(seen, entries.size()) << "every entry exactly once, h " << h;
  }
}

// A tile of several blocks gives each a key filter that holds every user
// key of the block and few of the others', so that a point lookup reads
// about one block of the tile; a tile of one block (read after the
// table's own filter) has none.
TEST(TileWriterTest, KeyFiltersHoldTheirBlocksKeys) {
  std::mt19937_64 rng(5);
  for (uint32_t h : {1u, 4u, 16u}) {
    const std::vector<TileWriter::Block> blocks =
        Write(RandomTile(rng, 400), h);
    std::vector<std::set<std::string>> user_keys(blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b) {
      for (const auto& [key, value] : ReadBlock(blocks[b].contents)) {
        user_keys[b].insert(ExtractUserKey(key).ToString());
      }
    }
    // Keys of other blocks; a key whose versions lie in two blocks is in
    // both.
    size_t other_keys = 0, other_matches = 0;
    for (size_t b = 0; b < blocks.size(); ++b) {
      const std::string& filter = blocks[b].map_entry.key_filter;
      EXPECT_EQ(filter.empty(), blocks.size() == 1);
      for (size_t o = 0; o < blocks.size(); ++o) {
        for (const std::string& key : user_keys[o]) {
          const bool match = TileKeyFilterMayMatch(filter, key);
          if (user_keys[b].count(key) > 0) {
            EXPECT_TRUE(match) << "h " << h << ", block " << b;
          } else {
            ++other_keys;
            other_matches += match ? 1 : 0;
          }
        }
      }
    }
    if (h > 1) {
      ASSERT_GT(other_keys, 1000);
      EXPECT_LT(other_matches, other_keys / 20) << "h " << h;
    }
  }
}

// A block dropped whole holds only entries the entry-by-entry rule would
// hide too, so skipping it unread changes nothing a reader sees; and with
// delete keys uncorrelated with user keys, a wide delete drops blocks.
TEST(TileWriterTest, DroppedWholeAgreesWithTheEntryRule) {
  std::mt19937_64 rng(1902);
  size_t dropped = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<TestEntry> entries = RandomTile(rng, 200);
    SequenceNumber table_largest_seqno = 0;
    std::map<std::string, const TestEntry*> by_key;
    for (const TestEntry& e : entries) {
      by_key[e.internal_key] = &e;
      table_largest_seqno =
          std::max(table_largest_seqno, GetInternalKeySeqno(e.internal_key));
    }
    char lo[8], hi[8];
    const int a = static_cast<int>(rng() % 120),
              b = static_cast<int>(rng() % 120);
    snprintf(lo, sizeof(lo), "t%03d", std::min(a, b));
    snprintf(hi, sizeof(hi), "t%03d", std::max(a, b) + 1);
    // Issued after every entry of the table, or (one round in four) before
    // the newest ones.
    const SequenceNumber seq =
        rng() % 4 == 0 ? table_largest_seqno : table_largest_seqno + 1;
    const SecondaryTombstoneSet tombstones({{lo, hi, seq}});

    for (const TileWriter::Block& block : Write(entries, 8)) {
      if (!DroppedWhole(block.map_entry, tombstones, table_largest_seqno,
                        kMaxSequenceNumber)) {
        continue;
      }
      ++dropped;
      ASSERT_GT(seq, table_largest_seqno);
      for (const auto& [key, value] : ReadBlock(block.contents)) {
        const TestEntry& e = *by_key.at(key);
        const ValueType type = ExtractValueType(e.internal_key);
        ASSERT_TRUE(type == kTypeValue || type == kTypeValueInitial ||
                    type == kTypeMerge);
        ASSERT_TRUE(e.has_delete_key);
        ASSERT_TRUE(tombstones.Covers(e.delete_key,
                                      GetInternalKeySeqno(e.internal_key),
                                      kMaxSequenceNumber));
      }
    }
  }
  EXPECT_GT(dropped, 0);
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
