// Fuzz target range_hash: a range-hash section (partition format 4) as
// RangeHash::Decode meets it. Accepted sections answer ranges of every
// shape: short ones next to the seeds' keys, long ones, bounds narrower or
// wider than the keys.

#include <random>
#include <set>

#include "table/craft/craft_test_filters.h"
#include "table/craft/range_hash.h"
#include "tests/fuzz/fuzz_target.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::vector<std::set<std::string>> KeySets() {
  std::mt19937_64 rng(2411);
  std::vector<std::set<std::string>> sets(3);
  while (sets[0].size() < 300) {  // Sparse 8-byte integers.
    sets[0].insert(CraftTestFixedWidthKey(rng() >> 8));
  }
  for (uint64_t i = 0; i < 300; ++i) {  // Dense ones.
    sets[1].insert(CraftTestFixedWidthKey(1000 + 3 * i));
  }
  while (sets[2].size() < 200) {  // 12 bytes: a hashed prefix and a tail.
    sets[2].insert("tenant" + std::to_string(rng() % 4) + "/" +
                   CraftTestFixedWidthKey(rng() >> 30).substr(3));
  }
  return sets;
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  for (const std::set<std::string>& keys : KeySets()) {
    for (uint32_t bits : {3u, 10u, 14u, 58u}) {
      RangeHashBuilder builder(bits);
      for (const std::string& k : keys) {
        builder.Add(k);
      }
      std::string section;
      if (!builder.Finish(&section)) {
        fuzz::FuzzFail("the seed keys make a section", std::to_string(bits));
      }
      seeds.push_back(std::move(section));
    }
  }
  return seeds;
}

std::vector<std::string> Probes() {
  std::set<std::string> probes;
  for (const std::set<std::string>& keys : KeySets()) {
    size_t i = 0;
    for (const std::string& k : keys) {
      if (i++ % 25 != 0) {
        continue;
      }
      probes.insert(k);
      probes.insert(k.substr(0, k.size() - 1));  // Narrower than the keys.
      probes.insert(k + '\0');                   // Wider.
      std::string next = k;
      for (int step = 0; step < 3; ++step) {  // k+1, k+2, k+3.
        size_t b = next.size();
        while (b > 0 && ++next[b - 1] == '\0') {
          --b;
        }
        probes.insert(next);
      }
    }
  }
  probes.insert("");
  probes.insert(std::string(12, '\xff'));
  return {probes.begin(), probes.end()};
}

bool Run(const Slice& input) {
  RangeHash range_hash;
  if (!RangeHash::Decode(input, &range_hash).ok()) {
    return false;
  }
  if (range_hash.num_values() > range_hash.num_slots()) {
    fuzz::FuzzFail("a range hash stores no more values than slots",
                   std::to_string(range_hash.num_values()) + " > " +
                       std::to_string(range_hash.num_slots()));
  }
  static const std::vector<std::string> probes = Probes();
  for (size_t i = 0; i + 1 < probes.size(); ++i) {
    range_hash.RangeMayExist(probes[i], probes[i + 1]);
    range_hash.RangeMayExist(probes[i],
                             probes[std::min(i + 7, probes.size() - 1)]);
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(range_hash, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
