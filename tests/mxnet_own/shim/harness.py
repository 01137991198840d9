"""What every run needs (a conftest for run.py): a per-test time limit, and NumPy 1.x names."""

import os
import signal

import numpy
import pytest

# NumPy 2 removed the alias np.int, which MXNet 1.9.1's tests (written for NumPy 1.x) still use
if not hasattr(numpy, "int"):
    numpy.int = int

LIMIT = int(os.environ.get("MXNET_OWN_TEST_SECONDS", "120"))


def _too_long(signum, frame):
    raise TimeoutError(f"the test ran longer than {LIMIT} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(LIMIT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
