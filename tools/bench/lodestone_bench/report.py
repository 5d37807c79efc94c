"""Ratios, Markdown tables and PNG plots from a results document."""

import statistics


def speed(bench):
    """Operations per second of one db_bench benchmark. A one-operation
    benchmark (compact, waitforcompaction) reports an integer ops/sec that
    rounds a 0.6 s compaction to 1 and a 1.2 s one to 0: its speed comes
    from its elapsed time (micros/op) instead."""
    if bench.get("operations") is not None and bench["operations"] <= 1 \
            and bench.get("micros_per_op"):
        return 1e6 / bench["micros_per_op"]
    return bench["ops_per_sec"]


def summarize(results):
    """Per (step, benchmark, variant): ops/sec over repetitions (speed()),
    and per variant the ratio to the baseline, repetition by repetition."""
    baseline = results["scenario"]["baseline"]
    table = []
    steps = results["scenario"]["steps"]
    variants = list(results["scenario"]["variants"])
    for step in steps:
        # Benchmark names in the order the baseline ran them.
        names = []
        for run in results["runs"]:
            if run["step"] == step["name"] and run["variant"] == baseline:
                for b in run["parsed"]["benchmarks"]:
                    if b["name"] not in names:
                        names.append(b["name"])
        for name in names:
            per_variant = {}
            for variant in variants:
                per_rep = {}
                for run in results["runs"]:
                    if run["step"] != step["name"] or run["variant"] != variant:
                        continue
                    for b in run["parsed"]["benchmarks"]:
                        if b["name"] == name:
                            per_rep[run["rep"]] = speed(b)
                per_variant[variant] = per_rep
            base = per_variant.get(baseline, {})
            for variant in variants:
                ops = per_variant[variant]
                if not ops:
                    continue
                ratios = [ops[r] / base[r] for r in sorted(ops)
                          if r in base and base[r] > 0]
                row = {
                    "step": step["name"],
                    "benchmark": name,
                    "variant": variant,
                    "ops_median": statistics.median(ops.values()),
                    "ops_min": min(ops.values()),
                    "ops_max": max(ops.values()),
                    "ratio_min": min(ratios) if ratios else None,
                    "ratio_median": statistics.median(ratios) if ratios else None,
                    "ratio_max": max(ratios) if ratios else None,
                    "reps": len(ops),
                }
                table.append(row)
    return table


def ticker_table(results):
    """Per variant: the median over repetitions of each ticker the scenario
    lists under "tickers" (from the STATISTICS dump of the step named by
    "ticker_step", by default the last)."""
    names = results["scenario"].get("tickers", [])
    step = results["scenario"].get("ticker_step")
    rows = []
    for variant in results["scenario"]["variants"]:
        per_rep = {}
        for run in results["runs"]:
            if run["variant"] == variant and step in (None, run["step"]):
                per_rep[run["rep"]] = run["parsed"].get("tickers", {})
        if not per_rep:
            continue
        row = {"variant": variant}
        for name in names:
            values = [t.get(name) for t in per_rep.values() if t.get(name) is not None]
            row[name] = statistics.median(values) if values else None
        rows.append(row)
    return rows


def per_op_ticker_table(results):
    """Per (step, variant): each ticker the scenario lists under
    "per_op_tickers" divided by the operations of that step's run (all its
    benchmarks: the DB's Statistics span the whole db_bench process), the
    median over repetitions. Block reads per Get, for example."""
    names = results["scenario"].get("per_op_tickers", [])
    if not names:
        return []
    rows = []
    for step in results["scenario"]["steps"]:
        for variant in results["scenario"]["variants"]:
            per_name = {n: [] for n in names}
            for run in results["runs"]:
                if run["step"] != step["name"] or run["variant"] != variant:
                    continue
                ops = sum(b.get("operations") or 0
                          for b in run["parsed"]["benchmarks"])
                tickers = run["parsed"].get("tickers", {})
                for n in names:
                    if ops > 0 and tickers.get(n) is not None:
                        per_name[n].append(tickers[n] / ops)
            if any(per_name.values()):
                row = {"step": step["name"], "variant": variant}
                for n in names:
                    row[n] = statistics.median(per_name[n]) if per_name[n] else None
                rows.append(row)
    return rows


LATENCY_PERCENTILES = ["P50", "P99", "P99.9"]


