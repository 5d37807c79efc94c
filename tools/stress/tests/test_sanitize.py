"""Lodestone's sanitizing of db_stress parameters (crashtest/sanitize.py):
the pairs it keeps apart."""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crashtest.sanitize import sanitize_lodestone  # noqa: E402

# Upstream's picks in the fresh-clone CI run that failed (blackbox_write_faults,
# seed 1011, first invocation), as far as the rule reads them.
WAL_FAULTS = {"backup_one_in": 1000, "manual_wal_flush_one_in": 1000,
              "write_fault_one_in": 128,
              "exclude_wal_from_write_fault_injection": 0, "disable_wal": 0,
              "test_batches_snapshots": 0}


def sanitized(**changes):
    return sanitize_lodestone(dict(WAL_FAULTS, **changes))


def test_no_backup_of_a_wal_whose_buffer_a_fault_dropped():
    kept = set()
    for seed in range(40):
        random.seed(seed)
        p = sanitized()
        off = [k for k in ("backup_one_in", "manual_wal_flush_one_in") if p[k] == 0]
        assert len(off) == 1, p
        kept.add(off[0])
    assert kept == {"backup_one_in", "manual_wal_flush_one_in"}, \
        "each of the two stays covered in some runs"


def test_backups_stay_where_wal_writes_cannot_fail():
    for changes in ({"write_fault_one_in": 0},
                    {"exclude_wal_from_write_fault_injection": 1},
                    {"disable_wal": 1, "manual_wal_flush_one_in": 0},
                    {"manual_wal_flush_one_in": 0}):
        p = sanitized(**changes)
        assert p["backup_one_in"] == 1000, changes
