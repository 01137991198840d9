"""Executors in several threads and processes at once.

- One executor per thread, four threads at once: every result equals a serial run's.
- numba's threading layer never aborts the process: ``omp`` / ``tbb`` may be called from
  several threads; under ``workqueue`` (which aborts on concurrent access) minisym's kernels take
  one lock; in a child forked after GNU OpenMP started (which would die with "fork() called from
  a process already using GNU OpenMP") they run serially (minisym/kernels/jit.py).
- Four processes at once forked from a process whose kernels already ran, and two freshly
  spawned ones.
- One executor shared by two threads: a call made while another thread runs forward or
  backward raises an MXNetError saying so; every call that runs computes on its own inputs,
  never on a mix (checked over many iterations).
"""

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numba
import numpy as np
import pytest

import minisym as mx
from minisym.kernels import conv, jit

ROOT = Path(__file__).resolve().parent.parent
NO_JIT = bool(numba.config.DISABLE_JIT)
THREADS = 4
ITERATIONS = 3


def resnet_ish():
    """conv-bn-relu, a residual unit (two conv-bn, identity shortcut), max and global pooling,
    a classifier: every numba kernel (im2col, col2im, pooling, batch norm) and BLAS."""
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=8, name="conv0")
    x = mx.sym.Activation(mx.sym.BatchNorm(x, name="bn0"), act_type="relu", name="relu0")
    y = mx.sym.Convolution(x, kernel=(3, 3), pad=(1, 1), num_filter=8, name="conv1")
    y = mx.sym.Activation(mx.sym.BatchNorm(y, name="bn1"), act_type="relu", name="relu1")
    y = mx.sym.Convolution(y, kernel=(3, 3), pad=(1, 1), num_filter=8, name="conv2")
    y = mx.sym.BatchNorm(y, name="bn2")
    x = mx.sym.Activation(x + y, act_type="relu", name="relu2")
    x = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool0")
    x = mx.sym.Pooling(x, kernel=(1, 1), global_pool=True, pool_type="avg", name="gpool")
    x = mx.sym.FullyConnected(mx.sym.Flatten(x), num_hidden=5, name="fc")
    return mx.sym.SoftmaxOutput(x, name="softmax")


SHAPE = (4, 3, 12, 12)


def _params():
    rng = np.random.default_rng(1)
    ex = resnet_ish().simple_bind(mx.cpu(), data=SHAPE)
    return {
        n: rng.standard_normal(a.shape).astype(np.float32) * 0.3
        for n, a in ex.arg_dict.items()
        if n not in ("data", "softmax_label")
    }


def _inputs(i):
    rng = np.random.default_rng(100 + i)
    return (
        rng.standard_normal(SHAPE).astype(np.float32),
        rng.integers(0, 5, SHAPE[0]).astype(np.float32),
    )


def _train_steps(params, i):
    """ITERATIONS forward/backward on a new executor: outputs, gradients and moving stats."""
    ex = resnet_ish().simple_bind(mx.cpu(), data=SHAPE)
    for name, value in params.items():
        ex.arg_dict[name][:] = value
    data, label = _inputs(i)
    results = []
    for _ in range(ITERATIONS):
        out = ex.forward(is_train=True, data=data, softmax_label=label)[0].asnumpy()
        ex.backward()
        results.append(
            [out]
            + [g.asnumpy() for g in ex.grad_arrays if g is not None]
            + [a.asnumpy() for a in ex.aux_arrays]
        )
        data = data * 0.9 + 0.1
    return results


def _assert_same(results, expected, who):
    for step, (got, want) in enumerate(zip(results, expected)):
        for k, (a, b) in enumerate(zip(got, want)):
            np.testing.assert_allclose(
                a, b, rtol=1e-5, atol=1e-6, err_msg=f"{who}, step {step}, array {k}"
            )