def latency_table(results):
    """Per (step, benchmark, variant) whose db_bench run kept a latency
    histogram (--histogram, one clock read per operation, microsecond
    buckets): the median over repetitions of the average and of each of
    LATENCY_PERCENTILES, in microseconds per operation, and each median's
    ratio to the baseline's (baseline / variant: above 1 is faster). A step
    naming another under "latency_of" (the same reads without the histogram)
    also gets the histogram's own cost per operation: the difference of the
    two steps' median microseconds per operation."""
    baseline = results["scenario"]["baseline"]

    def last_run(run, name):
        found = [b for b in run["parsed"]["benchmarks"] if b["name"] == name]
        return found[-1] if found else None  # "readrandom,readrandom": the warm pass

    def micros_per_op(step, name, variant):
        values = [b["micros_per_op"] for b in
                  (last_run(run, name) for run in results["runs"]
                   if run["step"] == step and run["variant"] == variant)
                  if b is not None]
        return statistics.median(values) if values else None

    rows = []
    for step in results["scenario"]["steps"]:
        stats = {}  # (benchmark, variant) -> {"average": [...], "P50": [...]}
        for run in results["runs"]:
            if run["step"] != step["name"]:
                continue
            names = []
            for b in run["parsed"]["benchmarks"]:
                if b["name"] not in names:
                    names.append(b["name"])
            for name in names:
                b = last_run(run, name)
                lat = b.get("latency") or {}
                if "average" not in lat:
                    continue
                per = stats.setdefault((name, run["variant"]), {})
                per.setdefault("average", []).append(lat["average"])
                for p in LATENCY_PERCENTILES:
                    if p in lat.get("percentiles", {}):
                        per.setdefault(p, []).append(lat["percentiles"][p])
        for (name, variant), per in stats.items():
            row = {"step": step["name"], "benchmark": name, "variant": variant}
            for key in ["average"] + LATENCY_PERCENTILES:
                row[key] = statistics.median(per[key]) if per.get(key) else None
            rows.append(row)
        base = {r["benchmark"]: r for r in rows
                if r["step"] == step["name"] and r["variant"] == baseline}
        for row in rows:
            if row["step"] != step["name"]:
                continue
            ref = base.get(row["benchmark"], {})
            for key in ["average"] + LATENCY_PERCENTILES:
                row[key + "_ratio"] = (ref[key] / row[key]
                                       if ref.get(key) and row.get(key) else None)
            timing = None
            if step.get("latency_of"):
                with_hist = micros_per_op(step["name"], row["benchmark"], row["variant"])
                without = micros_per_op(step["latency_of"], row["benchmark"],
                                        row["variant"])
                if with_hist is not None and without is not None:
                    timing = with_hist - without
            row["timing_cost"] = timing
    order = list(results["scenario"]["variants"])
    steps = [s["name"] for s in results["scenario"]["steps"]]
    rows.sort(key=lambda r: (steps.index(r["step"]), r["benchmark"],
                             order.index(r["variant"])))
    return rows


def measured_rows(rows):
    """A workload report's rows of its measured phase: those marked
    "steady" when the report has phases (a queue's drain and idle intervals
    are not the load being compared), else all of them."""
    steady = [r for r in rows if r.get("phase") == "steady"]
    return steady or rows


def workload_table(results):
    """Per variant: first and last values (median over repetitions) of the
    workload CSV columns the scenario lists under "report_columns", over the
    measured phase's intervals."""
    columns = results["scenario"].get("report_columns", [])
    rows = []
    for variant in results["scenario"]["variants"]:
        series = [measured_rows(run["workload_rows"]) for run in results["runs"]
                  if run["variant"] == variant and run.get("workload_rows")]
        if not series:
            continue
        row = {"variant": variant}
        for col in columns:
            firsts = [s[0].get(col) for s in series if s and isinstance(s[0].get(col), float)]
            lasts = [s[-1].get(col) for s in series if s and isinstance(s[-1].get(col), float)]
            row[col] = (statistics.median(firsts) if firsts else None,
                        statistics.median(lasts) if lasts else None)
        rows.append(row)
    return rows


