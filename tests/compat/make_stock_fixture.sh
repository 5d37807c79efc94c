#!/usr/bin/env bash
# Writes tests/compat/fixtures/stock-9.10.0: a DB written by stock RocksDB
# 9.10.0's ldb (build/stock, tools/build.sh stock), for the compatibility
# matrix (compat_matrix_test.cc), and expected.txt, what stock reads from
# it. Run by hand when the fixture changes; the fixture is committed, so
# the test command needs no stock build.
#
# The DB holds tables in the last level (a load, compacted), a table in L0
# (overwrites, deletes and a range delete, flushed by the next open's
# recovery) and a WAL that no open has replayed yet.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldb=$root/build/stock/rocksdb/tools/ldb
out=$root/tests/compat/fixtures/stock-9.10.0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/db

seq 0 1999 | awk '{printf "key%06d ==> value%d\n", $1, $1}' |
  "$ldb" --db="$db" --create_if_missing load > /dev/null
"$ldb" --db="$db" compact > /dev/null
args=()
for i in $(seq 0 10 1990); do
  args+=("$(printf 'key%06d' "$i")" "new$i")
done
"$ldb" --db="$db" batchput "${args[@]}" > /dev/null
"$ldb" --db="$db" deleterange key000500 key000600 > /dev/null
for i in 7 77 777 1777; do
  "$ldb" --db="$db" delete "$(printf 'key%06d' "$i")" > /dev/null
done
"$ldb" --db="$db" put key001234 flushed > /dev/null  # Recovery flushes the rest.
"$ldb" --db="$db" batchput key001234 in-wal key999999 in-wal > /dev/null
rm -f "$db"/LOG*

rm -rf "$out"
mkdir -p "$out"
cp -r "$db" "$out/db"
cp -r "$db" "$work/read"
"$ldb" --db="$work/read" --hex scan > "$out/expected.txt"
echo "stock fixture: $(ls "$out/db" | wc -l) files, $(wc -l < "$out/expected.txt") keys"