# --- one executor per thread ---------------------------------------------------------------------
def test_one_executor_per_thread_equals_serial_runs():
    params = _params()
    expected = [_train_steps(params, i) for i in range(THREADS)]
    results, errors = [None] * THREADS, []
    start = threading.Barrier(THREADS)

    def work(i):
        try:
            start.wait()
            results[i] = _train_steps(params, i)
        except BaseException as exc:  # noqa: BLE001 -- reported below
            errors.append((i, exc))

    threads = [
        threading.Thread(target=work, args=(i,), name=f"learner-{i}") for i in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    for i in range(THREADS):
        _assert_same(results[i], expected[i], f"thread {i}")


@pytest.mark.skipif(NO_JIT, reason="no threading layer without the JIT")
def test_threading_layer_in_use_and_how_kernels_are_called():
    resnet_ish().simple_bind(mx.cpu(), data=(8, 3, 48, 48)).forward()  # large enough for threads
    layer = numba.threading_layer()
    assert layer in ("omp", "tbb", "workqueue")
    assert jit.parallel_call_mode() == ("locked" if layer == "workqueue" else "parallel")


def test_a_small_call_runs_the_serial_twin_a_large_one_the_parallel(monkeypatch):
    """Starting threads costs more than a small image's loops: below jit.SERIAL_BELOW elements
    a kernel runs serially (the same loops, the same values); a ``light`` one (im2col: 16)
    below that many times as many."""
    ran = []
    kernel = conv._im2col
    monkeypatch.setattr(jit, "SERIAL_BELOW", 1 << 17)
    monkeypatch.setattr(kernel, "parallel", lambda *a: ran.append("parallel"))
    monkeypatch.setattr(kernel, "_serial", lambda *a: ran.append("serial"))
    for n in (1, 64, 256):  # (27, n * 24 * 24) columns: 15,552, 995,328 and 3,981,312 elements
        conv.im2col(np.ones((n, 3, 24, 24), np.float32), (3, 3), (1, 1), (1, 1), (1, 1), (24, 24))
    large = "parallel" if jit.parallel_call_mode() != "serial" else "serial"
    assert kernel.light == 16
    assert ran == ["serial", "serial", large]


WORKQUEUE = textwrap.dedent("""
    import threading, numba, numpy as np
    import minisym as mx
    from minisym.kernels import jit
    data = mx.sym.Variable('data')
    x = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=8, name='c')
    x = mx.sym.Pooling(mx.sym.BatchNorm(x, name='bn'), kernel=(2, 2), stride=(2, 2),
                       pool_type='max')
    def run(seed, out):
        ex = x.simple_bind(mx.cpu(), data=(8, 3, 48, 48))  # parallel twins (jit.SERIAL_BELOW)
        ex.arg_dict['c_weight'][:] = 0.1
        ex.arg_dict['data'][:] = np.random.default_rng(seed).standard_normal((8, 3, 48, 48))
        for _ in range(20):
            ex.forward(is_train=True)
            ex.backward(mx.nd.ones(ex.outputs[0].shape))
        out[seed] = ex.grad_dict['data'].asnumpy()
    serial = {}
    for seed in range(4):
        run(seed, serial)
    threaded = {}
    threads = [threading.Thread(target=run, args=(s, threaded)) for s in range(4)]
    [t.start() for t in threads]; [t.join() for t in threads]
    assert all(np.allclose(serial[s], threaded[s], rtol=1e-5, atol=1e-6) for s in range(4))
    print(numba.threading_layer(), jit.parallel_call_mode())
""")


@pytest.mark.slow
@pytest.mark.skipif(NO_JIT, reason="no threading layer without the JIT")
def test_workqueue_layer_is_locked_not_aborted():
    """numba's workqueue layer terminates the process on concurrent use; minisym locks it."""
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", WORKQUEUE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Concurrent access has been detected" not in done.stderr
    assert done.stdout.split() == ["workqueue", "locked"]


# --- several processes -------------------------------------------------------------------------
PROCESSES = textwrap.dedent("""
    import multiprocessing as mp, sys, numba, numpy as np
    import minisym as mx
    from minisym.kernels import jit

    def net():
        data = mx.sym.Variable('data')
        x = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=8, name='c')
        x = mx.sym.Activation(mx.sym.BatchNorm(x, name='bn'), act_type='relu')
        return mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='max')

    SHAPE = (8, 3, 48, 48)  # large enough for the parallel twins (jit.SERIAL_BELOW)

    def run(seed):
        ex = net().simple_bind(mx.cpu(), data=SHAPE)
        ex.arg_dict['c_weight'][:] = 0.1
        ex.arg_dict['data'][:] = np.random.default_rng(seed).standard_normal(SHAPE)
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones(ex.outputs[0].shape))
        return (ex.outputs[0].asnumpy(), ex.grad_dict['data'].asnumpy(),
                ex.grad_dict['c_weight'].asnumpy(), jit.parallel_call_mode())

    if __name__ == '__main__':
        expected = [run(seed) for seed in range(4)]   # GNU OpenMP is started in this process
        modes = {}
        for method, count in (arg.split(':') for arg in sys.argv[1:]):
            with mp.get_context(method).Pool(int(count)) as pool:
                got = pool.map_async(run, range(int(count))).get(timeout=240)
            for want, have in zip(expected, got):
                for a, b in zip(want[:3], have[:3]):
                    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
            modes[method] = sorted({have[3] for have in got})
        print(numba.threading_layer() if not numba.config.DISABLE_JIT else 'nojit', modes)
""")


@pytest.mark.slow
def test_processes_at_once_forked_and_spawned(tmp_path):
    """Four children forked from a process whose kernels ran (the notebook that then uses a
    multiprocessing.Pool), two fresh interpreters (two Jupyter kernels), at once."""
    script = tmp_path / "processes.py"
    script.write_text(PROCESSES)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script), "fork:4", "spawn:2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Terminating" not in done.stderr, done.stderr[-3000:]
    layer, modes = done.stdout.split(" ", 1)
    if layer == "omp":  # forked children of a GNU OpenMP process run the kernels serially
        assert modes.strip() == "{'fork': ['serial'], 'spawn': ['parallel']}"
    elif layer != "nojit":
        assert "'fork'" in modes and "'spawn'" in modes


