// Options that our workloads' flags set, applied by db_bench before it opens
// the DB (patches/0011): stock RocksDB's CompactOnDeletionCollector in both
// builds, Lodestone's tombstone-aware compaction, scan-time conversion,
// location cache and range filter in Lodestone's. A Lodestone column family
// flag changes the options only when given, so that a value from
// --options_file stands otherwise.

#ifdef GFLAGS
#include <cstdio>
#include <cstdlib>

#include "rocksdb/convenience.h"
#include "rocksdb/options.h"
#ifndef LODESTONE_STOCK_BASELINE
#include "rocksdb/craft_filter.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/range_filter_policy.h"
#include "rocksdb/table.h"
#endif
#include "rocksdb/utilities/table_properties_collectors.h"
#include "tools/workloads/workload.h"
#include "util/gflags_compat.h"

DEFINE_uint64(compact_on_deletion_window, 0,
              "Stock CompactOnDeletionCollector: sliding window of entries "
              "(0 = no collector).");
DEFINE_uint64(compact_on_deletion_trigger, 0,
              "Stock CompactOnDeletionCollector: deletions in the window that "
              "mark the file for compaction.");
DEFINE_double(compact_on_deletion_ratio, 0,
              "Stock CompactOnDeletionCollector: whole-file deletion ratio "
              "that marks the file (0 = off).");
// Upstream RocksDB 11.3's two flags for scan-time tombstone-run conversion,
// with the same names and meaning (the conversion blog's recipe);
// seekrandom in db_bench reads the first (patches/0019).
DEFINE_int32(seek_nexts_to_delete, 0,
             "In seekrandom, after the seek_nexts steps, Delete the key the "
             "iterator is on and step on, this many times.");
DEFINE_uint32(min_tombstones_for_range_conversion, 0,
              "ColumnFamilyOptions::min_tombstones_for_range_conversion "
              "(0 = off).");
DEFINE_uint64(delete_persistence_threshold, 0,
              "Lodestone: seconds within which every tombstone must reach the "
              "last level (FADE; 0 = off).");
DEFINE_double(tombstone_density_trigger, 0,
              "Lodestone: tombstone share of a window that makes a file a "
              "compaction candidate (0 = off).");
DEFINE_uint32(tombstone_density_window, 128,
              "Lodestone: entries per tombstone density window.");
DEFINE_bool(compaction_overlap_by_keys, false,
            "Lodestone: rank compaction candidates by the next-level keys "
            "they overlap, from CRaFT metadata.");
#ifndef LODESTONE_STOCK_BASELINE
DEFINE_string(delete_key_extractor, "",
              "Lodestone: ColumnFamilyOptions::delete_key_extractor, e.g. "
              "{id=value_prefix;length=8} (empty = none).");
DEFINE_uint32(delete_tile_blocks, 1,
              "Lodestone: KiWi delete tiles of this many data blocks (1 = "
              "none).");
#endif
DEFINE_string(location_cache, "",
              "Lodestone: location cache under Get/MultiGet, e.g. 64M or "
              "block_cache_fraction=0.1 (empty = off).");
#ifndef LODESTONE_STOCK_BASELINE
DEFINE_string(range_filter, "",
              "Lodestone: BlockBasedTableOptions::range_filter, e.g. craft "
              "or id=craft;range_hash_bits=14 (empty = none).");
DEFINE_bool(craft_range_filter, false,
            "Lodestone: a CRaFT range filter with the --craft_* knobs "
            "(ignored when --range_filter is given).");
DEFINE_uint32(craft_partition_size, 0, "CRaFT trie partition size (bytes).");
DEFINE_uint32(craft_real_suffix_bits, 8, "CRaFT real suffix bits per key.");
DEFINE_uint32(craft_hash_suffix_bits, 0, "CRaFT hash suffix bits per key.");
DEFINE_uint32(craft_range_hash_bits, 0,
              "CRaFT range hash bits per key (0: none).");
DEFINE_uint32(craft_min_level, 0,
              "CRaFT: no filter for tables written below this level (0: every "
              "table).");
#endif

