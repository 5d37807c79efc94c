"""Locating (and building) the two db_bench binaries, running a scenario
with alternating variants on fresh DBs, and recording provenance."""

import datetime
import hashlib
import os
import platform
import shutil
import subprocess

from . import parse
from .scenario import step_command

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
BUILD_CONFIG = {"lodestone": "release", "stock": "stock"}


class BenchError(Exception):
    pass


def default_binary(kind):
    return os.path.join(REPO, "build", BUILD_CONFIG[kind], "rocksdb", "db_bench")


def locate(kind, path=None, build=True):
    """The db_bench of `kind` (stock|lodestone): `path` if given, else the
    repo's build dir, built with tools/build.sh when missing and `build`."""
    if path:
        if not os.access(path, os.X_OK):
            raise BenchError("%s db_bench %s is not an executable" % (kind, path))
        return path
    binary = default_binary(kind)
    if not os.access(binary, os.X_OK):
        if not build:
            raise BenchError("no %s db_bench at %s (run tools/build.sh %s)" %
                             (kind, binary, BUILD_CONFIG[kind]))
        subprocess.run([os.path.join(REPO, "tools", "build.sh"),
                        BUILD_CONFIG[kind], "db_bench"], check=True)
    return binary


def build_info(binary):
    """Build type and flags from the CMakeCache next to the binary."""
    info = {"binary": binary}
    cache = os.path.join(os.path.dirname(os.path.dirname(binary)), "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                for key in ("CMAKE_BUILD_TYPE", "CMAKE_CXX_FLAGS_RELEASE",
                            "CMAKE_CXX_FLAGS", "LODESTONE_STOCK",
                            "ROCKSDB_BUILD_SHARED", "PORTABLE"):
                    if line.startswith(key + ":"):
                        info[key.lower()] = line.split("=", 1)[1].strip()
    info["build_type"] = info.get("cmake_build_type", "unknown")
    return info


def patch_series_sha256():
    h = hashlib.sha256()
    patches = os.path.join(REPO, "patches")
    with open(os.path.join(patches, "series"), "rb") as f:
        series = f.read()
    h.update(series)
    for line in series.decode().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            with open(os.path.join(patches, line), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return "%d x %s" % (os.cpu_count(), line.split(":", 1)[1].strip())
    except OSError:
        pass
    return "%d x %s" % (os.cpu_count(), platform.processor() or "unknown")


def git_commit():
    try:
        return subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def git_dirty():
    """Whether tracked files differ from HEAD (results of uncommitted code)."""
    try:
        out = subprocess.run(["git", "-C", REPO, "status", "--porcelain",
                              "--untracked-files=no"],
                             capture_output=True, text=True, check=True).stdout
        return bool(out.strip())
    except (OSError, subprocess.CalledProcessError):
        return False


def provenance(binaries):
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "git_dirty": git_dirty(),
        # Other work on the machine is the usual cause of wide min..max.
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "cpu": cpu_model(),
        "host": platform.node(),
        "patch_series_sha256": patch_series_sha256(),
        "git_commit": git_commit(),
        "builds": {kind: build_info(path) for kind, path in binaries.items()},
    }


def check_release(binaries, allow_debug=False):
    """Refuses debug builds: their numbers mean nothing."""
    if allow_debug:
        return
    for kind, path in binaries.items():
        build_type = build_info(path)["build_type"]
        if build_type not in ("Release", "RelWithDebInfo", "unknown"):
            raise BenchError("refusing to compare a %s build (%s db_bench %s)" %
                             (build_type, kind, path))


