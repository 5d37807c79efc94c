#!/usr/bin/env python3
"""Runs db_bench scenarios on stock RocksDB 9.10.0 and Lodestone side by side.

  lodestone_bench.py list
  lodestone_bench.py run [--scenario smoke] [--reps 3] [--out DIR]
                         [--stock PATH] [--lodestone PATH] [--no-build]
                         [--scale N]
  lodestone_bench.py scale --scenario NAME [--factors 1,4,16] [--reps 1]
  lodestone_bench.py scale-report [--archive] RESULTS.json...
  lodestone_bench.py report RESULTS.json
  lodestone_bench.py archive RESULTS.json...
  lodestone_bench.py headline [--out benchmarks/README.md]
  lodestone_bench.py kafka-cluster [--reps 3] [--regime warm|cold] [--jar DIR] [--out DIR] [--archive]

`run` builds the release and stock db_bench when missing (tools/build.sh),
alternates the variants over fresh DBs, and writes results.json, results.md
and PNG plots to --out (default build/bench/<scenario>); with --archive it
also copies them into the results archive (benchmarks/<date>_<commit>/, see
lodestone_bench/archive.py) and regenerates the headline page from it. A scenario with
"shared_fill": {"variant": V, "steps": N} has V run its first N steps once
per repetition and every variant run the rest on a copy of that DB.

`--scale N` runs a scenario with its data N times as large (the flags its
"scale" entry names, multiplied; results under <scenario>_xN); `scale` runs
one scenario at each factor and writes how each ratio moves with size
(scale.json, scale.md and a ratio-against-size plot in
build/bench/<scenario>_scale/); `scale-report` does the last part from
runs already made.

`kafka-cluster` runs the Kafka Streams applications on an in-process Kafka
cluster (tests/ecosystem/kafka-cluster/run.sh) on stock rocksdbjni, on the
Lodestone jar with Kafka Streams' stores and with Lodestone's stores
(lodestone_bench/cluster.py), and writes results.json and results.md;
with --archive, into benchmarks/<date>_<commit>/kafka_cluster/ too
(kafka_cluster_cold/ for --regime cold: every store behind a 64 KiB block
cache with direct reads)."""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lodestone_bench import (archive, cluster, found, markdown, plots,  # noqa: E402
                             runner, scale, summary, tables)
from lodestone_bench.scenario import (ScenarioError, list_scenarios,  # noqa: E402
                                      base_name, load_scenario, scaled)


ARCHIVE_ROOT = os.path.join(runner.REPO, "benchmarks")
HEADLINE_PAGE = os.path.join(ARCHIVE_ROOT, "README.md")


def headline_scenarios():
    with open(os.path.join(runner.REPO, "tools", "bench", "HEADLINE")) as f:
        return [s for s in f.read().strip().split(",") if s]


def write_headline(path):
    with open(path, "w") as f:
        f.write(archive.headline_markdown(os.path.dirname(path), headline_scenarios()))
    print("wrote %s" % path)


def report_archived(dest):
    if dest is None:
        print("not archived: measured in a working tree with uncommitted "
              "changes (the archive keeps clean commits only)")
    else:
        print("archived in %s" % dest)


def write_outputs(results, out_dir):
    table = summary.summarize(results)
    results["summary"] = table
    results["latency"] = tables.latency_table(results)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    md = markdown.markdown(results, table)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(md)
    try:
        pngs = plots.plot(results, table, os.path.join(out_dir, results["scenario"]["name"]))
    except ImportError:
        # A run's numbers outlive a Python without matplotlib: they are
        # written and archived; `report` draws the plots later.
        print("plots skipped: no matplotlib in this Python (tools/bench.sh "
              "provides one)")
        pngs = []
    print(md)
    print("wrote %s/results.json, results.md, %s" % (out_dir, ", ".join(
        os.path.basename(p) for p in pngs)))


