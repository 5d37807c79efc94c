"""Ratios as data grows: one scenario run at several scale factors
(`run --scale`), as a table, Markdown and a plot."""

from .summary import summarize


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
