#!/usr/bin/env bash
# Installs a Lodestone rocksdbjni jar into the local Maven repository as
#   org.rocksdb:rocksdbjni:9.10.0-lodestone
# the coordinate a Java build overrides Kafka Streams' (or any library's)
# rocksdbjni with (docs/bindings.md), and lodestone-kafka-streams builds on.
#   install_jar.sh <rocksdbjni jar, or the directory holding it (build/bindings/rocksdb/java)>
# Exits 77 without Maven.
set -euo pipefail
if [ -d "$1" ]; then
  jar=$(ls "$1"/rocksdbjni-*-linux64.jar | head -1)
else
  jar=$1
fi
[ -f "$jar" ] || { echo "no rocksdbjni jar at $1" >&2; exit 2; }
command -v mvn >/dev/null || { echo "no mvn: jar not installed"; exit 77; }
mvn -q -B install:install-file -Dfile="$jar" -DgroupId=org.rocksdb \
  -DartifactId=rocksdbjni -Dversion=9.10.0-lodestone -Dpackaging=jar
