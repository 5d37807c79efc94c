#!/usr/bin/env python3
"""The test command's format and lint step, as RocksDB's
build_tools/format-diff.sh is for upstream: every C/C++ file of this
repository formatted as clang-format formats it (.clang-format: upstream's
Google style), and every Python file clean under pyflakes (unused imports
and variables, undefined names). A missing tool fails the check: a lint that
cannot run has checked nothing.

  tools/lint.py          check, listing what differs
  tools/lint.py --fix    reformat the C/C++ files in place
"""

import importlib.util
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXX = (".cc", ".h", ".c")


def tracked_files():
    """The repository's files (git ls-files; without git, the tree below
    the root minus build outputs)."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files"], check=True,
                             capture_output=True, text=True).stdout
        return [f for f in out.splitlines() if os.path.exists(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, names in os.walk(ROOT):
            dirnames[:] = [d for d in dirnames
                           if d not in ("build", ".git", "__pycache__")]
            files += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in names]
        return files


def main(argv):
    fix = "--fix" in argv
    files = tracked_files()
    cxx = sorted(f for f in files if f.endswith(CXX))
    py = sorted(f for f in files if f.endswith(".py"))
    failures = []
    clang_format = shutil.which("clang-format")
    if clang_format is None:
        failures.append("clang-format not found (Debian: apt-get install clang-format)")
    else:
        for f in cxx:
            mode = ["-i"] if fix else ["--dry-run", "-Werror"]
            if subprocess.run([clang_format, "--style=file"] + mode + [f], cwd=ROOT,
                              capture_output=True).returncode != 0:
                failures.append("%s: not formatted (tools/lint.py --fix)" % f)
    if importlib.util.find_spec("pyflakes") is None:
        failures.append("pyflakes not found (python3 -m pip install pyflakes)")
    else:
        proc = subprocess.run([sys.executable, "-m", "pyflakes"] + py, cwd=ROOT,
                              capture_output=True, text=True)
        failures += [line for line in (proc.stdout + proc.stderr).splitlines() if line]
    print("lint: %d C/C++ files, %d Python files" % (len(cxx), len(py)))
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
