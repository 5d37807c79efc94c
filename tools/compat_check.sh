#!/usr/bin/env bash
# Checks that stock RocksDB 9.10.0 reads what Lodestone writes. Needs
# build/release and build/stock (tools/bench.sh builds both).
#  1. All options off: stock's ldb opens the DB, OPTIONS file included.
#  2. CRaFT on: stock's sst_dump verifies and scans every table, and stock's
#     ldb scans the DB (--try_load_options=false: the OPTIONS file names
#     craft_range_filter, which stock does not know).
# (A DB holding initial puts is not stock-readable by design until rewritten:
# docs/initial_put.md.)
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
echo "compat: stock 9.10.0 ldb opened a Lodestone DB ($rows rows, OPTIONS loaded);" \
  "verified and scanned $tables tables with CRaFT filters ($craft_rows rows)"
