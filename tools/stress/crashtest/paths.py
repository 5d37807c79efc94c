"""Where the crash test finds its parts: this folder, the repository, the
entry script (runs re-execute it for each configuration's child process)."""

import os

STRESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(STRESS_DIR))
SCRIPT = os.path.join(STRESS_DIR, "lodestone_crashtest.py")


def default_stress_cmd():
    return os.path.join(ROOT, "build", "test", "rocksdb", "db_stress_tool", "db_stress")


def default_upstream_dir():
    return os.path.join(ROOT, "build", "test", "upstream", "src")
