#!/usr/bin/env bash
# Fetch the pinned upstream RocksDB tarball (Debian trixie source package rocksdb 9.10.0) into a
# cache outside the build tree, verify its sha256, and print its path on stdout.
#
# Order of preference:
#   1. $LODESTONE_UPSTREAM_TARBALL (a local file, for offline builds);
#   2. the cache: ${LODESTONE_CACHE_DIR:-$HOME/.cache/lodestone}/rocksdb_9.10.0.orig.tar.gz;
#   3. apt's own client, with a deb-src entry for trixie built from the URIs of the machine's
#      existing Debian sources (no host is hard-coded here).
set -euo pipefail

readonly NAME=rocksdb_9.10.0.orig.tar.gz
readonly SHA256=fdccab16133c9d927a183c2648bcea8d956fb41eb1df2aacaa73eb0b95e43724
readonly CACHE_DIR=${LODESTONE_CACHE_DIR:-$HOME/.cache/lodestone}

die() { echo "fetch_upstream: $*" >&2; exit 1; }

verify() {
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$SHA256" ] || die "$1: sha256 $got, expected $SHA256 (wrong or corrupt tarball)"
}

if [ -n "${LODESTONE_UPSTREAM_TARBALL:-}" ]; then
  [ -f "$LODESTONE_UPSTREAM_TARBALL" ] || die "LODESTONE_UPSTREAM_TARBALL=$LODESTONE_UPSTREAM_TARBALL: no such file"
  verify "$LODESTONE_UPSTREAM_TARBALL"
  echo "$LODESTONE_UPSTREAM_TARBALL"
  exit 0
fi

mkdir -p "$CACHE_DIR"
if [ -f "$CACHE_DIR/$NAME" ]; then
  verify "$CACHE_DIR/$NAME"
  echo "$CACHE_DIR/$NAME"
  exit 0
fi

command -v apt-get >/dev/null || die "no tarball cached and no apt-get to fetch one; set LODESTONE_UPSTREAM_TARBALL"

# Build a deb-src entry for trixie from the URIs the machine already uses for Debian.
uris=$( (grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}';
         grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
           awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}'; true) |
       grep -v -- '-security' | grep -i debian | sort -u | head -1 || true)
[ -n "$uris" ] || die "no Debian URI found in /etc/apt sources to build a trixie deb-src entry from"

src_list=/etc/apt/sources.list.d/lodestone-trixie-src.sources
if [ ! -f "$src_list" ]; then
  cat > "$src_list" <<SRC
Types: deb-src
URIs: $uris
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
apt-get update -qq >&2 || echo "fetch_upstream: apt-get update reported errors; trying anyway" >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The .dsc may answer 404 on some mirrors while the orig tarball arrives: the tarball is what counts.
(cd "$work" && apt-get source --download-only rocksdb=9.10.0-1 >&2) ||
  (cd "$work" && apt-get source --download-only rocksdb/trixie >&2) || true
[ -f "$work/$NAME" ] || die "apt-get source did not deliver $NAME (check the trixie deb-src entry in $src_list)"
verify "$work/$NAME"
mv "$work/$NAME" "$CACHE_DIR/$NAME"
echo "$CACHE_DIR/$NAME"
