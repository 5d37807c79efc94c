#!/usr/bin/env bash
# Regenerates the parser fixtures in data/ from real db_bench runs:
#   db_bench_release.txt  release build: fillrandom,readrandom,seekrandom with
#                         --statistics and --histogram
#   db_bench_debug.txt    test build (assertions on): fillseq
#   report.csv            release build: --report_file interval CSV
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
data=$(dirname "$0")/data
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
release=${1:-$root/build/release/rocksdb/db_bench}
debug=${2:-$root/build/test/rocksdb/db_bench}
# db_bench prints its header (version, warnings) on stderr and the results
# on stdout; the bench tool reads both, and so do the fixtures.
"$release" --benchmarks=fillrandom,readrandom,seekrandom --num=20000 \
  --reads=20000 --seek_nexts=10 --statistics --histogram --seed=42 \
  --progress_reports=false --db="$db/r" > "$data/db_bench_release.txt" 2>&1
"$release" --benchmarks=fillrandom --num=100000000 --duration=3 --seed=42 \
  --progress_reports=false --report_interval_seconds=1 \
  --report_file="$data/report.csv" --db="$db/c" > /dev/null 2>&1
"$debug" --benchmarks=fillseq --num=2000 --progress_reports=false \
  --db="$db/d" > "$data/db_bench_debug.txt" 2>&1
echo "fixtures written to $data"