namespace ROCKSDB_NAMESPACE {

#ifndef LODESTONE_STOCK_BASELINE
namespace {

bool FlagGiven(const char* name) {
  return !GFLAGS_NAMESPACE::GetCommandLineFlagInfoOrDie(name).is_default;
}

// --range_filter, or --craft_range_filter with its knobs, into the
// block-based table options db_bench built from its flags.
void ConfigureRangeFilter(Options* options) {
  if (FLAGS_range_filter.empty() && !FLAGS_craft_range_filter) {
    return;
  }
  auto* table =
      options->table_factory == nullptr
          ? nullptr
          : options->table_factory->GetOptions<BlockBasedTableOptions>();
  if (table == nullptr) {
    fprintf(stderr, "--range_filter needs the block-based table format\n");
    exit(1);
  }
  Status s;
  if (!FLAGS_range_filter.empty()) {
    s = RangeFilterPolicy::CreateFromString(ConfigOptions(), FLAGS_range_filter,
                                            &table->range_filter);
  } else {
    CraftRangeFilterOptions craft;
    craft.partition_size = FLAGS_craft_partition_size;
    craft.real_suffix_bits = FLAGS_craft_real_suffix_bits;
    craft.hash_suffix_bits = FLAGS_craft_hash_suffix_bits;
    craft.range_hash_bits = FLAGS_craft_range_hash_bits;
    craft.min_level = FLAGS_craft_min_level;
    s = NewCraftRangeFilterPolicy(craft, &table->range_filter);
  }
  if (!s.ok()) {
    fprintf(stderr, "--range_filter: %s\n", s.ToString().c_str());
    exit(1);
  }
}

}  // namespace
#endif

void ConfigureWorkloadOptions(Options* options) {
  ConfigureKiwiOptions(options);
  if (FLAGS_compact_on_deletion_window > 0) {
    const std::string name = "CompactOnDeletionCollector";
    bool present = false;  // Open() runs again for every fresh DB.
    for (const auto& f : options->table_properties_collector_factories) {
      present = present || std::string(f->Name()) == name;
    }
    if (!present) {
      options->table_properties_collector_factories.emplace_back(
          NewCompactOnDeletionCollectorFactory(
              FLAGS_compact_on_deletion_window,
              FLAGS_compact_on_deletion_trigger,
              FLAGS_compact_on_deletion_ratio));
    }
  }
#ifdef LODESTONE_STOCK_BASELINE
  if (FLAGS_delete_persistence_threshold > 0 ||
      FLAGS_tombstone_density_trigger > 0 || !FLAGS_location_cache.empty() ||
      FLAGS_min_tombstones_for_range_conversion > 0 ||
      FLAGS_compaction_overlap_by_keys) {
    fprintf(stderr,
            "--delete_persistence_threshold, --tombstone_density_trigger, "
            "--min_tombstones_for_range_conversion, "
            "--compaction_overlap_by_keys and --location_cache need "
            "Lodestone; this db_bench links stock RocksDB\n");
    exit(1);
  }
#else
  if (!FLAGS_location_cache.empty()) {
    // One cache for the whole run: Open() runs again for every fresh DB.
    static std::shared_ptr<LocationCache> cache;
    if (cache == nullptr) {
      Status s = LocationCache::CreateFromString(ConfigOptions(),
                                                 FLAGS_location_cache, &cache);
      if (!s.ok()) {
        fprintf(stderr, "--location_cache: %s\n", s.ToString().c_str());
        exit(1);
      }
    }
    options->location_cache = cache;
  }
  ConfigureRangeFilter(options);
  if (FlagGiven("min_tombstones_for_range_conversion")) {
    options->min_tombstones_for_range_conversion =
        FLAGS_min_tombstones_for_range_conversion;
  }
  if (FlagGiven("delete_persistence_threshold")) {
    options->delete_persistence_threshold = FLAGS_delete_persistence_threshold;
  }
  if (FlagGiven("tombstone_density_trigger")) {
    options->tombstone_density_trigger = FLAGS_tombstone_density_trigger;
  }
  if (FlagGiven("tombstone_density_window")) {
    options->tombstone_density_window = FLAGS_tombstone_density_window;
  }
  if (FlagGiven("compaction_overlap_by_keys")) {
    options->compaction_overlap_by_keys = FLAGS_compaction_overlap_by_keys;
  }
  if (!FLAGS_delete_key_extractor.empty()) {
    Status s = DeleteKeyExtractor::CreateFromString(
        ConfigOptions(), FLAGS_delete_key_extractor,
        &options->delete_key_extractor);
    if (!s.ok()) {
      fprintf(stderr, "--delete_key_extractor: %s\n", s.ToString().c_str());
      exit(1);
    }
  }
  if (FlagGiven("delete_tile_blocks")) {
    options->delete_tile_blocks = FLAGS_delete_tile_blocks;
  }
#endif
}

}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
