"""`rejudge`: finished runs judged again with today's claims."""

import glob
import json
import os
import sys

from .claims import claims_of
from .judge import never_judged, summarize_run


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
    enabled = {}
    claimed_per_run = []
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
        run_failures, claimed, _ = summarize_run(result, log_path)
        claimed_per_run.append(claimed)
        for inv in result["invocations"]:
            for f in inv["claims"]:
                enabled[f] = enabled.get(f, 0) + 1
        failures += run_failures
        print("   %s" % ("FAILED: " + "; ".join(run_failures)
                          if run_failures else "passed"))
    whole_run = never_judged(enabled, claimed_per_run)
    for f in whole_run:
        print("   FAILED: " + f)
    failures += whole_run
    print("%d runs, %d failures" % (len(results), len(failures)))
    return 1 if failures else 0
