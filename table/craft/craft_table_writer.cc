#include "table/craft/craft_table_writer.h"

#include <cstring>
#include <string>

#include "logging/logging.h"

namespace ROCKSDB_NAMESPACE {

const char* const CraftTableWriter::kMetaBlockName = "filter.lodestone.craft";

std::unique_ptr<CraftTableWriter> CraftTableWriter::CreateIfEnabled(
    const BlockBasedTableOptions& table_options, const Comparator* ucmp,
    Logger* logger) {
  if (!table_options.craft_range_filter) {
    return nullptr;
  }
  if (ucmp == nullptr || ucmp->timestamp_size() != 0 ||
      strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0) {
    ROCKS_LOG_WARN(logger,
                   "craft_range_filter needs the bytewise comparator without "
                   "timestamps; comparator %s: no filter written",
                   ucmp ? ucmp->Name() : "null");
    return nullptr;
  }
  CraftFilterOptions options;
  options.partition_size = table_options.craft_partition_size;
  options.trie.real_suffix_bits = table_options.craft_real_suffix_bits;
  options.trie.hash_suffix_bits = table_options.craft_hash_suffix_bits;
  options.range_hash_bits = table_options.craft_range_hash_bits;
  return std::make_unique<CraftTableWriter>(options);
}

Status CraftTableWriter::CheckOptions(
    const BlockBasedTableOptions& table_options) {
  // `zero_allowed`: 0 (off) is valid below `min` too.
  auto check = [](const char* name, uint32_t value, uint32_t min, uint32_t max,
                  bool zero_allowed) {
    if ((zero_allowed && value == 0) || (value >= min && value <= max)) {
      return Status::OK();
    }
    return Status::InvalidArgument(
        std::string(name) + " must be " + (zero_allowed ? "0 or " : "") +
        "in [" + std::to_string(min) + ", " + std::to_string(max) + "], not " +
        std::to_string(value));
  };
  Status s =
      check("craft_real_suffix_bits", table_options.craft_real_suffix_bits, 0,
            LoudsSparseOptions::kMaxRealSuffixBits, false);
  if (s.ok()) {
    s = check("craft_hash_suffix_bits", table_options.craft_hash_suffix_bits, 0,
              LoudsSparseOptions::kMaxHashSuffixBits, false);
  }
  if (s.ok()) {
    s = check("craft_range_hash_bits", table_options.craft_range_hash_bits,
              RangeHashBuilder::kMinBitsPerKey,
              RangeHashBuilder::kMaxBitsPerKey, true);
  }
  // craft_partition_size: any value is honoured (a partition is cut at the
  // first key boundary at or past it).
  return s;
}

Status CraftTableWriter::Finish(const BlockWriter& write,
                                BlockHandle* metadata) {
  std::vector<std::string> partitions;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder_.Finish(&partitions, &infos, &last_key);
  if (partitions.empty()) {
    return Status::NotFound("no keys");
  }
  for (size_t i = 0; i < partitions.size(); ++i) {
    BlockHandle handle;
    Status s = write(partitions[i], &handle);
    if (!s.ok()) {
      return s;
    }
    infos[i].offset = handle.offset();
    infos[i].size = handle.size();
  }
  std::string encoded;
  CraftMetadata::Encode(infos, last_key, &encoded);
  return write(encoded, metadata);
}

}  // namespace ROCKSDB_NAMESPACE
