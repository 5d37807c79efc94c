#!/usr/bin/env bash
# Checks that stock RocksDB 9.10.0 reads what Lodestone writes with its
# features on: Lodestone's db_bench fills a DB with the CRaFT filter in every
# table, then stock's sst_dump verifies and scans each table and stock's ldb
# scans the DB (--ignore_unknown_options: Lodestone's OPTIONS files name its
# own options). (A DB holding initial puts is not stock-readable by design
# until rewritten: docs/initial_put.md.) Needs build/release and build/stock.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lodestone=$root/build/release/rocksdb
stock=$root/build/stock/rocksdb
db=$(mktemp -d)/compat
trap 'rm -rf "$(dirname "$db")"' EXIT

"$lodestone/db_bench" --benchmarks=fillrandom,compact --num=200000 \
  --craft_range_filter=true --write_buffer_size=1048576 \
  --target_file_size_base=1048576 --progress_reports=false --db="$db" \
  > /dev/null 2>&1
tables=0
for sst in "$db"/*.sst; do
  "$lodestone/tools/sst_dump" --file="$sst" --show_properties |
    grep -q "CRaFT range filter" || { echo "compat: $sst has no CRaFT filter"; exit 1; }
  "$stock/tools/sst_dump" --file="$sst" --command=verify | grep -q "The file is ok" ||
    { echo "compat: stock sst_dump cannot verify $sst"; exit 1; }
  "$stock/tools/sst_dump" --file="$sst" --command=scan > /dev/null
  tables=$((tables + 1))
done
# Lodestone's OPTIONS files name its options, which stock's ldb rejects
# unless told to ignore unknown options (docs/compatibility.md).
rows=$("$stock/tools/ldb" --db="$db" --ignore_unknown_options --hex scan 2>/dev/null | wc -l)
[ "$rows" -gt 0 ] || { echo "compat: stock ldb read nothing"; exit 1; }
echo "compat: stock 9.10.0 verified and scanned $tables Lodestone tables with CRaFT filters ($rows rows via ldb)"