def scale_table(results_list):
    """How each ratio moves with the data's size: per (step, benchmark,
    variant) other than the baseline, the median ratio (min..max) at each
    scale factor of the runs given (results documents of one scenario at
    several factors, from `run --scale`)."""
    rows = {}
    for results in sorted(results_list,
                          key=lambda r: r["scenario"].get("scale_factor", 1)):
        factor = results["scenario"].get("scale_factor", 1)
        baseline = results["scenario"]["baseline"]
        timed = {s["name"] for s in results["scenario"]["steps"] if s.get("latency_of")}
        for r in results.get("summary") or summarize(results):
            if r["variant"] == baseline or r.get("ratio_median") is None \
                    or r["step"] in timed:
                continue
            key = (r["step"], r["benchmark"], r["variant"])
            row = rows.setdefault(key, {"step": key[0], "benchmark": key[1],
                                        "variant": key[2], "by_factor": {}})
            row["by_factor"][str(factor)] = {
                "ratio_median": r["ratio_median"], "ratio_min": r["ratio_min"],
                "ratio_max": r["ratio_max"], "ops_median": r.get("ops_median")}
    return list(rows.values())


def scale_markdown(doc):
    factors = sorted({int(f) for row in doc["rows"] for f in row["by_factor"]})
    lines = [
        "## Scenario `%s` as its data grows" % doc["scenario"],
        "",
        "Median ratio to the baseline (min..max over repetitions) at each data "
        "size, 1 being the scenario as defined; each size is a separate run "
        "(`lodestone_bench.py run --scale N`).",
        "",
        "| step | benchmark | variant | " + " | ".join("x%d" % f for f in factors) + " |",
        "|---|---|---|" + "---:|" * len(factors),
    ]
    for row in doc["rows"]:
        cells = []
        for f in factors:
            cell = row["by_factor"].get(str(f))
            cells.append("-" if cell is None else "%.3f (%.3f..%.3f)" % (
                cell["ratio_median"], cell["ratio_min"], cell["ratio_max"]))
        lines.append("| %s | %s | %s | %s |" % (row["step"], row["benchmark"],
                                                 row["variant"], " | ".join(cells)))
    lines += ["", "Runs: " + ", ".join("%s (%s, %s)" % (
        r["name"], r["provenance"].get("date", "?"),
        r["provenance"].get("git_commit", "?")) for r in doc["runs"]), ""]
    return "\n".join(lines)


