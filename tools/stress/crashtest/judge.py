"""Judging a finished run: the activity over its invocations, the features
claimed but idle, invocations that did not finish, and a diagnosis hint
for crash-recovery failures."""

import os
import re

from .activity import activity_for, feature_line, metric
from .claims import CARRIED_OVER, FEATURES, made_progress
from .paths import STRESS_DIR


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
            os.path.join(STRESS_DIR, "trace_prefix.py"),
            os.path.join(expected, "%d.trace" % max(saved)), max(saved),
            recovered, db, " --key " + m.group(1) if m else ""))
    return None


def never_judged(enabled, claimed_per_run):
    """Failures for the features a whole crash test enabled but never judged.

    `enabled` maps a feature to the invocations that enabled it; each
    element of `claimed_per_run` is one configuration's `claimed` (the
    features it judged). An invocation too idle to judge a feature passes
    it, so without this a feature could pass every run unseen."""
    return ["%s: enabled in %d invocation(s) but never judged over the run "
            "(too little progress in each): run longer, or busier parameters "
            "for it" % (f, enabled[f])
            for f in FEATURES
            if f in enabled and not any(f in c for c in claimed_per_run)]


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
                # The floor excuses an idle feature, never hides a busy one:
                # an invocation whose proof metric moved is judged (busy)
                # however little else its DB did.
                busy = metric(f, inv["claims"][f], act[f]) > 0
                if not busy and not made_progress(f, progress, max_key,
                                                  inv["mix"], act[f]):
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
