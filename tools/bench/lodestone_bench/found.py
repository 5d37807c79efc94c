"""What the variants of a scenario read must agree on.

Every read benchmark db_bench reports as "(F of T found)" is compared across
the variants of one repetition and step: variants read the same data (a
shared fill, or the same fill with the same --seed) with the same key
sequence (--seed), so a variant that loses keys, or finds keys it should
not, shows as a different share found and cannot pass as faster.

With the same number of reads T the counts must be equal. Duration-bound
steps read different numbers of keys from the same sequence: the shares
found are then compared with a two-proportion z-test, failing at
|z| > MAX_Z (six standard errors: at a million reads a share 0.1% apart,
far beyond what sampling moves).

A step whose variants read different data on purpose says so in the
scenario with "found_differs": "<why>"; the comparison skips it, and the
report names it."""

import math

MAX_Z = 6.0


def _key(run, index, bench):
    return (run["rep"], run["step"], index, bench["name"])


def compare_found(runs, exempt_steps=()):
    """Returns (failures, compared): failure strings, and how many
    (repetition, step, benchmark) groups of two or more variants were
    compared."""
    groups = {}
    for run in runs:
        for index, bench in enumerate(run["parsed"]["benchmarks"]):
            if bench.get("found") is None or run["step"] in exempt_steps:
                continue
            groups.setdefault(_key(run, index, bench), []).append(
                (run["variant"], bench["found"][0], bench["found"][1]))
    failures = []
    compared = 0
    for (rep, step, _, name), found in sorted(groups.items()):
        if len(found) < 2:
            continue
        compared += 1
        ref_variant, ref_f, ref_t = found[0]
        for variant, f, t in found[1:]:
            why = _differs(ref_f, ref_t, f, t)
            if why:
                failures.append(
                    "rep %d step %s %s: %s found %d of %d, %s found %d of %d (%s)"
                    % (rep, step, name, ref_variant, ref_f, ref_t, variant, f, t,
                       why))
    return failures, compared


def _differs(f1, t1, f2, t2):
    if t1 == t2:
        return None if f1 == f2 else "same reads, different keys found"
    if t1 == 0 or t2 == 0:
        return None
    p1, p2 = f1 / t1, f2 / t2
    pooled = (f1 + f2) / (t1 + t2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / t1 + 1 / t2))
    if se == 0:
        return None if p1 == p2 else "shares found differ"
    z = (p1 - p2) / se
    return None if abs(z) <= MAX_Z else "shares found %.5f vs %.5f, z=%.1f" % (
        p1, p2, z)
