#!/usr/bin/env python3
"""Lodestone's crash test: upstream's tools/db_crashtest.py, run unchanged
(imported from the build's upstream tree), with every Lodestone option
randomized per db_stress invocation the way upstream randomizes its own, and
a check that each feature an invocation enables was busy (docs/stress.md).

  lodestone_crashtest.py run [--seed N] [--duration S] [--configs a,b|ci|all]
  lodestone_crashtest.py planted --bug NAME [--seed N] [--max_seconds S]
  lodestone_crashtest.py list

A run is one upstream crash test (blackbox or whitebox, one of upstream's
test flavours, optional forced faults) under one seed; `run` executes the
chosen configurations one after another, each in its own Python process,
splitting the duration between them.
"""

import argparse
import glob
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# How long past a run's deadline a whitebox invocation without kill points
# may take to finish its operations: upstream's 15 minutes.
WHITEBOX_FINISH_SECONDS = 900

# ---------------------------------------------------------------------------
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
    "min_tombstones_for_range_conversion": lambda: random.choice([0, 2, 3, 5, 8]),
    "tombstone_density_trigger": lambda: random.choice([0, 0.05, 0.1, 0.3]),
    "tombstone_density_window": lambda: random.choice([16, 32, 128]),
    # 5 s deadlines keep the picker compacting without end (docs/stress.md,
    # open issues); the runs use deadlines of 30 s and more.
    "delete_persistence_threshold": lambda: random.choice([0, 30, 120, 600]),
    "verify_initial_puts": lambda: random.choice([0, 1]),
    "put_initial_one_in": lambda: random.choice([0, 1, 1, 2, 4]),
    "put_initial_violation_one_in": lambda: random.choice([0, 20, 100]),
    "lodestone_short_bounds_one_in": lambda: random.choice([1, 2, 4]),
    "lodestone_report_interval_sec": 5,
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
NO_FAULTS = {
    "write_fault_one_in": 0,
    "read_fault_one_in": 0,
    "metadata_read_fault_one_in": 0,
    "metadata_write_fault_one_in": 0,
    "open_read_fault_one_in": 0,
    "open_write_fault_one_in": 0,
    "open_metadata_read_fault_one_in": 0,
    "open_metadata_write_fault_one_in": 0,
    "sync_fault_injection": 0,
}

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
}

PRESETS = {
    # The ctest entry: a few minutes, every feature randomized.
    "ci": ["blackbox_simple", "blackbox_faults", "whitebox_simple"],
    "all": list(CONFIGS),
}

# Features, the metric that proves each busy, and when an invocation
# claims it (from its final db_stress parameters).
FEATURES = ["location_cache", "craft", "conversion", "initial_put",
            "initial_put_chains", "initial_put_contract", "tombstone_picks"]
# Features whose activity in any invocation of a run counts once one
# invocation claims them (their work follows the data, not the options).
# Tombstone picks follow tombstones' age and density, which build up across
# the invocations of a run (an invocation killed early rarely lives to a
# deadline; the next one compacts what it left).
CARRIED_OVER = {"initial_put_chains", "tombstone_picks"}


# Upstream's operation percentages, which the "upstream" mix keeps.
UPSTREAM_MIX = dict(writepercent=35, delpercent=4, delrangepercent=1)


def deletes_written(mix, written):
    """About how many of `written` keys (puts and deletes, as the
    keys-written ticker counts them) were deletes under `mix`."""
    m = OP_MIXES.get(mix) or UPSTREAM_MIX
    deletes = m["delpercent"] + m["delrangepercent"]
    return written * deletes // (m["writepercent"] + deletes)


