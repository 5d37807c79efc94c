#!/usr/bin/env bash
# Runs grocksdb's own test suite (Go, through cgo) against a build's
# installed static library: the Go users' view of a drop-in replacement.
# Against a Lodestone build it then runs go/lodestone_test.go: the features
# turned on from Go by an options string, and shown working.
#   run_grocksdb_test.sh <build dir> <scratch dir>
# grocksdb v1.9.8 is the newest release whose C calls RocksDB 9.10's c.h has
# (v1.9.9 needs 9.11). Its tests enable manual compaction on every DB they
# open without disabling it first, which a build with assertions aborts on
# (upstream's DBImpl::EnableManualCompaction asserts a matching disable), so
# the build must be an NDEBUG one: release or stock.
# Exits 77 (ctest: skipped) when no Go toolchain is installed.
set -euo pipefail
build=$(cd "$1" && pwd)
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
version=v1.9.8
command -v go >/dev/null || { echo "no go toolchain: skipped"; exit 77; }
if grep -q "CMAKE_BUILD_TYPE:STRING=Debug" "$build/CMakeCache.txt"; then
  echo "$build has assertions on: grocksdb's tests need an NDEBUG build" >&2
  exit 2
fi
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
# Headers and the static library (the devel component); a JNI build's java
# install step wants javadoc, which the bindings build does not make.
cmake --install "$build" --prefix "$prefix" --component devel >"$scratch/install.log"
libdir=$(dirname "$(find "$prefix" -name librocksdb.a | head -1)")

# The module from the Go proxy, copied writable (the module cache is not).
mod_dir=$(cd "$scratch" && go mod download -json "github.com/linxGnu/grocksdb@$version" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
cp -r "$mod_dir" "$scratch/grocksdb"
chmod -R u+w "$scratch/grocksdb"
cd "$scratch/grocksdb"
go mod download
# grocksdb's default cgo flags name snappy, lz4, zstd and zlib; a static
# librocksdb also needs bz2 and gflags.
CGO_CFLAGS="-I$prefix/include" \
CGO_LDFLAGS="-L$libdir -lbz2 -lgflags" \
  go test -count=1 -v ./... >"$scratch/go_test.log" 2>&1 || {
    grep -E "^(--- FAIL|FAIL|panic)" "$scratch/go_test.log" | head -20
    echo "grocksdb $version: tests failed, log: $scratch/go_test.log" >&2
    exit 1
  }
passed=$(grep -c "^--- PASS" "$scratch/go_test.log" || true)
echo "grocksdb $version: $passed tests passed against $build"

if [ -f "$prefix/include/rocksdb/location_cache.h" ]; then
  cp -r "$here/go" "$scratch/lodestone-go"
  cd "$scratch/lodestone-go"
  CGO_CFLAGS="-I$prefix/include" CGO_LDFLAGS="-L$libdir -lbz2 -lgflags" \
    go test -count=1 -v ./... 2>&1 | tee "$scratch/lodestone_go_test.log" |
    grep -E "^(--- |ok|FAIL)"
  test "${PIPESTATUS[0]}" -eq 0
fi
