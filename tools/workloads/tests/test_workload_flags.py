"""db_bench's Lodestone flags (tools/workloads/workload_options.cc) reach
the DB it opens: each feature set by a flag shows in the OPTIONS file the DB
writes and does its work, so a benchmark that names a feature measures it.
(Regression: ConfigureWorkloadOptions once ran after db_bench had opened
the DB, and --craft_range_filter set nothing the DB saw at open.)

  pytest tools/workloads/tests --db_bench=build/test/rocksdb/db_bench
"""

import glob
import os
import re
import subprocess

import pytest


def run(db_bench, db, *flags):
    out = subprocess.run(
        [db_bench, "--db=" + db, "--statistics", "--num=50000",
         "--reads=5000", "--write_buffer_size=262144",
         "--progress_reports=false", "--seed=7"] + list(flags),
        capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout + out.stderr


def ticker(output, name):
    m = re.search(re.escape(name) + r" COUNT : (\d+)", output)
    assert m, "no ticker " + name
    return int(m.group(1))


def options_file(db):
    files = sorted(glob.glob(os.path.join(db, "OPTIONS-*")))
    assert files, "no OPTIONS file in " + db
    with open(files[-1]) as f:
        return f.read()


@pytest.mark.parametrize("spelling", [
    ["--craft_range_filter=true", "--craft_range_hash_bits=14"],
    ["--range_filter=id=craft;range_hash_bits=14"],
])
def test_a_range_filter_flag_writes_filters_that_seeks_ask(db_bench, tmp_path, spelling):
    db = str(tmp_path / "db")
    rc, out = run(db_bench, db, "--benchmarks=fillrandom,flush,seekrandom",
                  "--max_scan_distance=2", *spelling)
    assert rc == 0, out
    assert "range_filter={id=craft;range_hash_bits=14;}" in options_file(db)
    assert ticker(out, "rocksdb.craft.filter.checked") > 0
    assert ticker(out, "rocksdb.craft.filter.empty") > 0


def test_a_location_cache_flag_serves_gets(db_bench, tmp_path):
    db = str(tmp_path / "db")
    rc, out = run(db_bench, db, "--benchmarks=fillrandom,flush,readrandom,readrandom",
                  "--location_cache=1M")
    assert rc == 0, out
    assert "location_cache=capacity=1048576" in options_file(db)
    assert ticker(out, "rocksdb.location.cache.hit") > 0


def test_tombstone_flags_reach_the_column_family(db_bench, tmp_path):
    first = str(tmp_path / "first")
    rc, out = run(db_bench, first, "--benchmarks=fillrandom",
                  "--delete_persistence_threshold=60",
                  "--tombstone_density_trigger=0.5",
                  "--min_tombstones_for_range_conversion=8")
    assert rc == 0, out
    settings = ["delete_persistence_threshold=60", "tombstone_density_trigger=0.5",
                "min_tombstones_for_range_conversion=8"]
    text = options_file(first)
    assert all(s in text for s in settings), text

    # A flag changes the options only when given: db_bench's flag defaults
    # must not undo what --options_file sets.
    files = sorted(glob.glob(os.path.join(first, "OPTIONS-*")))
    second = str(tmp_path / "second")
    rc, out = run(db_bench, second, "--benchmarks=fillrandom",
                  "--options_file=" + files[-1],
                  "--tombstone_density_trigger=0.25")
    assert rc == 0, out
    settings[1] = "tombstone_density_trigger=0.25"
    text = options_file(second)
    assert all(s in text for s in settings), text


def test_an_unknown_range_filter_is_refused(db_bench, tmp_path):
    rc, out = run(db_bench, str(tmp_path / "db"), "--benchmarks=fillrandom",
                  "--range_filter=bloomy")
    assert rc != 0
    assert "bloomy" in out
