#include "table/craft/craft_test_filters.h"

#include <random>

namespace ROCKSDB_NAMESPACE {

StoredCraftFilter StoreCraftFilter(const std::set<std::string>& keys,
                                   const CraftFilterOptions& options) {
  CraftFilterBuilder builder(options);
  uint32_t i = 0;
  for (const std::string& k : keys) {
    builder.Add(k, i++ / 8);
  }
  std::vector<std::string> partitions;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder.Finish(&partitions, &infos, &last_key);
  StoredCraftFilter f;
  for (size_t p = 0; p < partitions.size(); ++p) {
    infos[p].offset = f.bytes.size();
    infos[p].size = partitions[p].size();
    f.partitions.emplace_back(infos[p].offset, infos[p].size);
    f.bytes += partitions[p];
    f.bytes.append(kCraftTestTrailer, '\0');
  }
  std::string metadata;
  CraftMetadata::Encode(infos, last_key, &metadata);
  f.metadata_offset = f.bytes.size();
  f.metadata_size = metadata.size();
  f.bytes += metadata;
  f.bytes.append(kCraftTestTrailer, '\0');
  f.layout.metadata_offset = f.metadata_offset;
  f.layout.block_trailer_size = kCraftTestTrailer;
  f.layout.num_data_blocks = (keys.size() + 7) / 8;
  f.layout.num_entries = keys.size();
  return f;
}

std::string CraftTestFixedWidthKey(uint64_t v) {
  std::string k(8, '\0');
  for (int b = 0; b < 8; ++b) {
    k[b] = static_cast<char>(v >> (56 - 8 * b));
  }
  return k;
}

std::vector<std::string> CraftProbeKeys(
    const std::vector<std::string>& anchors) {
  std::set<std::string> probes = {"", std::string(1, '\0'),
                                  "user:", std::string(9, '\xff')};
  for (uint64_t v :
       {uint64_t{0}, uint64_t{1} << 20, uint64_t{1} << 43, ~uint64_t{0}}) {
    probes.insert(CraftTestFixedWidthKey(v));
  }
  for (const std::string& a : anchors) {
    probes.insert(a);
    probes.insert(a + '\0');
    probes.insert(a.substr(0, a.size() / 2));
    if (!a.empty()) {
      probes.insert(a.substr(0, a.size() - 1));
    }
  }
  return {probes.begin(), probes.end()};
}

std::vector<CraftFormatCase> CraftFormatCases() {
  std::mt19937_64 rng(2401);
  std::set<std::string> binary, text;
  while (binary.size() < 400) {
    binary.insert(CraftTestFixedWidthKey(rng() >> 20));
  }
  static const char* kWords[] = {"alpha", "bravo",   "charlie", "delta",
                                 "echo",  "foxtrot", "golf",    "hotel"};
  while (text.size() < 400) {
    text.insert(std::string("user:") + kWords[rng() % 8] + "." +
                kWords[rng() % 8] + "@" + std::to_string(rng() % 1000));
  }
  std::vector<CraftFormatCase> cases(4);
  cases[0] = {"format 1 (a byte per label)", binary, {}, 1};
  cases[0].options.trie.compact_labels = false;
  cases[0].options.key_coding = false;
  cases[1] = {"format 2 (per-level label codes)", binary, {}, 2};
  cases[1].options.key_coding = false;
  cases[2] = {"format 3 (coded keys)", text, {}, 3};
  cases[3] = {"format 4 (with a range hash)", binary, {}, 4};
  cases[3].options.range_hash_bits = 14;
  for (CraftFormatCase& c : cases) {
    c.options.partition_size = 256;
    c.options.trie.real_suffix_bits = 4;
  }
  return cases;
}

}  // namespace ROCKSDB_NAMESPACE
