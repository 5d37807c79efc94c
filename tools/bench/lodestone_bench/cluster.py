"""The Kafka cluster measurement: Kafka Streams applications on an
in-process Kafka cluster (tests/ecosystem/kafka-cluster/run.sh), run per
variant and repetition, summarized as each measurement's median and its
ratio to stock's, with the bench tool's provenance, so that the archive
holds it beside the db_bench scenarios.

Variants (run.sh's): stock (stock rocksdbjni, Kafka Streams' stores),
lodestone (the Lodestone jar, Kafka Streams' stores with Lodestone's
options), stores (the Lodestone jar, lodestone-kafka-streams' stores).
Each repetition runs every variant once, the order rotating, so drift
hits all alike. Regimes: warm (Kafka Streams' 50 MiB block cache holds
every store) and cold (ColdRegime: a 64 KiB block cache per store and
direct reads, tables several times larger than the cache, no page cache),
archived under their own names."""

import json
import os
import statistics
import subprocess

VARIANTS = ["stock", "lodestone", "stores"]
NAME = "kafka_cluster"
REGIMES = {"warm": NAME, "cold": NAME + "_cold"}
RUN_SH = os.path.join("tests", "ecosystem", "kafka-cluster", "run.sh")

# Measurements and which way is better (True: higher).
MEASUREMENTS = [
    ("payments_per_second", True),
    ("get_p50_us", False),
    ("get_p99_us", False),
    ("range_p50_us", False),
    ("range_p99_us", False),
    ("empty_range_p50_us", False),
    ("empty_range_p99_us", False),
    ("gap_range_p50_us", False),
    ("gap_range_p99_us", False),
    ("get_p50_us_after_restart", False),
    ("get_p99_us_after_restart", False),
    ("range_p50_us_after_restart", False),
    ("range_p99_us_after_restart", False),
    ("empty_range_p50_us_after_restart", False),
    ("empty_range_p99_us_after_restart", False),
    ("gap_range_p50_us_after_restart", False),
    ("gap_range_p99_us_after_restart", False),
    ("empty_range_data_blocks_read", False),
    ("gap_range_data_blocks_read", False),
    ("empty_range_data_blocks_read_after_restart", False),
    ("gap_range_data_blocks_read_after_restart", False),
    ("failover_restore_ms", False),
    ("failover_restore_us_per_record", False),
    ("data_block_misses", False),
    ("filter_block_misses", False),
    ("store_table_bytes", False),
    ("tombstones_in_tables", False),
]


def run(repo, jar_dir, repetitions, out_dir, regime="warm", log=print):
    """Runs run.sh for every variant and repetition; returns the runs
    ({"rep", "variant", "measured"}). A failed run (a wrong answer, a lost
    or duplicated record) raises CalledProcessError."""
    env = dict(os.environ, LODESTONE_CLUSTER_REGIME=regime)
    runs = []
    for rep in range(repetitions):
        order = VARIANTS[rep % len(VARIANTS):] + VARIANTS[:rep % len(VARIANTS)]
        for variant in order:
            rep_dir = os.path.join(out_dir, "raw", "rep%d" % rep)
            log("[rep %d] %s" % (rep, variant))
            subprocess.run(["bash", os.path.join(repo, RUN_SH), jar_dir, rep_dir,
                            variant], check=True, stdout=subprocess.DEVNULL, env=env)
            with open(os.path.join(rep_dir, variant + ".json")) as f:
                runs.append({"rep": rep, "variant": variant, "measured": json.load(f)})
    return runs


def summarize(runs):
    """Per measurement and variant: min, median, max; per non-stock
    variant, the ratio of its median to stock's (how many times better:
    stock / variant where lower is better)."""
    rows = []
    for key, higher_better in MEASUREMENTS:
        values = {v: [r["measured"][key] for r in runs
                      if r["variant"] == v and key in r["measured"]]
                  for v in VARIANTS}
        medians = {v: statistics.median(x) for v, x in values.items() if x}
        row = {"measurement": key, "higher_is_better": higher_better,
               "values": {v: [min(x), statistics.median(x), max(x)]
                          for v, x in values.items() if x},
               "ratio": {}}
        base = medians.get("stock")
        for v, m in medians.items():
            if v == "stock" or not base or not m:
                continue
            row["ratio"][v] = m / base if higher_better else base / m
        rows.append(row)
    return rows


def tickers(runs):
    """Each variant's tickers from its last repetition."""
    out = {}
    for r in runs:
        out[r["variant"]] = r["measured"].get("tickers", {})
    return out


def markdown(results):
    rows = results["summary"]
    lines = ["# %s: Kafka Streams on a Kafka cluster" % results["scenario"]["name"], "",
             "Medians over %d repetitions (min..max); ratio: times better than "
             "stock (throughput: variant / stock; latency, time, bytes: "
             "stock / variant)." % results["repetitions"], "",
             "| measurement | " + " | ".join(VARIANTS) + " | " +
             " | ".join("%s ratio" % v for v in VARIANTS[1:]) + " |",
             "|---|" + "---|" * (2 * len(VARIANTS) - 1)]

    def cell(x):
        return "%s (%s..%s)" % tuple(
            ("%.0f" % v) if abs(v) >= 10 else ("%.1f" % v) for v in (x[1], x[0], x[2]))

    for row in rows:
        if not row["values"]:
            continue  # Not measured in these runs.
        lines.append("| %s | %s | %s |" % (
            row["measurement"],
            " | ".join(cell(row["values"][v]) if v in row["values"] else "-"
                       for v in VARIANTS),
            " | ".join("%.2fx" % row["ratio"][v] if v in row["ratio"] else "-"
                       for v in VARIANTS[1:])))
    lines += ["", "Tickers (orders store, last repetition):", ""]
    for variant, counts in results["tickers"].items():
        lines.append("- %s: %s" % (variant, ", ".join(
            "%s=%s" % kv for kv in sorted(counts.items()))))
    return "\n".join(lines) + "\n"
