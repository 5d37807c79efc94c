"""Variants must agree on what they found (lodestone_bench/found.py)."""

from lodestone_bench.found import compare_found


def run(variant, found, total, rep=0, step="gets", name="readrandom"):
    return {"rep": rep, "variant": variant, "step": step,
            "parsed": {"benchmarks": [{"name": name, "found": [found, total]}]}}


def test_same_reads_must_find_the_same_keys():
    failures, compared = compare_found([run("stock", 900, 1000),
                                        run("lodestone", 899, 1000)])
    assert compared == 1
    assert len(failures) == 1 and "same reads, different keys found" in failures[0]
    assert compare_found([run("stock", 900, 1000),
                          run("lodestone", 900, 1000)]) == ([], 1)


def test_duration_bound_reads_compare_shares():
    # 2 M and 2.5 M reads of one key sequence: shares a sampling apart pass.
    close = [run("stock", 1_800_400, 2_000_000), run("lodestone", 2_249_800, 2_500_000)]
    assert compare_found(close) == ([], 1)
    # A variant that lost 1% of the keys does not.
    lost = [run("stock", 1_800_000, 2_000_000), run("lodestone", 2_227_500, 2_500_000)]
    failures, _ = compare_found(lost)
    assert len(failures) == 1 and "z=" in failures[0]


def test_groups_are_per_repetition_and_step_and_exempt_steps_are_skipped():
    runs = [run("stock", 10, 100, rep=0), run("lodestone", 10, 100, rep=1),
            run("stock", 5, 100, step="own_data"),
            run("lodestone", 7, 100, step="own_data")]
    assert compare_found(runs, exempt_steps={"own_data": "why"}) == ([], 0)
    failures, compared = compare_found(runs)
    assert compared == 1 and len(failures) == 1
