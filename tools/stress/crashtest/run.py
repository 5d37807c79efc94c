"""`run`: the chosen configurations one after another, each a child
process under a deadline, then the summary."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from .activity import feature_line
from .claims import FEATURES
from .judge import never_judged, recovery_diagnosis, summarize_run
from .options import CONFIGS, PRESETS, TOP_UP, WHITEBOX_FINISH_SECONDS
from .paths import ROOT, SCRIPT, default_stress_cmd, default_upstream_dir


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
    enabled = {}  # feature -> invocations that enabled it, over the run
    # (configuration, run seed, --set settings, seconds, top-up feature)
    plan = []
    for c in configs:
        # A run's seed follows from the seed and its configuration alone, so
        # `--configs <c> --seed <seed>` repeats it.
        seen[c] = seen.get(c, -1) + 1
        plan.append((c, a.seed * 1000 + 100 * seen[c] + list(CONFIGS).index(c),
                     list(a.set or []), per_run, None))
    topped_up = set()
    i = 0
    while i < len(plan):
        c, seed, sets, run_seconds, topup = plan[i]
        rundir = os.path.join(workdir, "%02d_%s" % (i, c))
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        log_path = os.path.join(workdir, "%02d_%s.log" % (i, c))
        result_path = os.path.join(workdir, "%02d_%s.json" % (i, c))
        interval = a.interval or max(min(run_seconds // 3, 120), 15)
        deadline = time.time() + run_seconds + interval + 120
        # Past the deadline the child may still verify (upstream's
        # --verify_timeout) or finish a whitebox invocation without kill
        # points.
        grace = max(interval * 4, 300)
        if CONFIGS[c]["test_type"] == "whitebox":
            grace = max(grace, WHITEBOX_FINISH_SECONDS)
        cmd = [sys.executable, SCRIPT, "_child",
               "--config", c, "--seed", str(seed), "--duration", str(run_seconds),
               "--interval", str(interval), "--stress_cmd", stress_cmd,
               "--upstream_dir", upstream_dir, "--workdir", rundir,
               "--result", result_path, "--deadline", str(deadline),
               "--whitebox_ops", str(a.whitebox_ops),
               "--random_kill_odd", str(a.random_kill_odd)]
        for kv in sets:
            cmd += ["--set", kv]
        print("\n== run %d/%d: %s seed=%d %ds (%s)%s" % (
            i + 1, len(plan), c, seed, run_seconds, CONFIGS[c]["about"],
            "; top-up for %s: %s" % (topup, " ".join(sets)) if topup else ""))
        print("   reproduce: %s run --configs %s --seed %d --duration %d "
              "--interval %d" % (os.path.relpath(SCRIPT, ROOT), c, a.seed,
                                 run_seconds, interval))
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
        for inv in result["invocations"]:
            for f in inv["claims"]:
                enabled[f] = enabled.get(f, 0) + 1
        i += 1
        if i == len(plan) and not a.no_top_up:
            # Size the run so that every feature it enabled is judged: one
            # more run, without faults and with the feature's busy settings,
            # for each feature no run judged (at most once each).
            judged = [s[5] for s in summary]
            for f in FEATURES:
                if f in enabled and f not in topped_up and \
                        not any(f in cl for cl in judged):
                    topped_up.add(f)
                    plan.append((
                        "blackbox_simple",
                        a.seed * 1000 + 900 + FEATURES.index(f),
                        list(a.set or []) + ["%s=%s" % kv for kv in
                                             sorted(TOP_UP[f].items())],
                        max(per_run, 60), f))

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
    all_failures += never_judged(enabled, [s[5] for s in summary])
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
