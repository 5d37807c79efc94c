// A CRaFT filter damaged where no checksum sees it (a table written with
// checksum=kNoChecksum): every single-bit flip of every byte of its
// partitions and metadata, for each partition format version, read the way
// the table reader reads a table without checksums (metadata checked
// against the table's layout, every partition checked against the metadata
// before the filter answers, empty ranges confirmed by the next partition's
// trie). A flip is refused (the table is then read as if it had no filter),
// harmless, or it hides a stored key. No flip of the metadata may hide a
// key; a flip inside a partition that leaves every structure consistent can
// (FORMAT.md, "What a reader checks"), no more often than a flip of stock
// RocksDB's bloom filter over the same keys hides one.

#include <cinttypes>
#include <cstdio>
#include <set>

#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/craft/craft_filter.h"
#include "table/craft/craft_test_filters.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

using StoredFilter = StoredCraftFilter;

// The block at [offset, offset + size) of `bytes`, or false past its end
// (a read error for the table reader).
bool ReadBlock(const std::string& bytes, uint64_t offset, uint64_t size,
               Slice* block) {
  if (offset > bytes.size() || size > bytes.size() - offset) {
    return false;
  }
  *block = Slice(bytes.data() + offset, static_cast<size_t>(size));
  return true;
}

enum class Outcome { kRefused, kHarmless, kHidesKeys };

// Reads the (possibly damaged) filter in `bytes` as the table reader does
// without checksums, then asks for every stored key.
Outcome Read(const StoredFilter& f, const std::string& bytes,
             const std::set<std::string>& keys) {
  Slice metadata_block;
  if (!ReadBlock(bytes, f.metadata_offset, f.metadata_size, &metadata_block)) {
    return Outcome::kRefused;
  }
  CraftMetadata metadata;
  Status s = CraftMetadata::Decode(metadata_block, f.layout, &metadata);
  if (!s.ok()) {
    return Outcome::kRefused;
  }
  std::vector<CraftPartition> partitions(metadata.partitions().size());
  for (size_t i = 0; i < partitions.size(); ++i) {
    const CraftPartitionInfo& info = metadata.partitions()[i];
    Slice block;
    if (!ReadBlock(bytes, info.offset, info.size, &block) ||
        !metadata.DecodePartition(i, block, &partitions[i]).ok()) {
      return Outcome::kRefused;
    }
  }
  CraftFilterReader reader(metadata);
  reader.set_confirm_first_keys(true);
  const CraftPartitionLoader loader =
      [&](size_t index, const CraftPartition** partition, Cleanable*) {
        if (index >= partitions.size()) {
          return Status::Corruption("no such partition");
        }
        *partition = &partitions[index];
        return Status::OK();
      };
  std::string previous;
  for (const std::string& k : keys) {
    // The key alone, and the range from just past the key before it.
    if (!reader.RangeMayExist(k, k + '\0', loader) ||
        !reader.RangeMayExist(previous + '\0', k + '\0', loader)) {
      return Outcome::kHidesKeys;
    }
    previous = k;
  }
  return Outcome::kHarmless;
}

struct Counts {
  uint64_t copies = 0, refused = 0, hidden = 0;
  uint64_t metadata_copies = 0, metadata_hidden = 0;  // Flips in the metadata.
};

Counts FlipEveryBit(const StoredFilter& f, const std::set<std::string>& keys) {
  Counts c;
  EXPECT_EQ(Read(f, f.bytes, keys), Outcome::kHarmless);
  std::vector<std::pair<uint64_t, uint64_t>> blocks = f.partitions;
  blocks.emplace_back(f.metadata_offset, f.metadata_size);
  for (const auto& [offset, size] : blocks) {
    const bool metadata = offset == f.metadata_offset;
    for (uint64_t at = offset; at < offset + size; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string damaged = f.bytes;
        damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit));
        const Outcome outcome = Read(f, damaged, keys);
        ++c.copies;
        c.metadata_copies += metadata;
        c.refused += outcome == Outcome::kRefused;
        if (outcome == Outcome::kHidesKeys) {
          ++c.hidden;
          c.metadata_hidden += metadata;
        }
      }
    }
  }
  return c;
}

