// Applies Lodestone's db_stress flags to the options db_stress built, and
// checks and sanitizes them (docs/stress.md).

#ifdef GFLAGS

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "db_stress_tool/db_stress_common.h"
#include "rocksdb/convenience.h"
#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/table.h"
#include "table/craft/craft_range_filter_policy.h"
#include "test_util/lodestone/planted_bugs.h"
#include "tools/stress/lodestone_stress.h"
#include "tools/stress/lodestone_stress_internal.h"

namespace ROCKSDB_NAMESPACE {
namespace lodestone_stress {

namespace {

// A flag applies when it was given on the command line or differs from its
// default, so that with an options file the file's value stands unless the
// command line names the flag.
bool Given(const char* name) {
  return !GFLAGS_NAMESPACE::GetCommandLineFlagInfoOrDie(name).is_default;
}

[[noreturn]] void BadFlag(const std::string& msg) {
  fprintf(stderr, "Error: %s\n", msg.c_str());
  exit(1);
}

CraftRangeFilterOptions CraftFlags() {
  CraftRangeFilterOptions craft;
  craft.partition_size = FLAGS_craft_partition_size;
  craft.real_suffix_bits = FLAGS_craft_real_suffix_bits;
  craft.hash_suffix_bits = FLAGS_craft_hash_suffix_bits;
  craft.range_hash_bits = FLAGS_craft_range_hash_bits;
  craft.min_level = FLAGS_craft_min_level;
  return craft;
}

void PlantBugs() {
  if (FLAGS_lodestone_plant_bug.empty()) {
    return;
  }
#ifdef NDEBUG
  BadFlag("--lodestone_plant_bug needs a debug build (no NDEBUG)");
#else
  std::stringstream names(FLAGS_lodestone_plant_bug);
  std::string name;
  while (std::getline(names, name, ',')) {
    if (name.empty()) {
      continue;
    }
    if (name == "location_cache_skip_flush_invalidation") {
      PlantBug(PlantedBug::kLocationCacheSkipFlushInvalidation);
    } else if (name == "initial_put_prune_across_snapshot") {
      PlantBug(PlantedBug::kInitialPutPruneAcrossSnapshot);
    } else if (name == "location_cache_ignore_range_tombstones") {
      PlantBug(PlantedBug::kLocationCacheIgnoreRangeTombstones);
    } else if (name == "craft_range_filter_false_negative") {
      PlantBug(PlantedBug::kCraftRangeFilterFalseNegative);
    } else if (name == "tombstone_run_conversion_past_the_run") {
      PlantBug(PlantedBug::kTombstoneRunConversionPastTheRun);
    } else {
      BadFlag("--lodestone_plant_bug: unknown bug " + name);
    }
    fprintf(stdout, "lodestone: PLANTED BUG %s is active\n", name.c_str());
  }
#endif
}

// Checks the flags once; turns off what the chosen test mode cannot do, as
// upstream's db_stress_tool.cc does for its own flags.
void ValidateAndSanitize() {
  if (FLAGS_tombstone_density_trigger < 0 ||
      FLAGS_tombstone_density_trigger > 1) {
    BadFlag("--tombstone_density_trigger must be in [0, 1]");
  }
  const Status craft_check = CraftRangeFilterPolicy::Check(CraftFlags());
  if (!craft_check.ok()) {
    BadFlag(craft_check.ToString());
  }
  if (FLAGS_put_initial_one_in < 0 || FLAGS_put_initial_violation_one_in < 0 ||
      FLAGS_lodestone_short_bounds_one_in < 0) {
    BadFlag("Lodestone *_one_in flags must not be negative");
  }
  const bool expected_state_test = !FLAGS_test_batches_snapshots &&
                                   !FLAGS_test_cf_consistency &&
                                   !FLAGS_test_multi_ops_txns;
  if ((FLAGS_put_initial_one_in > 0 ||
       FLAGS_put_initial_violation_one_in > 0) &&
      (!expected_state_test || FLAGS_user_timestamp_size > 0)) {
    // Only the non-batched test knows, from its expected state, which keys
    // have no visible value; PutInitial takes no timestamp.
    fprintf(stdout,
            "WARNING: --put_initial_one_in and --put_initial_violation_one_in "
            "need the non-batched test without user timestamps; ignored\n");
    FLAGS_put_initial_one_in = 0;
    FLAGS_put_initial_violation_one_in = 0;
  }
  if (FLAGS_put_initial_violation_one_in > 0 && !FLAGS_verify_initial_puts) {
    fprintf(stdout,
            "WARNING: --put_initial_violation_one_in needs "
            "--verify_initial_puts; ignored\n");
    FLAGS_put_initial_violation_one_in = 0;
  }
  if (FLAGS_secondary_delete_one_in < 0 || FLAGS_secondary_delete_width < 1 ||
      FLAGS_secondary_delete_width > 256) {
    BadFlag(
        "--secondary_delete_one_in must not be negative, "
        "--secondary_delete_width must be in [1, 256]");
  }
  if (FLAGS_secondary_delete_one_in > 0) {
    // The expected state must know every covered key deleted: only the
    // non-batched test has one, and a crash must leave it in place (with
    // WAL loss db_stress rebuilds it from a trace of write batches, which a
    // MANIFEST record is not). Entries the call never covers would read as
    // deleted.
    const char* why = nullptr;
    if (!expected_state_test) {
      why = "the non-batched test";
    } else if (FLAGS_user_timestamp_size > 0) {
      why = "no user timestamps";
    } else if (FLAGS_sync_fault_injection || FLAGS_disable_wal ||
               FLAGS_manual_wal_flush_one_in > 0) {
      why =
          "no WAL loss (sync_fault_injection, disable_wal, "
          "manual_wal_flush_one_in)";
    } else if (FLAGS_use_put_entity_one_in > 0 ||
               FLAGS_use_timed_put_one_in > 0 || FLAGS_enable_blob_files ||
               FLAGS_use_blob_db || FLAGS_use_attribute_group) {
      // The call covers puts and merge operands only.
      why =
          "writes it covers (no use_put_entity_one_in, use_timed_put_one_in, "
          "use_attribute_group, blob files)";
    } else if (FLAGS_test_secondary) {
      why = "no secondary instance (its memtables tail the WAL)";
    }
    if (why != nullptr) {
      BadFlag(std::string("--secondary_delete_one_in needs ") + why);
    }
  }
  if (FLAGS_delete_tile_blocks != 1 && FLAGS_secondary_delete_one_in == 0) {
    BadFlag("--delete_tile_blocks needs --secondary_delete_one_in");
  }
  if (FLAGS_put_initial_violation_one_in > 0 && FLAGS_use_txn) {
    fprintf(stdout,
            "WARNING: --put_initial_violation_one_in is not used with "
            "--use_txn; ignored\n");
    FLAGS_put_initial_violation_one_in = 0;
  }
}

// One location cache for every DB this process opens: reopens get a new
// owner id in the same cache, checkpoints and restored backups share it.
std::shared_ptr<LocationCache> SharedLocationCache() {
  static std::shared_ptr<LocationCache> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (!cache) {
    Status s = LocationCache::CreateFromString(ConfigOptions(),
                                               FLAGS_location_cache, &cache);
    if (!s.ok() || !cache) {
      BadFlag("--location_cache=" + FLAGS_location_cache + ": " +
              (s.ok() ? std::string("no cache") : s.ToString()));
    }
  }
  return cache;
}

}  // namespace

bool AnyFeatureOn() {
  return !FLAGS_location_cache.empty() || FLAGS_craft_range_filter ||
         FLAGS_min_tombstones_for_range_conversion > 0 ||
         FLAGS_tombstone_density_trigger > 0 ||
         FLAGS_delete_persistence_threshold > 0 ||
         FLAGS_compaction_overlap_by_keys || FLAGS_verify_initial_puts ||
         FLAGS_put_initial_one_in > 0 ||
         FLAGS_put_initial_violation_one_in > 0 ||
         FLAGS_lodestone_short_bounds_one_in > 0 ||
         FLAGS_secondary_delete_one_in > 0 ||
         FLAGS_secondary_delete_extractor ||
         !FLAGS_lodestone_plant_bug.empty() ||
         FLAGS_lodestone_report_interval_sec > 0;
}

void ApplyOptions(Options* options) {
  static std::once_flag once;
  std::call_once(once, [] {
    ValidateAndSanitize();
    PlantBugs();
  });

  // DBOptions.
  if (!FLAGS_location_cache.empty()) {
    options->location_cache = SharedLocationCache();
  } else if (Given("location_cache")) {
    options->location_cache = nullptr;
  }
  if (FLAGS_verify_initial_puts || Given("verify_initial_puts")) {
    options->verify_initial_puts = FLAGS_verify_initial_puts;
  }

  // ColumnFamilyOptions (db_stress gives every column family these).
  if (FLAGS_min_tombstones_for_range_conversion > 0 ||
      Given("min_tombstones_for_range_conversion")) {
    options->min_tombstones_for_range_conversion =
        FLAGS_min_tombstones_for_range_conversion;
  }
  if (FLAGS_tombstone_density_trigger > 0 ||
      Given("tombstone_density_trigger")) {
    options->tombstone_density_trigger = FLAGS_tombstone_density_trigger;
  }
  if (FLAGS_tombstone_density_window != 128 ||
      Given("tombstone_density_window")) {
    options->tombstone_density_window = FLAGS_tombstone_density_window;
  }
  if (FLAGS_delete_persistence_threshold > 0 ||
      Given("delete_persistence_threshold")) {
    options->delete_persistence_threshold = FLAGS_delete_persistence_threshold;
  }
  if (FLAGS_compaction_overlap_by_keys || Given("compaction_overlap_by_keys")) {
    options->compaction_overlap_by_keys = FLAGS_compaction_overlap_by_keys;
  }
  if (FLAGS_secondary_delete_one_in > 0 || FLAGS_secondary_delete_extractor) {
    options->delete_key_extractor = NewKeySuffixDeleteKeyExtractor(1);
    options->delete_tile_blocks = FLAGS_delete_tile_blocks;
  }

  // BlockBasedTableOptions.
  auto* table =
      options->table_factory
          ? options->table_factory->GetOptions<BlockBasedTableOptions>()
          : nullptr;
  if (table != nullptr) {
    // As for every flag: a knob or the switch applies when given or not at
    // its default, over what an options file set (knobs checked above).
    const CraftRangeFilterPolicy* current =
        CraftRangeFilterPolicy::From(table->range_filter.get());
    if (current != nullptr || table->range_filter == nullptr) {
      CraftRangeFilterOptions craft =
          current ? current->options() : CraftRangeFilterOptions();
      const CraftRangeFilterOptions flags = CraftFlags();
      const CraftRangeFilterOptions defaults;
      auto knob = [](const char* flag, uint32_t value, uint32_t default_value,
                     uint32_t* field) {
        if (value != default_value || Given(flag)) {
          *field = value;
        }
      };
      knob("craft_partition_size", flags.partition_size,
           defaults.partition_size, &craft.partition_size);
      knob("craft_real_suffix_bits", flags.real_suffix_bits,
           defaults.real_suffix_bits, &craft.real_suffix_bits);
      knob("craft_hash_suffix_bits", flags.hash_suffix_bits,
           defaults.hash_suffix_bits, &craft.hash_suffix_bits);
      knob("craft_range_hash_bits", flags.range_hash_bits,
           defaults.range_hash_bits, &craft.range_hash_bits);
      knob("craft_min_level", flags.min_level, defaults.min_level,
           &craft.min_level);
      bool on = current != nullptr && current->writes_filters();
      if (FLAGS_craft_range_filter || Given("craft_range_filter")) {
        on = FLAGS_craft_range_filter;
      }
      if (on) {
        table->range_filter = std::make_shared<CraftRangeFilterPolicy>(craft);
      } else {
        table->range_filter.reset();
      }
    }
  } else if (FLAGS_craft_range_filter) {
    BadFlag("--craft_range_filter needs the block-based table format");
  }

  if (!AnyFeatureOn()) {
    return;
  }
  // The activity lines come from the tickers.
  if (!options->statistics) {
    if (!dbstats) {
      dbstats = CreateDBStatistics();
    }
    options->statistics = dbstats;
  }
  StartReporter(options->statistics);
}

void AddDynamicOptions(
    std::unordered_map<std::string, std::vector<std::string>>* table) {
  // Values keep an enabled feature enabled, so that a run's activity check
  // still holds; a feature that is off stays off.
  if (FLAGS_delete_tile_blocks > 1) {
    // Tables with and without tiles, and of other heights, side by side.
    table->emplace("delete_tile_blocks",
                   std::vector<std::string>{
                       std::to_string(FLAGS_delete_tile_blocks), "1", "3"});
  }
  if (FLAGS_min_tombstones_for_range_conversion > 0) {
    table->emplace(
        "min_tombstones_for_range_conversion",
        std::vector<std::string>{
            std::to_string(FLAGS_min_tombstones_for_range_conversion), "2",
            "5"});
  }
  if (FLAGS_tombstone_density_trigger > 0) {
    table->emplace(
        "tombstone_density_trigger",
        std::vector<std::string>{
            std::to_string(FLAGS_tombstone_density_trigger), "0.1", "0.5"});
    table->emplace(
        "tombstone_density_window",
        std::vector<std::string>{std::to_string(FLAGS_tombstone_density_window),
                                 "16", "128"});
  }
  if (FLAGS_delete_persistence_threshold > 0) {
    table->emplace(
        "delete_persistence_threshold",
        std::vector<std::string>{
            std::to_string(FLAGS_delete_persistence_threshold), "30", "120"});
  }
}

}  // namespace lodestone_stress
}  // namespace ROCKSDB_NAMESPACE

#endif  // GFLAGS
