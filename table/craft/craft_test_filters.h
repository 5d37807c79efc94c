// CRaFT filters of every partition format version, stored the way the table
// writer stores them, for the tests and fuzz targets that damage them
// (craft_damage_test.cc, craft_*_fuzz.cc).

#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "table/craft/craft_filter.h"

namespace ROCKSDB_NAMESPACE {

// A BlockBasedTable block trailer's size.
constexpr uint64_t kCraftTestTrailer = 5;

// A filter laid out as the table writer stores it: partitions back to back,
// each followed by a trailer, then the metadata block and its trailer.
struct StoredCraftFilter {
  std::string bytes;
  std::vector<std::pair<uint64_t, uint64_t>> partitions;  // offset, size
  uint64_t metadata_offset = 0;
  uint64_t metadata_size = 0;
  CraftTableLayout layout;  // As if 8 keys went to each data block.
};

StoredCraftFilter StoreCraftFilter(const std::set<std::string>& keys,
                                   const CraftFilterOptions& options);

// One case per partition format version, several small partitions each.
struct CraftFormatCase {
  const char* name;
  std::set<std::string> keys;
  CraftFilterOptions options;
  uint8_t expected_version;  // Of the first partition.
};
std::vector<CraftFormatCase> CraftFormatCases();

// Sorted, distinct keys to query a decoded filter with: `anchors` (keys it
// may hold), each anchor's successor and two of its prefixes, and keys
// before, between and after any a table holds.
std::vector<std::string> CraftProbeKeys(
    const std::vector<std::string>& anchors);

// An 8-byte big-endian key.
std::string CraftTestFixedWidthKey(uint64_t v);

}  // namespace ROCKSDB_NAMESPACE
