// Fuzz target order_preserving_code: the key code table of partition
// format 3 (its run-length coded code lengths) as
// OrderPreservingCode::DecodeFrom meets it. An accepted table must be a
// code the trie can rely on: it keeps bytewise order, and its two encoders
// and its length agree.

#include <algorithm>

#include "table/craft/craft_test_filters.h"
#include "table/craft/order_preserving_code.h"
#include "tests/fuzz/fuzz_target.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  const std::vector<CraftFormatCase> cases = CraftFormatCases();
  for (const CraftFormatCase& c : cases) {
    uint64_t weights[256] = {};
    for (const std::string& k : c.keys) {
      for (unsigned char b : k) {
        ++weights[b];
      }
    }
    std::string table;
    OrderPreservingCode::Optimal(weights).EncodeTo(&table);
    seeds.push_back(std::move(table));
  }
  uint64_t flat[256];
  std::fill(std::begin(flat), std::end(flat), 1);
  std::string table;
  OrderPreservingCode::Optimal(flat).EncodeTo(&table);
  seeds.push_back(std::move(table));
  uint64_t skewed[256] = {};  // One byte dominant: the longest codes.
  skewed['a'] = uint64_t{1} << 40;
  table.clear();
  OrderPreservingCode::Optimal(skewed).EncodeTo(&table);
  seeds.push_back(std::move(table));
  return seeds;
}

std::vector<std::string> Probes() {
  std::vector<std::string> anchors;
  for (const CraftFormatCase& c : CraftFormatCases()) {
    size_t i = 0;
    for (const std::string& k : c.keys) {
      if (i++ % 50 == 0) {
        anchors.push_back(k);
      }
    }
  }
  std::vector<std::string> probes = CraftProbeKeys(anchors);
  std::string every_byte;
  for (int b = 0; b < 256; ++b) {
    every_byte.push_back(static_cast<char>(b));
    probes.push_back(std::string(1, static_cast<char>(b)));
  }
  probes.push_back(every_byte);
  std::sort(probes.begin(), probes.end());
  probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
  return probes;
}

bool Run(const Slice& input) {
  Slice in = input;
  OrderPreservingCode code;
  if (!OrderPreservingCode::DecodeFrom(&in, &code).ok()) {
    return false;
  }
  static const std::vector<std::string> probes = Probes();
  std::string previous;
  std::string buffer;
  for (size_t i = 0; i < probes.size(); ++i) {
    std::string coded;
    code.Encode(probes[i], &coded);
    buffer.resize(OrderPreservingCode::MaxEncodedLength(probes[i].size()));
    const size_t length = code.Encode(probes[i], &buffer[0]);
    if (length != coded.size() || buffer.compare(0, length, coded) != 0 ||
        code.EncodedLength(probes[i]) != length) {
      fuzz::FuzzFail("the code's encoders and length agree",
                     "probe " + std::to_string(i));
    }
    if (i > 0 && coded < previous) {
      fuzz::FuzzFail(
          "the code keeps bytewise order",
          "probes " + std::to_string(i - 1) + ", " + std::to_string(i));
    }
    previous = std::move(coded);
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(order_preserving_code, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