# The work an invocation's DB must have done before an idle feature counts
# as a failure: under injected faults, a DB can spend an invocation stopped
# or recovering (upstream's writers sleep and retry), with nothing to show.
def made_progress(feature, progress, max_key=10000, mix=None):
    written = progress.get("keys_written", 0)
    read = progress.get("keys_read", 0)
    seeks = progress.get("seeks", 0)
    compacted = progress.get("compact_bytes", 0)
    flushed = progress.get("flush_bytes", 0)
    # Gets a table answered: the only lookups the location cache remembers.
    # A first invocation of a delete-heavy mix with DeleteRange over ten
    # column families of 100,000 keys (seed 2312001) read 671,000 keys, of
    # which tables held 161: 58 locations remembered, no hit.
    found = progress.get("found_in_tables", 0)
    return {
        "location_cache": read >= 1000 and flushed > 0 and found >= 1000,
        "craft": seeks >= 100 and flushed > 0,
        # Runs of adjacent deleted keys need enough deletes for the key
        # space: with 100,000 keys, invocations that wrote 3,400 (faults
        # slow writers down) or 20,000 keys met no run.
        "conversion": seeks >= 100 and written >= max(10000, max_key // 2),
        "initial_put": written >= 1000,
        # A chain is pruned only where a key's initial put and its delete
        # meet in one flush or compaction with no snapshot between them:
        # invocations of 18 s (seeds 52000 and 52003: 4,387-9,736 keys
        # written, db_stress holding snapshots) pruned none.
        "initial_put_chains": written >= 10000 and flushed + compacted > 0,
        # Probes are one in 20 or 100 puts of visible keys: a thousand
        # writes (deletes included) can hold none.
        "initial_put_contract": written >= 10000,
        # The leveled picker serves size-triggered work before density
        # candidates, and a last-level file only once no snapshot needs its
        # tombstones: a DB that faults slow down (seed 51002: 9,332 keys in
        # an invocation, 27 MB compacted, no pick) can stay over its size
        # targets the whole time. Density needs deletes, not writes: a
        # read-heavy kill-point invocation of 6 s (seed 2111008: 11,989
        # keys written, about 2,600 of them deletes) picked nothing.
        "tombstone_picks": deletes_written(mix, written) >= 4000 and compacted > 0,
    }[feature]


def _expected_state_test(p):
    return (not p.get("test_batches_snapshots") and not p.get("test_cf_consistency")
            and not p.get("test_multi_ops_txns"))


def claims_of(p):
    """Features this invocation enables and runs the operations for."""
    if p.get("verification_only"):
        return {}
    udt = int(p.get("user_timestamp_size", 0) or 0) > 0
    read_callback = bool(p.get("use_txn")) and not p.get("use_optimistic_txn") and \
        int(p.get("txn_write_policy", 0) or 0) != 0
    c = {}
    # The batched and column-family consistency tests read under explicit
    # snapshots, which never populate the location cache. It remembers plain
    # values only: where every write is an entity, a merge or a timed put
    # (fixed for the run), there is nothing to remember.
    plain_values = p.get("use_put_entity_one_in") != 1 and \
        not p.get("use_merge") and p.get("use_timed_put_one_in") != 1
    # A hit serves its entry from the data block in the block cache. With
    # mmap reads, upstream reads an uncompressed block in place and never
    # caches it (only blocks that own their bytes are inserted), so a DB
    # without compression keeps no block a hit could use
    # (docs/location_cache.md, "Where it stays idle").
    # Likewise with fill_cache=0 (db_stress's reads then insert no block)
    # and no prepopulation at flush: blocks get cached only by verification
    # reads, which a short invocation may not reach (seed 2211010: 50,001
    # reads, 4,922 locations remembered, no hit).
    # With use_multiget every point read is a MultiGet, and with
    # check_multiget_consistency (upstream's default) each takes an explicit
    # snapshot: nothing is remembered (seed 2401004: 1,593,829 lookups, 0
    # populated; the same flags with the check off populate).
    snapshot_reads = p.get("use_multiget") and \
        p.get("check_multiget_consistency", 1)
    blocks_cached = not (p.get("mmap_read") and
                         p.get("compression_type", "none") == "none") and \
        (p.get("fill_cache", 1) != 0 or p.get("prepopulate_block_cache", 0) != 0)
    if p.get("location_cache") and p.get("readpercent", 0) > 0 and not udt \
            and not read_callback and _expected_state_test(p) and plain_values \
            and blocks_cached and not snapshot_reads:
        # With DeleteRange in the mix too: a flushed range tombstone costs
        # only the hits on the keys it covers (location_range_tombstones.h).
        c["location_cache"] = "hits"
    if p.get("craft_range_filter") and p.get("iterpercent", 0) > 0 and \
            p.get("lodestone_short_bounds_one_in", 0) > 0 and not udt:
        c["craft"] = "skipped"
    # Runs of deleted keys need a delete-heavy mix. Under two_write_queues a
    # run found while writers are busy is discarded, not handed to the next
    # write group (docs/tombstone_runs.md): under db_stress's write load it
    # converts too rarely to claim. db_stress deletes one random key at a
    # time, so five or more adjacent tombstones in one short scan are rare:
    # over the stress streams, invocations with a minimum of 5 or 8 often
    # converted nothing in hundreds of thousands of writes, while a minimum
    # of 2 or 3 converted in nearly every one. Larger minimums still run and
    # are verified; only their activity is not judged.
    if 0 < p.get("min_tombstones_for_range_conversion", 0) <= 3 and \
            not p.get("two_write_queues") and \
            p.get("iterpercent", 0) > 0 and p.get("delpercent", 0) >= 10 and \
            p.get("prefix_size") == -1 and not p.get("use_sqfc_for_range_queries") \
            and not udt and not read_callback and not p.get("unordered_write"):
        c["conversion"] = "inserted"
    initial = p.get("put_initial_one_in", 0) > 0 and \
        p.get("writepercent", 0) > 0 and not read_callback
    if initial:
        c["initial_put"] = "puts" if not p.get("use_txn") else "txn_puts"
        if p.get("delpercent", 0) > 0:
            c["initial_put_chains"] = "chains_pruned"
    if p.get("put_initial_violation_one_in", 0) > 0 and p.get("writepercent", 0) > 0:
        c["initial_put_contract"] = "refused"
    if (p.get("tombstone_density_trigger", 0) > 0 or
            p.get("delete_persistence_threshold", 0) > 0) and \
            p.get("compaction_style", 0) == 0 and p.get("delpercent", 0) > 0:
        c["tombstone_picks"] = "picks"
    return c


def sanitize_lodestone(p):
    """Lodestone's own sanitization, after upstream's (final values)."""
    if not _expected_state_test(p) or int(p.get("user_timestamp_size", 0) or 0) > 0:
        p["put_initial_one_in"] = 0
        p["put_initial_violation_one_in"] = 0
    if p.get("use_put_entity_one_in") == 1:
        # Every put is a PutEntity (fixed for the run): no plain puts.
        p["put_initial_one_in"] = 0
    if p.get("put_initial_one_in", 0) > 0:
        # Merges replace every plain put in the non-batched test, and so
        # does TimedPut at one in one.
        p["use_merge"] = 0
        if p.get("use_timed_put_one_in") == 1:
            p["use_timed_put_one_in"] = 5
    if p.get("unordered_write") or p.get("two_write_queues") or (
            p.get("use_txn") and not p.get("use_optimistic_txn") and
            int(p.get("txn_write_policy", 0) or 0) != 0):
        # Refused at open: the check cannot be atomic with the write there.
        p["verify_initial_puts"] = 0
    if not p.get("verify_initial_puts") or p.get("use_txn"):
        p["put_initial_violation_one_in"] = 0
    if p.get("craft_range_hash_bits", 0) > 0:
        # db_stress keys are 8 to 24 bytes long, the lengths mixed within a
        # few hundred consecutive keys: mostly small partitions, so that
        # many hold keys of one length and carry a range hash.
        p["craft_partition_size"] = random.choice(
            [512, 512, p.get("craft_partition_size", 0)])
    if p.get("read_fault_one_in", 0) > 0 or p.get("open_read_fault_one_in", 0) > 0:
        # db_stress enables read faults on a background thread when a flush
        # begins and disables them when it completes: after a failed flush
        # the thread keeps failing every compaction it runs. A file past its
        # delete-persistence deadline is then picked again after each
        # failure, and the WaitForCompact that db_stress runs after an open
        # with injected faults never returns (seen: 433 deadline picks of the
        # same two files in 480 s). Upstream's periodic compaction can loop
        # the same way; the density trigger still covers the picker here.
        p["delete_persistence_threshold"] = 0
    if p.get("use_txn") and not p.get("use_optimistic_txn"):
        # Upstream 9.10.0's MultiGet and MultiGetEntity tests write random
        # keys in pessimistic transactions without db_stress's key locks,
        # and treat the lock deadlock two such transactions can meet as a
        # failure (fixed upstream later: facebook/rocksdb#13950, #14235).
        p["use_multiget"] = 0
        p["use_multi_get_entity"] = 0
    if p.get("use_txn") and not p.get("use_optimistic_txn") and \
            int(p.get("txn_write_policy", 0) or 0) != 0:
        # WritePrepared and WriteUnprepared TransactionDBs override Get, not
        # GetEntity: db_stress's GetEntity reads go to DBImpl without the
        # commit-cache read callback and see data a transaction prepared
        # but never committed (a commit or rollback failed under write
        # faults), which the expected state calls deleted. Seen as
        # "GetEntity returns ..., expected state does not have the key"
        # (seed 57005, blackbox_txn); the same command failed so with every
        # Lodestone option off (1 of 6 runs of 40 s), never with
        # use_get_entity=0 (0 of 6).
        p["use_get_entity"] = 0
        p["use_multi_get_entity"] = 0
    waits_for_compactions_at_open = p.get("sync_fault_injection") or any(
        int(p.get(k, 0) or 0) > 0 for k in (
            "open_read_fault_one_in", "open_write_fault_one_in",
            "open_metadata_read_fault_one_in", "open_metadata_write_fault_one_in"))
    if int(p.get("hard_pending_compaction_bytes_limit", 0) or 0) <= 2 * 1024 * 1024 \
            or waits_for_compactions_at_open:
        # Periodic compaction or a TTL of a few seconds makes every file due
        # again before compactions catch up. With upstream's 2 MiB hard limit
        # that stops writes for good (seen in whitebox's universal,
        # single-level run); where db_stress waits for compactions at open
        # (sync_fault_injection, open faults: upstream's WaitForCompact), the
        # wait never ends (seen in a final verification, 9,820 periodic
        # compactions in 450 s). Both with every Lodestone option off too.
        # Upstream lets such a run time out; the wrapper fails runs that do
        # not finish, so it avoids these pairs.
        for k in ("periodic_compaction_seconds", "compaction_ttl"):
            if 0 < int(p.get(k, 0) or 0) < 100:
                p[k] = 0
    if waits_for_compactions_at_open and 0 < int(p.get("read_fault_one_in", 0) or 0) < 1000:
        # The compactions db_stress waits for at open draw read faults too:
        # at one read in 32, a compaction of a few hundred reads almost never
        # completes, and each retry fails again (seen: an L0 compaction of
        # seven files retried 539 times in a 551 s open, until upstream's
        # timeout; upstream's own pick, every Lodestone option idle). One in
        # 1000 still injects read faults there.
        p["read_fault_one_in"] = 1000
    if p.get("min_tombstones_for_range_conversion", 0) > 0:
        # A table filter turns conversion off for that iterator.
        p["use_sqfc_for_range_queries"] = 0
    if str(p.get("cache_type", "")).startswith("tiered_"):
        # Upstream 9.10.0: ~CacheWithSecondaryAdapter asserts its reservation
        # accounting at exit (reproduced here with every Lodestone option
        # off; upstream's crash test showed it too, facebook/rocksdb#13747).
        p["cache_type"] = p["cache_type"][len("tiered_"):]
        p["compressed_secondary_cache_ratio"] = 0.0
    return p


# ---------------------------------------------------------------------------
# The child: one run of upstream's crash test.

def import_upstream(upstream_dir):
    path = os.path.join(upstream_dir, "tools", "db_crashtest.py")
    spec = importlib.util.spec_from_file_location("db_crashtest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _value(v):
    return v() if callable(v) else v


def _parse_activity(stdout):
    """Last `lodestone: <feature> k=v ...` line per feature."""
    act = {}
    for m in re.finditer(r"^lodestone: (\w+) (.*)$", stdout, re.M):
        vals = {}
        for kv in m.group(2).split():
            k, _, v = kv.partition("=")
            if v.isdigit():
                vals[k] = int(v)
        act[m.group(1)] = vals
    return act


def stress_seed(rng):
    """A db_stress --seed that keeps db_stress out of an upstream 9.10.0
    defect: when an open fails under injected open faults, StressTest::Open
    draws from Random(seed) whether to drop unsynced data at random
    (FaultInjectionTestFS::DropRandomUnsyncedFileData), and that divides by
    zero (SIGFPE) for a file whose unsynced bytes are not buffered. The
    choice depends on the seed alone; seeds that take the other branches
    (keep the data, or drop all unsynced data) are used instead."""
    while True:
        seed = rng.randint(1, 1 << 30)
        state = (seed & 0x7FFFFFFF) or 1

        def next_value():
            nonlocal state
            state = state * 16807 % 0x7FFFFFFF
            return state

        next_value()                    # OneIn(2): delete files after the last dir sync
        if next_value() % 3 == 0:       # OneIn(3): DropUnsyncedFileData
            return seed
        if next_value() % 2 != 0:       # not OneIn(2): no drop
            return seed


def _parse_setting(kv):
    k, _, v = kv.partition("=")
    for kind in (int, float):
        try:
            return k, kind(v)
        except ValueError:
            pass
    return k, v


def child_main(a):
    cfg = CONFIGS[a.config]
    os.makedirs(a.workdir, exist_ok=True)
    os.environ["TEST_TMPDIR"] = a.workdir
    os.environ.pop("TEST_TMPDIR_EXPECTED", None)
    # Upstream draws some choices at import: seed first, so that the run's
    # parameters follow from its seed.
    random.seed(a.seed)
    dc = import_upstream(a.upstream_dir)

    # Constant for the run (verification across invocations needs them).
    fixed = {
        "max_key": random.choice([10000, 100000]),
        "seed": stress_seed(random),
    }
    fixed.update(cfg["fixed"])
    dc.default_params.update(lodestone_params)
    dc.default_params.update(fixed)

    forced_by_user = dict(_parse_setting(kv) for kv in a.set or [])
    # Drawn once for the run, over upstream's choice: a DB keeps its write
    # policy from one invocation to the next.
    drawn_per_run = {k: v() for k, v in cfg.get("drawn_per_run", {}).items()}
    invocations = []
    pending = {}
    orig_finalize = dc.finalize_and_sanitize
    orig_execute = dc.execute_cmd

    def finalize(src_params):
        p = dict(src_params)
        # Conversion needs runs of deleted keys under total-order
        # iterators: where it is on, two invocations in three get a
        # delete-heavy mix and no prefix extractor.
        conversion = _value(p.get("min_tombstones_for_range_conversion", 0))
        p["min_tombstones_for_range_conversion"] = conversion
        if conversion > 0 and random.randint(0, 2) > 0:
            mix = random.choice(["delete_heavy", "delete_heavy_range"])
            no_prefix = True
        else:
            mix = random.choice(sorted(OP_MIXES))
            no_prefix = random.randint(0, 1) == 1
        for k, v in coverage_params.items():
            p[k] = v
        if OP_MIXES[mix]:
            p.update(OP_MIXES[mix])
        if no_prefix:
            p["prefix_size"] = -1
        for k, v in cfg["forced"].items():
            p[k] = v
        p.update(drawn_per_run)
        for k, v in forced_by_user.items():
            p[k] = v
        dest = sanitize_lodestone(orig_finalize(p))
        if dest.get("min_tombstones_for_range_conversion", 0) > 0 and \
                dest.get("delpercent", 0) >= 10:
            # A conversion gives way to any queued writer (it never waits
            # for one) and goes in with the next write group; with fewer
            # threads it also finds the write thread idle.
            dest["threads"] = random.choice([4, 8])
        for k, v in forced_by_user.items():
            dest[k] = v  # Also over upstream's and Lodestone's sanitizing.
        pending["mix"] = mix
        pending["params"] = dest
        return dest

    def execute(cmd, timeout=None, timeout_pstack=False):
        params = pending.pop("params", {})
        mix = pending.pop("mix", "")
        if timeout is not None and not params.get("verification_only"):
            # Whitebox waits 15 minutes past the run's end for a kill point;
            # a run's budget is its duration plus one interval. The final
            # verification keeps upstream's own limit (--verify_timeout).
            # A whitebox invocation without kill points must finish its
            # operations (20 reopens of up to 32 threads; with
            # verify_initial_puts each initial put is a point lookup inside
            # the write group, which a table cache smaller than the DB makes
            # slow): like upstream, it gets 15 minutes past the run's end,
            # so that only a hang fails it (seed 64009).
            floor = 30
            if cfg["test_type"] == "whitebox" and \
                    params.get("kill_random_test") is None:
                floor = WHITEBOX_FINISH_SECONDS
            timeout = min(timeout, max(a.deadline - time.time(), floor))
        start = time.time()
        hit_timeout, rc, outs, errs = orig_execute(cmd, timeout, timeout_pstack)
        inv = {
            "n": len(invocations) + 1,
            "seconds": round(time.time() - start, 1),
            "killed": hit_timeout,
            "rc": rc,
            "kill_random_test": params.get("kill_random_test"),
            "verification_only": bool(params.get("verification_only")),
            "mix": mix,
            "claims": claims_of(params),
            "activity": _parse_activity(outs),
            "stderr": errs[-2000:],
            "options": {k: params.get(k) for k in sorted(lodestone_params)
                        if k in params},
            "context": {k: params.get(k) for k in (
                "compaction_style", "prefix_size", "disable_wal", "sync",
                "sync_fault_injection", "write_fault_one_in", "read_fault_one_in",
                "metadata_read_fault_one_in", "metadata_write_fault_one_in",
                "use_txn", "txn_write_policy", "test_batches_snapshots",
                "test_cf_consistency", "use_merge", "max_key", "threads",
                "use_sqfc_for_range_queries", "delrangepercent", "delpercent",
                "hot_key_alpha", "open_files")},
        }
        invocations.append(inv)
        _save(a.result, a, invocations, None)
        return hit_timeout, rc, outs, errs

    dc.finalize_and_sanitize = finalize
    dc.execute_cmd = execute
    # Upstream's whitebox loop clears the DB and the expected state together
    # between check modes; a DB left behind would be verified against a fresh
    # expected state. Keep the last one aside instead of deleting it, so a
    # failure only this wrapper detects (e.g. a final verification that timed
    # out) still has its DB; the parent removes a passing run's directory.
    def set_db_aside(dbname):
        aside = dbname.rstrip("/") + ".last"
        shutil.rmtree(aside, ignore_errors=True)
        if os.path.exists(dbname):
            os.rename(dbname, aside)
    dc.cleanup_after_success = set_db_aside

    argv = ["db_crashtest.py", cfg["test_type"]] + cfg["flags"] + [
        "--stress_cmd=" + a.stress_cmd,
        "--duration=%d" % a.duration,
        "--interval=%d" % a.interval,
        "--verify_timeout=%d" % max(a.interval * 4, 300),
    ]
    if cfg["test_type"] == "whitebox":
        # Small runs on two cores: kill-point runs die within seconds to a
        # minute; the other modes finish their operations.
        argv += ["--ops_per_thread=%d" % a.whitebox_ops,
                 "--random_kill_odd=%d" % a.random_kill_odd]
    rc = 0
    sys.argv = argv
    sys.stdout.flush()
    try:
        dc.main()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    _save(a.result, a, invocations, rc)
    return rc


def _save(path, a, invocations, rc):
    with open(path + ".tmp", "w") as f:
        json.dump({"config": a.config, "test_type": CONFIGS[a.config]["test_type"],
                   "seed": a.seed, "duration": a.duration,
                   "rc": rc, "invocations": invocations}, f, indent=1)
    os.replace(path + ".tmp", path)


# ---------------------------------------------------------------------------
# The parent: runs, activity lines, the coverage check, the summary.

def recovery_diagnosis(rundir, log_path):
    """For a crash-recovery verification failure where db_stress restored
    its expected state from a trace: the trace_prefix.py command that tells
    lost data from an expected state restored off by some writes
    (docs/stress.md)."""
    with open(log_path, errors="replace") as f:
        text = f.read()
    if "Crash-recovery verification failed" not in text:
        return None
    m = re.search(r"Verification failed for column family \d+ key ([0-9A-F]+)",
                  text)
    for sub in sorted(os.listdir(rundir)) if os.path.isdir(rundir) else []:
        expected = os.path.join(rundir, sub)
        if not sub.endswith("_expected") or not os.path.isdir(expected):
            continue
        names = os.listdir(expected)
        states = [int(n[:-6]) for n in names
                  if n.endswith(".state") and n[:-6].isdigit()]
        traces = [int(n[:-6]) for n in names
                  if n.endswith(".trace") and n[:-6].isdigit()]
        if not states:
            return None
        recovered = max(states)
        saved = [t for t in traces if t < recovered]
        if not saved:
            return None
        db = os.path.join(rundir, sub[:-len("_expected")] + "_blackbox")
        if not os.path.isdir(db):
            db = os.path.join(rundir, sub[:-len("_expected")] + "_whitebox")
        return ("%s --trace %s --saved %d --recovered %d --db %s%s" % (
            os.path.join(HERE, "trace_prefix.py"),
            os.path.join(expected, "%d.trace" % max(saved)), max(saved),
            recovered, db, " --key " + m.group(1) if m else ""))
    return None


def default_stress_cmd():
    return os.path.join(ROOT, "build", "test", "rocksdb", "db_stress_tool", "db_stress")


def default_upstream_dir():
    return os.path.join(ROOT, "build", "test", "upstream", "src")


def feature_line(feature, act):
    vals = act.get(feature) or {}
    keys = {
        "location_cache": ["hits", "misses", "false_hits", "stale", "populates",
                           "invalidations"],
        "craft": ["checked", "skipped", "false_positives", "short_bounds"],
        "conversion": ["inserted", "discarded", "superversion_changed",
                       "older_than_memtable", "not_added", "stopped",
                       "pushed_out", "write_thread_busy", "cheaper_to_step",
                       "left_to_pruning"],
        "initial_put": ["puts", "txn_puts"],
        "initial_put_chains": ["chains_pruned", "pruned_early", "reached_bottommost"],
        "initial_put_contract": ["probes", "refused", "inconclusive", "violations"],
        "tombstone_picks": ["density", "deadline"],
    }[feature]
    return " ".join("%s=%d" % (k, vals.get(k, 0)) for k in keys)


def activity_for(feature, act):
    """The per-feature activity dict out of the db_stress lines."""
    src = {"initial_put_chains": "initial_put"}.get(feature, feature)
    return act.get(src) or {}


def metric(feature, metric_name, vals):
    if metric_name == "picks":
        return vals.get("density", 0) + vals.get("deadline", 0)
    return vals.get(metric_name, 0)


def summarize_run(result, log_path):
    """Prints the run's activity and returns a list of failure reasons."""
    failures = []
    invs = result["invocations"]
    name = "%s seed=%d" % (result["config"], result["seed"])
    totals = {f: {} for f in FEATURES}
    claimed = {}     # enabled in an invocation whose DB did the work
    stalled = set()  # enabled only where the DB did not get to work
    for inv in invs:
        act = {f: activity_for(f, inv["activity"]) for f in FEATURES}
        progress = inv["activity"].get("progress", {})
        kind = ("verify" if inv["verification_only"] else
                "kill-point" if inv["kill_random_test"] else
                "killed" if inv["killed"] else "exit")
        print("  #%d %-10s rc=%s %5.0fs mix=%s written=%d read=%d seeks=%d "
              "claims=%s" % (
                  inv["n"], kind, inv["rc"], inv["seconds"], inv["mix"] or "-",
                  progress.get("keys_written", 0), progress.get("keys_read", 0),
                  progress.get("seeks", 0),
                  ",".join(sorted(inv["claims"])) or "-"))
        for f in FEATURES:
            # Chains are pruned wherever initial puts meet their deletes in a
            # compaction, whatever the options, and tombstones are picked
            # once they are old or dense enough: an invocation that follows
            # the one that wrote them does that work too (same DB).
            counts = f in inv["claims"] or (
                f in CARRIED_OVER and any(f in i["claims"] for i in invs))
            if counts:
                for k, v in act[f].items():
                    if k != "at":
                        totals[f][k] = totals[f].get(k, 0) + v
            if f in inv["claims"]:
                max_key = int(inv.get("context", {}).get("max_key") or 10000)
                if not made_progress(f, progress, max_key, inv["mix"]):
                    stalled.add(f)
                elif claimed.get(f) != "hits":
                    # One invocation that must hit makes the run need hits.
                    claimed[f] = inv["claims"][f]
        # Upstream treats these time-outs as passing; here a final
        # verification or a whitebox run without kill points that does not
        # finish is a failure (a hang, or a budget too small).
        if inv["killed"] and (inv["verification_only"] or (
                result.get("test_type") == "whitebox" and not inv["kill_random_test"])):
            ctx = inv.get("context", {})
            if ctx.get("compaction_style") == 2 and ctx.get("open_files", -1) != -1:
                # FIFO keeps every flushed file in L0; once they outnumber
                # the table cache, every Get reopens tables. Seed 59010 timed
                # out so with every Lodestone option off too: upstream's
                # slowness, which its crash test lets pass (docs/stress.md).
                print("  #%d did not finish: FIFO with a limited table cache "
                      "(upstream's table reopening), not judged" % inv["n"])
            else:
                failures.append("%s: invocation #%d (%s) did not finish in time" % (
                    name, inv["n"], kind))
    print("  activity over the invocations that enabled each feature:")
    for f in FEATURES:
        if f not in claimed:
            if f in stalled:
                print("    lodestone: %-20s %s  [enabled, but the DB made too "
                      "little progress to judge]" % (f, feature_line(f, {f: totals[f]})))
            else:
                print("    lodestone: %-20s not enabled in this run" % f)
            continue
        m = metric(f, claimed[f], totals[f])
        ok = m > 0
        print("    lodestone: %-20s %s  [%s]" % (
            f, feature_line(f, {f: totals[f]}), "busy" if ok else "IDLE"))
        if not ok:
            failures.append("%s: %s enabled but %s == 0" % (name, f, claimed[f]))
    if result["rc"] is None:
        failures.append("%s: did not finish (see %s)" % (name, log_path))
    elif result["rc"] != 0:
        failures.append("%s: crash test failed rc=%s (see %s)" % (
            name, result["rc"], log_path))
    if not invs:
        failures.append("%s: no db_stress invocation" % name)
    return failures, claimed, totals


def run_main(a):
    configs = []
    for c in a.configs.split(","):
        configs += PRESETS.get(c, [c])
    for c in configs:
        if c not in CONFIGS:
            sys.exit("unknown configuration %s (list: %s)" % (c, ", ".join(CONFIGS)))
    stress_cmd = os.path.abspath(a.stress_cmd or default_stress_cmd())
    upstream_dir = os.path.abspath(a.upstream_dir or default_upstream_dir())
    if not os.access(stress_cmd, os.X_OK):
        sys.exit("db_stress not found at %s (tools/build.sh test db_stress)" % stress_cmd)
    workdir = a.workdir or tempfile.mkdtemp(prefix="lodestone_crashtest_")
    os.makedirs(workdir, exist_ok=True)
    per_run = max(a.duration // len(configs), 20)
    print("lodestone crash test: seed=%d duration=%ds configs=%s workdir=%s" % (
        a.seed, a.duration, ",".join(configs), workdir))
    print("db_stress: %s\nupstream: %s" % (stress_cmd, upstream_dir))
    all_failures = []
    summary = []
    seen = {}
    for i, c in enumerate(configs):
        # A run's seed follows from the seed and its configuration alone, so
        # `--configs <c> --seed <seed>` repeats it.
        seen[c] = seen.get(c, -1) + 1
        seed = a.seed * 1000 + 100 * seen[c] + list(CONFIGS).index(c)
        rundir = os.path.join(workdir, "%02d_%s" % (i, c))
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        log_path = os.path.join(workdir, "%02d_%s.log" % (i, c))
        result_path = os.path.join(workdir, "%02d_%s.json" % (i, c))
        interval = a.interval or max(min(per_run // 3, 120), 15)
        deadline = time.time() + per_run + interval + 120
        # Past the deadline the child may still verify (upstream's
        # --verify_timeout) or finish a whitebox invocation without kill
        # points.
        grace = max(interval * 4, 300)
        if CONFIGS[c]["test_type"] == "whitebox":
            grace = max(grace, WHITEBOX_FINISH_SECONDS)
        cmd = [sys.executable, os.path.abspath(__file__), "_child",
               "--config", c, "--seed", str(seed), "--duration", str(per_run),
               "--interval", str(interval), "--stress_cmd", stress_cmd,
               "--upstream_dir", upstream_dir, "--workdir", rundir,
               "--result", result_path, "--deadline", str(deadline),
               "--whitebox_ops", str(a.whitebox_ops),
               "--random_kill_odd", str(a.random_kill_odd)]
        for kv in a.set or []:
            cmd += ["--set", kv]
        print("\n== run %d/%d: %s seed=%d %ds (%s)" % (
            i + 1, len(configs), c, seed, per_run, CONFIGS[c]["about"]))
        print("   reproduce: %s run --configs %s --seed %d --duration %d "
              "--interval %d" % (os.path.relpath(__file__, ROOT), c, a.seed,
                                 per_run, interval))
        start = time.time()
        with open(log_path, "w") as log:
            try:
                child = subprocess.run(
                    cmd, stdout=log, stderr=subprocess.STDOUT,
                    timeout=deadline - time.time() + grace + 120)
                rc = child.returncode
            except subprocess.TimeoutExpired:
                rc = None
        elapsed = time.time() - start
        try:
            with open(result_path) as f:
                result = json.load(f)
        except (OSError, ValueError):
            result = {"config": c, "seed": seed, "rc": None, "invocations": []}
        if rc is None:
            result["rc"] = None
        elif result.get("rc") is None:
            result["rc"] = rc
        failures, claimed, totals = summarize_run(result, log_path)
        if failures:
            print("   FAILED after %.0fs; last lines of %s:" % (elapsed, log_path))
            with open(log_path, errors="replace") as f:
                tail = f.readlines()[-40:]
            for line in tail:
                print("   | " + line.rstrip()[:300])
            hint = recovery_diagnosis(rundir, log_path)
            if hint:
                print("   diagnose: " + hint)
        else:
            print("   passed in %.0fs" % elapsed)
            if not a.keep:
                shutil.rmtree(rundir, ignore_errors=True)
        all_failures += failures
        summary.append((c, seed, elapsed, len(result["invocations"]),
                        not failures, claimed, totals))

    print("\n== summary (seed %d)" % a.seed)
    print("%-24s %10s %6s %5s %s" % ("config", "run seed", "secs", "invs", "result"))
    for c, seed, elapsed, n, ok, _, _ in summary:
        print("%-24s %10d %6.0f %5d %s" % (c, seed, elapsed, n, "pass" if ok else "FAIL"))
    print("feature totals over all runs (invocations that enabled it):")
    for f in FEATURES:
        agg = {}
        n = 0
        for s in summary:
            if f in s[5]:
                n += 1
                for k, v in s[6][f].items():
                    agg[k] = agg.get(k, 0) + v
        print("  lodestone: %-20s runs=%d %s" % (f, n, feature_line(f, {f: agg}) if n else ""))
    if all_failures:
        print("\nFAILURES:")
        for f in all_failures:
            print("  " + f)
        print("workdir kept: %s" % workdir)
        return 1
    if not a.keep and not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    print("\nall runs passed")
    return 0


# ---------------------------------------------------------------------------
# Planted bugs: a short db_stress run that must fail with a verification
# failure while the bug is planted (and, with --control, pass without it).

# Point reads of a small, hot key set through the location cache, plain
# values only: what both location-cache bugs need to show.
_LOCATION_CACHE_READS = {
    "location_cache": "8M", "max_key": 2000, "hot_key_alpha": 0.9,
    "readpercent": 60, "prefixpercent": 0, "delpercent": 5, "iterpercent": 0,
    "flush_one_in": 300, "use_merge": 0, "use_put_entity_one_in": 0,
    "use_timed_put_one_in": 0, "use_multiget": 0,
}

PLANTED = {
    # A flush that does not clear the slots of the keys it writes: a Get that
    # misses the memtables is served the older version from an older table.
    "location_cache_skip_flush_invalidation": dict(
        _LOCATION_CACHE_READS, writepercent=35, delrangepercent=0),
    # A hit that does not ask its Version's range tombstones: a Get is served
    # a key that a flushed DeleteRange covers.
    "location_cache_ignore_range_tombstones": dict(
        _LOCATION_CACHE_READS, writepercent=25, delrangepercent=10),
    # A Delete that prunes an initial-put chain across a snapshot: the
    # snapshot loses the key (full-state snapshot check, per-key check).
    "initial_put_prune_across_snapshot": {
        "put_initial_one_in": 1, "max_key": 1000,
        "readpercent": 30, "prefixpercent": 0, "writepercent": 35,
        "delpercent": 25, "delrangepercent": 0, "iterpercent": 10,
        "flush_one_in": 100, "compact_range_one_in": 300,
        "acquire_snapshot_one_in": 100, "snapshot_hold_ops": 1000,
        "compare_full_db_state_snapshot": 1, "use_merge": 0,
        "use_put_entity_one_in": 0, "use_timed_put_one_in": 0,
    },
}

PLANTED_COMMON = {
    "column_families": 1, "threads": 4, "ops_per_thread": 200000,
    "destroy_db_initially": 1, "reopen": 0, "write_buffer_size": 1 << 20,
    "max_write_buffer_number": 3, "test_batches_snapshots": 0,
    "value_size_mult": 8, "prefix_size": -1, "sync_fault_injection": 0,
    "lodestone_report_interval_sec": 5, "disable_auto_compactions": 0,
    "enable_compaction_filter": 0, "inplace_update_support": 0,
}

FAILURE_PATTERNS = re.compile(
    r"Verification failed|inconsistent|Corruption: The snapshot|"
    r"Lodestone verification failed|Verification failure|"
    r"unexpectedly|expected state has key|does not have key", re.I)


def planted_main(a):
    stress_cmd = os.path.abspath(a.stress_cmd or default_stress_cmd())
    params = dict(PLANTED_COMMON)
    params.update(PLANTED[a.bug])
    params["seed"] = a.seed
    workdir = a.workdir or tempfile.mkdtemp(prefix="lodestone_planted_")
    os.makedirs(workdir, exist_ok=True)

    def run(plant, max_seconds):
        db = os.path.join(workdir, "db_" + ("bug" if plant else "control"))
        shutil.rmtree(db, ignore_errors=True)
        cmd = [stress_cmd] + ["--%s=%s" % (k, v) for k, v in sorted(params.items())]
        cmd += ["--db=" + db]
        if plant:
            cmd.append("--lodestone_plant_bug=" + a.bug)
        print("$ " + " ".join(cmd), flush=True)
        start = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=max_seconds, text=True, errors="replace")
            out, err, rc, timed_out = p.stdout, p.stderr, p.returncode, False
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            rc, timed_out = None, True
        elapsed = time.time() - start
        act = _parse_activity(out)
        for f in ("location_cache", "initial_put"):
            if f in act:
                print("  lodestone: %s %s" % (f, " ".join(
                    "%s=%d" % kv for kv in act[f].items())))
        caught = (rc not in (0, None)) and bool(FAILURE_PATTERNS.search(out + err))
        lines = [l for l in (err + out).splitlines() if FAILURE_PATTERNS.search(l)]
        print("  %s: rc=%s after %.0fs%s" % (
            "planted" if plant else "control", rc, elapsed,
            " (time limit)" if timed_out else ""))
        for line in lines[:3]:
            print("  failure: " + line[:400])
        return rc, caught, elapsed

    print("planted bug %s, seed %d" % (a.bug, a.seed))
    rc, caught, elapsed = run(True, a.max_seconds)
    ok = caught
    if caught:
        print("CAUGHT: the stress test failed with the bug planted (%.0fs)" % elapsed)
    else:
        print("NOT CAUGHT: rc=%s within %ds" % (rc, a.max_seconds))
    if ok and a.control:
        # Without the bug the same run must pass for several times as long
        # as the planted run took to fail (or to its end).
        control_seconds = max(a.control_seconds, int(3 * elapsed))
        crc, ccaught, celapsed = run(False, control_seconds)
        if crc not in (0, None) or ccaught:
            print("CONTROL FAILED: the same run without the bug failed too")
            ok = False
        else:
            print("control: the same run without the bug passed (%.0fs%s)" % (
                celapsed, ", stopped at the time limit" if crc is None else ""))
    if ok and not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


def _logged_params(cmd):
    """The parameters of a db_stress command line as upstream writes it."""
    params = {}
    for arg in cmd.split()[1:]:
        if not arg.startswith("--") or "=" not in arg:
            continue
        k, v = arg[2:].split("=", 1)
        if v in ("True", "False"):
            params[k] = v == "True"
            continue
        for convert in (int, float):
            try:
                params[k] = convert(v)
                break
            except ValueError:
                pass
        else:
            params[k] = v
    return params


def rejudge_main(a):
    """Judges finished runs again with this file's claims.

    For a change to what an invocation claims (which features it must show
    busy), not to what db_stress checks: every invocation's parameters come
    from the command line its log recorded, its verdicts and activity from
    its result file.
    """
    failures = []
    results = sorted(glob.glob(os.path.join(a.workdir, "[0-9][0-9]_*.json")))
    if not results:
        sys.exit("no run results in %s" % a.workdir)
    for path in results:
        with open(path) as f:
            result = json.load(f)
        log_path = path[:-len(".json")] + ".log"
        prefix = "Running db_stress with pid="
        with open(log_path, errors="replace") as f:
            cmds = [line.split(": ", 1)[1] for line in f
                    if line.startswith(prefix) and ": " in line]
        print("== %s" % os.path.basename(path))
        if len(cmds) != len(result["invocations"]):
            failures.append("%s: %d commands logged for %d invocations" % (
                path, len(cmds), len(result["invocations"])))
            continue
        for inv, cmd in zip(result["invocations"], cmds):
            params = _logged_params(cmd)
            inv["claims"] = claims_of(params)
            inv.setdefault("context", {})["open_files"] = params.get("open_files")
        run_failures, _, _ = summarize_run(result, log_path)
        failures += run_failures
        print("   %s" % ("FAILED: " + "; ".join(run_failures)
                          if run_failures else "passed"))
    print("%d runs, %d failures" % (len(results), len(failures)))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="crash test runs with every feature randomized")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--duration", type=int, default=600, help="seconds, split between the runs")
    r.add_argument("--configs", default="ci",
                   help="comma-separated configurations or presets (%s)" % ", ".join(PRESETS))
    r.add_argument("--interval", type=int, default=0,
                   help="blackbox: seconds between kills (default: a third of a run, 15-120)")
    r.add_argument("--whitebox_ops", type=int, default=4000,
                   help="whitebox ops_per_thread (kill-point runs get 100x)")
    r.add_argument("--random_kill_odd", type=int, default=88887)
    r.add_argument("--stress_cmd")
    r.add_argument("--upstream_dir")
    r.add_argument("--workdir")
    r.add_argument("--keep", action="store_true", help="keep DBs of passing runs")
    r.add_argument("--set", action="append", metavar="PARAM=VALUE",
                   help="force a db_stress parameter in every invocation "
                        "(after all sanitizing; for reproductions)")
    p = sub.add_parser("planted", help="show that a planted bug is caught")
    p.add_argument("--bug", required=True, choices=sorted(PLANTED))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max_seconds", type=int, default=300)
    p.add_argument("--control", action="store_true",
                   help="also run without the bug; it must pass")
    p.add_argument("--control_seconds", type=int, default=60,
                   help="time limit of the control run (at least 3x the planted run)")
    p.add_argument("--stress_cmd")
    p.add_argument("--workdir")
    j = sub.add_parser("rejudge", help="judge finished runs again with "
                       "today's claims (a run's --workdir)")
    j.add_argument("--workdir", required=True)
    sub.add_parser("list", help="configurations and presets")
    c = sub.add_parser("_child")
    for k in ("config", "stress_cmd", "upstream_dir", "workdir", "result"):
        c.add_argument("--" + k, required=True)
    for k in ("seed", "duration", "interval", "whitebox_ops", "random_kill_odd"):
        c.add_argument("--" + k, type=int, required=True)
    c.add_argument("--deadline", type=float, required=True)
    c.add_argument("--set", action="append")
    a = parser.parse_args()
    if a.cmd == "run":
        return run_main(a)
    if a.cmd == "planted":
        return planted_main(a)
    if a.cmd == "_child":
        return child_main(a)
    if a.cmd == "rejudge":
        return rejudge_main(a)
    for k, v in CONFIGS.items():
        print("%-24s %s %s: %s" % (k, v["test_type"], " ".join(v["flags"]), v["about"]))
    for k, v in PRESETS.items():
        print("preset %-17s %s" % (k, ",".join(v)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