def run_one(scenario, args, out_dir):
    binaries = {
        "stock": runner.locate("stock", args.stock, not args.no_build),
        "lodestone": runner.locate("lodestone", args.lodestone, not args.no_build),
    }
    reps = args.reps or scenario.get("repetitions", 3)
    os.makedirs(out_dir, exist_ok=True)
    runs = runner.run_scenario(scenario, binaries, reps, out_dir,
                               args.db_root, args.allow_debug)
    results = {
        "scenario": scenario,
        "repetitions": reps,
        "provenance": runner.provenance(binaries),
        "runs": runs,
    }
    write_outputs(results, out_dir)
    # Variants that disagree on what they found fail the run, unarchived.
    exempt = {s["name"]: s["found_differs"] for s in scenario["steps"]
              if s.get("found_differs")}
    failures, compared = found.compare_found(runs, exempt)
    print("found: %d read results compared across variants%s" % (
        compared, "".join("; step %s not compared: %s" % kv
                          for kv in sorted(exempt.items()))))
    if failures:
        raise runner.BenchError("variants found different keys:\n  " +
                                "\n  ".join(failures))
    if args.archive:
        report_archived(archive.archive(results, out_dir, ARCHIVE_ROOT))
    return results


def cmd_run(args):
    scenarios = args.scenario.split(",")
    for name in scenarios:
        scenario = scaled(load_scenario(name), args.scale)
        out_dir = args.out or os.path.join(runner.REPO, "build", "bench", scenario["name"])
        if len(scenarios) > 1 and args.out:
            out_dir = os.path.join(args.out, scenario["name"])
        run_one(scenario, args, out_dir)
    if args.archive:
        write_headline(HEADLINE_PAGE)
    return 0


def write_scale(results_list, out_dir, archive_it=False):
    os.makedirs(out_dir, exist_ok=True)
    rows = scale.scale_table(results_list)
    doc = {"scenario": base_name(results_list[0]["scenario"]),
           "runs": [{"name": r["scenario"]["name"],
                     "factor": r["scenario"].get("scale_factor", 1),
                     "provenance": r.get("provenance", {})} for r in results_list],
           "rows": rows}
    with open(os.path.join(out_dir, "scale.json"), "w") as f:
        json.dump(doc, f, indent=1)
    md = scale.scale_markdown(doc)
    with open(os.path.join(out_dir, "scale.md"), "w") as f:
        f.write(md)
    png = scale.plot_scale(doc, os.path.join(out_dir, doc["scenario"]))
    print(md)
    print("wrote %s/scale.json, scale.md, %s" % (out_dir, os.path.basename(png)))
    if archive_it:
        report_archived(archive.archive_scale(doc, out_dir, ARCHIVE_ROOT))


def cmd_scale(args):
    base = load_scenario(args.scenario)
    results_list = []
    for factor in [int(f) for f in args.factors.split(",")]:
        scenario = scaled(base, factor)
        results_list.append(run_one(scenario, args, os.path.join(
            runner.REPO, "build", "bench", scenario["name"])))
    write_scale(results_list, args.out or os.path.join(
        runner.REPO, "build", "bench", base["name"] + "_scale"), args.archive)
    return 0


def cmd_scale_report(args):
    results_list = []
    for path in args.results:
        with open(path) as f:
            results_list.append(json.load(f))
        if args.archive:
            report_archived(archive.archive(
                results_list[-1], os.path.dirname(path), ARCHIVE_ROOT))
    write_scale(results_list, args.out or os.path.join(
        runner.REPO, "build", "bench", base_name(results_list[0]["scenario"]) + "_scale"),
        args.archive)
    return 0


def cmd_archive(args):
    for path in args.results:
        with open(path) as f:
            results = json.load(f)
        report_archived(archive.archive(
            results, os.path.dirname(os.path.abspath(path)), ARCHIVE_ROOT))
    write_headline(HEADLINE_PAGE)
    return 0


def cmd_kafka_cluster(args):
    jar_dir = args.jar or os.path.join(runner.REPO, "build", "bindings", "rocksdb", "java")
    library = os.path.join(runner.REPO, "build", "bindings", "rocksdb", "librocksdb.a")
    if not os.path.isdir(jar_dir):
        raise runner.BenchError("no rocksdbjni jar at %s (tools/build.sh bindings)" % jar_dir)
    name = cluster.REGIMES[args.regime]
    out_dir = args.out or os.path.join(runner.REPO, "build", "bench", name)
    os.makedirs(out_dir, exist_ok=True)
    runs = cluster.run(runner.REPO, jar_dir, args.reps, out_dir, args.regime)
    results = {
        "scenario": {"name": name, "regime": args.regime,
                     "description": "Kafka Streams applications on an in-process "
                                    "Kafka cluster (tests/ecosystem/kafka-cluster), "
                                    "%s regime" % args.regime},
        "repetitions": args.reps,
        "provenance": runner.provenance({"bindings": library}),
        "runs": runs,
        "summary": cluster.summarize(runs),
        "tickers": cluster.tickers(runs),
    }
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    md = cluster.markdown(results)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(md)
    print(md)
    if args.archive:
        report_archived(archive.archive(results, out_dir, ARCHIVE_ROOT))
    return 0


