"""`planted`: a short db_stress run that must fail with a verification
failure while a bug is planted (and, with --control, pass without it)."""

import os
import re
import shutil
import subprocess
import tempfile
import time

from .activity import parse_activity
from .paths import default_stress_cmd


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
    # A CRaFT filter that answers ranges inside every other partition
    # "empty": bounded scans checked against the expected state miss keys.
    "craft_range_filter_false_negative": {
        "craft_range_filter": 1, "craft_partition_size": 256,
        "max_key": 5000, "readpercent": 25, "prefixpercent": 0,
        "writepercent": 35, "delpercent": 5, "delrangepercent": 0,
        "iterpercent": 35, "lodestone_short_bounds_one_in": 2,
        "verify_iterator_with_expected_state_one_in": 1, "flush_one_in": 200,
        "use_merge": 0, "use_put_entity_one_in": 0, "use_timed_put_one_in": 0,
    },
    # A converted tombstone run whose range tombstone covers the live key
    # after the run: reads of that key, checked against the expected state,
    # find it deleted.
    "tombstone_run_conversion_past_the_run": {
        "min_tombstones_for_range_conversion": 2, "max_key": 2000,
        "readpercent": 30, "prefixpercent": 0, "writepercent": 25,
        "delpercent": 20, "delrangepercent": 0, "iterpercent": 25,
        # Iterators checked against the expected state take a snapshot, which
        # converts nothing: one in four, the rest convert.
        "verify_iterator_with_expected_state_one_in": 4, "flush_one_in": 500,
        "use_merge": 0, "use_put_entity_one_in": 0, "use_timed_put_one_in": 0,
    },
}

# What each planted bug's failure must say: the invariant it breaks, as
# db_stress names it (a run that fails for another reason is not a catch).
PLANTED_EXPECT = {
    # A Get served an older value than the expected state allows.
    "location_cache_skip_flush_invalidation":
        r"inconsistent values for key \S+ \(\d+\): Get returns",
    # A Get served a value the expected state says is deleted.
    "location_cache_ignore_range_tombstones":
        r"Get returns \S+, but expected state is \"deleted\"",
    # A snapshot's reads differ from what it read when it was taken: the
    # full-state and per-key snapshot checks, or the manual compaction check
    # that hashes a snapshot's data before and after CompactRange (seen in
    # a fresh-clone CI run at 7cc04fb, where it fired first).
    "initial_put_prune_across_snapshot":
        r"The snapshot gave inconsistent|inconsistent keys at this snapshot|"
        r"Data hash different before and after compact range",
    # A bounded scan that skipped a key the expected state holds.
    "craft_range_filter_false_negative":
        r"Expected state has key \S+, iterator is (at key|invalid)|"
        r"TestIterateAgainstExpected failed: found unexpectedly large",
    # A live key gone: whatever read finds it missing (a scan that skips
    # it, Get, GetEntity or KeyMayExist that says NotFound, the final
    # verification), db_stress says the expected state has it.
    "tombstone_run_conversion_past_the_run":
        r"(?i)expected state has (the )?key|Value not found",
}

PLANTED_COMMON = {
    "column_families": 1, "threads": 4, "ops_per_thread": 200000,
    "destroy_db_initially": 1, "reopen": 0, "write_buffer_size": 1 << 20,
    "max_write_buffer_number": 3, "test_batches_snapshots": 0,
    "value_size_mult": 8, "prefix_size": -1, "sync_fault_injection": 0,
    "lodestone_report_interval_sec": 5, "disable_auto_compactions": 0,
    "enable_compaction_filter": 0, "inplace_update_support": 0,
    # A planted run judges one invariant. db_stress injects read faults by
    # default (1 in 1,000 reads); one in a compaction stops writes with a
    # background error, and the run fails without naming any invariant,
    # which reads as a planted bug not caught (seen in CI: a PutInitial
    # refused with "Result incomplete: IO error: injected read error").
    "read_fault_one_in": 0, "metadata_read_fault_one_in": 0,
}

FAILURE_PATTERNS = re.compile(
    r"Verification failed|inconsistent|Corruption: The snapshot|"
    r"Lodestone verification failed|Verification failure|"
    r"unexpectedly|expected state has key|does not have key|"
    r"Data hash different", re.I)


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
        act = parse_activity(out)
        for f in sorted(act):
            if act[f]:
                print("  lodestone: %s %s" % (f, " ".join(
                    "%s=%d" % kv for kv in act[f].items())))
        names_it = re.search(PLANTED_EXPECT[a.bug], out + err) is not None
        caught = (rc not in (0, None)) and names_it
        lines = [l for l in (err + out).splitlines() if FAILURE_PATTERNS.search(l)]
        print("  %s: rc=%s after %.0fs%s" % (
            "planted" if plant else "control", rc, elapsed,
            " (time limit)" if timed_out else ""))
        for line in lines[:3]:
            print("  failure: " + line[:400])
        if plant and rc not in (0, None) and not names_it:
            # A failure naming no invariant this bug is expected to break:
            # its last words, so that the next one can be told apart.
            tail = [l for l in err.replace("\r", "\n").splitlines()
                    if l.strip() and "lodestone:" not in l][-12:]
            for line in tail:
                print("  stderr: " + line[:400])
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
