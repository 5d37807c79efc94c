"""Scenario data, db_bench command lines, ratio summaries and outputs."""

import json

import pytest

from lodestone_bench import markdown, plots, summary, runner
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
    table = summary.summarize(fake_results())
    row = [r for r in table if r["variant"] == "lodestone"][0]
    assert row["ratio_min"] == pytest.approx(0.9)
    assert row["ratio_median"] == pytest.approx(1.1)
    assert row["ratio_max"] == pytest.approx(2.0)
    assert row["ops_median"] == 100.0
    base = [r for r in table if r["variant"] == "stock"][0]
    assert base["ratio_median"] == 1.0


def test_markdown_and_plots(tmp_path):
    results = fake_results()
    table = summary.summarize(results)
    md = markdown.markdown(results, table)
    assert "| read | readrandom | lodestone |" in md
    pngs = plots.plot(results, table, str(tmp_path / "t"))
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


def _fake_db_bench(tmp_path):
    """A fake db_bench and its call log: "fill" writes a marker into its DB,
    "read" fails unless the marker is there; every call is logged as
    "<benchmarks> <db>"."""
    calls = tmp_path / "calls.log"
    fake = tmp_path / "db_bench"
    fake.write_text("""#!/bin/sh
db=""; bench=""
for a in "$@"; do
  case "$a" in --db=*) db="${a#--db=}";; --benchmarks=*) bench="${a#--benchmarks=}";; esac
done
echo "$bench $db" >> %s
mkdir -p "$db"
if [ "$bench" = fill ]; then echo filled > "$db/marker"; fi
if [ "$bench" = read ] && [ ! -f "$db/marker" ]; then exit 1; fi
echo "$bench :       1.000 micros/op 1000 ops/sec 1.000 seconds 1000 operations;"
""" % calls)
    fake.chmod(0o755)
    return fake, calls


def test_shared_fill_runs_once_and_every_variant_reads_a_copy(tmp_path):
    fake, calls = _fake_db_bench(tmp_path)
    scenario = {
        "name": "shared", "baseline": "stock",
        "variants": {"stock": {"binary": "stock"},
                     "lodestone": {"binary": "lodestone"}},
        "shared_fill": {"variant": "lodestone", "steps": 1},
        "steps": [{"name": "fill", "benchmarks": "fill"},
                  {"name": "read", "benchmarks": "read"}],
    }
    validate(scenario)
    binaries = {"stock": str(fake), "lodestone": str(fake)}
    runs = runner.run_scenario(scenario, binaries, 2, str(tmp_path / "out"),
                               str(tmp_path / "db"), allow_debug=True,
                               log=lambda *a: None)
    lines = calls.read_text().split("\n")
    fills = [l for l in lines if l.startswith("fill ")]
    reads = [l for l in lines if l.startswith("read ")]
    assert len(fills) == 2 and all(l.endswith("shared-shared") for l in fills)
    assert len(reads) == 4
    assert sorted(r["variant"] for r in runs) == ["lodestone", "lodestone",
                                                   "stock", "stock"]
    assert all(r["step"] == "read" for r in runs)
    with pytest.raises(ScenarioError):
        validate(dict(scenario, shared_fill={"variant": "lodestone",
                                             "steps": 2}))

    # "once": one fill for every repetition.
    calls.write_text("")
    scenario["shared_fill"]["once"] = True
    validate(scenario)
    runs = runner.run_scenario(scenario, binaries, 3, str(tmp_path / "out2"),
                               str(tmp_path / "db2"), allow_debug=True,
                               log=lambda *a: None)
    lines = calls.read_text().split("\n")
    assert len([l for l in lines if l.startswith("fill ")]) == 1
    assert len([l for l in lines if l.startswith("read ")]) == 6
    assert len(runs) == 6


def test_an_own_fill_variant_writes_its_own_tables(tmp_path):
    fake, calls = _fake_db_bench(tmp_path)
    scenario = {
        "name": "own", "baseline": "stock",
        "variants": {"stock": {"binary": "stock"},
                     "craft": {"binary": "lodestone"},
                     "all": {"binary": "lodestone"}},
        "shared_fill": {"variant": "craft", "steps": 1, "own_fill": ["all"]},
        "steps": [{"name": "fill", "benchmarks": "fill"},
                  {"name": "read", "benchmarks": "read"}],
    }
    validate(scenario)
    runner.run_scenario(scenario, {"stock": str(fake), "lodestone": str(fake)}, 1,
                        str(tmp_path / "out"), str(tmp_path / "db"),
                        allow_debug=True, log=lambda *a: None)
    lines = [l for l in calls.read_text().split("\n") if l]
    fills = sorted(l.rsplit("/", 1)[1] for l in lines if l.startswith("fill "))
    assert fills == ["own-all", "own-shared"]
    with pytest.raises(ScenarioError):
        validate(dict(scenario, shared_fill={"variant": "craft", "steps": 1,
                                             "own_fill": ["craft"]}))

def test_a_checkpoint_links_tables_and_copies_the_rest(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.mkdir()
    (src / "000012.sst").write_text("table")
    (src / "MANIFEST-000005").write_text("manifest")
    (src / "CURRENT").write_text("MANIFEST-000005\n")
    runner.checkpoint(str(src), str(dst))
    assert (dst / "000012.sst").stat().st_ino == (src / "000012.sst").stat().st_ino
    assert (dst / "MANIFEST-000005").stat().st_ino != \
        (src / "MANIFEST-000005").stat().st_ino
    (dst / "MANIFEST-000005").write_text("changed")
    assert (src / "MANIFEST-000005").read_text() == "manifest"
    assert (dst / "CURRENT").read_text() == "MANIFEST-000005\n"
