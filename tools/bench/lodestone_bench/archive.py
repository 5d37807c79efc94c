"""The results archive and the headline page generated from it.

Layout (in the repository, so results travel with the code they measured):

  benchmarks/<run id>/<scenario>/results.json   the whole results document
  benchmarks/<run id>/<scenario>/results.md     its tables
  benchmarks/README.md                          generated: the headline table

A run id is "<UTC date>_<commit>", taken from the results' provenance, so
that every scenario of one main job lands in one directory. Results from a
working tree with uncommitted changes are not archived: nobody could
rebuild what they measured. Archived runs are never
rewritten; the headline page takes, for each headline scenario, the newest
archived run of it with enough repetitions to make a claim."""

import glob
import json
import os
import shutil

from . import summary


def _compact(results):
    """The results document without what a run did not touch (tickers and
    histograms at zero: most of upstream's hundreds), so that the archive
    grows by what was measured."""
    out = dict(results)
    runs = []
    for run in results.get("runs", []):
        run = dict(run)
        parsed = dict(run.get("parsed") or {})
        if "tickers" in parsed:
            parsed["tickers"] = {k: v for k, v in parsed["tickers"].items() if v}
        if "histograms" in parsed:
            parsed["histograms"] = {k: v for k, v in parsed["histograms"].items()
                                    if v and v.get("COUNT")}
        run["parsed"] = parsed
        runs.append(run)
    out["runs"] = runs
    return out


def run_id(provenance):
    date = (provenance.get("date") or "unknown")[:10]
    commit = provenance.get("git_commit") or "nocommit"
    return "%s_%s" % (date, commit)


def archivable(provenance):
    """Whether results with this provenance may enter the archive: measured
    at a commit, with a clean working tree."""
    return bool(provenance.get("git_commit")) and not provenance.get("git_dirty")


def archive(results, out_dir, archive_root):
    """Copies a scenario's results (written to out_dir) into the archive and
    returns the directory it wrote; None, archiving nothing, for results
    that are not archivable."""
    if not archivable(results.get("provenance", {})):
        return None
    dest = os.path.join(archive_root, run_id(results["provenance"]),
                        results["scenario"]["name"])
    if os.path.realpath(out_dir) == os.path.realpath(dest):
        return dest  # Already archived (scale-report over archived runs).
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "results.json"), "w") as f:
        json.dump(_compact(results), f, separators=(",", ":"), sort_keys=True)
    _copy(out_dir, ["results.md"], dest)
    return dest


def _copy(out_dir, names, dest):
    """Copies out_dir's files of these names that exist into dest. Plots are
    not archived: `lodestone_bench.py report` draws them again from
    results.json."""
    for name in names:
        src = os.path.join(out_dir, name)
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(dest, name))


def archive_scale(doc, out_dir, archive_root):
    """Copies a scale table (scale.json and scale.md, written to out_dir by
    `scale` or `scale-report`) into the archive, beside the
    largest factor's run: benchmarks/<run id>/<scenario>_scale/."""
    largest = max(doc["runs"], key=lambda r: r.get("factor", 1))
    if not all(archivable(r.get("provenance", {})) for r in doc["runs"]):
        return None
    dest = os.path.join(archive_root, run_id(largest.get("provenance", {})),
                        doc["scenario"] + "_scale")
    os.makedirs(dest, exist_ok=True)
    _copy(out_dir, ["scale.json", "scale.md"], dest)
    return dest


# A headline claim needs this many repetitions of its run.
HEADLINE_MIN_REPETITIONS = 3


def newest_runs(archive_root, scenarios, min_repetitions=0):
    """For each scenario name, the newest archived results document (by the
    date in its provenance) with at least min_repetitions repetitions; when
    none has that many, the newest of any; None when none is archived. (A
    scale sweep's one-repetition run of a scenario must not hide the last
    run that can back a claim.)"""
    newest = {name: None for name in scenarios}

    def better(results, current):
        if current is None:
            return True
        enough = results.get("repetitions", 0) >= min_repetitions
        current_enough = current.get("repetitions", 0) >= min_repetitions
        if enough != current_enough:
            return enough
        return (results["provenance"].get("date", "") >
                current["provenance"].get("date", ""))

    for path in glob.glob(os.path.join(archive_root, "*", "*", "results.json")):
        with open(path) as f:
            results = json.load(f)
        name = results["scenario"]["name"]
        if name not in newest:
            continue
        results["_archive_dir"] = os.path.relpath(os.path.dirname(path),
                                                  archive_root)
        if better(results, newest[name]):
            newest[name] = results
    return newest


def _compared_steps(results):
    """The steps whose ratio compares stock with Lodestone: not a step that
    names its own binary (it runs that one db_bench in every variant, so
    its ratio compares a binary with itself: a setup step such as
    tombstone_runs' scatter), not a latency step (its throughput carries
    the histogram's clock reads)."""
    return {s["name"] for s in results["scenario"].get("steps", [])
            if "binary" not in s and not s.get("latency_of")}


