"""The bench tool's parsers on db_bench output saved from real runs
(tests/data/, produced by this repo's release and test builds)."""

import os

import pytest

from lodestone_bench import parse

DATA = os.path.join(os.path.dirname(__file__), "data")


def read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def test_release_run_summary_lines():
    r = parse.parse_db_bench(read("db_bench_release.txt"))
    assert r["version"].startswith("9.10")
    assert not r["assertions_enabled"]
    names = [b["name"] for b in r["benchmarks"]]
    assert names == ["fillrandom", "readrandom", "seekrandom"]
    fill, read_, seek = r["benchmarks"]
    assert fill["ops_per_sec"] > 0 and fill["micros_per_op"] > 0
    assert fill["operations"] == 20000
    assert fill["mb_per_sec"] is not None
    assert read_["found"] is not None and read_["found"][1] == 20000
    assert seek["found"] is not None


def test_release_run_latency_and_statistics():
    r = parse.parse_db_bench(read("db_bench_release.txt"))
    fill = r["benchmarks"][0]
    lat = fill["latency"]
    assert lat["count"] == 20000
    assert set(["P50", "P99", "P99.9"]) <= set(lat["percentiles"])
    assert lat["percentiles"]["P50"] <= lat["percentiles"]["P99"]
    # Tickers and histograms from --statistics (cumulative at the end).
    assert r["tickers"]["rocksdb.number.keys.written"] == 20000
    assert "rocksdb.block.cache.hit" in r["tickers"]
    get = r["histograms"]["rocksdb.db.get.micros"]
    assert get["COUNT"] == 20000
    assert get["P50"] <= get["P99"] <= get["P100"]


def test_debug_run_is_flagged():
    r = parse.parse_db_bench(read("db_bench_debug.txt"))
    assert r["assertions_enabled"]
    assert r["benchmarks"][0]["name"] == "fillseq"


def test_interval_report_csv():
    rows = parse.parse_report_csv(os.path.join(DATA, "report.csv"))
    assert len(rows) >= 2
    assert all(qps >= 0 for _, qps in rows)
    assert rows == sorted(rows)  # Elapsed seconds only grow.


def test_garbage_yields_nothing():
    r = parse.parse_db_bench("no benchmark here\nrocksdb.x COUNT : nope\n")
    assert r["benchmarks"] == [] and r["tickers"] == {}
    assert parse.parse_report_csv(["secs_elapsed,interval_qps", "", "x,y"]) == []


@pytest.mark.parametrize("line,name,ops", [
    ("readrandom   :       1.974 micros/op 506472 ops/sec 1.974 seconds "
     "1000000 operations; (632000 of 1000000 found)", "readrandom", 506472),
    ("seekrandom   :      10.000 micros/op 100000 ops/sec 10.000 seconds "
     "1000000 operations; (1000000 of 1000000 found)", "seekrandom", 100000),
])
def test_summary_line_forms(line, name, ops):
    r = parse.parse_db_bench(line)
    assert r["benchmarks"][0]["name"] == name
    assert r["benchmarks"][0]["ops_per_sec"] == ops
