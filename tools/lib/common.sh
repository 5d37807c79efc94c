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
              libbz2-dev python3 python3-pip python3-venv clang-format)
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
  use_python_env
}

# Puts a Python with pytest, matplotlib and pyflakes first on PATH. The
# machine's own python3 serves when it has all three; otherwise a virtual environment of ours
# (~/.cache/lodestone/venv), filled from PyPI, so the system's Python is never
# changed.
LODESTONE_VENV=${LODESTONE_VENV:-$HOME/.cache/lodestone/venv}
use_python_env() {
  if [ -x "$LODESTONE_VENV/bin/python3" ]; then
    export PATH="$LODESTONE_VENV/bin:$PATH"
  fi
  python3 -c "import pytest, matplotlib, pyflakes" 2>/dev/null && return 0
  if [ ! -x "$LODESTONE_VENV/bin/python3" ]; then
    python3 -m venv "$LODESTONE_VENV" || {
      echo "python3 -m venv failed (Debian: apt-get install python3-venv)" >&2
      return 1
    }
    export PATH="$LODESTONE_VENV/bin:$PATH"
  fi
  python3 -m pip install -q pytest matplotlib pyflakes || return 1
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

# The sanitizer configurations (issue: reliability): the test configuration's
# flags plus ASAN and UBSAN (`asan`) or TSAN (`tsan`), each in its own build
# directory; frame pointers kept for the reports' stacks. Warnings do not
# fail the build: gcc's sanitizer instrumentation raises new ones in
# upstream's code.
configure_sanitizer() {
  local kind=$1 flags
  case "$kind" in
    asan) flags=(-DWITH_ASAN=ON -DWITH_UBSAN=ON) ;;
    tsan) flags=(-DWITH_TSAN=ON) ;;
    *) echo "unknown sanitizer: $kind" >&2; return 2 ;;
  esac
  mkdir -p "$LODESTONE_ROOT/build"
  configure "$LODESTONE_ROOT/build/$kind" -DCMAKE_BUILD_TYPE=Debug \
    -DPORTABLE=1 -DFAIL_ON_WARNINGS=OFF \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -fno-omit-frame-pointer" \
    -DCMAKE_C_FLAGS_DEBUG="-O1 -fno-omit-frame-pointer" \
    -DROCKSDB_BUILD_SHARED=OFF -DLODESTONE_TESTS=ON "${flags[@]}"
}

# The bindings configuration: what RocksJava, Go and C users link, as a
# release would ship it (NDEBUG, -O2), with upstream's JNI build on. JNI makes
# the whole static library position independent, so it gets a directory of its
# own; PORTABLE=1 keeps its ccache entries valid on any x86-64 machine.
# Upstream's JNI configure step downloads its five test jars from the
# internet; CUSTOM_DEPS_URL points it at the copies fetch_java_test_jars
# checked.
configure_bindings() {
  mkdir -p "$LODESTONE_ROOT/build"
  fetch_java_test_jars || return 1
  command -v javac >/dev/null || { echo "bindings: no JDK (javac) on PATH" >&2; return 1; }
  # CMake's FindJNI looks for jni.h under JAVA_HOME.
  export JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
  configure "$LODESTONE_ROOT/build/bindings" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DPORTABLE=1 -DFAIL_ON_WARNINGS=OFF -DROCKSDB_BUILD_SHARED=OFF \
    -DWITH_JNI=ON -DCUSTOM_DEPS_URL="file://$JAVA_TEST_JARS" -DLODESTONE_BINDINGS_TESTS=ON \
    -DCMAKE_INSTALL_PREFIX="$LODESTONE_ROOT/build/bindings/install"
}

# RocksJava's test jars, at the versions and sha256 sums upstream's
# java/Makefile pins, from Maven Central (the copies upstream's own bucket
# serves are byte-identical).
JAVA_TEST_JARS=${JAVA_TEST_JARS:-$HOME/.cache/lodestone/java-test-libs}
JAVA_TEST_JAR_LIST=(
  "junit/junit/4.13.1/junit-4.13.1.jar c30719db974d6452793fe191b3638a5777005485bae145924044530ffa5f6122"
  "org/hamcrest/hamcrest/2.2/hamcrest-2.2.jar 5e62846a89f05cd78cd9c1a553f340d002458380c320455dd1f8fc5497a8a1c1"
  "org/mockito/mockito-all/1.10.19/mockito-all-1.10.19.jar d1a7a7ef14b3db5c0fc3e0a63a81b374b510afe85add9f7984b97911f4c70605"
  "cglib/cglib/3.3.0/cglib-3.3.0.jar 9fe0c26d7464140ccdfe019ac687be1fb906122b508ab54beb810db0f09a9212"
  "org/assertj/assertj-core/2.9.0/assertj-core-2.9.0.jar 5e88ea3ecbe3c48aa1346fec76c84979fa9c8d22499f11479011691230e8babf"
)
fetch_java_test_jars() {
  mkdir -p "$JAVA_TEST_JARS"
  local entry path sum jar
  for entry in "${JAVA_TEST_JAR_LIST[@]}"; do
    read -r path sum <<<"$entry"
    jar=$JAVA_TEST_JARS/$(basename "$path")
    if [ ! -f "$jar" ] || ! echo "$sum  $jar" | sha256sum -c --status; then
      curl -sfL -o "$jar.tmp" "${MAVEN_CENTRAL:-https://repo1.maven.org/maven2}/$path" &&
        echo "$sum  $jar.tmp" | sha256sum -c --status &&
        mv "$jar.tmp" "$jar" ||
        { rm -f "$jar.tmp"; echo "could not fetch $path (sha256 $sum)" >&2; return 1; }
    fi
  done
}

# Release builds for benchmarks: Lodestone and stock, identical flags.
configure_release() {
  mkdir -p "$LODESTONE_ROOT/build"
  configure "$LODESTONE_ROOT/build/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DPORTABLE=0 -DFAIL_ON_WARNINGS=OFF \
    -DROCKSDB_BUILD_SHARED=${LODESTONE_SHARED:-OFF} -DLODESTONE_STOCK="$2"
}
