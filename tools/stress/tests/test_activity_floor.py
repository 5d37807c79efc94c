"""The crash test wrapper's activity bar: which features an invocation must
show working (claims_of), and how much work its DB must have done before an
idle feature fails the run (made_progress)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crashtest import claims  # noqa: E402
from crashtest.judge import never_judged, summarize_run  # noqa: E402


def judged(feature, mix, written):
    """Whether an invocation that wrote `written` keys under `mix`, and
    flushed and compacted, has done enough to judge `feature`."""
    progress = {"keys_written": written, "flush_bytes": 1 << 20,
                "compact_bytes": 1 << 20}
    return claims.made_progress(feature, progress, 10000, mix)


def picks_judged(mix, written):
    return judged("tombstone_picks", mix, written)


def test_tombstone_picks_need_deletes_not_writes():
    # Seed 2111008: a read-heavy kill-point invocation wrote 11,989 keys,
    # about 2,600 of them deletes, and picked nothing; too little to judge.
    assert not picks_judged("read_heavy_range", 11989)
    # The same number of writes under a delete-heavy mix is enough.
    assert picks_judged("delete_heavy", 11989)
    # Read-heavy and upstream mixes are judged once their deletes add up.
    assert picks_judged("read_heavy", 40000)
    assert not picks_judged("upstream", 20000)
    assert picks_judged("upstream", 40000)
    # Verification-only invocations carry no mix: upstream's percentages.
    assert picks_judged("", 40000)


def chains_judged(mix, written):
    return judged("initial_put_chains", mix, written)


def test_initial_put_chains_need_deletes_not_writes():
    # Seed 2611285 (blackbox_faults): a read-heavy invocation wrote 21,942
    # keys, about 3,600 of them deletes, and pruned no chain; too little to
    # judge, as for tombstone picks.
    assert not chains_judged("read_heavy", 21942)
    # Delete-heavy mixes are judged from 10,000 writes, as before.
    assert chains_judged("delete_heavy", 10000)
    assert chains_judged("delete_heavy_range", 10000)
    assert not chains_judged("delete_heavy", 9999)
    assert chains_judged("read_heavy", 24000)


def test_nothing_compacted_is_never_judged():
    progress = {"keys_written": 100000, "compact_bytes": 0}
    assert not claims.made_progress("tombstone_picks", progress, 10000,
                                       "delete_heavy")


def test_deletes_written_follows_the_mix():
    # delete_heavy: 30 writes and 20 deletes in every 50 writing operations.
    assert claims.deletes_written("delete_heavy", 5000) == 2000
    assert claims.deletes_written("upstream", 4000) == 500


def _reads(**overrides):
    p = {"location_cache": "64K", "readpercent": 50, "delpercent": 20,
         "writepercent": 30, "fill_cache": 1, "prepopulate_block_cache": 0,
         "mmap_read": 0, "compression_type": "none"}
    p.update(overrides)
    return p


def test_location_cache_hits_are_claimed_where_blocks_are_not_cached():
    assert claims.claims_of(_reads()).get("location_cache") == "hits"
    # A hit on a block that is not cached reads it: reads that insert no
    # block, and mmap reads of uncompressed tables (never cached), still hit.
    assert claims.claims_of(_reads(fill_cache=0)).get("location_cache") == "hits"
    assert claims.claims_of(_reads(mmap_read=1)).get("location_cache") == "hits"


def test_location_cache_needs_gets_that_tables_answered():
    # Seed 2312001: 671,000 keys read from a nearly empty DB, 161 of them
    # answered by a table; too little to judge the cache's hits.
    empty = {"keys_read": 671421, "flush_bytes": 1 << 20,
             "found_in_tables": 161}
    assert not claims.made_progress("location_cache", empty)
    full = dict(empty, found_in_tables=20000)
    assert claims.made_progress("location_cache", full)


def test_no_location_cache_hits_claimed_where_every_read_takes_a_snapshot():
    # Seed 2401004: use_multiget with check_multiget_consistency, every
    # MultiGet under an explicit snapshot; 1,593,829 lookups, none populated.
    assert "location_cache" not in claims.claims_of(
        _reads(use_multiget=1, check_multiget_consistency=1))
    assert "location_cache" not in claims.claims_of(_reads(use_multiget=1))
    assert claims.claims_of(
        _reads(use_multiget=1, check_multiget_consistency=0)).get(
            "location_cache") == "hits"
    assert claims.claims_of(
        _reads(use_multiget=0, check_multiget_consistency=1)).get(
            "location_cache") == "hits"


def test_no_location_cache_hits_claimed_where_reads_are_multigetentity():
    # Seed 3101010 (whitebox_faults): use_multi_get_entity, which db_stress
    # runs in place of every other point read, always under a snapshot.
    assert "location_cache" not in claims.claims_of(
        _reads(use_multi_get_entity=1, check_multiget_entity_consistency=0))
    assert "location_cache" not in claims.claims_of(
        _reads(use_multi_get_entity=1, use_multiget=1,
               check_multiget_consistency=0))
    assert claims.claims_of(
        _reads(use_multi_get_entity=0, use_get_entity=1)).get(
            "location_cache") == "hits"


def test_craft_skips_are_claimed_only_where_every_table_gets_a_filter():
    # Seed 3102010 (whitebox_faults): universal compaction with one level
    # and craft_min_level 1, so no table had a filter and no seek was
    # skipped. With min_level above 0, which tables get one depends on the
    # levels an invocation's compactions reach.
    seeks = {"craft_range_filter": 1, "iterpercent": 25,
             "lodestone_short_bounds_one_in": 1}
    assert claims.claims_of(seeks).get("craft") == "skipped"
    assert claims.claims_of(dict(seeks, craft_min_level=0)).get(
        "craft") == "skipped"
    assert "craft" not in claims.claims_of(
        dict(seeks, craft_min_level=1, compaction_style=1, num_levels=1))
    assert "craft" not in claims.claims_of(dict(seeks, craft_min_level=2))


def test_contract_probes_need_writes_to_visible_keys():
    # Seed 3103004 (blackbox_sync0): the run's first invocation wrote 11,373
    # keys into an empty DB of 100,000 keys, most of them initial puts to
    # keys not yet written; probes go to visible keys only (one put in 100
    # there) and none was drawn.
    assert not judged("initial_put_contract", "upstream", 11373)
    assert judged("initial_put_contract", "upstream", 30000)


def test_initial_put_chains_are_not_claimed_under_frequent_snapshots():
    # Seeds 2911008 and 2911009 (whitebox): db_stress took a snapshot every
    # 100 ops per thread and held it 100,000 ops; 7,850-8,046 initial puts
    # and thousands of deletes pruned no chain, as the contract says.
    p = {"put_initial_one_in": 2, "writepercent": 35, "delpercent": 4,
         "acquire_snapshot_one_in": 100, "snapshot_hold_ops": 100000}
    c = claims.claims_of(p)
    assert "initial_put" in c and "initial_put_chains" not in c
    p["acquire_snapshot_one_in"] = 10000
    assert "initial_put_chains" in claims.claims_of(p)
    p["acquire_snapshot_one_in"] = 0
    assert "initial_put_chains" in claims.claims_of(p)


def test_overlap_by_keys_claimed_only_where_rankings_read_filters():
    p = {"compaction_overlap_by_keys": 1, "craft_range_filter": 1,
         "craft_min_level": 0, "compaction_style": 0, "compaction_pri": 3,
         "open_files": -1}
    assert claims.claims_of(p).get("overlap_by_keys") == "from_filter"
    # Without it, under another priority, without every table carrying a
    # filter or without held table readers, files count whole: unclaimed.
    for change in ({"compaction_overlap_by_keys": 0}, {"compaction_pri": 1},
                   {"craft_min_level": 1}, {"craft_range_filter": 0},
                   {"open_files": 100}, {"compaction_style": 1}):
        assert "overlap_by_keys" not in claims.claims_of(dict(p, **change))


def ranked(compacted, from_filter, whole_file):
    return claims.made_progress(
        "overlap_by_keys", {"compact_bytes": compacted}, 10000, None,
        {"from_filter": from_filter, "whole_file": whole_file})


def test_overlap_by_keys_judged_where_rankings_met_straddling_files():
    # Seed 3201006 (blackbox_batched, invocation #2): CRaFT and the option
    # on, 85 MB compacted, but dynamic level bytes kept the data in L0 and
    # the last level: the rankings met 40 straddling files, all written
    # without filters by the invocation before. Too little to judge.
    assert not ranked(85300715, 0, 40)
    # Seed 1 (ctest's crashtest_short, blackbox_simple #3): 2,008
    # straddling files met, 90 of them counted by keys: judged, and busy.
    assert ranked(20000000, 90, 1918)
    # Straddling files met but none counted by keys is judged: idle fails.
    assert ranked(20000000, 0, 1000)
    # Nothing compacted: not judged.
    assert not ranked(0, 0, 5000)


def test_a_feature_never_judged_fails_the_run():
    # craft judged in the second configuration, location_cache enabled
    # twice but too idle to judge each time.
    enabled = {"craft": 3, "location_cache": 2}
    claimed = [{}, {"craft": "checked"}]
    failures = never_judged(enabled, claimed)
    assert len(failures) == 1
    assert failures[0].startswith("location_cache: enabled in 2 invocation(s)")
    # Judged once anywhere is enough; not enabled is no failure.
    assert never_judged({"craft": 1}, [{"craft": "checked"}]) == []
    assert never_judged({}, [{}]) == []


def test_a_busy_feature_is_judged_below_the_floor():
    # Seed 1008 (whitebox_simple): 16,573 keys written, under the contract's
    # 30,000-key floor, yet 1,060 violations refused: judged, and busy.
    inv = {"n": 1, "rc": 0, "seconds": 20, "mix": "delete_heavy",
           "verification_only": False, "kill_random_test": False,
           "killed": False, "claims": {"initial_put_contract": "refused"},
           "context": {"max_key": 10000},
           "activity": {"progress": {"keys_written": 16573},
                        "initial_put_contract": {"refused": 1060}}}
    result = {"config": "whitebox_simple", "seed": 1008, "rc": 0,
              "invocations": [inv]}
    failures, claimed, _ = summarize_run(result, "log")
    assert failures == [] and "initial_put_contract" in claimed
    # The same invocation with nothing refused is below the floor: not
    # judged, so the whole run fails it unless another run judges it.
    inv["activity"]["initial_put_contract"] = {"refused": 0}
    failures, claimed, _ = summarize_run(result, "log")
    assert failures == [] and "initial_put_contract" not in claimed
    assert len(never_judged({"initial_put_contract": 1}, [claimed])) == 1


def test_each_top_up_claims_its_feature():
    # A top-up run's forced settings must make claims_of claim the feature
    # it was run for, or the top-up could never judge it.
    from crashtest.options import TOP_UP
    assert sorted(TOP_UP) == sorted(claims.FEATURES)
    for feature, settings in TOP_UP.items():
        assert feature in claims.claims_of(dict(settings)), feature


def test_delete_tiles_claimed_only_with_tiles_and_secondary_deletes():
    p = {"secondary_delete_one_in": 500, "writepercent": 40,
         "delete_tile_blocks": 8}
    assert claims.claims_of(p).get("delete_tiles") == "tile_blocks"
    assert "delete_tiles" not in claims.claims_of(dict(p, delete_tile_blocks=1))
    assert "delete_tiles" not in claims.claims_of(
        dict(p, secondary_delete_one_in=0))


def test_delete_tiles_busy_only_where_blocks_met_tombstones():
    from crashtest.activity import metric
    assert metric("delete_tiles", "tile_blocks", {}) == 0
    assert metric("delete_tiles", "tile_blocks", {"calls": 5}) == 0
    assert metric("delete_tiles", "tile_blocks", {"blocks_partial": 3}) == 3
    assert metric("delete_tiles", "tile_blocks",
                  {"blocks_skipped": 1, "blocks_dropped": 2}) == 3
