"""A results document as PNG plots (matplotlib, imported when a plot is
drawn)."""


def plot(results, table, path_prefix):
    """Writes <prefix>_throughput.png (median ops/s with min..max bars per
    benchmark and variant) and, when interval reports exist,
    <prefix>_intervals.png. Returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    variants = list(results["scenario"]["variants"])
    labels = []
    for r in table:
        label = "%s\n%s" % (r["step"], r["benchmark"])
        if label not in labels:
            labels.append(label)
    fig, ax = plt.subplots(figsize=(max(6, 1.8 * len(labels)), 4.5))
    width = 0.8 / max(1, len(variants))
    for i, variant in enumerate(variants):
        xs, ys, lo, hi = [], [], [], []
        for r in table:
            if r["variant"] != variant:
                continue
            x = labels.index("%s\n%s" % (r["step"], r["benchmark"]))
            xs.append(x + (i - (len(variants) - 1) / 2) * width)
            ys.append(r["ops_median"])
            lo.append(r["ops_median"] - r["ops_min"])
            hi.append(r["ops_max"] - r["ops_median"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=variant)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("ops/sec (median, min..max)")
    ax.set_title("%s: throughput" % results["scenario"]["name"])
    ax.legend()
    fig.tight_layout()
    out = path_prefix + "_throughput.png"
    fig.savefig(out, dpi=110)
    plt.close(fig)
    written.append(out)

    columns = results["scenario"].get("report_columns", [])
    workload_runs = [run for run in results["runs"] if run.get("workload_rows")]
    if columns and workload_runs:
        fig, axes = plt.subplots(len(columns), 1, figsize=(8, 2.6 * len(columns)),
                                 squeeze=False)
        for ax, col in zip(axes[:, 0], columns):
            for run in workload_runs:
                xs = [r.get("secs_elapsed") for r in run["workload_rows"]]
                ys = [r.get(col) for r in run["workload_rows"]]
                pts = [(x, y) for x, y in zip(xs, ys)
                       if isinstance(x, float) and isinstance(y, float)]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            label="%s rep%d" % (run["variant"], run["rep"]),
                            linewidth=1)
            ax.set_ylabel(col, fontsize=7)
            ax.legend(fontsize=6)
        axes[-1, 0].set_xlabel("seconds")
        fig.tight_layout()
        out = path_prefix + "_workload.png"
        fig.savefig(out, dpi=110)
        plt.close(fig)
        written.append(out)

    series = [run for run in results["runs"] if run.get("intervals")]
    if series:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for run in series:
            xs = [t for t, _ in run["intervals"]]
            ys = [q for _, q in run["intervals"]]
            ax.plot(xs, ys, label="%s %s rep%d" % (run["variant"], run["step"],
                                                   run["rep"]), linewidth=1)
        ax.set_xlabel("seconds")
        ax.set_ylabel("interval ops/sec")
        ax.set_title("%s: throughput over time" % results["scenario"]["name"])
        ax.legend(fontsize=6)
        fig.tight_layout()
        out = path_prefix + "_intervals.png"
        fig.savefig(out, dpi=110)
        plt.close(fig)
        written.append(out)
    return written
