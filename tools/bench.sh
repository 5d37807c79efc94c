#!/usr/bin/env bash
# README command 1, the main job: installs what is missing, builds release
# Lodestone and the stock baseline (same tarball, same flags, no patches),
# and runs the headline side-by-side benchmark, printing a ratio table and
# writing JSON, Markdown and PNG plots under build/bench/<scenario>/.
#   LODESTONE_BENCH_SCENARIOS  comma-separated scenarios (default: headline)
#   LODESTONE_BENCH_REPS       repetitions (default: each scenario's own)
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"
PHASE_TIMES=()

phase deps install_deps || exit 1
phase build-lodestone "$LODESTONE_ROOT/tools/build.sh" release || exit 1
phase build-stock "$LODESTONE_ROOT/tools/build.sh" stock || exit 1
phase compat "$LODESTONE_ROOT/tools/compat_check.sh" || { print_phase_times; exit 1; }
reps=()
[ -n "${LODESTONE_BENCH_REPS:-}" ] && reps=(--reps "$LODESTONE_BENCH_REPS")
phase bench python3 "$LODESTONE_ROOT/tools/bench/lodestone_bench.py" run --no-build \
  --scenario "${LODESTONE_BENCH_SCENARIOS:-$(cat "$LODESTONE_ROOT/tools/bench/HEADLINE")}" \
  "${reps[@]}" --archive || { print_phase_times; exit 1; }
print_phase_times
