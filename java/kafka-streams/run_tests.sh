#!/usr/bin/env bash
# Runs lodestone-kafka-streams' tests (Kafka Streams' key-value store
# contract, the stores in topologies) on a Lodestone rocksdbjni jar, after
# installing the jar as org.rocksdb:rocksdbjni:9.10.0-lodestone.
#   run_tests.sh <rocksdbjni jar, or the directory holding it>
# Exits 77 (ctest: skipped) without Maven or a JDK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v mvn >/dev/null && command -v javac >/dev/null || { echo "no mvn/javac: skipped"; exit 77; }
bash "$here/../install_jar.sh" "$1"
cd "$here"
mvn -q -B test
echo "lodestone-kafka-streams: passed"
