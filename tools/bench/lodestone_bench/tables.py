"""The per-run tables of a results document beside the ratios: tickers,
tickers per operation, latency percentiles (db_bench's histogram and
DB::Get's own), and a workload's CSV report."""

import statistics


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
