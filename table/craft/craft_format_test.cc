// Golden bytes of every CRaFT format this code writes (FORMAT.md): partition
// versions 1, 2, 3 and 4 (with the range hash's slot function), metadata
// version 2, and the decoding of metadata
// version 1, which is only read. A change to any of these bytes is a format
// change: it must come with a new version in FORMAT.md, never silently.
//
// Small inputs are pinned byte for byte; larger ones (where the key code or
// several partitions come into play) by a hash of the bytes and their size.

#include <random>
#include <set>
#include <string>
#include <vector>

#include "table/craft/craft_filter.h"
#include "table/craft/craft_range_filter_policy.h"
#include "table/craft/louds_sparse.h"
#include "table/craft/range_hash.h"
#include "test_util/testharness.h"
#include "util/coding.h"
#include "util/hash.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::string Hex(const std::string& bytes) {
  return Slice(bytes).ToString(/*hex=*/true);
}

// Hash and size of some bytes, for golden values too long to spell out.
std::string Digest(const std::string& bytes) {
  return std::to_string(bytes.size()) + ":" +
         std::to_string(Hash64(bytes.data(), bytes.size(), /*seed=*/0));
}

std::string Trie(const std::vector<std::string>& keys,
                 const LoudsSparseOptions& options) {
  LoudsSparseBuilder builder(options);
  for (const std::string& k : keys) {
    builder.Add(k);
  }
  std::string out;
  builder.Finish(&out);
  return out;
}

struct Filter {
  std::vector<std::string> partitions;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
};

Filter BuildFilter(const std::vector<std::string>& keys,
                   const CraftFilterOptions& options) {
  CraftFilterBuilder builder(options);
  uint32_t block = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    builder.Add(keys[i], block);
    if (i % 16 == 15) {
      ++block;
    }
  }
  Filter f;
  builder.Finish(&f.partitions, &f.infos, &f.last_key);
  return f;
}

// 64-bit big-endian integers, the keys of a numeric primary key.
std::vector<std::string> IntegerKeys(size_t n, uint64_t step) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = i * step + 1;
    std::string k(8, '\0');
    for (int b = 0; b < 8; ++b) {
      k[b] = static_cast<char>(v >> (56 - 8 * b));
    }
    keys.push_back(k);
  }
  return keys;
}

// Email-like text keys, which the key code of version 3 shrinks.
std::vector<std::string> TextKeys(size_t n) {
  static const char* const kNames[] = {"alice", "bob",   "carol", "dave",
                                       "erin",  "frank", "grace", "heidi"};
  static const char* const kDomains[] = {"example.com", "mail.example.org",
                                         "corp.example.net"};
  std::set<std::string> keys;
  for (size_t i = 0; keys.size() < n; ++i) {
    keys.insert(std::string(kNames[i % 8]) + "." +
                std::to_string(i * 7919 % 100003) + "@" + kDomains[i % 3]);
  }
  return {keys.begin(), keys.end()};
}

// User names of random letters at a few domains: few distinct bytes, spread
// over every level, where the key code pays.
std::vector<std::string> LetterKeys(size_t n) {
  static const char* const kDomains[] = {"example.com", "mail.example.org"};
  std::mt19937_64 rng(2026);
  std::set<std::string> keys;
  while (keys.size() < n) {
    std::string user;
    const size_t len = 4 + rng() % 10;
    for (size_t c = 0; c < len; ++c) {
      user.push_back(static_cast<char>('a' + rng() % 26));
    }
    keys.insert(user + "@" + kDomains[rng() % 2]);
  }
  return {keys.begin(), keys.end()};
}

}  // namespace

// Readers find the filter by this meta block name: stock skips it, every
// Lodestone release must keep finding it. The range filter layer derives it
// from the policy's compatibility name.
TEST(CraftFormatTest, MetaBlockName) {
  EXPECT_STREQ(CraftRangeFilterPolicy::kMetaBlockName(),
               "filter.lodestone.craft");
  EXPECT_STREQ(
      CraftRangeFilterPolicy(CraftRangeFilterOptions()).CompatibilityName(),
      "craft");
}

// Version 1: a byte per label. Keys "a", "ab", "b" with 4 real suffix bits:
// version, flags, R, H, num_keys, num_edges, num_nodes, num_leaves, labels,
// then the bitmaps as little-endian u64 words (FORMAT.md).
TEST(CraftFormatTest, PartitionVersion1Bytes) {
  LoudsSparseOptions options;
  options.real_suffix_bits = 4;
  options.compact_labels = false;
  const std::string trie = Trie({"a", "ab", "b"}, options);
  EXPECT_EQ(trie[0], 1);
  EXPECT_EQ(Hex(trie),
            "01000400"          // version 1, flags, R = 4, H = 0
            "03030202"          // 3 keys, 3 edges, 2 nodes, 2 leaves
            "616262"            // labels: a b | b
            "0100000000000000"  // has_child: edge 0 (a)
            "0500000000000000"  // louds: edges 0 and 2 start nodes
            "0200000000000000"  // prefix_key: node 1 ("a") is a key
            "0000000000000000"  // suffixes: 2 leaves x 4 bits, no bytes left
  );
}

