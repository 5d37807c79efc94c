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
"$release" --benchmarks=fillrandom,readrandom,seekrandom --num=20000 \
  --reads=20000 --seek_nexts=10 --statistics --histogram --seed=42 \
  --db="$db/r" > "$data/db_bench_release.txt"
"$release" --benchmarks=fillrandom --num=300000 --seed=42 \
  --report_interval_seconds=1 --report_file="$data/report.csv" \
  --db="$db/c" > /dev/null
"$debug" --benchmarks=fillseq --num=2000 --db="$db/d" > "$data/db_bench_debug.txt"
echo "fixtures written to $data"
