#!/usr/bin/env bash
# Store-level reads (StoreLevelBench: a processor's range and get calls on
# one store, without interactive queries' layers) three ways, alternating,
# on an otherwise idle machine:
#   stock      Kafka Streams' store on stock rocksdbjni 9.7.3
#   lodestone  Kafka Streams' store on the Lodestone jar, Lodestone's options
#   stores     Lodestone's store (LodestoneStores.persistentKeyValueStore)
#   store_bench.sh [repetitions] [out_dir]
# STORE_BENCH_KEYS sets the store's key count (400000: about 20 MB, all in
# the stores' 50 MiB block cache; 4000000 is larger than it).
# Needs the Lodestone jar installed (java/install_jar.sh) and Maven.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-3}
out=${2:-$here/target/store-bench}
mkdir -p "$out"
cd "$here"
mvn -q -B dependency:get -Dartifact=org.rocksdb:rocksdbjni:9.7.3 >/dev/null
stock_jar=$HOME/.m2/repository/org/rocksdb/rocksdbjni/9.7.3/rocksdbjni-9.7.3.jar
mvn -q -B test-compile
variants=(stock lodestone stores)
for ((rep = 0; rep < reps; rep++)); do
  for ((i = 0; i < 3; i++)); do
    v=${variants[$(( (rep + i) % 3 ))]}
    extra=()
    [ "$v" = stock ] && extra=(-Dstock.rocksdbjni.jar="$stock_jar")
    mvn -q -B surefire:test -Dtest=StoreLevelBench -Dbench=true -Dbench.variant="$v" \
      -Dbench.keys="${STORE_BENCH_KEYS:-400000}" \
      -Dbench.results="$out/$v.rep$rep.json" "${extra[@]}"
    echo "rep $rep $(cat "$out/$v.rep$rep.json")"
  done
done
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
runs = {}
for path in glob.glob(os.path.join(out, "*.rep*.json")):
    r = json.load(open(path))
    runs.setdefault(r["variant"], []).append(r)
keys = [k for k in runs["stock"][0] if k.endswith("_us") or k == "table_bytes"]
print("%-22s %12s %12s %12s   (median; ratio: stock / variant, higher is better)"
      % ("measurement", "stock", "lodestone", "stores"))
for k in keys:
    med = {v: statistics.median(r[k] for r in rs) for v, rs in runs.items()}
    print("%-22s %12.2f %12s %12s" % (k, med["stock"],
          *["%.2f (%.2fx)" % (med[v], med["stock"] / med[v]) for v in ("lodestone", "stores")]))
PY
