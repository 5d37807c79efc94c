#!/usr/bin/env python3
"""Lodestone's crash test; the code is the crashtest package beside this
file (crashtest/__init__.py lists its modules), the usage is `--help`."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from crashtest.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
