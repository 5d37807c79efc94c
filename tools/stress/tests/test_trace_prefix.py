"""trace_prefix.py on a hand-built trace and a stand-in ldb: the three
verdicts (db_stress's prefix, a clean prefix off by some writes, no prefix)."""

import contextlib
import importlib.util
import io
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "trace_prefix", os.path.join(HERE, "..", "trace_prefix.py"))
trace_prefix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trace_prefix)


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def slice_(b):
    return varint(len(b)) + b


def batch(tag, key, second=None):
    rep = struct.pack("<QI", 0, 1) + bytes([tag]) + slice_(key)
    if second is not None:
        rep += slice_(second)
    return rep


def trace_file(path, batches):
    with open(path, "wb") as f:
        f.write(struct.pack("<QBI", 0, 1, 0))  # kTraceBegin
        for rep in batches:
            payload = struct.pack("<Q", 1) + slice_(rep)  # kWriteBatchData
            f.write(struct.pack("<QBI", 0, 3, len(payload)) + payload)


def value(base):
    return struct.pack("<I", base) + b"\x00" * 4


# Every key written first; then delete k1, k1=5 as an initial put, delete
# [k2, k3), k4=8.
WRITES = [batch(0x1, b"k1", value(1)), batch(0x1, b"k2", value(2)),
          batch(0x1, b"k3", value(3)), batch(0x1, b"k4", value(4)),
          batch(0x0, b"k1"), batch(0x1B, b"k1", value(5)),
          batch(0xF, b"k2", b"k3"), batch(0x1, b"k4", value(8))]


def run(tmp_path, visible, recovered):
    trace_file(str(tmp_path / "100.trace"), WRITES)
    db = tmp_path / "db"
    db.mkdir()
    (db / "scan.txt").write_text("".join(
        "0x%s ==> 0x%s\n" % (k.hex().upper(), value(b).hex().upper())
        for k, b in visible))
    ldb = tmp_path / "ldb"
    ldb.write_text("#!/bin/sh\ncat \"${1#--db=}/scan.txt\"\n")
    ldb.chmod(0o755)
    argv = ["trace_prefix.py", "--trace", str(tmp_path / "100.trace"),
            "--saved", "100", "--recovered", str(recovered), "--db", str(db),
            "--ldb", str(ldb), "--window", "2"]
    out = io.StringIO()
    old = sys.argv
    sys.argv = argv
    try:
        with contextlib.redirect_stdout(out):
            trace_prefix.main()
    finally:
        sys.argv = old
    return out.getvalue()


def test_the_prefix_db_stress_replayed(tmp_path):
    # Recovered at seqno 106: the first six writes.
    out = run(tmp_path, [(b"k1", 5), (b"k2", 2), (b"k3", 3), (b"k4", 4)], 106)
    assert "best prefix: 6 (+0 from db_stress's), 0 mismatched keys" in out
    assert "verdict: the DB matches the prefix db_stress replayed" in out


def test_a_clean_prefix_one_write_further(tmp_path):
    # Recovered at seqno 106, but the DB holds the DeleteRange (write 7).
    out = run(tmp_path, [(b"k1", 5), (b"k3", 3), (b"k4", 4)], 106)
    assert "best prefix: 7 (+1 from db_stress's), 0 mismatched keys" in out
    assert "off by +1 writes" in out


def test_no_prefix_holds_a_lost_write(tmp_path):
    # k4=8 (write 8) is there, yet k1=5 (write 6) is not.
    out = run(tmp_path, [(b"k3", 3), (b"k4", 8)], 108)
    assert "verdict: no prefix in the window matches the DB" in out
