#!/usr/bin/env bash
# Kafka Streams applications on a real cluster (ClusterOrdersTest: an
# in-process KRaft broker, two application instances, exactly-once, a
# failover), once per variant:
#   stock      stock rocksdbjni 9.7.3 (Maven Central), Kafka Streams' stores
#   lodestone  the Lodestone jar, Kafka Streams' stores with Lodestone's
#              options from the config setter (docs/bindings.md)
#   stores     the Lodestone jar, lodestone-kafka-streams' stores
#   run.sh <rocksdbjni jar, or its directory> [out_dir] [variant...]
# (default: all three, in that order). LODESTONE_CLUSTER_SIZE=small runs
# 4,000 orders and 2,000 payments per phase instead of 20,000 and 10,000
# (the test command's run: correctness, not measurements).
# LODESTONE_CLUSTER_REGIME=cold gives every store a 64 KiB block cache and
# direct reads (ColdRegime: no page cache) and, at full size, 200,000
# orders (each orders store's tables then hold megabytes, dozens of times
# its cache).
# Each variant writes
# <out_dir>/<variant>.json; the end prints each measurement's ratio to
# stock's. Exits 77 (ctest: skipped) without Maven or a JDK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
command -v mvn >/dev/null && command -v javac >/dev/null || { echo "no mvn/javac: skipped"; exit 77; }
jar=${1:?usage: run.sh <rocksdbjni jar or dir> [out_dir] [variant...]}
out=${2:-$here/target/cluster-results}
shift $(( $# >= 2 ? 2 : 1 ))
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(stock lodestone stores)
mkdir -p "$out"
bash "$root/java/install_jar.sh" "$jar"
(cd "$root/java/kafka-streams" && mvn -q -B install -DskipTests)
cd "$here"
for v in "${variants[@]}"; do
  case "$v" in
    stock) args=(-Drocksdbjni.version=9.7.3 -Dlodestone.expected=false -Dstores=kafka) ;;
    lodestone) args=(-Drocksdbjni.version=9.10.0-lodestone -Dlodestone.expected=true -Dstores=kafka) ;;
    stores) args=(-Drocksdbjni.version=9.10.0-lodestone -Dlodestone.expected=true -Dstores=lodestone) ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  echo "== $v"
  start=$(date +%s)
  if [ "${LODESTONE_CLUSTER_SIZE:-full}" = small ]; then
    args+=(-Dorders=4000 -Dpayments=2000)
  fi
  if [ "${LODESTONE_CLUSTER_REGIME:-warm}" = cold ]; then
    args+=(-Dregime=cold)
    [ "${LODESTONE_CLUSTER_SIZE:-full}" = small ] || args+=(-Dorders=200000)
  fi
  mvn -q -B test "${args[@]}" -Dresults.file="$out/$v.json"
  echo "   passed in $(( $(date +%s) - start )) s: $(cat "$out/$v.json")"
done
python3 - "$out" "${variants[@]}" <<'PY'
import json, os, sys
out, variants = sys.argv[1], sys.argv[2:]
runs = {v: json.load(open(os.path.join(out, v + ".json"))) for v in variants}
if "stock" not in runs or len(runs) < 2:
    sys.exit(0)
keys = [k for k, x in runs["stock"].items() if isinstance(x, (int, float)) and not isinstance(x, bool)]
print("%-32s" % "measurement" + "".join("%14s" % v for v in variants))
for k in keys:
    base = runs["stock"][k]
    cells = []
    for v in variants:
        x = runs[v].get(k)
        cells.append("%14s" % (x if v == "stock" or not base else "%.2fx" % (x / base)))
    print("%-32s" % k + "".join(cells))
PY
