"""Parsers for db_bench output: summary lines, latency percentiles, the
STATISTICS dump (tickers and histograms) and the interval report CSV."""

import csv
import re

# fillrandom   :       3.551 micros/op 281562 ops/sec 3.552 seconds 1000000 operations;   31.1 MB/s
_SUMMARY = re.compile(
    r"^(?P<name>[A-Za-z0-9_\[\]\-]+)\s*:\s+(?P<micros>[0-9.]+) micros/op\s+"
    r"(?P<ops>[0-9.]+) ops/sec(?:\s+(?P<seconds>[0-9.]+) seconds)?"
    r"(?:\s+(?P<operations>[0-9]+) operations;)?(?P<rest>.*)$")
_MBPS = re.compile(r"([0-9.]+) MB/s")
_FOUND = re.compile(r"\((\d+) of (\d+) found\)")
_PERCENTILES = re.compile(r"^Percentiles:(.*)$")
_PERCENTILE_ITEM = re.compile(r"(P[0-9.]+):\s*([0-9.]+)")
_HIST_HEADER = re.compile(r"^Microseconds per (\w+):")
_COUNT_LINE = re.compile(
    r"^Count:\s*(\d+)\s+Average:\s*([0-9.]+)\s+StdDev:\s*([0-9.]+)")
_TICKER = re.compile(r"^(rocksdb\.[\w.\-]+) COUNT : (\d+)\s*$")
_HISTOGRAM = re.compile(r"^(rocksdb\.[\w.\-]+) ((?:P[0-9.]+ : [0-9.e+\-]+ )+)"
                        r"COUNT : (\d+) SUM : (\d+)")
_HIST_ITEM = re.compile(r"(P[0-9.]+) : ([0-9.e+\-]+)")


def parse_db_bench(text):
    """Parses one db_bench run's stdout. Returns a dict:
    version, assertions_enabled, benchmarks (list, in order, each with name,
    micros_per_op, ops_per_sec, seconds, operations, mb_per_sec, found,
    latency: {count, average, stddev, percentiles}), tickers, histograms."""
    result = {
        "version": None,
        "assertions_enabled": False,
        "benchmarks": [],
        "tickers": {},
        "histograms": {},
    }
    current = None  # The benchmark whose latency block follows.
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("RocksDB:") and "version" in line:
            result["version"] = line.split("version", 1)[1].strip()
            continue
        if "Assertions are enabled" in line:
            result["assertions_enabled"] = True
            continue
        m = _SUMMARY.match(line)
        if m:
            rest = m.group("rest") or ""
            bench = {
                "name": m.group("name"),
                "micros_per_op": float(m.group("micros")),
                "ops_per_sec": float(m.group("ops")),
                "seconds": float(m.group("seconds")) if m.group("seconds") else None,
                "operations": int(m.group("operations")) if m.group("operations") else None,
                "mb_per_sec": None,
                "found": None,
                "latency": None,
            }
            mb = _MBPS.search(rest)
            if mb:
                bench["mb_per_sec"] = float(mb.group(1))
            found = _FOUND.search(rest)
            if found:
                bench["found"] = [int(found.group(1)), int(found.group(2))]
            result["benchmarks"].append(bench)
            current = bench
            continue
        if _HIST_HEADER.match(line) and current is not None:
            current["latency"] = {"percentiles": {}}
            continue
        m = _COUNT_LINE.match(line)
        if m and current is not None and current["latency"] is not None:
            current["latency"].update(count=int(m.group(1)),
                                      average=float(m.group(2)),
                                      stddev=float(m.group(3)))
            continue
        m = _PERCENTILES.match(line)
        if m and current is not None and current["latency"] is not None:
            current["latency"]["percentiles"] = {
                k: float(v) for k, v in _PERCENTILE_ITEM.findall(m.group(1))}
            continue
        m = _TICKER.match(line)
        if m:
            result["tickers"][m.group(1)] = int(m.group(2))
            continue
        m = _HISTOGRAM.match(line)
        if m:
            hist = {k: float(v) for k, v in _HIST_ITEM.findall(m.group(2))}
            hist["COUNT"] = int(m.group(3))
            hist["SUM"] = int(m.group(4))
            result["histograms"][m.group(1)] = hist
    return result


def parse_report_csv(path_or_lines):
    """Parses db_bench's --report_file CSV (secs_elapsed,interval_qps) into
    a list of (seconds, qps)."""
    if isinstance(path_or_lines, str):
        with open(path_or_lines, newline="") as f:
            lines = f.read().splitlines()
    else:
        lines = list(path_or_lines)
    rows = []
    for row in csv.reader(lines):
        if not row or not row[0].strip() or not row[0].strip()[0].isdigit():
            continue  # The header, or a blank line.
        try:
            rows.append((float(row[0]), float(row[1])))
        except (IndexError, ValueError):
            continue
    return rows


def parse_workload_csv(path):
    """A workload's own interval CSV (header row, then numbers or words):
    a list of dicts, numbers converted where they parse."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for row in rows:
        parsed = {}
        for k, v in row.items():
            try:
                parsed[k] = float(v)
            except (TypeError, ValueError):
                parsed[k] = v
        out.append(parsed)
    return out
