import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--db_bench", default=os.environ.get("LODESTONE_DB_BENCH", ""),
                     help="the Lodestone db_bench to test")


@pytest.fixture
def db_bench(request):
    path = request.config.getoption("--db_bench")
    if not path or not os.access(path, os.X_OK):
        # A test that did not run has checked nothing: fail, never skip.
        pytest.fail("no db_bench: pass --db_bench=PATH")
    return path
