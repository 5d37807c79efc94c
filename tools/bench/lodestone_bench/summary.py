"""Ratios from a results document: each benchmark's speed over repetitions
and its ratio to the baseline, repetition by repetition."""

import statistics


def speed(bench):
    """Operations per second of one db_bench benchmark. A one-operation
    benchmark (compact, waitforcompaction) reports an integer ops/sec that
    rounds a 0.6 s compaction to 1 and a 1.2 s one to 0: its speed comes
    from its elapsed time (micros/op) instead."""
    if bench.get("operations") is not None and bench["operations"] <= 1 \
            and bench.get("micros_per_op"):
        return 1e6 / bench["micros_per_op"]
    return bench["ops_per_sec"]


def summarize(results):
    """Per (step, benchmark, variant): ops/sec over repetitions (speed()),
    and per variant the ratio to the baseline, repetition by repetition."""
    baseline = results["scenario"]["baseline"]
    table = []
    steps = results["scenario"]["steps"]
    variants = list(results["scenario"]["variants"])
    for step in steps:
        # Benchmark names in the order the baseline ran them.
        names = []
        for run in results["runs"]:
            if run["step"] == step["name"] and run["variant"] == baseline:
                for b in run["parsed"]["benchmarks"]:
                    if b["name"] not in names:
                        names.append(b["name"])
        for name in names:
            per_variant = {}
            for variant in variants:
                per_rep = {}
                for run in results["runs"]:
                    if run["step"] != step["name"] or run["variant"] != variant:
                        continue
                    for b in run["parsed"]["benchmarks"]:
                        if b["name"] == name:
                            per_rep[run["rep"]] = speed(b)
                per_variant[variant] = per_rep
            base = per_variant.get(baseline, {})
            for variant in variants:
                ops = per_variant[variant]
                if not ops:
                    continue
                ratios = [ops[r] / base[r] for r in sorted(ops)
                          if r in base and base[r] > 0]
                row = {
                    "step": step["name"],
                    "benchmark": name,
                    "variant": variant,
                    "ops_median": statistics.median(ops.values()),
                    "ops_min": min(ops.values()),
                    "ops_max": max(ops.values()),
                    "ratio_min": min(ratios) if ratios else None,
                    "ratio_median": statistics.median(ratios) if ratios else None,
                    "ratio_max": max(ratios) if ratios else None,
                    "reps": len(ops),
                }
                table.append(row)
    return table
