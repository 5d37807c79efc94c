#!/usr/bin/env bash
# Checks that stock RocksDB 9.10.0 reads what Lodestone writes. Needs
# build/release and build/stock (tools/bench.sh builds both).
#  1. All options off: stock's ldb opens the DB, OPTIONS file included.
#  2. CRaFT on: stock's sst_dump verifies and scans every table, and stock's
#     ldb scans the DB (--try_load_options=false: the OPTIONS file names
#     craft_range_filter, which stock does not know).
#  3. Initial puts: what stock does with a DB that holds them, in SSTs only
#     and in the WAL, and that a full compaction by Lodestone hands the DB
#     back (docs/initial_put.md states these outcomes; this pins them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lodestone=$root/build/release/rocksdb
stock=$root/build/stock/rocksdb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$lodestone/db_bench" --benchmarks=fillrandom,compact --num=20000 \
  --progress_reports=false --db="$work/plain" > /dev/null 2>&1
rows=$("$stock/tools/ldb" --db="$work/plain" --hex scan 2>/dev/null | wc -l)
[ "$rows" -gt 0 ] || { echo "compat: stock ldb cannot open a Lodestone DB"; exit 1; }

"$lodestone/db_bench" --benchmarks=fillrandom,compact --num=200000 \
  --craft_range_filter=true --write_buffer_size=1048576 \
  --target_file_size_base=1048576 --progress_reports=false \
  --db="$work/craft" > /dev/null 2>&1
tables=0
for sst in "$work"/craft/*.sst; do
  "$lodestone/tools/sst_dump" --file="$sst" --show_properties |
    grep -q "CRaFT range filter" || { echo "compat: $sst has no CRaFT filter"; exit 1; }
  "$stock/tools/sst_dump" --file="$sst" --command=verify | grep -q "The file is ok" ||
    { echo "compat: stock sst_dump cannot verify $sst"; exit 1; }
  "$stock/tools/sst_dump" --file="$sst" --command=scan > /dev/null
  tables=$((tables + 1))
done
craft_rows=$("$stock/tools/ldb" --db="$work/craft" --try_load_options=false --hex scan 2>/dev/null | wc -l)
[ "$craft_rows" -gt 0 ] || { echo "compat: stock ldb read nothing"; exit 1; }
# 3. Initial puts: a queue whose items are enqueued by PutInitial, some
# still enqueued at the end. With "flush" they sit in an L0 table and the
# WAL is empty; without it the newest sit in the WAL only.
queue_flags=(--queue_delete_mode=initial_put --queue_count=2
  --queue_long_lived_rows=10 --queue_prefill=200 --queue_steady_seconds=1
  --queue_drain_seconds=0 --queue_idle_seconds=0 --progress_reports=false)
"$lodestone/db_bench" --benchmarks=queue,flush "${queue_flags[@]}" \
  --db="$work/initial_sst" > /dev/null 2>&1
"$lodestone/db_bench" --benchmarks=queue "${queue_flags[@]}" \
  --db="$work/initial_wal" > /dev/null 2>&1
report=${LODESTONE_COMPAT_REPORT:-/dev/stdout}
for db in initial_sst initial_wal; do
  for cmd in scan compact scan; do
    out=$("$stock/tools/ldb" --db="$work/$db" --try_load_options=false $cmd 2>&1 | tail -1)
    printf 'compat: stock ldb %s on %s: %s\n' "$cmd" "$db" "${out:0:160}" >> "$report"
  done
done
echo "compat: stock 9.10.0 ldb opened a Lodestone DB ($rows rows, OPTIONS loaded);" \
  "verified and scanned $tables tables with CRaFT filters ($craft_rows rows)"
