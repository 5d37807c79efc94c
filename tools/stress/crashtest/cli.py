"""The command line (see tools/stress/lodestone_crashtest.py)."""

import argparse

from .child import child_main
from .options import CONFIGS, PRESETS
from .planted import PLANTED, planted_main
from .rejudge import rejudge_main
from .run import run_main

DESCRIPTION = """Lodestone's crash test: upstream's tools/db_crashtest.py, run unchanged
(imported from the build's upstream tree), with every Lodestone option
randomized per db_stress invocation the way upstream randomizes its own, and
a check that each feature an invocation enables was busy (docs/stress.md).

  lodestone_crashtest.py run [--seed N] [--duration S] [--configs a,b|ci|all]
  lodestone_crashtest.py planted --bug NAME [--seed N] [--max_seconds S]
  lodestone_crashtest.py rejudge --workdir W
  lodestone_crashtest.py list

A run is one upstream crash test (blackbox or whitebox, one of upstream's
test flavours, optional forced faults) under one seed; `run` executes the
chosen configurations one after another, each in its own Python process,
splitting the duration between them."""

def main():
    parser = argparse.ArgumentParser(description=DESCRIPTION,
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
    r.add_argument("--no_top_up", action="store_true",
                   help="no extra run for a feature the configurations "
                        "enabled but never judged (the run then fails)")
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
