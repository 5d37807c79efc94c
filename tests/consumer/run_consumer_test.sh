#!/usr/bin/env bash
# Installs a build into a scratch prefix, then builds and runs consumer.cc
# against the installed headers and library twice: with CMake's
# find_package(RocksDB) and with pkg-config.
#   run_consumer_test.sh <lodestone build dir> <scratch dir>
set -euo pipefail
build=$1
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"
test -f "$prefix/include/rocksdb/db.h"
test -f "$prefix/include/rocksdb/location_cache.h"
lib=$(find "$prefix" -name 'librocksdb.a' -o -name 'librocksdb.so' | head -1)
test -n "$lib" || { echo "no librocksdb installed under $prefix"; exit 1; }

# 1. find_package(RocksDB)
cmake -S "$here" -B "$scratch/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$scratch/configure.log"
cmake --build "$scratch/cmake-build" >"$scratch/build.log"
"$scratch/cmake-build/consumer" "$scratch/db-cmake"

# 2. pkg-config
pcdir=$(dirname "$(find "$prefix" -name rocksdb.pc | head -1)")
# The .pc names the configure-time prefix (as stock does): relocate it.
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=prefix="$prefix" \
  --cflags --libs --static rocksdb)
# A static librocksdb needs its compression and gflags libraries: the .pc
# names them in Libs.private (cmake/lodestone_hook.cmake; stock names none).
grep -q "^Libs.private:.*-lsnappy" "$pcdir/rocksdb.pc" || {
  echo "rocksdb.pc names no private libraries"; exit 1; }
# shellcheck disable=SC2086
c++ -std=c++17 "$here/consumer.cc" -o "$scratch/consumer-pc" $flags
"$scratch/consumer-pc" "$scratch/db-pc"
echo "consumer test: find_package and pkg-config builds pass"
