"""The child: one run of upstream's crash test (tools/db_crashtest.py,
imported from the build's upstream tree) with Lodestone's parameters
mixed into each db_stress invocation and every invocation recorded."""

import importlib.util
import json
import os
import random
import shutil
import sys
import time

from .activity import parse_activity
from .claims import claims_of
from .options import (CONFIGS, OP_MIXES, SECONDARY_DELETE_NEEDS,
                      WHITEBOX_FINISH_SECONDS, coverage_params,
                      lodestone_params)
from .sanitize import sanitize_lodestone


def import_upstream(upstream_dir):
    path = os.path.join(upstream_dir, "tools", "db_crashtest.py")
    spec = importlib.util.spec_from_file_location("db_crashtest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _value(v):
    return v() if callable(v) else v


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
        "seed": random.randint(1, 1 << 30),
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
    # Set once an invocation issued secondary deletes: the DB then holds
    # tombstones (until compactions retire them) and opens only with their
    # extractor, so every later invocation of the run keeps it.
    tombstones_possible = []
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
        if _value(p.get("secondary_delete_one_in", 0)) > 0 or \
                tombstones_possible:
            p.update(SECONDARY_DELETE_NEEDS)
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
        if int(dest.get("secondary_delete_one_in", 0) or 0) > 0:
            tombstones_possible.append(True)
        elif tombstones_possible:
            dest["secondary_delete_extractor"] = 1
            dest["delete_tile_blocks"] = 1
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
            "activity": parse_activity(outs),
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
