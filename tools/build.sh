#!/usr/bin/env bash
# Builds one configuration into build/<config>:
#   tools/build.sh test      assertions and sync points on, -O1, static; all tests, db_stress
#   tools/build.sh release   Lodestone, Release, static; db_bench, ldb, sst_dump
#   tools/build.sh stock     upstream 9.10.0 unpatched, same flags as release
#   tools/build.sh bindings  Lodestone, Release, position independent, JNI on:
#                            librocksdb.a, the rocksdbjni jar, RocksJava's tests;
#                            with Maven, installs the jar into the local Maven
#                            repository as org.rocksdb:rocksdbjni:9.10.0-lodestone
#   tools/build.sh asan      the test configuration under ASAN and UBSAN: our
#                            tests (ctest label gtest) and db_stress
#   tools/build.sh tsan      the same under TSAN
# Extra arguments are ninja targets (default: the configuration's own set).
# LODESTONE_SHARED=ON also builds librocksdb.so (release/stock; for install).
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"

config=${1:?usage: tools/build.sh test|release|stock|bindings [ninja targets...]}
shift
case "$config" in
  test)    configure_test || exit 1
           targets=(lodestone_check_deps ldb sst_dump db_bench db_stress) ;;
  release) configure_release release OFF || exit 1
           targets=(db_bench ldb sst_dump) ;;
  stock)   configure_release stock ON || exit 1
           targets=(db_bench ldb sst_dump) ;;
  bindings) configure_bindings || exit 1
           targets=(rocksdb rocksdbjava rocksdbjni_test_classes) ;;
  asan|tsan) configure_sanitizer "$config" || exit 1
           targets=(lodestone_own_tests db_stress) ;;
  *) echo "unknown configuration: $config" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && targets=("$@")
if [ "${LODESTONE_SHARED:-OFF}" = ON ] && [ "$config" != test ]; then
  targets+=(rocksdb-shared)
fi
ninja -C "$LODESTONE_ROOT/build/$config" -j "$JOBS" "${targets[@]}" || exit 1
if [ "$config" = bindings ] && [ -z "${1:-}" ] && command -v mvn >/dev/null; then
  # The jar under the coordinate a Java build overrides rocksdbjni with
  # (docs/bindings.md), which lodestone-kafka-streams builds on.
  bash "$LODESTONE_ROOT/java/install_jar.sh" "$LODESTONE_ROOT/build/bindings/rocksdb/java"
fi
