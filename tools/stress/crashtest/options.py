"""What a run randomizes: Lodestone's db_stress flags, operation mixes,
coverage changes to upstream's parameters, fault sets, the run
configurations and their presets."""

import random

# How long past a run's deadline a whitebox invocation without kill points
# may take to finish its operations: upstream's 15 minutes.
WHITEBOX_FINISH_SECONDS = 900

# Lodestone's db_stress flags, randomized per invocation (tools/stress/
# lodestone_stress_flags.cc). Zero / empty means off.
lodestone_params = {
    "location_cache": lambda: random.choice(
        ["", "8M", "capacity=1M", "block_cache_fraction=0.1", "64K"]
    ),
    "craft_range_filter": lambda: random.choice([0, 1, 1]),
    "craft_partition_size": lambda: random.choice([0, 512, 4096]),
    "craft_real_suffix_bits": lambda: random.choice([0, 3, 8]),
    "craft_hash_suffix_bits": lambda: random.choice([0, 0, 4]),
    # Only partitions whose keys share one length get a range hash; see
    # sanitize_lodestone.
    "craft_range_hash_bits": lambda: random.choice([0, 0, 6, 14]),
    # Filters only from L1 or L2 down: files with and without them mix in
    # the levels a seek visits (moves carry the upper levels' down).
    "craft_min_level": lambda: random.choice([0, 0, 1, 2]),
    "min_tombstones_for_range_conversion": lambda: random.choice([0, 2, 3, 5, 8]),
    "tombstone_density_trigger": lambda: random.choice([0, 0.05, 0.1, 0.3]),
    "tombstone_density_window": lambda: random.choice([16, 32, 128]),
    # 5 s deadlines keep the picker compacting without end (docs/stress.md,
    # open issues); the runs use deadlines of 30 s and more.
    "delete_persistence_threshold": lambda: random.choice([0, 30, 120, 600]),
    "compaction_overlap_by_keys": lambda: random.choice([0, 1]),
    "verify_initial_puts": lambda: random.choice([0, 1]),
    "put_initial_one_in": lambda: random.choice([0, 1, 1, 2, 4]),
    "put_initial_violation_one_in": lambda: random.choice([0, 20, 100]),
    "lodestone_short_bounds_one_in": lambda: random.choice([1, 2, 4]),
    # Secondary range deletes: each call locks every key of a column family
    # and flushes it, so one in thousands of a thread's ops.
    "secondary_delete_one_in": lambda: random.choice([0, 0, 1000, 5000]),
    "secondary_delete_width": lambda: random.choice([1, 2, 8, 32]),
    # KiWi delete tiles, where secondary range deletes run (sanitize.py).
    "delete_tile_blocks": lambda: random.choice([1, 1, 4, 8]),
    "lodestone_report_interval_sec": 5,
}

# What secondary range deletes need of upstream's parameters (db_stress
# refuses the rest, tools/stress/lodestone_stress_options.cc): an expected
# state that a crash leaves in place (no WAL loss) and writes the call
# covers (no entities, timed puts or blob references). An invocation that
# draws the feature asks for these before upstream's sanitizing and a
# configuration's forced values, which win.
SECONDARY_DELETE_NEEDS = {
    "sync_fault_injection": 0, "disable_wal": 0, "manual_wal_flush_one_in": 0,
    "use_put_entity_one_in": 0, "use_timed_put_one_in": 0,
    "use_attribute_group": 0, "enable_blob_files": 0, "use_blob_db": 0,
    "test_secondary": 0, "user_timestamp_size": 0,
    "experimental_mempurge_threshold": 0.0,
}

# Upstream operation mixes; each sums to 100 like upstream's defaults
# (read 45, prefix 5, write 35, del 4, delrange 1, iter 10). Deletes make the
# tombstone runs that conversion, the tombstone picker and initial-put
# chains need; reads that repeat keys make location cache hits. Runs with
# and without DeleteRange.
OP_MIXES = {
    "upstream": None,
    "delete_heavy": dict(readpercent=25, prefixpercent=0, writepercent=30,
                         delpercent=20, delrangepercent=0, iterpercent=25),
    "delete_heavy_range": dict(readpercent=25, prefixpercent=0, writepercent=30,
                               delpercent=17, delrangepercent=3, iterpercent=25),
    "read_heavy": dict(readpercent=60, prefixpercent=0, writepercent=25,
                       delpercent=5, delrangepercent=0, iterpercent=10),
    "read_heavy_range": dict(readpercent=58, prefixpercent=0, writepercent=25,
                             delpercent=5, delrangepercent=2, iterpercent=10),
}