// The same flips in stock RocksDB's bloom filter (10 bits per key) over the
// same keys: the share of flips after which some key no longer matches.
double BloomShareHidingKeys(const std::set<std::string>& keys) {
  std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  BlockBasedTableOptions table_options;
  const FilterBuildingContext context(table_options);
  std::unique_ptr<FilterBitsBuilder> builder(
      policy->GetBuilderWithContext(context));
  for (const std::string& k : keys) {
    builder->AddKey(k);
  }
  std::unique_ptr<const char[]> buf;
  const std::string filter = builder->Finish(&buf).ToString();
  uint64_t copies = 0, hidden = 0;
  for (size_t at = 0; at < filter.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = filter;
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit));
      std::unique_ptr<FilterBitsReader> reader(
          policy->GetFilterBitsReader(damaged));
      ++copies;
      for (const std::string& k : keys) {
        if (!reader->MayMatch(k)) {
          ++hidden;
          break;
        }
      }
    }
  }
  return static_cast<double>(hidden) / static_cast<double>(copies);
}

}  // namespace

TEST(CraftDamageTest, FlipsHideKeysNoMoreOftenThanInABloomFilter) {
  for (const CraftFormatCase& c : CraftFormatCases()) {
    SCOPED_TRACE(c.name);
    const StoredFilter f = StoreCraftFilter(c.keys, c.options);
    ASSERT_GT(f.partitions.size(), 2u);
    ASSERT_EQ(static_cast<uint8_t>(f.bytes[0]), c.expected_version);
    const Counts counts = FlipEveryBit(f, c.keys);
    const double bloom = BloomShareHidingKeys(c.keys);
    const double share =
        static_cast<double>(counts.hidden) / static_cast<double>(counts.copies);
    fprintf(stderr,
            "%-34s %6" PRIu64
            " flips: %4.1f%% refused, %4.1f%% hide keys "
            "(metadata: %" PRIu64 " of %" PRIu64
            "); bloom filter, same keys: %4.1f%% hide keys\n",
            c.name, counts.copies, 100.0 * counts.refused / counts.copies,
            100.0 * share, counts.metadata_hidden, counts.metadata_copies,
            100.0 * bloom);
    // A flip of a label, a suffix or a range-hash value that keeps every
    // structure consistent can hide keys, as a flipped bloom filter bit
    // can; no more often. In the metadata every byte is a count, an offset,
    // a block ordinal or an anchor key that a trie confirms: no flip there
    // hides a key.
    EXPECT_LE(share, bloom);
    EXPECT_EQ(counts.metadata_hidden, 0u);
  }
}

// Refusals the layout alone decides, one damage each.
TEST(CraftDamageTest, MetadataMustMatchTheTable) {
  const CraftFormatCase c = CraftFormatCases()[1];
  const StoredFilter f = StoreCraftFilter(c.keys, c.options);
  CraftMetadata metadata;
  const Slice block(f.bytes.data() + f.metadata_offset, f.metadata_size);
  ASSERT_OK(CraftMetadata::Decode(block, f.layout, &metadata));
  auto refused = [&](CraftTableLayout layout) {
    return CraftMetadata::Decode(block, layout, &metadata).IsCorruption();
  };
  CraftTableLayout moved = f.layout;
  moved.metadata_offset += 1;  // The last partition would not end there.
  EXPECT_TRUE(refused(moved));
  CraftTableLayout trailer = f.layout;
  trailer.block_trailer_size = 4;
  EXPECT_TRUE(refused(trailer));
  CraftTableLayout more_blocks = f.layout;
  more_blocks.num_data_blocks += 1;  // Ordinals must reach the last block.
  EXPECT_TRUE(refused(more_blocks));
  CraftTableLayout fewer_entries = f.layout;
  fewer_entries.num_entries = c.keys.size() - 1;
  EXPECT_TRUE(refused(fewer_entries));
  CraftTableLayout unknown_counts = f.layout;
  unknown_counts.num_data_blocks = 0;
  unknown_counts.num_entries = 0;
  EXPECT_FALSE(refused(unknown_counts));

  // A partition is checked against its own entry: another partition's
  // block, or a block whose key count differs, is refused.
  const Slice p0(f.bytes.data() + f.partitions[0].first,
                 f.partitions[0].second);
  const Slice p1(f.bytes.data() + f.partitions[1].first,
                 f.partitions[1].second);
  CraftPartition partition;
  EXPECT_OK(metadata.DecodePartition(0, p0, &partition));
  EXPECT_OK(metadata.DecodePartition(1, p1, &partition));
  EXPECT_TRUE(metadata.DecodePartition(1, p0, &partition).IsCorruption());
  EXPECT_TRUE(metadata.DecodePartition(0, p1, &partition).IsCorruption());
  EXPECT_TRUE(metadata.DecodePartition(f.partitions.size(), p0, &partition)
                  .IsCorruption());
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
