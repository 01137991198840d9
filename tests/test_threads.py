"""The kernels' thread counts: capped to the usable cores, never raised above what was set."""

import subprocess
import sys

import pytest

from minisym.kernels import threads

threadpoolctl = pytest.importorskip("threadpoolctl")

PROBE = """
import os, json
os.sched_setaffinity(0, {{0}})  # one usable core, whatever the machine has (before numpy loads)
import numpy, numba, threadpoolctl
import minisym
blas = threadpoolctl.ThreadpoolController().select(user_api="blas").info()
print(json.dumps({{"numba": numba.get_num_threads(), "blas": [b["num_threads"] for b in blas]}}))
"""


def _probe(env_extra):
    import json
    import os

    out = subprocess.run(
        [sys.executable, "-c", PROBE.format()],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env_extra),
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="Linux only")
def test_blas_and_numba_threads_follow_the_usable_cores():
    seen = _probe({"OPENBLAS_NUM_THREADS": "4", "NUMBA_NUM_THREADS": "4"})
    assert seen["numba"] == 1
    assert seen["blas"] and all(n == 1 for n in seen["blas"])


def test_a_smaller_blas_setting_is_kept():
    before = threadpoolctl.ThreadpoolController().select(user_api="blas").info()
    counts = [b["num_threads"] for b in before]
    assert threads.cap_blas_threads(10_000) == {
        b["internal_api"]: n for b, n in zip(before, counts)
    }
    after = threadpoolctl.ThreadpoolController().select(user_api="blas").info()
    assert [b["num_threads"] for b in after] == counts
