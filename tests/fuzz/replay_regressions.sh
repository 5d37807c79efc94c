#!/usr/bin/env bash
# replay_regressions.sh LODESTONE_FUZZ: replays every input a fuzzer once
# failed on (tests/fuzz/regressions/<target>/*.input) through its target.
set -euo pipefail
fuzz=$1
dir=$(cd "$(dirname "$0")" && pwd)/regressions
n=0
for input in "$dir"/*/*.input; do
  "$fuzz" --target="$(basename "$(dirname "$input")")" --replay="$input"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no regression inputs under $dir"; exit 1; }
echo "replayed $n regression inputs"
