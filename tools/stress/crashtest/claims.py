"""Which features an invocation claims (must show busy) and how much work
its DB must have done before an idle claimed feature fails the run."""

from .options import OP_MIXES

# Features, the metric that proves each busy, and when an invocation
# claims it (from its final db_stress parameters).
FEATURES = ["location_cache", "craft", "conversion", "initial_put",
            "initial_put_chains", "initial_put_contract", "tombstone_picks",
            "overlap_by_keys", "secondary_deletes", "delete_tiles"]
# Features whose activity in any invocation of a run counts once one
# invocation claims them (their work follows the data, not the options).
# Tombstone picks follow tombstones' age and density, which build up across
# the invocations of a run (an invocation killed early rarely lives to a
# deadline; the next one compacts what it left).
# Key-count rankings need files straddling one another in adjacent levels,
# which compactions build up across invocations too.
# Tiles meet tombstones in the tables they were written to, which outlive
# the invocation that wrote them.
CARRIED_OVER = {"initial_put_chains", "tombstone_picks", "overlap_by_keys",
                "delete_tiles"}


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
def made_progress(feature, progress, max_key=10000, mix=None, activity=None):
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
        # written, db_stress holding snapshots) pruned none. It takes
        # deletes, not writes: a read-heavy invocation under faults (seed
        # 2611285: 21,942 keys written, about 3,600 of them deletes) pruned
        # none either.
        # (No mix deletes more than 40% of its writes, so 4,000 deletes
        # also mean the 10,000 writes that bar once was.)
        "initial_put_chains": deletes_written(mix, written) >= 4000 and
        flushed + compacted > 0,
        # Probes are one in 20 or 100 puts of visible keys: a thousand
        # writes (deletes included) can hold none, and neither can 11,373
        # into a DB still mostly empty (seed 3103004: 100,000 keys, most
        # puts initial ones to keys not yet written).
        "initial_put_contract": written >= 30000,
        # The leveled picker serves size-triggered work before density
        # candidates, and a last-level file only once no snapshot needs its
        # tombstones: a DB that faults slow down (seed 51002: 9,332 keys in
        # an invocation, 27 MB compacted, no pick) can stay over its size
        # targets the whole time. Density needs deletes, not writes: a
        # read-heavy kill-point invocation of 6 s (seed 2111008: 11,989
        # keys written, about 2,600 of them deletes) picked nothing.
        "tombstone_picks": deletes_written(mix, written) >= 4000 and compacted > 0,
        # Every version a compaction installs is ranked, but a ranking counts
        # only next-level files that straddle a file's range, and a DB can
        # hold its data in L0 and the last level alone (seed 3201006:
        # dynamic level bytes, 85 MB compacted, 40 straddling files met,
        # all written without filters before the invocation). Judged once
        # the rankings met 100 straddling files, counted either way; that
        # the ranking is reached at all is the unit and differential tests'
        # (overlap_by_keys_test, DifferentialTest.CompactionOverlapByKeys).
        "overlap_by_keys": compacted > 0 and
        sum((activity or {}).get(k, 0) for k in ("from_filter", "whole_file")) >= 100,
        # One call in secondary_delete_one_in ops of a thread (at most one in
        # 5,000): ten thousand writes mean a few calls at the least.
        "secondary_deletes": written >= 10000,
        # A block is judged only where a live tombstone meets a tiled table
        # a compaction or a lookup opens.
        "delete_tiles": written >= 10000 and compacted > 0,
    }[feature]


def expected_state_test(p):
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
    # A hit whose data block is not cached reads that block (db_stress's
    # reads verify checksums), so neither mmap reads of uncompressed tables
    # (read in place, never cached) nor fill_cache=0 keep hits away.
    # With use_multiget every point read is a MultiGet, and with
    # check_multiget_consistency (upstream's default) each takes an explicit
    # snapshot: nothing is remembered (seed 2401004: 1,593,829 lookups, 0
    # populated; the same flags with the check off populate). With
    # use_multi_get_entity, which db_stress prefers over every other point
    # read, each MultiGetEntity takes a snapshot whatever the flags say
    # (seed 3101010: 191,805 lookups, 0 hits; the same command without it
    # hit 54,406 times).
    snapshot_reads = p.get("use_multi_get_entity") or (
        p.get("use_multiget") and p.get("check_multiget_consistency", 1))
    if p.get("location_cache") and p.get("readpercent", 0) > 0 and not udt \
            and not read_callback and expected_state_test(p) and plain_values \
            and not snapshot_reads:
        # With DeleteRange in the mix too: a flushed range tombstone costs
        # only the hits on the keys it covers (location_range_tombstones.h).
        c["location_cache"] = "hits"
    # With craft_min_level above 0 only tables that compactions write at or
    # below that level get a filter, which an invocation may never reach
    # (seed 3102010: universal compaction on one level, min_level 1, not a
    # filter written): unjudged.
    if p.get("craft_range_filter") and p.get("iterpercent", 0) > 0 and \
            p.get("lodestone_short_bounds_one_in", 0) > 0 and not udt and \
            not p.get("craft_min_level", 0):
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
        # A chain is pruned only with no snapshot between its put and its
        # delete. db_stress taking a snapshot every few hundred ops per
        # thread and holding it pins nearly every chain: over seed 2911's
        # runs, invocations with acquire_snapshot_one_in=100 pruned 0-168
        # chains each (whitebox seeds 2911008 and 2911009: none), those
        # with 10,000 pruned 42-3,295.
        # Through a TransactionDB chains are pruned too rarely to judge: in
        # blackbox_txn seed 1005 (delete_heavy, 7,000-30,000 writes per
        # invocation) two invocations pruned 6 chains in one run and 0 in
        # two others, where blackbox_write_faults' pruned 340. Such runs
        # still prune and are verified; only their activity is not judged.
        frequent_snapshots = 0 < p.get("acquire_snapshot_one_in", 0) < 1000
        if p.get("delpercent", 0) > 0 and not frequent_snapshots and \
                not p.get("use_txn"):
            c["initial_put_chains"] = "chains_pruned"
    if p.get("put_initial_violation_one_in", 0) > 0 and p.get("writepercent", 0) > 0:
        c["initial_put_contract"] = "refused"
    if (p.get("tombstone_density_trigger", 0) > 0 or
            p.get("delete_persistence_threshold", 0) > 0) and \
            p.get("compaction_style", 0) == 0 and p.get("delpercent", 0) > 0:
        c["tombstone_picks"] = "picks"
    # Ranked by keys only with the leveled picker's default priority
    # (kMinOverlappingRatio), every table carrying a filter, and table
    # readers the files hold (db_stress's open_files, max_open_files, -1):
    # otherwise next-level files count whole, as upstream counts them. Files
    # an earlier invocation wrote without filters count whole too; the
    # compactions of a claiming invocation write files with them, which the
    # rankings of the versions they install count by keys.
    if p.get("compaction_overlap_by_keys") and p.get("craft_range_filter") and \
            not p.get("craft_min_level", 0) and not udt and \
            p.get("compaction_style", 0) == 0 and \
            p.get("compaction_pri", 3) == 3 and p.get("open_files", -1) == -1:
        c["overlap_by_keys"] = "from_filter"
    if p.get("secondary_delete_one_in", 0) > 0 and p.get("writepercent", 0) > 0:
        c["secondary_deletes"] = "calls"
        if p.get("delete_tile_blocks", 1) > 1:
            c["delete_tiles"] = "tile_blocks"
    return c