def run_scenario(scenario, binaries, repetitions, out_dir, db_root,
                 allow_debug=False, log=print):
    check_release(binaries, allow_debug)
    variants = list(scenario["variants"])
    runs = []
    raw_dir = os.path.join(out_dir, "raw")
    os.makedirs(raw_dir, exist_ok=True)
    os.makedirs(db_root, exist_ok=True)  # db_bench creates only the DB dir.
    # "shared_fill": {"variant": v, "steps": n}: each repetition, variant v
    # runs the first n steps once and every variant runs the rest on a
    # checkpoint of that DB, so all read the same files (each fill would cut
    # its tables and leave its L0 differently). Those steps are logged, not
    # compared. With "once": true the fill runs once for all repetitions (a
    # DB too large to build per repetition; the read steps must not depend
    # on what an earlier repetition did to its own checkpoint). Variants
    # listed under "own_fill" run the fill steps themselves, each on its own
    # DB: one that writes tables with options the shared fill's variant
    # lacks (the every-option variant must read what every option writes).
    shared = scenario.get("shared_fill")
    shared_steps = shared["steps"] if shared else 0
    shared_once = bool(shared and shared.get("once"))
    shared_path = os.path.join(db_root, "%s-shared" % scenario["name"])
    for rep in range(repetitions):
        if shared and (rep == 0 or not shared_once):
            shutil.rmtree(shared_path, ignore_errors=True)
            _run_shared_fill(scenario, binaries, shared, rep, shared_path,
                             raw_dir, log)
        # Alternate which variant goes first, so drift hits all alike.
        order = variants[rep % len(variants):] + variants[:rep % len(variants)]
        for variant in order:
            variant_binary = scenario["variants"][variant]["binary"]
            db_path = os.path.join(db_root, "%s-%s" % (scenario["name"], variant))
            shutil.rmtree(db_path, ignore_errors=True)  # A fresh DB each rep.
            own_fill = shared and variant in shared.get("own_fill", [])
            if shared and not own_fill:
                checkpoint(shared_path, db_path)
            steps = scenario["steps"] if own_fill else scenario["steps"][shared_steps:]
            for step in steps:
                tag = "%s.rep%d.%s" % (variant, rep, step["name"])
                report = os.path.join(raw_dir, tag + ".csv") \
                    if step.get("interval_report") else None
                workload_report = os.path.join(raw_dir, tag + ".workload.csv") \
                    if step.get("workload_report") else None
                # A step may name the binary that prepares the DB (e.g. one
                # whose db_bench has a flag stock lacks); data is the same.
                binary = binaries[step.get("binary", variant_binary)]
                cmd = step_command(binary, scenario, variant, step, db_path,
                                   report, workload_report)
                log("[rep %d] %-12s %-10s %s" % (rep, variant, step["name"],
                                                  step["benchmarks"]))
                proc = _run_logged(cmd, tag, raw_dir)
                # The header (version, assertion warning) goes to stderr.
                parsed = parse.parse_db_bench(proc.stdout + "\n" + proc.stderr)
                if parsed["assertions_enabled"] and not allow_debug:
                    raise BenchError("%s: db_bench has assertions enabled; "
                                     "refusing to compare a debug build" % tag)
                runs.append({
                    "rep": rep, "variant": variant, "step": step["name"],
                    "command": cmd, "parsed": parsed,
                    "intervals": parse.parse_report_csv(report)
                    if report and os.path.exists(report) else None,
                    "workload_rows": parse.parse_workload_csv(workload_report)
                    if workload_report and os.path.exists(workload_report) else None,
                })
                for b in parsed["benchmarks"]:
                    log("           %-20s %12.0f ops/s" % (b["name"], b["ops_per_sec"]))
            shutil.rmtree(db_path, ignore_errors=True)
    if shared:
        shutil.rmtree(shared_path, ignore_errors=True)
    return runs


# Files a DB never changes once written: a checkpoint may link them.
_IMMUTABLE_SUFFIXES = (".sst", ".blob")


def checkpoint(src, dst):
    """A copy of the closed DB in src at dst, as RocksDB's Checkpoint makes
    one: table and blob files hard-linked (the DB at dst may delete its
    links, never change the files), everything else (MANIFEST, CURRENT,
    OPTIONS, WAL, LOG) copied. Falls back to copying across file systems."""
    os.makedirs(dst)
    for name in sorted(os.listdir(src)):
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s):
            shutil.copytree(s, d)
        elif name.endswith(_IMMUTABLE_SUFFIXES):
            try:
                os.link(s, d)
            except OSError:
                shutil.copy2(s, d)
        else:
            shutil.copy2(s, d)


def _run_shared_fill(scenario, binaries, shared, rep, db_path, raw_dir, log):
    variant = shared["variant"]
    variant_binary = scenario["variants"][variant]["binary"]
    for step in scenario["steps"][:shared["steps"]]:
        tag = "shared.rep%d.%s" % (rep, step["name"])
        binary = binaries[step.get("binary", variant_binary)]
        cmd = step_command(binary, scenario, variant, step, db_path)
        log("[rep %d] %-12s %-10s %s" % (rep, "(shared)", step["name"],
                                          step["benchmarks"]))
        _run_logged(cmd, tag, raw_dir)


def _run_logged(cmd, tag, raw_dir):
    """Runs one db_bench step, keeps its command and output in raw_dir."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(raw_dir, tag + ".txt"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + proc.stdout +
                "\n--- stderr ---\n" + proc.stderr)
    if proc.returncode != 0:
        raise BenchError("%s failed (rc %d); see %s" %
                         (tag, proc.returncode, raw_dir))
    return proc
