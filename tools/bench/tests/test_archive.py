"""The results archive and its generated headline page."""

import json
import os

from lodestone_bench import archive


def _results(name, date, commit, ratio, dirty=False):
    return {
        "scenario": {"name": name, "baseline": "stock",
                     "steps": [{"name": "read"}, {"name": "compact"}]},
        "repetitions": 3,
        "provenance": {"date": date, "git_commit": commit, "git_dirty": dirty},
        "summary": [
            {"step": "read", "benchmark": "readrandom", "variant": "stock",
             "ratio_median": 1.0, "ratio_min": 1.0, "ratio_max": 1.0, "reps": 3},
            {"step": "read", "benchmark": "readrandom", "variant": "lodestone",
             "ratio_median": ratio, "ratio_min": ratio - 0.1,
             "ratio_max": ratio + 0.1, "reps": 3},
            {"step": "compact", "benchmark": "compact", "variant": "lodestone",
             "ratio_median": None, "ratio_min": None, "ratio_max": None, "reps": 3},
        ],
    }


def _archive(tmp_path, results):
    out = tmp_path / ("out_%s_%s" % (results["scenario"]["name"],
                                     results["provenance"]["git_commit"]))
    out.mkdir()
    (out / "results.json").write_text(json.dumps(results))
    (out / "results.md").write_text("tables")
    (out / "plot.png").write_bytes(b"\x89PNG")
    (out / "raw").mkdir()
    return archive.archive(results, str(out), str(tmp_path / "benchmarks"))


def test_a_run_lands_under_its_date_and_commit(tmp_path):
    dest = _archive(tmp_path, _results("smoke", "2026-11-25T10:00:00+00:00", "abc1234", 1.5))
    assert dest == str(tmp_path / "benchmarks" / "2026-11-25_abc1234" / "smoke")
    assert sorted(os.listdir(dest)) == ["results.json", "results.md"]  # no plots


def test_a_run_from_an_uncommitted_tree_is_not_archived(tmp_path):
    dirty = _archive(tmp_path, _results("smoke", "2026-11-25T11:00:00+00:00", "def5678", 1.5,
                                        dirty=True))
    assert dirty is None
    assert not (tmp_path / "benchmarks").exists()


def test_archiving_an_archived_run_leaves_it_as_it_is(tmp_path):
    # scale-report --archive over runs already in the archive archives its
    # inputs again: a copy onto itself, which shutil refuses.
    dest = _archive(tmp_path, _results("smoke", "2026-11-25T10:00:00+00:00", "abc1234", 1.5))
    before = {n: open(os.path.join(dest, n), "rb").read() for n in os.listdir(dest)}
    with open(os.path.join(dest, "results.json")) as f:
        again = archive.archive(json.load(f), dest, str(tmp_path / "benchmarks"))
    assert again == dest
    assert {n: open(os.path.join(dest, n), "rb").read() for n in os.listdir(dest)} == before


def test_the_headline_takes_each_scenarios_newest_run(tmp_path):
    _archive(tmp_path, _results("smoke", "2026-11-25T10:00:00+00:00", "old0001", 1.25))
    _archive(tmp_path, _results("smoke", "2026-11-26T10:00:00+00:00", "new0002", 2.5))
    _archive(tmp_path, _results("queue", "2026-11-24T10:00:00+00:00", "old0001", 3.0))
    page = archive.headline_markdown(str(tmp_path / "benchmarks"),
                                     ["smoke", "queue", "craft_seek"])
    assert "| smoke | read | readrandom | lodestone | 2.500 | 2.400..2.600 | 3 |" in page
    assert "1.250" not in page
    assert "| queue | read | readrandom | lodestone | 3.000 |" in page
    assert "| craft_seek | - | - | - | - | - | - | - | not archived yet |" in page
    # Baseline rows and steps without a ratio are left out.
    assert "| stock |" not in page
    assert "compact" not in page


def test_a_newer_single_repetition_run_does_not_hide_a_claim(tmp_path):
    # A scale sweep runs the scenario as defined once (--reps 1) and
    # archives it: the headline keeps the last run that backs a claim.
    _archive(tmp_path, _results("smoke", "2026-11-26T10:00:00+00:00", "s000001", 1.0))
    _archive(tmp_path, _results("queue", "2026-11-25T10:00:00+00:00", "q000001", 3.0))
    sweep = _results("queue", "2026-11-27T10:00:00+00:00", "q000002", 1.5)
    sweep["repetitions"] = 1
    _archive(tmp_path, sweep)
    page = archive.headline_markdown(str(tmp_path / "benchmarks"), ["smoke", "queue"])
    assert "| queue | read | readrandom | lodestone | 3.000 |" in page
    assert "q000002" not in page and "too few repetitions" not in page