def _summary(results):
    """The ratio table of a results document, computed again from its runs
    (today's rules, e.g. summary.speed) where the archive kept them."""
    return summary.summarize(results) if results.get("runs") else results.get("summary", [])


def noise_band(results):
    """The smoke run's spread: (lowest, highest) ratio of Lodestone with
    every option off against stock over its rows and repetitions, or None.
    A headline ratio inside it is not a measured difference."""
    if results is None:
        return None
    rows = [r for r in _summary(results) if r["variant"] != results["scenario"]["baseline"]
            and r.get("ratio_min") is not None]
    if not rows:
        return None
    return (min(r["ratio_min"] for r in rows), max(r["ratio_max"] for r in rows))


def verdict(ratio, band):
    if band is None:
        return "-"
    if ratio > band[1]:
        return "faster"
    if ratio < band[0]:
        return "slower"
    return "within noise"


def headline_markdown(archive_root, scenarios):
    """The headline page: per scenario, the median ratio of every compared
    step and variant of its newest archived run of at least
    HEADLINE_MIN_REPETITIONS repetitions, with where it came from
    and whether it lies outside the smoke run's noise band. A run with
    fewer than HEADLINE_MIN_REPETITIONS repetitions makes no claim."""
    runs = newest_runs(archive_root, sorted(set(scenarios) | {"smoke"}),
                       HEADLINE_MIN_REPETITIONS)
    band = noise_band(runs.get("smoke"))
    lines = [
        "# Headline results",
        "",
        "Generated by `tools/bench/lodestone_bench.py headline` from the newest",
        "archived run of each headline scenario (`tools/bench/HEADLINE`); do not",
        "edit. Each run's directory holds its full tables and provenance.",
        "Ratios are variant / baseline ops/s, median over repetitions with",
        "variants alternating (min..max in brackets). \"vs smoke\": whether the",
        "median lies outside the spread of Lodestone with every option off",
        "against stock in the newest smoke run (%s): a ratio inside it is not" % (
            "no smoke run" if band is None else "%.3f..%.3f" % band),
        "a measured difference. Runs with fewer than %d repetitions make no claim." %
        HEADLINE_MIN_REPETITIONS,
        "",
        "| scenario | step | benchmark | variant | ratio median | min..max | reps | vs smoke | run |",
        "|---|---|---|---|---:|---:|---:|---|---|",
    ]
    runs = {name: runs[name] for name in scenarios}
    for name, results in runs.items():
        if results is None:
            lines.append("| %s | - | - | - | - | - | - | - | not archived yet |" % name)
            continue
        link = "[%s](%s/results.md)" % (results["_archive_dir"].split(os.sep)[0],
                                        results["_archive_dir"])
        reps = results.get("repetitions", 0)
        if reps < HEADLINE_MIN_REPETITIONS:
            lines.append("| %s | - | - | - | - | - | %d | - | %s: too few repetitions |" % (
                name, reps, link))
            continue
        table = _summary(results)
        baseline = results["scenario"]["baseline"]
        compared = _compared_steps(results)
        for row in table:
            if row["variant"] == baseline or row.get("ratio_median") is None \
                    or row["step"] not in compared:
                continue
            lines.append("| %s | %s | %s | %s | %.3f | %.3f..%.3f | %d | %s | %s |" % (
                name, row["step"], row["benchmark"], row["variant"],
                row["ratio_median"], row["ratio_min"], row["ratio_max"],
                row.get("reps", reps),
                "-" if name == "smoke" else verdict(row["ratio_median"], band), link))
    latency = [(name, results, row) for name, results in runs.items() if results
               for row in results.get("latency", [])
               if row["variant"] != results["scenario"]["baseline"]]
    if latency:
        lines += [
            "",
            "Latency per operation (db_bench --histogram, microseconds, median",
            "over repetitions; baseline / variant in brackets, above 1 is faster;",
            "histogram cost: what its clock reads add to each operation).",
            "",
            "| scenario | step | variant | P50 | P99 | P99.9 | histogram cost | run |",
            "|---|---|---|---:|---:|---:|---:|---|",
        ]
        for name, results, row in latency:
            cells = []
            for p in ("P50", "P99", "P99.9"):
                ratio = row.get(p + "_ratio")
                cells.append("-" if row.get(p) is None else "%.2f%s" % (
                    row[p], "" if ratio is None else " (%.2f)" % ratio))
            lines.append("| %s | %s | %s | %s | %s | [%s](%s/results.md) |" % (
                name, row["step"], row["variant"], " | ".join(cells),
                "-" if row.get("timing_cost") is None else "%.3f" % row["timing_cost"],
                results["_archive_dir"].split(os.sep)[0], results["_archive_dir"]))
    lines.append("")
    return "\n".join(lines)
