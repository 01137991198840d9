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


WAITING = """
import os, json
import minisym
from minisym.kernels import jit
print(json.dumps([os.environ.get("GOMP_SPINCOUNT"), os.environ.get("OMP_WAIT_POLICY"),
                  jit.SERIAL_BELOW]))
"""


def _waiting(**env):
    import json
    import os

    base = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    out = subprocess.run(
        [sys.executable, "-c", WAITING], capture_output=True, text=True, env={**base, **env}
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.slow
def test_workers_spin_between_loops_only_when_blas_runs_on_one_thread():
    """One BLAS thread (the lessons' setting): numba's workers spin a moment between loops and
    small calls run in parallel sooner; more BLAS threads: they sleep (spinning would take the
    cores BLAS needs); a wait policy of yours is kept."""
    if threads.usable_cores() < 2:
        pytest.skip("one usable core: BLAS is capped to one thread whatever is set")
    assert _waiting(OPENBLAS_NUM_THREADS="1") == [
        threads.SPIN_COUNT,
        None,
        threads.jit.SERIAL_BELOW_SPINNING,
    ]
    assert _waiting(OPENBLAS_NUM_THREADS="2") == [None, "PASSIVE", threads.jit.SERIAL_BELOW]
    assert _waiting(OPENBLAS_NUM_THREADS="1", OMP_WAIT_POLICY="ACTIVE") == [
        None,
        "ACTIVE",
        threads.jit.SERIAL_BELOW,
    ]


def test_workers_spin_asks_for_one_blas_thread():
    assert threads.workers_spin({"openblas": 1})
    assert not threads.workers_spin({"openblas": 2})
    assert not threads.workers_spin({})  # threadpoolctl missing: they sleep, the safe choice
