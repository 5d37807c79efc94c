"""The `lodestone: <feature> k=v ...` activity lines db_stress prints
(tools/stress/lodestone_stress_report.cc), parsed and printed."""

import re


def parse_activity(stdout):
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
        "overlap_by_keys": ["from_filter", "whole_file"],
        "secondary_deletes": ["calls", "keys", "retries", "refused", "hidden",
                              "dropped", "retired", "blocks_skipped",
                              "blocks_dropped"],
        "delete_tiles": ["blocks_skipped", "blocks_dropped", "blocks_partial"],
    }[feature]
    return " ".join("%s=%d" % (k, vals.get(k, 0)) for k in keys)


def activity_for(feature, act):
    """The per-feature activity dict out of the db_stress lines."""
    src = {"initial_put_chains": "initial_put",
           "delete_tiles": "secondary_deletes"}.get(feature, feature)
    return act.get(src) or {}


def metric(feature, metric_name, vals):
    if metric_name == "picks":
        return vals.get("density", 0) + vals.get("deadline", 0)
    if metric_name == "tile_blocks":
        # A tile's block judged against a tombstone: skipped or dropped
        # whole, or read under one over part of its delete keys.
        return sum(vals.get(k, 0) for k in
                   ("blocks_skipped", "blocks_dropped", "blocks_partial"))
    return vals.get(metric_name, 0)
