"""What each planted bug's run must say to count as caught
(planted.PLANTED_EXPECT): the messages db_stress prints when the bug's
invariant breaks, and never a failure that names no invariant."""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crashtest.planted import FAILURE_PATTERNS, PLANTED, PLANTED_EXPECT  # noqa: E402


def names_invariant(bug, text):
    return re.search(PLANTED_EXPECT[bug], text) is not None


def test_every_planted_bug_has_an_expected_failure():
    assert set(PLANTED_EXPECT) == set(PLANTED)


def test_initial_put_plant_is_caught_by_each_snapshot_check():
    bug = "initial_put_prune_across_snapshot"
    # The per-key snapshot check and the full-state snapshot check.
    assert names_invariant(bug, "Found inconsistent keys at this snapshot")
    assert names_invariant(bug, "Corruption: The snapshot gave inconsistent "
                                "results for key 0000000000000123")
    # The manual compaction check, which fired first in a fresh-clone CI run
    # at 7cc04fb (that run was counted as not caught before it was listed).
    line = ("Data hash different before and after compact range start_key "
            "00000000000000857878787878 end_key 0000000000000D877878787878 "
            "under specified CompactRangeOptions: exclusive_manual_compaction: 0")
    assert names_invariant(bug, line)
    assert FAILURE_PATTERNS.search(line)


def test_a_failure_naming_no_invariant_is_not_a_catch():
    for bug in PLANTED_EXPECT:
        assert not names_invariant(bug, "Verification failed :(")
        assert not names_invariant(
            bug, "Result incomplete: IO error: injected read error")
