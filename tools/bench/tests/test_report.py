"""Ratios and the latency table from a results document."""

import pytest

from lodestone_bench import markdown, scale, summary, tables
from lodestone_bench.scenario import ScenarioError, validate


def _bench(ops, micros, latency=None):
    b = {"name": "readrandom", "ops_per_sec": ops, "micros_per_op": micros,
         "latency": None}
    if latency is not None:
        avg, p50, p99, p999 = latency
        b["latency"] = {"count": 1000, "average": avg, "stddev": 1.0,
                        "percentiles": {"P50": p50, "P99": p99, "P99.9": p999}}
    return b


def _results():
    scenario = {
        "name": "lat", "baseline": "stock",
        "variants": {"stock": {"binary": "stock"}, "lc": {"binary": "lodestone"}},
        "steps": [{"name": "read", "benchmarks": "readrandom,readrandom"},
                  {"name": "read_latency", "benchmarks": "readrandom,readrandom",
                   "latency_of": "read"}],
    }
    runs = []
    for rep in range(3):
        runs += [
            # The first pass (cold) is ignored; the second is the step's.
            {"step": "read", "variant": "stock", "rep": rep, "parsed": {"benchmarks": [
                _bench(100.0, 10.0), _bench(250000.0, 4.0)]}},
            {"step": "read", "variant": "lc", "rep": rep, "parsed": {"benchmarks": [
                _bench(100.0, 10.0), _bench(500000.0, 2.0)]}},
            {"step": "read_latency", "variant": "stock", "rep": rep, "parsed": {
                "benchmarks": [_bench(100.0, 10.0, (9.0, 9.0, 90.0, 900.0)),
                               _bench(200000.0, 4.5, (4.5, 4.0 + rep, 12.0, 30.0))]}},
            {"step": "read_latency", "variant": "lc", "rep": rep, "parsed": {
                "benchmarks": [_bench(100.0, 10.0, (9.0, 9.0, 90.0, 900.0)),
                               _bench(400000.0, 2.5, (2.5, 2.0, 6.0, 10.0))]}},
        ]
    return {"scenario": scenario, "runs": runs, "repetitions": 3}


def test_latency_rows_take_the_warm_pass_and_compare_with_the_baseline():
    rows = tables.latency_table(_results())
    assert [(r["step"], r["variant"]) for r in rows] == [
        ("read_latency", "stock"), ("read_latency", "lc")]
    stock, lc = rows
    assert stock["P50"] == 5.0  # Median of 4, 5, 6 over the repetitions.
    assert stock["P99"] == 12.0 and stock["P99.9"] == 30.0
    assert lc["P50"] == 2.0 and lc["P50_ratio"] == pytest.approx(2.5)
    assert lc["P99_ratio"] == pytest.approx(2.0)
    assert stock["P50_ratio"] == pytest.approx(1.0)


def test_histogram_cost_is_the_difference_with_the_untimed_step():
    rows = tables.latency_table(_results())
    assert rows[0]["timing_cost"] == pytest.approx(0.5)
    assert rows[1]["timing_cost"] == pytest.approx(0.5)


def test_markdown_shows_the_latency_table():
    results = _results()
    md = markdown.markdown(dict(results, provenance={}), summary.summarize(results))
    assert "| read_latency | readrandom | lc | 2.50 (1.80) | 2.00 (2.50) | " \
           "6.00 (2.00) | 10.00 (3.00) | 0.500 |" in md


def _with_get_histograms(results):
    """Adds rocksdb.db.get.micros to the latency step's runs only."""
    for run in results["runs"]:
        if run["step"] != "read_latency":
            continue
        fast = run["variant"] == "lc"
        run["parsed"]["histograms"] = {tables.GET_HISTOGRAM: {
            "P50": 1.0 if fast else 3.0 + run["rep"], "P95": 2.0 if fast else 6.0,
            "P99": 4.0 if fast else 10.0, "P100": 50.0,
            "COUNT": 1000, "SUM": 1500 if fast else 4000}}
    return results


def test_get_latency_rows_come_from_the_get_histogram():
    rows = tables.get_latency_table(_with_get_histograms(_results()))
    # Steps whose runs kept no Get histogram get no row.
    assert [(r["step"], r["variant"]) for r in rows] == [
        ("read_latency", "stock"), ("read_latency", "lc")]
    stock, lc = rows
    assert stock["P50"] == 4.0  # Median of 3, 4, 5 over the repetitions.
    assert stock["average"] == pytest.approx(4.0)
    assert lc["average"] == pytest.approx(1.5)
    assert lc["P50_ratio"] == pytest.approx(4.0)
    assert lc["P99_ratio"] == pytest.approx(2.5)
    assert lc["count"] == 1000


def test_markdown_shows_the_get_latency_table():
    results = _with_get_histograms(_results())
    md = markdown.markdown(dict(results, provenance={}), summary.summarize(results))
    assert "| read_latency | lc | 1000 | 1.50 (2.67) | 1.00 (4.00) | " \
           "2.00 (3.00) | 4.00 (2.50) |" in md
    assert "rocksdb.db.get.micros" not in markdown.markdown(
        dict(_results(), provenance={}), summary.summarize(_results()))


def test_latency_of_must_name_a_step():
    scenario = _results()["scenario"]
    scenario["steps"][1]["latency_of"] = "nowhere"
    with pytest.raises(ScenarioError):
        validate(scenario)


