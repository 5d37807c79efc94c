#include "tests/differential/option_sets.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "rocksdb/compaction_filter.h"
#include "rocksdb/craft_filter.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/table.h"

namespace lodestone_test {

using ROCKSDB_NAMESPACE::BlockBasedTableOptions;
using ROCKSDB_NAMESPACE::CompactionFilter;
using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::Slice;

namespace {

// A planted bug: silently drops some live values during compaction.
class DropSomeValuesFilter : public CompactionFilter {
 public:
  bool Filter(int /*level*/, const Slice& /*key*/, const Slice& value,
              std::string* /*new_value*/, bool* /*changed*/) const override {
    const size_t underscore = value.ToString().find('_');
    return underscore != std::string::npos && underscore + 1 < value.size() &&
           value[underscore + 1] == 'a';
  }
  const char* Name() const override { return "DropSomeValuesFilter"; }
};

std::shared_ptr<ROCKSDB_NAMESPACE::RangeFilterPolicy> Craft(
    uint32_t partition_size, uint32_t real_suffix_bits,
    uint32_t range_hash_bits, uint32_t min_level = 0) {
  ROCKSDB_NAMESPACE::CraftRangeFilterOptions craft;
  craft.min_level = min_level;
  craft.partition_size = partition_size;
  craft.real_suffix_bits = real_suffix_bits;
  craft.range_hash_bits = range_hash_bits;
  std::shared_ptr<ROCKSDB_NAMESPACE::RangeFilterPolicy> policy;
  if (!ROCKSDB_NAMESPACE::NewCraftRangeFilterPolicy(craft, &policy).ok()) {
    abort();  // The sets below name valid knobs.
  }
  return policy;
}

std::map<std::string, OptionSet> Registry() {
  std::map<std::string, OptionSet> sets;
  auto add = [&sets](OptionSet set) { sets[set.name] = std::move(set); };

  add({"baseline", nullptr});

  // Stock RocksDB with other table and compaction settings: small blocks, a
  // bloom filter, partitioned index, dynamic levels, no compression.
  add({"variant", [](Options* o) {
         BlockBasedTableOptions table;
         table.block_size = 1024;
         table.filter_policy.reset(ROCKSDB_NAMESPACE::NewBloomFilterPolicy(10));
         table.index_type = BlockBasedTableOptions::kTwoLevelIndexSearch;
         table.partition_filters = true;
         o->table_factory.reset(NewBlockBasedTableFactory(table));
         o->compression = ROCKSDB_NAMESPACE::kNoCompression;
         o->level_compaction_dynamic_level_bytes = true;
       }});

  // Early tombstone pruning: initial puts (checked on write) chained to
  // deletes, with aggressive compaction so chains meet at every level.
  OptionSet initial{"initial_put", [](Options* o) {
                      o->verify_initial_puts = true;
                      o->level0_file_num_compaction_trigger = 1;
                    }};
  initial.initial_puts = true;
  add(initial);

  // The same under universal compaction (sorted runs, not levels).
  OptionSet initial_universal{
      "initial_put_universal", [](Options* o) {
        o->verify_initial_puts = true;
        o->compaction_style = ROCKSDB_NAMESPACE::kCompactionStyleUniversal;
        o->level0_file_num_compaction_trigger = 2;
      }};
  initial_universal.initial_puts = true;
  add(initial_universal);

  // CRaFT range filter: small partitions, so that tables hold several.
  add({"craft", [](Options* o) {
         BlockBasedTableOptions table;
         table.range_filter = Craft(/*partition_size=*/256,
                                    /*real_suffix_bits=*/4,
                                    /*range_hash_bits=*/0);
         o->table_factory.reset(NewBlockBasedTableFactory(table));
       }});

  // The same with a range hash in every partition (the harness's keys share
  // one length); small blocks of tails, so that ranges often span two.
  add({"craft_range_hash", [](Options* o) {
         BlockBasedTableOptions table;
         table.range_filter = Craft(/*partition_size=*/256,
                                    /*real_suffix_bits=*/4,
                                    /*range_hash_bits=*/6);
         o->table_factory.reset(NewBlockBasedTableFactory(table));
       }});

  // Filters only from L1 down: seeks meet L0 tables without one beside
  // tables with one, and compactions into L1 build them.
  add({"craft_min_level", [](Options* o) {
         BlockBasedTableOptions table;
         table.range_filter = Craft(/*partition_size=*/256,
                                    /*real_suffix_bits=*/4,
                                    /*range_hash_bits=*/6, /*min_level=*/1);
         o->table_factory.reset(NewBlockBasedTableFactory(table));
         o->level0_file_num_compaction_trigger = 2;
       }});

  // Key counts rank compaction candidates: the picker's order changes, what
  // the DB holds must not.
  add({"overlap_by_keys", [](Options* o) {
         BlockBasedTableOptions table;
         table.range_filter = Craft(/*partition_size=*/256,
                                    /*real_suffix_bits=*/4,
                                    /*range_hash_bits=*/0);
         o->table_factory.reset(NewBlockBasedTableFactory(table));
         o->compaction_overlap_by_keys = true;
         o->level0_file_num_compaction_trigger = 2;
       }});

  // Scan-time tombstone-run conversion with the smallest useful threshold,
  // so that nearly every scan over deletes inserts a range tombstone.
  OptionSet conversion{"conversion", [](Options* o) {
                         o->min_tombstones_for_range_conversion = 2;
                       }};
  conversion.tombstone_runs = true;
  add(conversion);

  // The same while a background writer keeps inserting keys into the runs
  // being converted (and flushes and compactions run under it).
  OptionSet concurrent{"conversion_concurrent", [](Options* o) {
                         o->min_tombstones_for_range_conversion = 2;
                       }};
  concurrent.tombstone_runs = true;
  concurrent.concurrent_writer = true;
  add(concurrent);

  // Tombstone-aware compaction with aggressive thresholds: nearly every
  // file with a few tombstones is a density candidate, and a one-second
  // persistence deadline keeps the picker and the timer busy.
  OptionSet picker{"tombstone_picker", [](Options* o) {
                     o->tombstone_density_trigger = 0.25;
                     o->tombstone_density_window = 8;
                     o->delete_persistence_threshold = 1;
                   }};
  picker.tombstone_runs = true;
  add(picker);

  // Location cache: small enough that slots collide, shared by every DB of
  // this option set (reopens rebind it), beside the conversion's range
  // tombstones and a background writer that flushes under the readers.
  OptionSet location{
      "location_cache", [](Options* o) {
        static const std::shared_ptr<ROCKSDB_NAMESPACE::LocationCache> cache =
            ROCKSDB_NAMESPACE::LocationCache::Create({/*capacity=*/8192});
        o->location_cache = cache;
      }};
  location.warm_point_reads = true;
  add(location);
  OptionSet location_concurrent{
      "location_cache_concurrent", [](Options* o) {
        o->location_cache =
            ROCKSDB_NAMESPACE::LocationCache::Create({/*capacity=*/16 << 10});
        o->min_tombstones_for_range_conversion = 3;
      }};
  location_concurrent.tombstone_runs = true;
  location_concurrent.concurrent_writer = true;
  location_concurrent.warm_point_reads = true;
  add(location_concurrent);

  // Secondary range deletes (the delete key: a key's last two bytes) with
  // aggressive compaction, so that covered puts are hidden from reads in
  // every level and dropped by compactions, and tombstones retire.
  OptionSet secondary{"secondary_deletes", [](Options* o) {
                        o->level0_file_num_compaction_trigger = 1;
                      }};
  secondary.secondary_deletes = true;
  add(secondary);
  // KiWi delete tiles of four small blocks: point lookups skip covered
  // blocks, compactions drop them, iterators read tiles as merges.
  OptionSet tiles{"secondary_deletes_tiles", [](Options* o) {
                    o->level0_file_num_compaction_trigger = 1;
                    o->delete_tile_blocks = 4;
                    BlockBasedTableOptions table;
                    table.block_size = 512;
                    o->table_factory.reset(NewBlockBasedTableFactory(table));
                  }};
  tiles.secondary_deletes = true;
  add(tiles);
  // Tiles of eight beside every other feature's reads and compactions.
  OptionSet secondary_all{
      "secondary_deletes_all_features", [](Options* o) {
        o->verify_initial_puts = true;
        o->min_tombstones_for_range_conversion = 3;
        o->tombstone_density_trigger = 0.5;
        o->location_cache =
            ROCKSDB_NAMESPACE::LocationCache::Create({/*capacity=*/64 << 10});
        o->delete_tile_blocks = 8;
        BlockBasedTableOptions table;
        table.block_size = 1024;
        table.range_filter = Craft(/*partition_size=*/256,
                                   /*real_suffix_bits=*/8,
                                   /*range_hash_bits=*/0);
        o->table_factory.reset(NewBlockBasedTableFactory(table));
      }};
  secondary_all.secondary_deletes = true;
  secondary_all.initial_puts = true;
  secondary_all.tombstone_runs = true;
  secondary_all.warm_point_reads = true;
  add(secondary_all);

  // Everything at once: initial puts, CRaFT and conversion.
  OptionSet all{"all_features", [](Options* o) {
                  o->verify_initial_puts = true;
                  o->min_tombstones_for_range_conversion = 3;
                  o->tombstone_density_trigger = 0.5;
                  o->compaction_overlap_by_keys = true;
                  o->location_cache = ROCKSDB_NAMESPACE::LocationCache::Create(
                      {/*capacity=*/64 << 10});
                  BlockBasedTableOptions table;
                  table.range_filter = Craft(/*partition_size=*/256,
                                             /*real_suffix_bits=*/8,
                                             /*range_hash_bits=*/0);
                  o->table_factory.reset(NewBlockBasedTableFactory(table));
                }};
  all.initial_puts = true;
  all.tombstone_runs = true;
  all.warm_point_reads = true;
  add(all);

  // Planted bugs, for the harness's self-test.
  OptionSet dropped_delete{"planted_drop_delete", nullptr};
  dropped_delete.drop_nth_delete = 7;
  add(dropped_delete);
  // Secondary deletes with only the op stream's compactions, which run in
  // the op's call: what a seed's reads meet does not depend on when
  // background compactions happen to run, so the planted bug in the
  // bottommost compaction's sequence number floor bites at the same ops on
  // every machine (a seed caught it in one run and not under another load).
  OptionSet secondary_manual{"planted_secondary_manual_compactions",
                             [](Options* o) {
                               // (Write stalls by L0 files or pending bytes are
                               // off with them.)
                               o->disable_auto_compactions = true;
                             }};
  secondary_manual.secondary_deletes = true;
  add(secondary_manual);
  add({"planted_compaction_filter", [](Options* o) {
         static DropSomeValuesFilter filter;
         o->compaction_filter = &filter;
       }});
  return sets;
}

}  // namespace

bool FindOptionSet(const std::string& name, OptionSet* set) {
  static const std::map<std::string, OptionSet> sets = Registry();
  auto it = sets.find(name);
  if (it == sets.end()) return false;
  *set = it->second;
  return true;
}

std::vector<std::string> OptionSetNames() {
  std::vector<std::string> names;
  for (const auto& [name, set] : Registry()) names.push_back(name);
  return names;
}

OpMix MixFor(const std::vector<OptionSet>& sets) {
  OpMix mix;
  for (const OptionSet& set : sets) {
    if (set.initial_puts) {
      // Queue-like churn: many initial puts, updates and deletes.
      mix.put_initial = 25;
      mix.del = 18;
    }
    if (set.tombstone_runs) {
      mix.del = std::max(mix.del, 20);
      mix.delete_range = 3;
    }
    if (set.secondary_deletes) {
      mix.secondary_delete = 2;
    }
  }
  return mix;
}

}  // namespace lodestone_test