# Per-invocation changes to upstream's parameters that make Lodestone's
# features busy in short runs: smaller key spaces, frequent flushes, some
# runs without a prefix extractor (conversion needs total-order iterators),
# a hot key set some of the time.
coverage_params = {
    "flush_one_in": lambda: random.choice([1000, 5000]),
    # Upstream holds snapshots for 100,000 ops; one in ten guards write
    # conflicts, which keeps every younger Delete (no chain is pruned).
    "snapshot_hold_ops": lambda: random.choice([1000, 100000]),
    "hot_key_alpha": lambda: random.choice([0, 0, 0.9, 1.2]),
    "threads": lambda: random.choice([8, 16, 32]),
}

# Run configurations: upstream's test type and flavour flags, fixed
# parameters (command-line arguments to db_crashtest.py, constant for the
# run) and forced per-invocation parameters.
FAULTS = {
    "write_fault_one_in": lambda: random.choice([128, 1000]),
    "read_fault_one_in": lambda: random.choice([32, 1000]),
    "metadata_read_fault_one_in": lambda: random.choice([32, 1000]),
    "metadata_write_fault_one_in": lambda: random.choice([128, 1000]),
    "open_read_fault_one_in": lambda: random.choice([0, 32]),
    "open_write_fault_one_in": lambda: random.choice([0, 16]),
    "open_metadata_read_fault_one_in": lambda: random.choice([0, 8]),
    "open_metadata_write_fault_one_in": lambda: random.choice([0, 8]),
    "sync_fault_injection": 1,
}
NO_FAULTS = {k: 0 for k in FAULTS}

CONFIGS = {
    "blackbox_simple": dict(
        test_type="blackbox", flags=["--simple"], fixed={}, forced=NO_FAULTS,
        about="kill -9 at random times, one column family, no injected faults"),
    "blackbox": dict(
        test_type="blackbox", flags=[], fixed={"test_batches_snapshots": 0},
        forced={},
        about="kill -9, ten column families, upstream's own fault and WAL choices"),
    "blackbox_faults": dict(
        test_type="blackbox", flags=["--simple"], fixed={}, forced=FAULTS,
        about="kill -9 with write, read and metadata faults and unsynced data loss"),
    "blackbox_nowal": dict(
        test_type="blackbox", flags=["--simple"], fixed={},
        # Upstream's sanitizing turns the WAL back on under in-place updates
        # and user-defined timestamps kept only in memtables.
        forced={"disable_wal": 1, "inplace_update_support": 0,
                "persist_user_defined_timestamps": 1,
                "sync_fault_injection": lambda: random.choice([0, 1])},
        about="kill -9 with the WAL disabled (atomic flush, expected state by trace)"),
    "blackbox_sync0": dict(
        test_type="blackbox", flags=[], fixed={"test_batches_snapshots": 0},
        forced={"sync": 0, "disable_wal": 0, "sync_fault_injection": 1},
        about="kill -9, sync=0, unsynced data dropped at the crash"),
    # No WriteUnprepared: upstream 9.10.0's db_stress fails its crash
    # recovery verification there with every Lodestone option off (seed
    # 63005: a key expected deleted holds its first value after the reopen),
    # and upstream calls only WriteCommitted mature (facebook/rocksdb#13499).
    "blackbox_txn": dict(
        test_type="blackbox", flags=["--txn"], fixed={"test_batches_snapshots": 0},
        forced={}, drawn_per_run={"txn_write_policy": lambda: random.choice([0, 1])},
        about="kill -9 with a TransactionDB (write committed or prepared)"),
    "blackbox_batched": dict(
        test_type="blackbox", flags=[], fixed={"test_batches_snapshots": 1},
        forced={},
        about="kill -9, batched-ops test (no expected state: no initial puts)"),
    "blackbox_cf_consistency": dict(
        test_type="blackbox", flags=["--cf_consistency"],
        fixed={"test_batches_snapshots": 0}, forced={},
        about="kill -9, column-family consistency test"),
    "whitebox_simple": dict(
        test_type="whitebox", flags=["--simple"], fixed={}, forced=NO_FAULTS,
        about="crashes at kill points, then universal, FIFO and leveled runs"),
    "whitebox": dict(
        test_type="whitebox", flags=[], fixed={"test_batches_snapshots": 0},
        forced={},
        about="kill points, ten column families, upstream's fault choices"),
    "whitebox_faults": dict(
        test_type="whitebox", flags=["--simple"], fixed={}, forced=FAULTS,
        about="kill points with write, read and metadata faults"),
    # Appended: a configuration's index is part of its run seeds.
    # Write and metadata faults without read faults: the faulted run in
    # which the delete-persistence deadline stays on (sanitize.py turns it
    # off under read faults).
    "blackbox_write_faults": dict(
        test_type="blackbox", flags=["--simple"], fixed={},
        forced=dict(FAULTS, read_fault_one_in=0, open_read_fault_one_in=0),
        about="kill -9 with write and metadata faults and unsynced data loss"),
}

