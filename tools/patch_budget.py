#!/usr/bin/env python3
"""Counts the upstream lines the patch series changes and holds them to the
budget in patches/BUDGET (issue: design, patch budget).

Every changed upstream line is a line to carry across each rebase onto a
newer RocksDB. A changed line is a '+' or '-' line inside a hunk of a patch
in patches/series; patch headers (Subject / What / Why) and the '---' /
'+++' file lines do not count.

Fails when the series changes more lines than the budget allows, and when it
changes fewer by more than the slack: a budget that is not lowered when the
series shrinks stops guarding anything.

  tools/patch_budget.py            # check (the test command runs this)
  tools/patch_budget.py --report   # per patch, largest first
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(ROOT, "patches")
SLACK = 40


def series():
    with open(os.path.join(PATCHES, "series")) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def changed_lines(patch_text):
    """'+'/'-' lines inside hunks, after the first 'diff --git'."""
    n = 0
    in_diff = False
    for line in patch_text.splitlines():
        if line.startswith("diff --git "):
            in_diff = True
            continue
        if not in_diff or line.startswith(("+++ ", "--- ")):
            continue
        if line.startswith(("+", "-")):
            n += 1
    return n


def budget():
    """The number on the 'max_changed_lines' line of patches/BUDGET."""
    with open(os.path.join(PATCHES, "BUDGET")) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[0] == "max_changed_lines":
                return int(words[1])
    raise SystemExit("patches/BUDGET has no 'max_changed_lines N' line")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    counts = {}
    for name in series():
        with open(os.path.join(PATCHES, name)) as f:
            counts[name] = changed_lines(f.read())
    total = sum(counts.values())
    limit = budget()
    if args.report:
        for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"{n:6d}  {name}")
    print(f"patch series: {total} changed upstream lines in {len(counts)} "
          f"patches; budget {limit} (patches/BUDGET)")
    if total > limit:
        print(f"FAIL: {total - limit} lines over the budget: move logic into "
              "our folders, or raise the budget by what a new hook needs, "
              "with a line in patches/BUDGET saying why", file=sys.stderr)
        return 1
    if total < limit - SLACK:
        print(f"FAIL: {limit - total} lines under the budget: lower "
              f"max_changed_lines in patches/BUDGET to {total}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