# --- one executor shared by two threads --------------------------------------------------------
_SEEN = {}  # thread id -> what the probe's forward received
_HOLD = {"on": False}  # when on, the probe's forward waits for _RELEASE
_ENTERED, _RELEASE = threading.Event(), threading.Event()


class Probe(mx.operator.CustomOp):
    """out = 2 * data; keeps what it received, per thread, to show a forward never mixes two
    threads' inputs."""

    def forward(self, is_train, req, in_data, out_data, aux):
        if _HOLD["on"]:
            _ENTERED.set()
            assert _RELEASE.wait(timeout=60)
        received = in_data[0].asnumpy().copy()
        _SEEN[threading.get_ident()] = received
        self.assign(out_data[0], req[0], received * 2)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0].asnumpy() * 2)


@mx.operator.register("concurrency_probe")
class ProbeProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Probe()


def _shared_executor():
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, name="conv")
    x = mx.sym.Custom(x, op_type="concurrency_probe", name="probe")
    return mx.sym.Pooling(
        x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool"
    ).simple_bind(mx.cpu(), data=(2, 3, 8, 8))


def test_a_call_while_another_thread_runs_raises_a_clear_error():
    ex = _shared_executor()
    ex.arg_dict["conv_weight"][:] = 0.1
    caught = []

    def other():
        assert _ENTERED.wait(timeout=60)
        try:
            for call in (
                lambda: ex.forward(),
                lambda: ex.backward(mx.nd.ones((2, 4, 4, 4))),
                lambda: ex.copy(),
            ):
                try:
                    call()
                except mx.base.MXNetError as exc:
                    caught.append(str(exc))
        finally:
            _RELEASE.set()

    _HOLD["on"] = True
    _ENTERED.clear()
    _RELEASE.clear()
    thread = threading.Thread(target=other, name="second-learner")
    thread.start()
    try:
        ex.forward(data=np.ones((2, 3, 8, 8)))  # waits inside the probe until `other` tried
    finally:
        _HOLD["on"] = False
        thread.join(timeout=60)
    assert len(caught) == 3, caught
    for what, text in zip(("forward", "backward", "copy"), caught):
        assert text.startswith(
            f"Executor.{what}: this executor is running forward in another "
            "thread (MainThread); one executor runs one call at a time"
        ), text
        assert "executor.copy()" in text and "simple_bind" in text
    np.testing.assert_allclose(
        ex.outputs[0].asnumpy(), 2 * 0.1 * 27 * np.ones((2, 4, 4, 4)), rtol=1e-5
    )
    ex.backward(mx.nd.ones((2, 4, 4, 4)))  # usable again, from any thread
    assert ex.copy().forward()[0].shape == (2, 4, 4, 4)


def test_shared_executor_never_mixes_two_threads_inputs():
    ex = _shared_executor()
    ex.arg_dict["conv_weight"][:] = np.random.default_rng(0).standard_normal((4, 3, 3, 3))
    rounds = 150
    stats = {"ran": [0, 0], "refused": [0, 0]}
    bad, start = [], threading.Barrier(2)

    def work(k):
        x = np.full((2, 3, 8, 8), float(k + 1), np.float32)
        start.wait()
        while stats["ran"][k] < rounds and len(bad) < 3:
            try:
                ex.forward(is_train=True, data=x)
                mine = _SEEN[threading.get_ident()]
                ex.backward(mx.nd.ones((2, 4, 4, 4)))
            except mx.base.MXNetError as exc:
                if "in another thread" not in str(exc):
                    bad.append(exc)
                stats["refused"][k] += 1
                time.sleep(0.0005)  # let the other thread finish its call, then try again
                continue
            stats["ran"][k] += 1
            conv = _SEEN_CONV[k]
            if not np.allclose(mine, conv, rtol=1e-5):
                bad.append(f"thread {k}: its forward computed on another thread's data")

    conv_ex = ex.copy()  # what the probe must receive for each thread's data
    _SEEN_CONV = {}
    for k in range(2):
        conv_ex.forward(data=np.full((2, 3, 8, 8), float(k + 1), np.float32))
        _SEEN_CONV[k] = _SEEN[threading.get_ident()].copy()
    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not bad, bad[:3]
    assert stats["ran"] == [rounds, rounds], stats  # (stats["refused"]: the calls that overlapped)


def test_the_same_thread_may_call_again():
    """A monitor callback may use the executor it watches (copy it, for instance)."""
    ex = _shared_executor()
    copies = []
    ex.set_monitor_callback(lambda name, arr: copies.append(ex.copy()) if not copies else None)
    ex.forward()
    assert len(copies) == 1 and copies[0].forward()[0].shape == (2, 4, 4, 4)
