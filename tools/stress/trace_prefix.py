#!/usr/bin/env python3
"""Which prefix of db_stress's write trace does a recovered DB hold?

Where unsynced data can be lost (sync_fault_injection, disable_wal,
manual WAL flush), db_stress restores its expected state after a crash from a
saved state plus a trace of the writes that followed it, replaying
`recovered seqno - saved seqno` writes: it assumes the i-th traced write
(0-based) got sequence number saved + 1 + i. A crash-recovery verification
failure then means one of two things:

- the DB lost or resurrected data: its content is no prefix of the trace;
- the DB holds a clean prefix of the writes, but not the one its sequence
  number names: its recovered last sequence number understates the writes
  it holds (a flush that dropped its memtable's newest writes, before patch
  0041), or a traced write consumed no sequence number; either way the
  restored expected state is off by that many writes.

This tool tells them apart offline. It reads the trace (`<saved>.trace` in
db_stress's --expected_values_dir), scans a copy of the DB with ldb, and for
each candidate prefix length around the one db_stress replayed counts the keys
whose existence or value base (the first 4 bytes of a plain value, which
db_stress derives from the key's expected value) differ from the DB's, among
the keys the trace wrote before the window (the others' state before their
first traced write is the saved state's, which this tool does not read). With --key it also lists that key's writes with their trace index.

    trace_prefix.py --trace DIR/248441.trace --saved 248441 --recovered 337566 \\
        --db DBDIR [--ldb build/test/rocksdb/tools/ldb] [--key HEX] [--window 40]

The DB directory is copied before ldb opens it (opening may write).
"""

import argparse
import bisect
import os
import shutil
import struct
import subprocess
import sys
import tempfile

TRACE_WRITE = 3  # TraceType::kTraceWrite
# WriteBatch record tags: plain and column-family forms of each operation.
# 0x1B/0x1C are Lodestone's initial puts (patches/0001).
OPS = {0x0: "Delete", 0x1: "Put", 0x2: "Merge", 0x7: "SingleDelete",
       0xF: "DeleteRange", 0x16: "PutEntity", 0x18: "TimedPut",
       0x1B: "PutInitial"}
CF_FORMS = {0x4: 0x0, 0x5: 0x1, 0x6: 0x2, 0x8: 0x7, 0xE: 0xF, 0x17: 0x16,
            0x19: 0x18, 0x1C: 0x1B}
WITH_VALUE = {0x1, 0x2, 0x16, 0x18, 0x1B}
# Markers without a sequence number: LogData, 2PC markers, Noop.
MARKERS_WITH_SLICE = {0x3, 0xA, 0xB, 0xC, 0x15}
MARKERS = {0x9, 0xD, 0x12, 0x13}


def varint(b, i):
    result = shift = 0
    while True:
        c = b[i]
        i += 1
        result |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return result, i


def length_prefixed(b, i):
    n, i = varint(b, i)
    return b[i:i + n], i + n


def batch_ops(rep):
    """The operations of a WriteBatch's bytes: (name, key, value or end)."""
    i = 12  # fixed64 sequence, fixed32 count
    ops = []
    while i < len(rep):
        tag = rep[i]
        i += 1
        if tag in CF_FORMS:
            _, i = varint(rep, i)  # column family id
            tag = CF_FORMS[tag]
        if tag in MARKERS_WITH_SLICE:
            _, i = length_prefixed(rep, i)
        elif tag in MARKERS:
            pass
        elif tag in OPS:
            key, i = length_prefixed(rep, i)
            second = None
            if tag in WITH_VALUE or tag == 0xF:
                second, i = length_prefixed(rep, i)
            ops.append((OPS[tag], key, second))
        else:
            sys.exit("unknown WriteBatch tag 0x%x" % tag)
    return ops


def traced_writes(path):
    """Every operation of every traced write, in trace order."""
    data = open(path, "rb").read()
    i = 0
    ops = []
    while i + 13 <= len(data):
        _ts, kind, n = struct.unpack_from("<QBI", data, i)
        i += 13
        payload = data[i:i + n]
        i += n
        if kind == TRACE_WRITE:
            rep, _ = length_prefixed(payload, 8)  # after the payload map
            ops.extend(batch_ops(rep))
    return ops


