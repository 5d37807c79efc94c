#!/usr/bin/env bash
# expect_failure.sh PATTERN COMMAND...: passes when COMMAND fails (any
# non-zero exit, an abort included) and its output matches PATTERN (grep
# -E); a planted defect's control that a run which found nothing, or failed
# for another reason, cannot pass.
set -uo pipefail
pattern=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 0 ]; then
  echo "expect_failure: the command passed; the planted defect went unseen"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
  echo "expect_failure: the command failed (exit $rc) without naming: $pattern"
  exit 1
fi
echo "expect_failure: failed as planted (exit $rc)"