def plot_scale(doc, path_prefix):
    """Writes <prefix>_ratio_vs_size.png: one line per step and variant,
    the median ratio (min..max bars) against the scale factor."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for row in doc["rows"]:
        factors = sorted(int(f) for f in row["by_factor"])
        cells = [row["by_factor"][str(f)] for f in factors]
        ys = [c["ratio_median"] for c in cells]
        lo = [c["ratio_median"] - c["ratio_min"] for c in cells]
        hi = [c["ratio_max"] - c["ratio_median"] for c in cells]
        ax.errorbar(factors, ys, yerr=[lo, hi], marker="o", capsize=3,
                    label="%s %s" % (row["step"], row["variant"]))
    ax.set_xscale("log", base=2)
    every = sorted({int(f) for row in doc["rows"] for f in row["by_factor"]})
    ax.set_xticks(every)
    ax.set_xticklabels(["x%d" % f for f in every])
    ax.minorticks_off()
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("data size (x the scenario's)")
    ax.set_ylabel("ratio to baseline (median, min..max)")
    ax.set_title("%s: ratio against data size" % doc["scenario"])
    ax.legend(fontsize=7)
    fig.tight_layout()
    out = path_prefix + "_ratio_vs_size.png"
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _fmt_ops(x):
    """Whole operations per second, or three digits below 100 (a
    one-operation step's speed, from its elapsed time)."""
    return "%.0f" % x if x >= 100 else "%.3g" % x


def _fmt_ratio(x):
    return "-" if x is None else "%.3f" % x


GET_HISTOGRAM = "rocksdb.db.get.micros"
GET_PERCENTILES = ["P50", "P95", "P99"]


def get_latency_table(results):
    """Per (step, variant) whose STATISTICS dump holds GET_HISTOGRAM with
    samples: DB::Get's own latency as the DB times it (a StopWatch around
    each DBImpl::Get: two clock reads, whole microseconds, no benchmark
    loop; stats_level 3 or more), as a server timing its DB::Get calls sees
    it. The median over repetitions of the average and of GET_PERCENTILES,
    and each median's ratio baseline / variant (above 1 is faster)."""
    baseline = results["scenario"]["baseline"]
    rows = []
    for step in results["scenario"]["steps"]:
        per_variant = {}
        for run in results["runs"]:
            if run["step"] != step["name"]:
                continue
            h = run["parsed"].get("histograms", {}).get(GET_HISTOGRAM)
            if not h or not h.get("COUNT"):
                continue
            per = per_variant.setdefault(run["variant"], {})
            per.setdefault("count", []).append(h["COUNT"])
            per.setdefault("average", []).append(h["SUM"] / h["COUNT"])
            for p in GET_PERCENTILES:
                if p in h:
                    per.setdefault(p, []).append(h[p])
        step_rows = []
        for variant in results["scenario"]["variants"]:
            per = per_variant.get(variant)
            if not per:
                continue
            row = {"step": step["name"], "variant": variant}
            for key in ["count", "average"] + GET_PERCENTILES:
                row[key] = statistics.median(per[key]) if per.get(key) else None
            step_rows.append(row)
        ref = next((r for r in step_rows if r["variant"] == baseline), {})
        for row in step_rows:
            for key in ["average"] + GET_PERCENTILES:
                row[key + "_ratio"] = (ref[key] / row[key]
                                       if ref.get(key) and row.get(key) else None)
        rows += step_rows
    return rows


def _value_with_ratio(row, key):
    """"1.23 (0.98)": a latency cell and its ratio to the baseline."""
    if row.get(key) is None:
        return "-"
    ratio = row.get(key + "_ratio")
    return "%.2f" % row[key] + ("" if ratio is None else " (%.2f)" % ratio)


def markdown(results, table):
    scenario = results["scenario"]
    prov = results["provenance"]
    lines = [
        "## Scenario `%s`" % scenario["name"],
        "",
        scenario.get("description", ""),
        "",
        "Ratios are variant / `%s`, per repetition (min / median / max over "
        "%d repetitions, variants alternating)." % (scenario["baseline"],
                                                    results["repetitions"]),
        "",
        "| step | benchmark | variant | ops/s median | ops/s min..max | "
        "ratio min | ratio median | ratio max |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in table:
        lines.append("| %s | %s | %s | %s | %s..%s | %s | %s | %s |" % (
            r["step"], r["benchmark"], r["variant"], _fmt_ops(r["ops_median"]),
            _fmt_ops(r["ops_min"]), _fmt_ops(r["ops_max"]), _fmt_ratio(r["ratio_min"]),
            _fmt_ratio(r["ratio_median"]), _fmt_ratio(r["ratio_max"])))
    tickers = ticker_table(results)
    names = results["scenario"].get("tickers", [])
    if tickers and names:
        lines += ["", "| variant | " + " | ".join(names) + " |",
                  "|---|" + "---:|" * len(names)]
        for row in tickers:
            lines.append("| %s | %s |" % (row["variant"], " | ".join(
                "-" if row[n] is None else "%.0f" % row[n] for n in names)))
    per_op = per_op_ticker_table(results)
    if per_op:
        names = results["scenario"]["per_op_tickers"]
        lines += ["", "Per operation (ticker / operations of the step's db_bench "
                  "run, both passes; median over repetitions):", "",
                  "| step | variant | " + " | ".join(names) + " |",
                  "|---|---|" + "---:|" * len(names)]
        for row in per_op:
            lines.append("| %s | %s | %s |" % (row["step"], row["variant"], " | ".join(
                "-" if row[n] is None else "%.3f" % row[n] for n in names)))
    latency = latency_table(results)
    if latency:
        lines += ["", "Latency per operation in microseconds (db_bench --histogram: "
                  "the time between one operation's end and the next's, so the "
                  "benchmark loop is included; microsecond buckets, interpolated), "
                  "median over repetitions; in brackets `%s` / variant. "
                  "\"histogram cost\": median micros/op with the histogram minus "
                  "without it (the step it measures), the clock reads' own share."
                  % scenario["baseline"], "",
                  "| step | benchmark | variant | average | " +
                  " | ".join(LATENCY_PERCENTILES) + " | histogram cost |",
                  "|---|---|---|---:|" + "---:|" * len(LATENCY_PERCENTILES) + "---:|"]
        for row in latency:
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                row["step"], row["benchmark"], row["variant"],
                _value_with_ratio(row, "average"),
                " | ".join(_value_with_ratio(row, p) for p in LATENCY_PERCENTILES),
                "-" if row["timing_cost"] is None else "%.3f" % row["timing_cost"]))
    gets = get_latency_table(results)
    if gets:
        lines += ["", "`DB::Get` as the DB times it (%s: a StopWatch around each "
                  "Get, two clock reads, whole-microsecond samples interpolated "
                  "within their bucket; no benchmark loop), median over "
                  "repetitions; in brackets `%s` / variant." % (
                      GET_HISTOGRAM, scenario["baseline"]), "",
                  "| step | variant | Gets | average | " +
                  " | ".join(GET_PERCENTILES) + " |",
                  "|---|---|---:|---:|" + "---:|" * len(GET_PERCENTILES)]
        for row in gets:
            lines.append("| %s | %s | %.0f | %s | %s |" % (
                row["step"], row["variant"], row["count"],
                _value_with_ratio(row, "average"),
                " | ".join(_value_with_ratio(row, p) for p in GET_PERCENTILES)))
    work = workload_table(results)
    columns = results["scenario"].get("report_columns", [])
    if work and columns:
        lines += ["", "Workload report, first -> last interval of the steady phase where the report has phases (median over repetitions):", "",
                  "| variant | " + " | ".join(columns) + " |",
                  "|---|" + "---:|" * len(columns)]
        for row in work:
            cells = []
            for c in columns:
                first, last = row[c]
                cells.append("-" if first is None else "%.4g -> %.4g" % (first, last))
            lines.append("| %s | %s |" % (row["variant"], " | ".join(cells)))
    lines += [
        "",
        "Provenance: %s, %s; patch series %s; lodestone build %s; stock build "
        "%s; %s" % (prov.get("date"), prov.get("cpu"),
                    prov.get("patch_series_sha256", "?")[:12],
                    prov.get("builds", {}).get("lodestone", {}).get("build_type"),
                    prov.get("builds", {}).get("stock", {}).get("build_type"),
                    prov.get("git_commit", "")),
        "",
    ]
    return "\n".join(lines)