def scan_db(db, ldb):
    """The DB's visible keys and values (bytes), read from a copy."""
    copy = tempfile.mkdtemp(prefix="trace_prefix_")
    try:
        shutil.copytree(db, os.path.join(copy, "db"))
        out = subprocess.run([ldb, "--db=" + os.path.join(copy, "db"), "scan",
                              "--hex"], check=True, capture_output=True,
                             text=True).stdout
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    visible = {}
    for line in out.splitlines():
        if " ==> " in line:
            k, v = line.split(" ==> ", 1)
            visible[bytes.fromhex(k[2:])] = v[2:] if v.startswith("0x") else v
    return visible


class TracedState:
    """Each touched key's (exists, value base) as writes are applied in trace
    order. A DeleteRange deletes the keys the trace touched before it within
    its range; keys the trace never touched are left out."""

    def __init__(self):
        self.state = {}
        self.keys = []  # sorted, for ranges

    def apply(self, op):
        name, key, second = op
        if name == "DeleteRange":
            lo = bisect.bisect_left(self.keys, key)
            hi = bisect.bisect_left(self.keys, second)
            for k in self.keys[lo:hi]:
                self.state[k] = (False, None)
            return
        if key not in self.state:
            bisect.insort(self.keys, key)
        if name in ("Delete", "SingleDelete"):
            self.state[key] = (False, None)
        else:
            base = second[:4].hex().upper() if name in (
                "Put", "PutInitial", "TimedPut") else None
            self.state[key] = (True, base)


def mismatches(state, keys, visible):
    bad = []
    for key in keys:
        exists, base = state[key]
        if exists != (key in visible):
            bad.append(key)
        elif exists and base is not None and not visible[key].startswith(base):
            bad.append(key)
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--trace", required=True)
    p.add_argument("--saved", type=int, required=True,
                   help="sequence number of the saved state (the trace's name)")
    p.add_argument("--recovered", type=int, required=True,
                   help="the DB's last sequence number after recovery")
    p.add_argument("--db", required=True)
    p.add_argument("--ldb", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "test", "rocksdb",
        "tools", "ldb"))
    p.add_argument("--key", help="hex user key whose writes to list")
    p.add_argument("--window", type=int, default=40,
                   help="prefix lengths tried on each side of db_stress's")
    a = p.parse_args()

    ops = traced_writes(a.trace)
    replayed = a.recovered - a.saved
    print("traced operations: %d; db_stress replayed %d (seqno %d - %d)" % (
        len(ops), replayed, a.recovered, a.saved))
    if a.key:
        key = bytes.fromhex(a.key)
        for i, (name, k, second) in enumerate(ops):
            hit = k == key or (name == "DeleteRange" and k <= key < second)
            if hit and i >= replayed - 200:
                print("  index %d (nominal seqno %d)%s: %s" % (
                    i, a.saved + 1 + i, " (replayed)" if i < replayed else "",
                    name))
    visible = scan_db(a.db, a.ldb)
    print("DB: %d visible keys" % len(visible))
    lo = max(0, replayed - a.window)
    hi = min(len(ops), replayed + a.window)
    traced = TracedState()
    for op in ops[:lo]:
        traced.apply(op)
    # Only keys written before the window have a known state throughout it.
    compared = sorted(traced.state)
    print("keys compared: %d" % len(compared))
    best = None
    for n in range(lo, hi + 1):
        bad = mismatches(traced.state, compared, visible)
        if best is None or len(bad) < best[1]:
            best = (n, len(bad))
        if n == replayed or not bad or n % 10 == 0:
            print("  prefix %d (%+d): %d mismatched keys%s" % (
                n, n - replayed, len(bad),
                " e.g. " + bad[0].hex() if bad else ""))
        if n < len(ops):
            traced.apply(ops[n])
    print("best prefix: %d (%+d from db_stress's), %d mismatched keys" % (
        best[0], best[0] - replayed, best[1]))
    if best[1] == 0 and best[0] != replayed:
        print("verdict: the DB holds a clean prefix of the writes; the "
              "restored expected state is off by %+d writes" % (
                  best[0] - replayed))
    elif best[1] == 0:
        print("verdict: the DB matches the prefix db_stress replayed")
    else:
        print("verdict: no prefix in the window matches the DB")


if __name__ == "__main__":
    main()
