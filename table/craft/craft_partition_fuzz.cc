// Fuzz target craft_partition: one partition block of any format version
// (1-4), as CraftPartition::Decode meets it in a table read without
// checksums. Accepted blocks are queried: point and range lookups and key
// counts over probes around the keys the seeds stored.

#include <cinttypes>

#include "table/craft/craft_partition.h"
#include "table/craft/craft_test_filters.h"
#include "tests/fuzz/fuzz_target.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::vector<CraftFormatCase> SeedCases() {
  std::vector<CraftFormatCase> cases = CraftFormatCases();
  // Suffix variants: hash suffixes alone, and the widest suffix there is.
  CraftFormatCase hashed = cases[1];
  hashed.options.trie.real_suffix_bits = 0;
  hashed.options.trie.hash_suffix_bits = 8;
  CraftFormatCase widest = cases[3];
  widest.options.trie.real_suffix_bits = 56;
  widest.options.trie.hash_suffix_bits = 8;
  cases.push_back(hashed);
  cases.push_back(widest);
  return cases;
}

std::vector<std::string> Probes() {
  std::vector<std::string> anchors;
  for (const CraftFormatCase& c : SeedCases()) {
    size_t i = 0;
    for (const std::string& k : c.keys) {
      if (i++ % 40 == 0) {
        anchors.push_back(k);
      }
    }
  }
  return CraftProbeKeys(anchors);
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  bool versions[5] = {};
  for (const CraftFormatCase& c : SeedCases()) {
    const StoredCraftFilter f = StoreCraftFilter(c.keys, c.options);
    for (const auto& [offset, size] : f.partitions) {
      seeds.push_back(f.bytes.substr(offset, size));
      versions[static_cast<uint8_t>(seeds.back()[0]) % 5] = true;
    }
  }
  for (int v = 1; v <= 4; ++v) {
    if (!versions[v]) {
      fuzz::FuzzFail("the seeds hold every partition version",
                     std::to_string(v));
    }
  }
  return seeds;
}

bool Run(const Slice& input) {
  CraftPartition partition;
  if (!CraftPartition::Decode(input, &partition).ok()) {
    return false;
  }
  static const std::vector<std::string> probes = Probes();
  const uint64_t num_keys = partition.trie().num_keys();
  for (size_t i = 0; i < probes.size(); ++i) {
    partition.KeyMayExist(probes[i]);
    if (i + 1 < probes.size()) {
      partition.RangeMayExist(probes[i], probes[i + 1]);
    }
    const uint64_t less = partition.trie().CountLess(probes[i]);
    if (less > num_keys) {
      fuzz::FuzzFail("a trie counts no more keys than it holds",
                     std::to_string(less) + " > " + std::to_string(num_keys));
    }
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(craft_partition, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
