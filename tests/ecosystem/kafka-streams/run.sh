#!/usr/bin/env bash
# Runs the Kafka Streams state store tests on stock rocksdbjni (Maven
# Central, the version kafka-streams pins) and on a Lodestone jar.
#   run.sh <rocksdbjni jar, or the directory holding it (build/bindings/rocksdb/java)>
# The Lodestone jar is installed into the local Maven repository as
# org.rocksdb:rocksdbjni:9.10.0-lodestone: the dependency override a Kafka
# Streams user makes (docs/bindings.md). Exits 77 (ctest: skipped) without
# Maven or a JDK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v mvn >/dev/null && command -v javac >/dev/null || { echo "no mvn/javac: skipped"; exit 77; }
version=9.10.0-lodestone
bash "$here/../../../java/install_jar.sh" "$1"
cd "$here"
echo "== stock rocksdbjni (kafka-streams' own)"
mvn -q -B test -Dlodestone.expected=false
echo "== Lodestone rocksdbjni ($1)"
mvn -q -B test -Drocksdbjni.version=$version -Dlodestone.expected=true
echo "Kafka Streams state stores: passed on stock and on Lodestone"
