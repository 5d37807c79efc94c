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


def test_secondary_deletes_only_where_the_expected_state_survives_a_crash():
    for changes in ({"sync_fault_injection": 1}, {"disable_wal": 1},
                    {"manual_wal_flush_one_in": 1000},
                    {"test_batches_snapshots": 1},
                    {"user_timestamp_size": 8}):
        p = sanitized(**dict({"secondary_delete_one_in": 1000, "backup_one_in": 0,
                              "delete_tile_blocks": 4,
                              "manual_wal_flush_one_in": 0}, **changes))
        assert p["secondary_delete_one_in"] == 0, (changes, p)
        assert p["delete_tile_blocks"] == 1, (changes, p)


def test_secondary_deletes_turn_off_the_writes_they_do_not_cover():
    p = sanitized(secondary_delete_one_in=1000, manual_wal_flush_one_in=0,
                  use_put_entity_one_in=5, use_timed_put_one_in=5,
                  enable_blob_files=1, use_attribute_group=1,
                  experimental_mempurge_threshold=5.0)
    assert p["secondary_delete_one_in"] == 1000
    for k in ("use_put_entity_one_in", "use_timed_put_one_in",
              "enable_blob_files", "use_attribute_group",
              "experimental_mempurge_threshold"):
        assert not p[k], (k, p)
