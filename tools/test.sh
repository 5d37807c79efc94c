#!/usr/bin/env bash
# README command 2: installs what is missing, builds the test configuration
# (assertions and sync points on) and runs every test through ctest: our tests
# (label `lodestone`) and the upstream tests of the areas we patch (label
# `upstream`), then builds the bindings configuration and runs its tests
# (RocksJava, grocksdb, Kafka Streams). Prints the wall time of each phase.
#   LODESTONE_TEST_LABELS   ctest label regex (default: lodestone|upstream)
#   LODESTONE_TEST_EXCLUDE  label regex to skip (default: slow)
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"
PHASE_TIMES=()
rc=0

phase deps install_deps || exit 1
ccache -z >/dev/null 2>&1 || true
phase build "$LODESTONE_ROOT/tools/build.sh" test || { print_phase_times; exit 1; }
ccache -s 2>/dev/null | grep -Ei "hits|misses" | head -3 | sed 's/^/    ccache: /'
phase tests ctest --test-dir "$LODESTONE_ROOT/build/test" \
  -L "${LODESTONE_TEST_LABELS:-lodestone|upstream}" \
  -LE "${LODESTONE_TEST_EXCLUDE:-slow}" \
  -j "$JOBS" --output-on-failure || rc=1
# The bindings: RocksJava's suite and ours, grocksdb's suite, Kafka Streams'
# state stores (docs/bindings.md). They need a JDK and Maven (Go is
# optional: its test skips without it); LODESTONE_BINDINGS=0 skips them.
if [ "${LODESTONE_BINDINGS:-1}" != 0 ] && command -v javac >/dev/null &&
    command -v mvn >/dev/null; then
  if phase "build bindings" "$LODESTONE_ROOT/tools/build.sh" bindings; then
    phase "bindings tests" ctest --test-dir "$LODESTONE_ROOT/build/bindings" \
      -j "$JOBS" --output-on-failure || rc=1
  else
    rc=1
  fi
else
  echo "==> bindings skipped (LODESTONE_BINDINGS=0, or no javac/mvn)"
fi
print_phase_times
exit $rc
