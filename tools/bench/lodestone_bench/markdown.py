"""A results document as Markdown: the ratio table, then the tables of
tables.py, then provenance."""

from .tables import (GET_HISTOGRAM, GET_PERCENTILES, LATENCY_PERCENTILES,
                     get_latency_table, latency_table, per_op_ticker_table,
                     ticker_table, workload_table)


def _fmt_ops(x):
    """Whole operations per second, or three digits below 100 (a
    one-operation step's speed, from its elapsed time)."""
    return "%.0f" % x if x >= 100 else "%.3g" % x


def _fmt_ratio(x):
    return "-" if x is None else "%.3f" % x


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
