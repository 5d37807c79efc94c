// Fuzz target craft_filter: a table's whole CRaFT filter, its partitions
// and the metadata block that indexes them, read the way the table reader
// reads a table without checksums (craft_table_reader.cc): the metadata
// checked against the table's layout, each partition decoded when a query
// first needs it and checked against its metadata entry, first keys
// confirmed by the tries. Accepted filters answer range lookups, key
// estimates and block ranges over probes around the partitions' keys.
//
// Input: the stored filter bytes (StoredCraftFilter::bytes), then a footer
// of three little-endian u32: the metadata block's size (it ends a trailer
// before the footer), and the table's data block and entry counts (0:
// unknown).

#include <memory>
#include <optional>

#include "table/craft/craft_filter.h"
#include "table/craft/craft_test_filters.h"
#include "tests/fuzz/fuzz_target.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr size_t kFooter = 12;

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  for (const CraftFormatCase& c : CraftFormatCases()) {
    const StoredCraftFilter f = StoreCraftFilter(c.keys, c.options);
    std::string seed = f.bytes;
    PutFixed32(&seed, static_cast<uint32_t>(f.metadata_size));
    PutFixed32(&seed, static_cast<uint32_t>(f.layout.num_data_blocks));
    PutFixed32(&seed, static_cast<uint32_t>(f.layout.num_entries));
    seeds.push_back(std::move(seed));
  }
  return seeds;
}

bool Run(const Slice& input) {
  if (input.size() < kFooter) {
    return false;
  }
  const size_t filter_size = input.size() - kFooter;
  const char* footer = input.data() + filter_size;
  const uint64_t metadata_size = DecodeFixed32(footer);
  if (metadata_size + kCraftTestTrailer > filter_size) {
    return false;
  }
  CraftTableLayout layout;
  layout.metadata_offset = filter_size - kCraftTestTrailer - metadata_size;
  layout.block_trailer_size = kCraftTestTrailer;
  layout.num_data_blocks = DecodeFixed32(footer + 4);
  layout.num_entries = DecodeFixed32(footer + 8);
  const Slice block(input.data() + layout.metadata_offset, metadata_size);
  CraftMetadata metadata;
  if (!CraftMetadata::Decode(block, layout, &metadata).ok()) {
    return false;
  }
  CraftMetadata unchecked;
  if (!CraftMetadata::Decode(block, &unchecked).ok()) {
    fuzz::FuzzFail("metadata that fits its table decodes on its own", "");
  }

  const size_t n = metadata.partitions().size();
  std::vector<std::optional<CraftPartition>> decoded(n);
  std::vector<bool> refused(n, false);
  const CraftPartitionLoader loader = [&](size_t index,
                                          const CraftPartition** partition,
                                          Cleanable*) {
    if (index >= n) {
      return Status::Corruption("no such partition");
    }
    if (!decoded[index] && !refused[index]) {
      const CraftPartitionInfo& info = metadata.partitions()[index];
      if (info.offset > filter_size || info.size > filter_size - info.offset) {
        refused[index] = true;
      } else {
        decoded[index].emplace();
        if (!metadata
                 .DecodePartition(index,
                                  Slice(input.data() + info.offset, info.size),
                                  &*decoded[index])
                 .ok()) {
          decoded[index].reset();
          refused[index] = true;
        }
      }
    }
    if (refused[index]) {
      return Status::Corruption("partition refused");
    }
    *partition = &*decoded[index];
    return Status::OK();
  };

  std::vector<std::string> anchors;
  for (const CraftPartitionInfo& info : metadata.partitions()) {
    anchors.push_back(info.first_key);
  }
  const std::vector<std::string> probes = CraftProbeKeys(anchors);
  CraftFilterReader reader(metadata);
  reader.set_confirm_first_keys(true);
  for (size_t i = 0; i + 1 < probes.size(); ++i) {
    reader.RangeMayExist(probes[i], probes[i + 1], loader);
    const uint64_t estimate =
        reader.EstimateKeys(probes[i], probes[i + 1], &loader);
    if (estimate > metadata.num_keys()) {
      fuzz::FuzzFail("an estimate is no more than the table's keys",
                     std::to_string(estimate) + " > " +
                         std::to_string(metadata.num_keys()));
    }
    reader.ExpectedKeys(probes[i], probes[i + 1]);
    uint32_t first_block = 0, last_block = 0;
    reader.BlockRange(probes[i], &first_block, &last_block);
  }
  // A partition that loads holds its first key (DecodePartition checked
  // that its trie and range hash store it).
  for (size_t i = 0; i < n; ++i) {
    const std::string& first = metadata.partitions()[i].first_key;
    Status s;
    const bool maybe = reader.RangeMayExist(first, first + '\0', loader, &s);
    if (!maybe && decoded[i]) {
      fuzz::FuzzFail("a loaded partition's first key is found",
                     "partition " + std::to_string(i));
    }
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(craft_filter, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