// Version 2: the same trie with labels coded per level.
TEST(CraftFormatTest, PartitionVersion2Bytes) {
  LoudsSparseOptions options;
  options.real_suffix_bits = 4;
  const std::string trie = Trie({"a", "ab", "b"}, options);
  EXPECT_EQ(trie[0], 2);
  EXPECT_EQ(Hex(trie),
            "02000400"  // version 2, flags, R = 4, H = 0
            "03030202"  // 3 keys, 3 edges, 2 nodes, 2 leaves
            "0202050108170100000000000000050000000000000002000000000000000000"
            "0000000000004160310000000000");
}

// Versions 2 and 3 as the table builder writes them: integer keys keep
// version 2, and so do text keys of a few names and many digits (their
// trial trie is smaller uncoded); random letters get version 3.
TEST(CraftFormatTest, PartitionsOfAFilter) {
  CraftFilterOptions options;
  options.partition_size = 1024;
  options.trie.real_suffix_bits = 8;
  options.trie.hash_suffix_bits = 4;

  // The partitions, concatenated; each must be of `version`.
  auto written = [&options](const std::vector<std::string>& keys,
                            char version) {
    const Filter f = BuildFilter(keys, options);
    EXPECT_GT(f.partitions.size(), 1u);
    std::string all;
    for (const std::string& p : f.partitions) {
      EXPECT_EQ(p[0], version);
      all += p;
    }
    return all;
  };
  EXPECT_EQ(Digest(written(IntegerKeys(2000, 37), 2)),
            "5810:9391539418311788677");
  EXPECT_EQ(Digest(written(TextKeys(3000), 2)), "8921:10280962191100656587");
  const std::string letters = written(LetterKeys(3000), 3);
  EXPECT_EQ(Digest(letters), "8582:14377235214206935309");
  // Each choice is the smaller one.
  options.key_coding = false;
  EXPECT_GT(written(LetterKeys(3000), 2).size(), letters.size());
}

// db_bench's keys: consecutive integers, then eight '0's. Half the bytes
// the trie stores are that '0', so the byte weights promise the code a
// saving, but the integers' last byte is a dense level that version 2
// already stores in a few bits per label; coded, the trie grew 2.4x
// (10.3 against 4.2 bits per key in tables of 4,500 keys).
TEST(CraftFormatTest, PaddedIntegerKeysStayUncoded) {
  std::vector<std::string> keys;
  for (const std::string& k : IntegerKeys(4500, 1)) {
    keys.push_back(k + std::string(8, '0'));
  }
  CraftFilterOptions options;
  options.trie.real_suffix_bits = 0;
  const Filter f = BuildFilter(keys, options);
  size_t bytes = 0;
  for (const std::string& p : f.partitions) {
    EXPECT_EQ(p[0], 2);
    bytes += p.size();
  }
  EXPECT_LT(8.0 * bytes / keys.size(), 6.0);
}

// Version 4: a version 2 trie, nested, then the range hash section. Keys
// 1, 2 and 1000 (8 bytes) at 6 bits per key: blocks of 2^4 tails, 3 slots.
TEST(CraftFormatTest, PartitionVersion4Bytes) {
  LoudsSparseOptions options;
  options.real_suffix_bits = 0;
  const std::vector<std::string> keys = IntegerKeys(3, 1);  // 1, 2, 3
  std::vector<std::string> with_far = {keys[0], keys[1]};
  with_far.push_back(IntegerKeys(2, 999)[1]);  // 1000
  const std::string trie = Trie(with_far, options);
  RangeHashBuilder builder(6);
  for (const std::string& k : with_far) {
    builder.Add(k);
  }
  std::string section;
  ASSERT_TRUE(builder.Finish(&section));
  std::string block;
  CraftPartition::Encode(trie, section, &block);
  EXPECT_EQ(
      Hex(block.substr(0, 2 + trie.size())),
      "04" + Hex(std::string(1, static_cast<char>(trie.size()))) + Hex(trie));
  EXPECT_EQ(Hex(section),
            "0804"              // W = 8, k = 4
            "0304"              // 3 slots, l = 4
            "03"                // 3 values
            "2108000000000000"  // lows: 1, 2, 8 (4 bits each)
            "2300000000000000"  // highs: buckets 0 and 1 empty ("1", "1"),
                                // bucket 2 all three ("0001"): blocks 0
                                // and 62 both hash to slot 2
  );
  EXPECT_EQ(RangeHashSlot(RangeHashPrefix(keys[0], 8), 0, 3), 2u);
  EXPECT_EQ(RangeHashSlot(RangeHashPrefix(keys[0], 8), 62, 3), 2u);
  CraftPartition decoded;
  ASSERT_OK(CraftPartition::Decode(block, &decoded));
  ASSERT_NE(decoded.range_hash(), nullptr);
  EXPECT_EQ(decoded.range_hash()->num_values(), 3u);
}