def cmd_report(args):
    with open(args.results) as f:
        results = json.load(f)
    out_dir = args.out or os.path.join(runner.REPO, "build", "bench",
                                       results["scenario"]["name"] + "_report")
    os.makedirs(out_dir, exist_ok=True)
    write_outputs(results, out_dir)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list scenarios")
    r = sub.add_parser("run", help="run scenarios side by side")
    r.add_argument("--scenario", default="smoke", help="name(s), comma-separated, or a JSON path")
    r.add_argument("--reps", type=int, default=0, help="repetitions (default: the scenario's)")
    r.add_argument("--out", default="", help="output directory")
    r.add_argument("--db-root", default=os.environ.get("LODESTONE_BENCH_DB", "/tmp/lodestone-bench"))
    r.add_argument("--stock", default="", help="stock db_bench (default: build/stock)")
    r.add_argument("--lodestone", default="", help="Lodestone db_bench (default: build/release)")
    r.add_argument("--no-build", action="store_true", help="fail instead of building missing binaries")
    r.add_argument("--allow-debug", action="store_true", help=argparse.SUPPRESS)
    r.add_argument("--archive", action="store_true",
                   help="copy the results into benchmarks/ and regenerate its headline page")
    r.add_argument("--scale", type=int, default=1,
                   help="data N times as large (the scenario's \"scale\" flags)")
    sc = sub.add_parser("scale", help="run one scenario at several data sizes")
    sc.add_argument("--scenario", required=True)
    sc.add_argument("--factors", default="1,4,16")
    sc.add_argument("--reps", type=int, default=0, help="repetitions (default: the scenario's)")
    sc.add_argument("--out", default="", help="where scale.{json,md} go")
    sc.add_argument("--db-root", default=os.environ.get("LODESTONE_BENCH_DB", "/tmp/lodestone-bench"))
    sc.add_argument("--stock", default="")
    sc.add_argument("--lodestone", default="")
    sc.add_argument("--no-build", action="store_true")
    sc.add_argument("--allow-debug", action="store_true", help=argparse.SUPPRESS)
    sc.add_argument("--archive", action="store_true",
                    help="also archive each factor's run in benchmarks/")
    scr = sub.add_parser("scale-report", help="ratio against size from existing runs")
    scr.add_argument("results", nargs="+")
    scr.add_argument("--out", default="")
    scr.add_argument("--archive", action="store_true",
                     help="also archive the runs and the scale table in benchmarks/")
    rep = sub.add_parser("report", help="rebuild tables and plots from results.json")
    rep.add_argument("results")
    rep.add_argument("--out", default="",
                     help="where to write them (default build/bench/<scenario>_report:"
                          " an archived run is never rewritten)")
    arc = sub.add_parser("archive", help="copy existing results into benchmarks/")
    arc.add_argument("results", nargs="+")
    kc = sub.add_parser("kafka-cluster", help="Kafka Streams on a Kafka cluster, three ways")
    kc.add_argument("--reps", type=int, default=3)
    kc.add_argument("--jar", default="", help="rocksdbjni jar directory "
                    "(default build/bindings/rocksdb/java)")
    kc.add_argument("--out", default="")
    kc.add_argument("--regime", choices=sorted(cluster.REGIMES), default="warm",
                    help="cold: a 64 KiB block cache per store and direct reads")
    kc.add_argument("--archive", action="store_true",
                    help="copy the results into benchmarks/")
    head = sub.add_parser("headline", help="regenerate the headline page from benchmarks/")
    head.add_argument("--out", default=HEADLINE_PAGE)
    args = p.parse_args(argv)
    try:
        if args.command == "list":
            for name in list_scenarios():
                print(name, "-", load_scenario(name).get("description", ""))
            return 0
        if args.command == "run":
            return cmd_run(args)
        if args.command == "archive":
            return cmd_archive(args)
        if args.command == "scale":
            return cmd_scale(args)
        if args.command == "scale-report":
            return cmd_scale_report(args)
        if args.command == "kafka-cluster":
            return cmd_kafka_cluster(args)
        if args.command == "headline":
            write_headline(args.out)
            return 0
        return cmd_report(args)
    except (ScenarioError, runner.BenchError) as e:
        print("lodestone_bench: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
