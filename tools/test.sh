#!/usr/bin/env bash
# README command 2: installs what is missing, builds the test configuration
# (assertions and sync points on) and runs every test through ctest: our tests
# (label `lodestone`) and the upstream tests of the areas we patch (label
# `upstream`), then builds the bindings configuration and runs its tests
# (RocksJava, grocksdb, Kafka Streams). Prints the wall time of each phase.
#   LODESTONE_TEST_LABELS   ctest label regex (default: lodestone|upstream)
#   LODESTONE_TEST_EXCLUDE  label regex to skip (default: slow)
#   LODESTONE_REQUIRE_BINDINGS  1 (set by .ci/run): a binding or test that
#                               did not run (no toolchain: ctest "Skipped")
#                               fails the command instead of being listed
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"
PHASE_TIMES=()
SKIPPED=()
rc=0

# ctest in build directory $1 (ctest arguments follow), its output shown as
# it runs; the tests it reports skipped are added to SKIPPED.
ctest_listing_skips() {
  local dir=$1 out status name
  shift
  out=$(mktemp)
  ctest --test-dir "$dir" "$@" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  while read -r name; do
    SKIPPED+=("$name")
  done < <(grep -E '\*\*\*Skipped' "$out" | sed -E 's/.*Test +#[0-9]+: ([^ ]+).*/\1/')
  rm -f "$out"
  return "$status"
}

phase deps install_deps || exit 1
ccache -z >/dev/null 2>&1 || true
phase build "$LODESTONE_ROOT/tools/build.sh" test || { print_phase_times; exit 1; }
ccache -s 2>/dev/null | grep -Ei "hits|misses" | head -3 | sed 's/^/    ccache: /'
phase tests ctest_listing_skips "$LODESTONE_ROOT/build/test" \
  -L "${LODESTONE_TEST_LABELS:-lodestone|upstream}" \
  -LE "${LODESTONE_TEST_EXCLUDE:-slow}" \
  -j "$JOBS" --output-on-failure || rc=1
# The bindings: RocksJava's suite and ours, grocksdb's suite, Kafka Streams'
# state stores (docs/bindings.md). They need a JDK and Maven (Go is
# optional: its test skips without it); LODESTONE_BINDINGS=0 skips them.
if [ "${LODESTONE_BINDINGS:-1}" != 0 ] && command -v javac >/dev/null &&
    command -v mvn >/dev/null; then
  if phase "build bindings" "$LODESTONE_ROOT/tools/build.sh" bindings; then
    phase "bindings tests" ctest_listing_skips "$LODESTONE_ROOT/build/bindings" \
      -j "$JOBS" --output-on-failure || rc=1
  else
    rc=1
  fi
else
  SKIPPED+=("bindings (LODESTONE_BINDINGS=0, or no javac/mvn)")
fi
print_phase_times
if [ ${#SKIPPED[@]} -gt 0 ]; then
  echo "==> did not run: ${SKIPPED[*]}"
  if [ "${LODESTONE_REQUIRE_BINDINGS:-0}" = 1 ]; then
    echo "==> FAILED: LODESTONE_REQUIRE_BINDINGS=1 and these did not run"
    rc=1
  fi
fi
exit $rc