// The range hash's slot function and key split are part of the format.
TEST(CraftFormatTest, RangeHashSlotValues) {
  EXPECT_EQ(RangeHashSlot(0, 0, 1000), 0u);
  EXPECT_EQ(RangeHashSlot(0, 1, 1000), 611u);
  EXPECT_EQ(RangeHashSlot(12345, 678, 1000000), 124215u);
  EXPECT_EQ(RangeHashSlot(~uint64_t{0}, ~uint64_t{0}, uint64_t{1} << 40),
            161991752428u);
  const std::string key = "tenant\x01\x02\x03\x04\x05\x06\x07\x08";
  EXPECT_EQ(RangeHashTail(key, key.size()), 0x0102030405060708u);
  // Hash64 of "tenant" (RocksDB's XXPH3) with the range hash's seed.
  EXPECT_EQ(RangeHashPrefix(key, key.size()), 18359559587872436418u);
  EXPECT_EQ(RangeHashPrefix(key.substr(6), 8), 9540066724482914216u);  // ""
  EXPECT_EQ(RangeHashTail("\x01\x02", 2), 0x0102u);
}

// Metadata version 2: per partition its first key, key count, data blocks
// and handle, then the table's last key.
TEST(CraftFormatTest, MetadataVersion2Bytes) {
  auto info = [](const char* first_key, uint64_t num_keys, uint32_t first_block,
                 uint32_t last_block, uint64_t offset, uint64_t size) {
    CraftPartitionInfo i;
    i.first_key = first_key;
    i.num_keys = num_keys;
    i.first_block = first_block;
    i.last_block = last_block;
    i.offset = offset;
    i.size = size;
    return i;
  };
  const std::vector<CraftPartitionInfo> infos = {
      info("apple", 300, 0, 4, 4096, 1000), info("melon", 7, 4, 5, 5101, 64)};
  std::string metadata;
  CraftMetadata::Encode(infos, "zucchini", &metadata);
  EXPECT_EQ(Hex(metadata),
            "0202"                // version 2, 2 partitions
            "056170706C65"        // "apple"
            "AC020004"            // 300 keys, blocks 0..4
            "8020E807"            // at 4096, 1000 bytes
            "056D656C6F6E"        // "melon"
            "070405"              // 7 keys, blocks 4..5
            "ED2740"              // at 5101, 64 bytes
            "087A75636368696E69"  // last key "zucchini"
  );

  CraftMetadata decoded;
  ASSERT_OK(CraftMetadata::Decode(metadata, &decoded));
  ASSERT_EQ(decoded.partitions().size(), 2u);
  EXPECT_EQ(decoded.partitions()[1].first_key, "melon");
  EXPECT_EQ(decoded.num_keys(), 307u);
}

// Metadata version 1 (no last key) is still read: these bytes, written by
// the first format, decode to one partition.
TEST(CraftFormatTest, MetadataVersion1Decodes) {
  std::string v1;
  v1.push_back(1);                   // format_version
  PutVarint32(&v1, 1);               // num_partitions
  PutLengthPrefixedSlice(&v1, "k");  // first_key
  PutVarint64(&v1, 42);              // num_keys
  PutVarint32(&v1, 0);               // first_block
  PutVarint32(&v1, 3);               // last_block
  PutVarint64(&v1, 8192);            // offset
  PutVarint64(&v1, 77);              // size
  CraftMetadata decoded;
  ASSERT_OK(CraftMetadata::Decode(v1, &decoded));
  ASSERT_EQ(decoded.partitions().size(), 1u);
  EXPECT_EQ(decoded.partitions()[0].first_key, "k");
  EXPECT_EQ(decoded.partitions()[0].num_keys, 42u);
  EXPECT_EQ(decoded.partitions()[0].last_block, 3u);
  EXPECT_EQ(decoded.partitions()[0].offset, 8192u);
  EXPECT_EQ(decoded.partitions()[0].size, 77u);
  // Without a last key the last partition's key range is open: no estimate.
  EXPECT_EQ(decoded.ExpectedKeys("k", "l"), -1.0);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
