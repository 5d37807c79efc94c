"""Scenario data, db_bench command lines, ratio summaries and outputs."""

import json
import os

import pytest

from lodestone_bench import report, runner
from lodestone_bench.scenario import (ScenarioError, list_scenarios,
                                      load_scenario, step_command, validate)


def test_every_shipped_scenario_is_valid():
    names = list_scenarios()
    assert "smoke" in names
    for name in names:
        load_scenario(name)


def test_invalid_scenarios_are_rejected():
    with pytest.raises(ScenarioError):
        validate({"name": "x", "variants": {"a": {"binary": "stock"}},
                  "baseline": "b", "steps": [{"name": "s", "benchmarks": "f"}]})
    with pytest.raises(ScenarioError):
        validate({"name": "x", "variants": {"a": {"binary": "mine"}},
                  "baseline": "a", "steps": [{"name": "s", "benchmarks": "f"}]})
    with pytest.raises(ScenarioError):
        load_scenario("no_such_scenario")


def test_flag_precedence():
    scenario = {
        "name": "t", "baseline": "stock",
        "common_flags": {"num": 10, "statistics": True},
        "variants": {"stock": {"binary": "stock", "flags": {"num": 20}},
                     "lodestone": {"binary": "lodestone"}},
        "steps": [{"name": "s", "benchmarks": "readrandom", "flags": {"reads": 5},
                   "variant_flags": {"lodestone": {"reads": 7}}}],
    }
    cmd = step_command("db_bench", scenario, "stock", scenario["steps"][0], "/tmp/db")
    assert "--num=20" in cmd and "--reads=5" in cmd and "--statistics=true" in cmd
    cmd = step_command("db_bench", scenario, "lodestone", scenario["steps"][0], "/tmp/db")
    assert "--num=10" in cmd and "--reads=7" in cmd and "--db=/tmp/db" in cmd


def fake_results():
    scenario = {"name": "t", "baseline": "stock", "description": "",
                "variants": {"stock": {"binary": "stock"},
                             "lodestone": {"binary": "lodestone"}},
                "steps": [{"name": "read", "benchmarks": "readrandom"}]}
    runs = []
    for rep, (s, l) in enumerate([(100.0, 110.0), (100.0, 90.0), (50.0, 100.0)]):
        for variant, ops in (("stock", s), ("lodestone", l)):
            runs.append({"rep": rep, "variant": variant, "step": "read",
                         "parsed": {"benchmarks": [{"name": "readrandom",
                                                    "ops_per_sec": ops}]},
                         "intervals": [(1.0, ops), (2.0, ops)]})
    return {"scenario": scenario, "repetitions": 3, "runs": runs,
            "provenance": {"date": "d", "cpu": "c", "patch_series_sha256": "abc",
                           "builds": {}}}


def test_ratios_are_per_repetition():
    table = report.summarize(fake_results())
    row = [r for r in table if r["variant"] == "lodestone"][0]
    assert row["ratio_min"] == pytest.approx(0.9)
    assert row["ratio_median"] == pytest.approx(1.1)
    assert row["ratio_max"] == pytest.approx(2.0)
    assert row["ops_median"] == 100.0
    base = [r for r in table if r["variant"] == "stock"][0]
    assert base["ratio_median"] == 1.0


def test_markdown_and_plots(tmp_path):
    results = fake_results()
    table = report.summarize(results)
    md = report.markdown(results, table)
    assert "| read | readrandom | lodestone |" in md
    pngs = report.plot(results, table, str(tmp_path / "t"))
    assert len(pngs) == 2
    for p in pngs:
        with open(p, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_refuses_debug_builds(tmp_path):
    build = tmp_path / "build"
    (build / "rocksdb").mkdir(parents=True)
    (build / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=Debug\n")
    binary = str(build / "rocksdb" / "db_bench")
    with pytest.raises(runner.BenchError):
        runner.check_release({"lodestone": binary})
    runner.check_release({"lodestone": binary}, allow_debug=True)


def test_provenance_names_the_patch_series():
    assert len(runner.patch_series_sha256()) == 64
    prov = runner.provenance({})
    assert prov["cpu"] and prov["date"]
    json.dumps(prov)