def test_tickers_come_from_the_named_step():
    results = _results()
    for run in results["runs"]:
        run["parsed"]["tickers"] = {"t": 1 if run["step"] == "read" else 2}
    results["scenario"]["tickers"] = ["t"]
    assert [r["t"] for r in tables.ticker_table(results)] == [2, 2]
    results["scenario"]["ticker_step"] = "read"
    assert [r["t"] for r in tables.ticker_table(results)] == [1, 1]


def test_per_op_tickers_divide_by_the_runs_operations():
    results = _results()
    for run in results["runs"]:
        for b in run["parsed"]["benchmarks"]:
            b["operations"] = 1000
        run["parsed"]["tickers"] = {"reads": 500 * (1 + run["rep"])}
    assert tables.per_op_ticker_table(results) == []
    results["scenario"]["per_op_tickers"] = ["reads", "absent"]
    rows = tables.per_op_ticker_table(results)
    assert len(rows) == 4  # two steps, two variants
    assert all(r["reads"] == 0.5 and r["absent"] is None for r in rows)
    results["provenance"] = {}
    assert "| read | stock | 0.500 | - |" in markdown.markdown(results, [])


def test_a_one_operation_step_is_compared_by_elapsed_time():
    # db_bench prints a 0.6 s compaction as 1 ops/sec and a 1.2 s one as 0.
    def compact(micros, ops_per_sec):
        return {"name": "compact", "micros_per_op": micros,
                "ops_per_sec": ops_per_sec, "operations": 1, "latency": None}
    results = {
        "scenario": {"name": "c", "baseline": "stock",
                     "variants": {"stock": {}, "lc": {}},
                     "steps": [{"name": "fill", "benchmarks": "compact"}]},
        "runs": [{"step": "fill", "variant": "stock", "rep": 0,
                  "parsed": {"benchmarks": [compact(600000.0, 1.0)]}},
                 {"step": "fill", "variant": "lc", "rep": 0,
                  "parsed": {"benchmarks": [compact(1200000.0, 0.0)]}}],
        "repetitions": 1, "provenance": {},
    }
    rows = {r["variant"]: r for r in summary.summarize(results)}
    assert rows["lc"]["ratio_median"] == pytest.approx(0.5)
    assert rows["stock"]["ops_median"] == pytest.approx(1 / 0.6)
    assert "| fill | compact | lc | 0.833 | 0.833..0.833 |" in \
        markdown.markdown(results, summary.summarize(results))


def test_scaling_grows_the_named_flags_everywhere():
    from lodestone_bench.scenario import base_name, scaled
    scenario = {"name": "deep", "baseline": "stock",
                "scale": {"flags": ["num", "reads"]},
                "common_flags": {"num": 1000, "cache_size": 64},
                "variants": {"stock": {"binary": "stock", "flags": {"reads": 10}}},
                "steps": [{"name": "read", "benchmarks": "readrandom",
                           "flags": {"reads": 100, "histogram": True},
                           "variant_flags": {"stock": {"num": 7}}}]}
    big = scaled(scenario, 4)
    assert big["name"] == "deep_x4" and base_name(big) == "deep"
    assert big["common_flags"] == {"num": 4000, "cache_size": 64}
    assert big["variants"]["stock"]["flags"]["reads"] == 40
    assert big["steps"][0]["flags"] == {"reads": 400, "histogram": True}
    assert big["steps"][0]["variant_flags"]["stock"]["num"] == 28
    assert scenario["common_flags"]["num"] == 1000  # The original is untouched.
    same = scaled(scenario, 1)
    assert same["name"] == "deep" and base_name(same) == "deep"
    with pytest.raises(ScenarioError):
        scaled(dict(scenario, scale=None), 4)


def test_the_scale_table_follows_each_ratio_across_sizes():
    runs = []
    for factor, ratio in ((1, 2.0), (4, 2.5)):
        results = _results()
        results["scenario"] = dict(results["scenario"], scale_factor=factor,
                                   name="lat" if factor == 1 else "lat_x%d" % factor)
        for run in results["runs"]:
            if run["variant"] == "lc" and run["step"] == "read":
                run["parsed"]["benchmarks"][-1]["ops_per_sec"] = 250000.0 * ratio
        runs.append(results)
    rows = scale.scale_table(runs)
    # The latency step's throughput (histogram on) is left out.
    assert [(r["step"], r["variant"]) for r in rows] == [("read", "lc")]
    assert rows[0]["by_factor"]["1"]["ratio_median"] == pytest.approx(2.0)
    assert rows[0]["by_factor"]["4"]["ratio_median"] == pytest.approx(2.5)
    md = scale.scale_markdown({"scenario": "lat", "rows": rows, "runs": [
        {"name": "lat", "provenance": {}}, {"name": "lat_x4", "provenance": {}}]})
    assert "| read | readrandom | lc | 2.000 (2.000..2.000) | 2.500 (2.500..2.500) |" in md


def test_workload_first_and_last_come_from_the_steady_phase():
    rows = [{"phase": "steady", "p99": 100.0}, {"phase": "steady", "p99": 120.0},
            {"phase": "drain", "p99": 80.0}, {"phase": "idle", "p99": 900.0}]
    results = {"scenario": {"variants": {"v": {}}, "report_columns": ["p99"]},
               "runs": [{"variant": "v", "workload_rows": rows}]}
    assert tables.workload_table(results) == [{"variant": "v", "p99": (100.0, 120.0)}]
    # A report without phases keeps every interval.
    for r in rows:
        del r["phase"]
    assert tables.workload_table(results) == [{"variant": "v", "p99": (100.0, 900.0)}]