PRESETS = {
    # The ctest entry: a few minutes, every feature randomized.
    # Every feature meets faults (with and without read faults: the
    # deadline runs only without) and transactions.
    "ci": ["blackbox_write_faults", "blackbox_faults", "blackbox_txn",
           "whitebox_faults"],
    "all": list(CONFIGS),
}

# Settings under which one blackbox_simple run makes each feature busy: the
# top-up a crash test runs for a feature that it enabled but never judged
# (run.py). Each makes claims_of claim the feature, with a mix that feeds
# it.
# Forced settings override upstream's sanitizing, so they also turn off what
# upstream would otherwise have to reconcile with them (a compaction filter
# or in-place updates need iterpercent 0: fresh-clone CI, top-up seed 1902).
_BUSY_COMMON = {"user_timestamp_size": 0, "use_txn": 0, "compaction_style": 0,
                "prefix_size": -1, "prefixpercent": 0, "delrangepercent": 0,
                "enable_compaction_filter": 0, "inplace_update_support": 0,
                "test_batches_snapshots": 0}
TOP_UP = {
    "location_cache": dict(_BUSY_COMMON, location_cache="8M", readpercent=60,
                           writepercent=30, delpercent=5, iterpercent=5,
                           use_multiget=0, use_multi_get_entity=0,
                           use_put_entity_one_in=0, use_merge=0,
                           use_timed_put_one_in=0, test_batches_snapshots=0),
    "craft": dict(_BUSY_COMMON, craft_range_filter=1, craft_min_level=0,
                  lodestone_short_bounds_one_in=2, readpercent=30,
                  writepercent=35, delpercent=5, iterpercent=30),
    "conversion": dict(_BUSY_COMMON, min_tombstones_for_range_conversion=2,
                       two_write_queues=0, unordered_write=0,
                       use_sqfc_for_range_queries=0, readpercent=25,
                       writepercent=30, delpercent=20, iterpercent=25,
                       max_key=10000),
    "initial_put": dict(_BUSY_COMMON, put_initial_one_in=2, readpercent=30,
                        writepercent=45, delpercent=15, iterpercent=10),
    "initial_put_chains": dict(_BUSY_COMMON, put_initial_one_in=2,
                               acquire_snapshot_one_in=10000, readpercent=25,
                               writepercent=30, delpercent=20, iterpercent=25),
    "initial_put_contract": dict(_BUSY_COMMON, put_initial_one_in=2,
                                 put_initial_violation_one_in=20,
                                 verify_initial_puts=1, readpercent=25,
                                 writepercent=50, delpercent=15, iterpercent=10),
    "tombstone_picks": dict(_BUSY_COMMON, tombstone_density_trigger=0.25,
                            readpercent=25, writepercent=30, delpercent=20,
                            iterpercent=25),
    "overlap_by_keys": dict(_BUSY_COMMON, compaction_overlap_by_keys=1,
                            craft_range_filter=1, craft_min_level=0,
                            compaction_pri=3, open_files=-1, readpercent=30,
                            writepercent=50, delpercent=10, iterpercent=10),
    "secondary_deletes": dict(_BUSY_COMMON, **SECONDARY_DELETE_NEEDS,
                              secondary_delete_one_in=500,
                              secondary_delete_width=8, readpercent=35,
                              writepercent=40, delpercent=5, iterpercent=20),
    # Wide tombstones over small tiles: blocks whose delete keys a tombstone
    # covers whole.
    "delete_tiles": dict(_BUSY_COMMON, **SECONDARY_DELETE_NEEDS,
                         secondary_delete_one_in=500,
                         secondary_delete_width=32, delete_tile_blocks=8,
                         readpercent=35, writepercent=40, delpercent=5,
                         iterpercent=20),
}