def plot(results, table, path_prefix):
    """Writes <prefix>_throughput.png (median ops/s with min..max bars per
    benchmark and variant) and, when interval reports exist,
    <prefix>_intervals.png. Returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    variants = list(results["scenario"]["variants"])
    labels = []
    for r in table:
        label = "%s\n%s" % (r["step"], r["benchmark"])
        if label not in labels:
            labels.append(label)
    fig, ax = plt.subplots(figsize=(max(6, 1.8 * len(labels)), 4.5))
    width = 0.8 / max(1, len(variants))
    for i, variant in enumerate(variants):
        xs, ys, lo, hi = [], [], [], []
        for r in table:
            if r["variant"] != variant:
                continue
            x = labels.index("%s\n%s" % (r["step"], r["benchmark"]))
            xs.append(x + (i - (len(variants) - 1) / 2) * width)
            ys.append(r["ops_median"])
            lo.append(r["ops_median"] - r["ops_min"])
            hi.append(r["ops_max"] - r["ops_median"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=variant)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("ops/sec (median, min..max)")
    ax.set_title("%s: throughput" % results["scenario"]["name"])
    ax.legend()
    fig.tight_layout()
    out = path_prefix + "_throughput.png"
    fig.savefig(out, dpi=110)
    plt.close(fig)
    written.append(out)

    columns = results["scenario"].get("report_columns", [])
    workload_runs = [run for run in results["runs"] if run.get("workload_rows")]
    if columns and workload_runs:
        fig, axes = plt.subplots(len(columns), 1, figsize=(8, 2.6 * len(columns)),
                                 squeeze=False)
        for ax, col in zip(axes[:, 0], columns):
            for run in workload_runs:
                xs = [r.get("secs_elapsed") for r in run["workload_rows"]]
                ys = [r.get(col) for r in run["workload_rows"]]
                pts = [(x, y) for x, y in zip(xs, ys)
                       if isinstance(x, float) and isinstance(y, float)]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            label="%s rep%d" % (run["variant"], run["rep"]),
                            linewidth=1)
            ax.set_ylabel(col, fontsize=7)
            ax.legend(fontsize=6)
        axes[-1, 0].set_xlabel("seconds")
        fig.tight_layout()
        out = path_prefix + "_workload.png"
        fig.savefig(out, dpi=110)
        plt.close(fig)
        written.append(out)

    series = [run for run in results["runs"] if run.get("intervals")]
    if series:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for run in series:
            xs = [t for t, _ in run["intervals"]]
            ys = [q for _, q in run["intervals"]]
            ax.plot(xs, ys, label="%s %s rep%d" % (run["variant"], run["step"],
                                                   run["rep"]), linewidth=1)
        ax.set_xlabel("seconds")
        ax.set_ylabel("interval ops/sec")
        ax.set_title("%s: throughput over time" % results["scenario"]["name"])
        ax.legend(fontsize=6)
        fig.tight_layout()
        out = path_prefix + "_intervals.png"
        fig.savefig(out, dpi=110)
        plt.close(fig)
        written.append(out)
    return written
