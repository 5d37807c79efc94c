# Shared by tools/test.sh and tools/bench.sh: dependencies, build
# configurations and phase timing. Source it; do not run it.

LODESTONE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lodestone/ccache}
export CCACHE_BASEDIR=$LODESTONE_ROOT
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
JOBS=${LODESTONE_JOBS:-$(nproc)}

# phase <name> <command...>: runs a command and prints its wall time.
phase() {
  local name=$1 start end rc
  shift
  start=$(date +%s)
  echo "==> [$name] $*"
  "$@"
  rc=$?
  end=$(date +%s)
  printf '==> [%s] %s after %ds\n' "$name" "$([ $rc -eq 0 ] && echo done || echo FAILED rc=$rc)" $((end - start))
  PHASE_TIMES+=("$(printf '%-28s %5ds  rc=%d' "$name" $((end - start)) $rc)")
  return $rc
}

print_phase_times() {
  echo "==> phase times"
  local line
  for line in "${PHASE_TIMES[@]}"; do echo "    $line"; done
}

# Installs the build and bench dependencies (Debian packages, Python modules)
# when something is missing. Needs root or sudo for apt-get.
install_deps() {
  local want=(build-essential cmake ninja-build ccache pkg-config patch
              libgflags-dev libsnappy-dev libzstd-dev liblz4-dev zlib1g-dev
              libbz2-dev python3 python3-pip)
  local missing=() p
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" || return 1
  fi
  local py
  for py in pytest matplotlib; do
    python3 -c "import $py" 2>/dev/null ||
      python3 -m pip install -q "$py" 2>/dev/null ||
      python3 -m pip install -q --break-system-packages "$py" || return 1
  done
}

# Flags common to every configuration. Stock and Lodestone release builds use
# exactly the same ones.
COMMON_FLAGS=(
  -G Ninja
  -DWITH_GFLAGS=ON -DWITH_SNAPPY=ON -DWITH_LZ4=ON -DWITH_ZSTD=ON
  -DWITH_ZLIB=ON -DWITH_BZ2=ON -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF
  -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=ON
  -DWITH_TRACE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=ON
)

# configure <build dir> <extra cmake args...>
configure() {
  local dir=$1
  shift
  cmake -S "$LODESTONE_ROOT" -B "$dir" "${COMMON_FLAGS[@]}" "$@" >"$dir.configure.log" 2>&1 ||
    { mkdir -p "$dir"; cat "$dir.configure.log"; return 1; }
  tail -1 "$dir.configure.log"
}

# The test configuration: assertions and sync points on, -O1, static only.
configure_test() {
  mkdir -p "$LODESTONE_ROOT/build"
  # PORTABLE=1: no -march=native, so ccache entries serve any x86-64 CI
  # machine, and gcc 12 raises no false -Werror on AVX-512 intrinsics at -O1.
  configure "$LODESTONE_ROOT/build/test" -DCMAKE_BUILD_TYPE=Debug \
    -DPORTABLE=1 -DFAIL_ON_WARNINGS=ON \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1" -DCMAKE_C_FLAGS_DEBUG="-O1" \
    -DROCKSDB_BUILD_SHARED=OFF -DLODESTONE_TESTS=ON
}

# Release builds for benchmarks: Lodestone and stock, identical flags.
configure_release() {
  mkdir -p "$LODESTONE_ROOT/build"
  configure "$LODESTONE_ROOT/build/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DPORTABLE=0 -DFAIL_ON_WARNINGS=OFF \
    -DROCKSDB_BUILD_SHARED=${LODESTONE_SHARED:-OFF} -DLODESTONE_STOCK="$2"
}
