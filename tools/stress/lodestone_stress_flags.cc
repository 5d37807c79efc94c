// db_stress flags for Lodestone (docs/stress.md). Declared in
// lodestone_stress.h; applied by lodestone_stress_options.cc.

#ifdef GFLAGS

#include "tools/stress/lodestone_stress.h"

DEFINE_string(location_cache, "",
              "Lodestone: DBOptions::location_cache, as in an options string: "
              "a capacity (\"8M\"), \"capacity=8M\" or "
              "\"block_cache_fraction=0.1\". Empty: off. One cache serves "
              "every DB this process opens (reopens, checkpoints).");

DEFINE_bool(craft_range_filter, false,
            "Lodestone: BlockBasedTableOptions::range_filter = a CRaFT "
            "policy with the --craft_* knobs (a range filter in every new "
            "table).");

DEFINE_uint32(craft_partition_size, 0,
              "Lodestone: the CRaFT policy's partition_size (0: 16 KiB).");

DEFINE_uint32(craft_real_suffix_bits, 8,
              "Lodestone: the CRaFT policy's real_suffix_bits.");

DEFINE_uint32(craft_hash_suffix_bits, 0,
              "Lodestone: the CRaFT policy's hash_suffix_bits.");

DEFINE_uint32(craft_range_hash_bits, 0,
              "Lodestone: the CRaFT policy's range_hash_bits (0: none).");

DEFINE_uint32(craft_min_level, 0,
              "Lodestone: the CRaFT policy's min_level (0: every table).");

DEFINE_uint32(min_tombstones_for_range_conversion, 0,
              "Lodestone: ColumnFamilyOptions::"
              "min_tombstones_for_range_conversion (scan-time conversion of "
              "tombstone runs; 0: off).");

DEFINE_double(tombstone_density_trigger, 0,
              "Lodestone: ColumnFamilyOptions::tombstone_density_trigger "
              "(0: off).");

DEFINE_uint32(tombstone_density_window, 128,
              "Lodestone: ColumnFamilyOptions::tombstone_density_window.");

DEFINE_uint64(delete_persistence_threshold, 0,
              "Lodestone: ColumnFamilyOptions::delete_persistence_threshold "
              "in seconds (0: off).");

DEFINE_bool(compaction_overlap_by_keys, false,
            "Lodestone: ColumnFamilyOptions::compaction_overlap_by_keys "
            "(rank compaction candidates by CRaFT key counts).");

DEFINE_bool(verify_initial_puts, false,
            "Lodestone: DBOptions::verify_initial_puts (refuse a PutInitial "
            "over a visible value).");

DEFINE_uint32(delete_tile_blocks, 1,
              "Lodestone: ColumnFamilyOptions::delete_tile_blocks (KiWi "
              "delete tiles of h data blocks; 1: none). Needs "
              "--secondary_delete_one_in (which sets the extractor).");

DEFINE_int32(put_initial_one_in, 0,
             "Lodestone: 1 in N plain puts of a key that the expected state "
             "proves has no visible value are written with PutInitial "
             "(non-batched test; DB and write-committed transactions). 0: "
             "never.");

DEFINE_int32(put_initial_violation_one_in, 0,
             "Lodestone: with --verify_initial_puts, 1 in N plain puts of a "
             "key that the expected state proves is visible are replaced by "
             "a PutInitial that must be refused with InvalidArgument, "
             "leaving the key unchanged. 0: never.");

DEFINE_int32(lodestone_short_bounds_one_in, 0,
             "Lodestone: 1 in N iterators get a lower and an upper bound a "
             "few keys apart (CRaFT filters answer bounded seeks; scans "
             "end on short runs). 0: never.");

DEFINE_int32(secondary_delete_one_in, 0,
             "Lodestone: 1 in N ops deletes, with DeleteByDeleteKeyRange, "
             "every key of a column family whose last byte lies in a random "
             "run of --secondary_delete_width byte values (the delete key "
             "extractor becomes key_suffix of length 1). Non-batched test, "
             "without WAL loss or user timestamps. 0: never.");

DEFINE_bool(secondary_delete_extractor, false,
            "Lodestone: open with the delete key extractor of "
            "--secondary_delete_one_in (key_suffix of length 1) without "
            "issuing secondary deletes: a DB whose earlier runs issued them "
            "holds their tombstones until compactions retire them, and "
            "opens only with their extractor.");

DEFINE_int32(secondary_delete_width, 2,
             "Lodestone: byte values one secondary range delete covers "
             "(1 to 256).");

DEFINE_uint32(lodestone_report_interval_sec, 0,
              "Lodestone: print the per-feature activity lines every N "
              "seconds (they are also printed at exit). 0: only at exit.");

DEFINE_string(lodestone_plant_bug, "",
              "Lodestone, debug builds only: switch on planted bugs "
              "(comma-separated): location_cache_skip_flush_invalidation, "
              "location_cache_ignore_range_tombstones, "
              "initial_put_prune_across_snapshot. Testing the tests.");

#endif  // GFLAGS