def test_the_headline_claims_only_what_was_compared_often_enough(tmp_path):
    _archive(tmp_path, _results("smoke", "2026-11-26T10:00:00+00:00", "s000001", 1.0))
    once = _results("queue", "2026-11-26T10:00:00+00:00", "q000001", 3.0)
    once["repetitions"] = 1
    _archive(tmp_path, once)
    runs = _results("tombstone_runs", "2026-11-26T10:00:00+00:00", "t000001", 1.05)
    # A step that names its binary runs it in every variant: no comparison.
    runs["scenario"]["steps"].append({"name": "scatter", "binary": "lodestone"})
    runs["summary"].append(
        {"step": "scatter", "benchmark": "seekrandom", "variant": "lodestone",
         "ratio_median": 0.9, "ratio_min": 0.9, "ratio_max": 0.9, "reps": 3})
    runs["summary"].append(
        {"step": "read", "benchmark": "seekrandom", "variant": "lodestone",
         "ratio_median": 2.0, "ratio_min": 1.9, "ratio_max": 2.1, "reps": 3})
    _archive(tmp_path, runs)
    page = archive.headline_markdown(str(tmp_path / "benchmarks"),
                                     ["smoke", "queue", "tombstone_runs"])
    assert "| queue | - | - | - | - | - | 1 | - |" in page
    assert "too few repetitions" in page
    assert "scatter" not in page
    # smoke spans 0.900..1.100: 1.05 is noise, 2.0 is a gain.
    assert "(0.900..1.100)" in page
    assert "| tombstone_runs | read | readrandom | lodestone | 1.050 | 0.950..1.150 | 3 " \
           "| within noise |" in page
    assert "| tombstone_runs | read | seekrandom | lodestone | 2.000 | 1.900..2.100 | 3 " \
           "| faster |" in page


def test_the_headline_lists_latency_apart_from_throughput(tmp_path):
    results = _results("location_deep", "2026-11-26T10:00:00+00:00", "abc1234", 1.5)
    results["scenario"]["steps"] = [{"name": "read"},
                                    {"name": "read_latency", "latency_of": "read"}]
    results["summary"].append(
        {"step": "read_latency", "benchmark": "readrandom", "variant": "lodestone",
         "ratio_median": 1.4, "ratio_min": 1.3, "ratio_max": 1.5, "reps": 3})
    results["latency"] = [
        {"step": "read_latency", "benchmark": "readrandom", "variant": "stock",
         "P50": 4.0, "P99": 12.0, "P99.9": 30.0, "timing_cost": 0.4},
        {"step": "read_latency", "benchmark": "readrandom", "variant": "lodestone",
         "P50": 2.0, "P50_ratio": 2.0, "P99": 6.0, "P99_ratio": 2.0,
         "P99.9": 10.0, "P99.9_ratio": 3.0, "timing_cost": 0.3}]
    _archive(tmp_path, results)
    page = archive.headline_markdown(str(tmp_path / "benchmarks"), ["location_deep"])
    # Throughput with the histogram's clock reads is not a headline ratio.
    assert "| location_deep | read_latency | readrandom |" not in page
    assert "| location_deep | read_latency | lodestone | 2.00 (2.00) | 6.00 (2.00) | " \
           "10.00 (3.00) | 0.300 |" in page
    assert "| location_deep | read_latency | stock |" not in page


def test_a_scale_table_lands_beside_its_largest_run(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "scale.json").write_text("{}")
    (out / "scale.md").write_text("table")
    (out / "q_ratio_vs_size.png").write_bytes(b"png")
    doc = {"scenario": "q", "runs": [
        {"factor": 1, "provenance": {"date": "2026-11-27T00:54:24", "git_commit": "aaa"}},
        {"factor": 16, "provenance": {"date": "2026-11-27T01:04:43", "git_commit": "bbb"}}]}
    dest = archive.archive_scale(doc, str(out), str(tmp_path / "benchmarks"))
    assert dest == str(tmp_path / "benchmarks" / "2026-11-27_bbb" / "q_scale")
    assert sorted(os.listdir(dest)) == ["scale.json", "scale.md"]
