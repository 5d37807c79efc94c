#!/usr/bin/env bash
# Checks that stock RocksDB 9.10.0 reads what Lodestone writes. Needs
# build/release and build/stock (tools/bench.sh builds both).
#  1. All options off: stock's ldb opens the DB, OPTIONS file included.
#  2. CRaFT on: stock's sst_dump verifies and scans every table, and stock's
#     ldb scans the DB (--try_load_options=false: the OPTIONS file names
#     range_filter, which stock does not know).
#  3. Initial puts: what stock does with a DB that holds them, in SSTs only
#     and in the WAL, and that a full compaction by Lodestone hands the DB
#     back (docs/initial_put.md states these outcomes; this pins them).
#  4. Delete tiles: stock refuses a table with tiles of several blocks
#     (Corruption: a tile's span fails its checksum as one block), and reads
#     the DB after the way back (docs/kiwi.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lodestone=${LODESTONE_COMPAT_BUILD:-$root/build/release}/rocksdb
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
# 3. Initial puts (docs/initial_put.md, "Compatibility and the way back").
# ldb opens flush the WAL at recovery unless the DB's OPTIONS file says
# avoid_flush_during_recovery, which keeps a, b (initial) and c in WALs
# until one recovery flush writes them into one table bounded by plain keys.
ldb=("$lodestone/tools/ldb" --try_load_options)
stock_ldb=("$stock/tools/ldb" --try_load_options=false)
db=$work/initial
"${ldb[@]}" --db="$db" --create_if_missing put 0 plain-0 > /dev/null
sed -i 's/avoid_flush_during_recovery=false/avoid_flush_during_recovery=true/' "$db"/OPTIONS-*
"${ldb[@]}" --db="$db" put a plain-a > /dev/null
"${ldb[@]}" --db="$db" put_initial b initial-b > /dev/null
"${ldb[@]}" --db="$db" put c plain-c > /dev/null
cp -r "$db" "$work/initial_in_wal"
sed -i 's/avoid_flush_during_recovery=true/avoid_flush_during_recovery=false/' "$db"/OPTIONS-*
"${ldb[@]}" --db="$db" put z plain-z > /dev/null  # recovery flush: one table
cp -r "$db" "$work/initial_in_table"
"${ldb[@]}" --db="$db" put_initial d initial-d > /dev/null
"${ldb[@]}" --db="$db" put y plain-y > /dev/null  # d alone in a table
# expect <what> <pattern> <command...>: a line of the command's output must
# match.
expect() {
  local what=$1 pattern=$2 out
  shift 2
  out=$("$@" 2>&1) || true
  grep -q -- "$pattern" <<< "$out" ||
    { echo "compat: $what: expected /$pattern/, got: $(tail -2 <<< "$out")"; exit 1; }
}
expect "stock, initial put in the WAL" "unknown WriteBatch tag: 27" \
  "${stock_ldb[@]}" --db="$work/initial_in_wal" scan
expect "stock, initial put inside a table: other keys" "^plain-a$" \
  "${stock_ldb[@]}" --db="$work/initial_in_table" get a
expect "stock, initial put inside a table: the key" "Corrupted Key.*type:27" \
  "${stock_ldb[@]}" --db="$work/initial_in_table" get b
expect "stock, initial put inside a table: scan" "Corrupted Key.*type:27" \
  "${stock_ldb[@]}" --db="$work/initial_in_table" scan
expect "stock, initial put inside a table: compact" "Corrupted Key.*type:27" \
  "${stock_ldb[@]}" --db="$work/initial_in_table" compact
expect "stock, initial put as a table's bound" "Corruption: VersionEdit" \
  "${stock_ldb[@]}" --db="$db" scan
# The way back: a full compaction, then one more read-write open, so that
# the MANIFEST no longer names the old tables.
"${ldb[@]}" --db="$db" compact > /dev/null
expect "stock, after one compaction (old MANIFEST records)" "Corruption: VersionEdit" \
  "${stock_ldb[@]}" --db="$db" scan
"${ldb[@]}" --db="$db" compact > /dev/null
expect "stock, after the way back" "^z ==> plain-z$" \
  "${stock_ldb[@]}" --db="$db" scan
expect "stock, after the way back: an initial put reads" "^initial-d$" \
  "${stock_ldb[@]}" --db="$db" get d

# 4. Delete tiles (docs/kiwi.md, "The way back to stock").
db=$work/tiles
"$lodestone/db_bench" --benchmarks=fillrandom,compact --num=20000 \
  --delete_key_extractor="{id=value_prefix;length=8}" --delete_tile_blocks=8 \
  --progress_reports=false --db="$db" > /dev/null 2>&1
cp "$(ls "$db"/*.sst | head -1)" "$work/tiled.sst"
"$lodestone/tools/sst_dump" --file="$work/tiled.sst" --command=raw > /dev/null
grep -q "KiWi delete tiles" "$work/tiled_dump.txt" ||
  { echo "compat: Lodestone wrote no delete tiles"; exit 1; }
expect "stock, a table with delete tiles" "block checksum mismatch" \
  "${stock_ldb[@]}" --db="$db" scan
sed -i 's/delete_tile_blocks=8/delete_tile_blocks=1/' "$db"/OPTIONS-*
"${ldb[@]}" --db="$db" compact > /dev/null
out=$("${stock_ldb[@]}" --db="$db" --hex scan 2>&1) ||
  { echo "compat: stock failed after the way back from tiles: $(tail -1 <<< "$out")"; exit 1; }
! grep -q "Corruption\|Failed" <<< "$out" ||
  { echo "compat: stock failed after the way back from tiles: $(tail -1 <<< "$out")"; exit 1; }
tile_rows=$(wc -l <<< "$out")
[ "$tile_rows" -gt 0 ] || { echo "compat: stock read nothing after the way back from tiles"; exit 1; }

echo "compat: stock 9.10.0 ldb opened a Lodestone DB ($rows rows, OPTIONS loaded);" \
  "verified and scanned $tables tables with CRaFT filters ($craft_rows rows);" \
  "initial puts: refused in the WAL and as table bounds, Corruption when read" \
  "inside a table, readable after compaction and a reopen;" \
  "delete tiles: refused, $tile_rows rows after the way back"
