"""Arrays that would not fit in memory are refused before anything is allocated.

A learner who types a batch of 100000 images, or a shape with one zero too many, gets an
``mx.base.MXNetMemoryError`` (an MXNetError, so a RuntimeError as MXNet's failed allocation is,
and a MemoryError) that says what was asked, how much is available, the variable that raises
the limit and the fix -- instead of the system killing the Jupyter kernel. The limit is the
memory the system says is available (cgroup, /proc/meminfo, sysconf) or MINISYM_MEMORY_LIMIT.

MXNet 1.9.1, for the record (run with ``ulimit -v`` so it could not take the machine):
``simple_bind(data=(100000, 2000000))`` raises ``RuntimeError: simple_bind error. Arguments:
data: (100000, 2000000) ... MXNetError: Failed to allocate CPU Memory``, and ``mx.nd.zeros`` of
that shape an ``MXNetError`` (its int32 size check). minisym keeps those types.
"""

import os
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import minisym as mx
from catalogue.state import assert_unchanged, snapshot
from minisym import executor_memory
from minisym import memory_budget as memory
from minisym.base import MXNetMemoryError

ROOT = Path(__file__).resolve().parent.parent
GiB = 1 << 30


@pytest.fixture
def limit(monkeypatch):
    """Set MINISYM_MEMORY_LIMIT for one test: ``limit('64MiB')``."""

    def set_limit(text):
        monkeypatch.setenv(memory.ENV, text)

    monkeypatch.delenv(memory.ENV, raising=False)
    return set_limit


def _net():
    data = mx.sym.Variable("data")
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv1")
    act = mx.sym.Activation(mx.sym.BatchNorm(conv, name="bn1"), act_type="relu", name="relu1")
    pool = mx.sym.Pooling(act, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    return mx.sym.FullyConnected(pool, num_hidden=10, name="fc1")


def _peak_during(call):
    """(the exception ``call`` raised, peak bytes traced while it ran)."""
    tracemalloc.start()
    try:
        try:
            call()
        except Exception as exc:  # noqa: BLE001 -- returned for the test to check
            raised = exc
        else:
            raised = None
        return raised, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- sizes and the system's figures -----------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("2GiB", 2 * GiB),
        ("2 GiB", 2 * GiB),
        ("2g", 2 * GiB),
        ("1.5G", 3 * GiB // 2),
        ("1500MB", 1500 * 10**6),
        ("512MiB", 512 << 20),
        ("64k", 64 << 10),
        ("1000000", 10**6),
        ("1_000", 1000),
        ("unlimited", None),
        ("off", None),
    ],
)
def test_parse_size(text, expected):
    assert memory.parse_size(text) == expected


@pytest.mark.parametrize("text", ["lots", "2 GB RAM", "-1G", "1e9", ""])
def test_a_bad_limit_names_the_variable_and_the_forms(text, limit):
    with pytest.raises(
        mx.base.MXNetValueError,
        match=r"MINISYM_MEMORY_LIMIT=.* is not a size: "
        r"write it as 2GiB, 1500MB, 8G",
    ):
        memory.parse_size(text)
    if text:
        limit(text)
        with pytest.raises(ValueError, match="MINISYM_MEMORY_LIMIT"):
            mx.nd.zeros((2, 3))


def test_format_bytes():
    assert [memory.format_bytes(n) for n in (0, 1023, 1024, 3 << 29, 5 << 40)] == [
        "0 B",
        "1023 B",
        "1.0 KiB",
        "1.5 GiB",
        "5.0 TiB",
    ]


def test_the_system_says_how_much_is_available(limit):
    nbytes, source = memory.available()
    if sys.platform.startswith("linux"):
        assert nbytes is not None and nbytes >= 0
        assert "MemAvailable" in source or "cgroup" in source
    limit("3GiB")
    assert memory.available() == (3 * GiB, "set by MINISYM_MEMORY_LIMIT=3GiB")


def _fake_files(monkeypatch, files):
    def read(path):
        if path not in files:
            raise FileNotFoundError(path)
        return files[path].strip()

    monkeypatch.setattr(memory, "_read", read)


def test_cgroup_v2_limit_counts_usage_but_not_reclaimable_cache(monkeypatch):
    _fake_files(
        monkeypatch,
        {
            "/proc/self/cgroup": "0::/user.slice/jupyter-ada.scope\n",
            "/sys/fs/cgroup/user.slice/jupyter-ada.scope/memory.max": "max",
            "/sys/fs/cgroup/user.slice/memory.max": str(4 * GiB),
            "/sys/fs/cgroup/user.slice/memory.current": str(3 * GiB),
            "/sys/fs/cgroup/user.slice/memory.stat": f"anon 1\ninactive_file {GiB}\n",
        },
    )
    nbytes, source = memory._cgroup_available()
    assert nbytes == 2 * GiB  # 4 GiB limit - (3 GiB used - 1 GiB file cache)
    assert "cgroup limit 4.0 GiB in /sys/fs/cgroup/user.slice/memory.max" == source


def test_cgroup_v1_limit_and_no_limit(monkeypatch):
    files = {
        "/proc/self/cgroup": "4:memory:/docker/abc\n3:cpu:/docker/abc\n",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes": str(2 * GiB),
        "/sys/fs/cgroup/memory/memory.usage_in_bytes": str(GiB // 2),
        "/sys/fs/cgroup/memory/memory.stat": "total_inactive_file 0\n",
    }
    _fake_files(monkeypatch, files)  # the container sees its own cgroup as the root
    assert memory._cgroup_available()[0] == 3 * GiB // 2
    files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "9223372036854771712"  # unlimited
    assert memory._cgroup_available() is None


def test_the_smallest_figure_wins(monkeypatch):
    monkeypatch.setattr(memory, "_cgroup_available", lambda: (GiB, "cgroup limit"))
    monkeypatch.setattr(memory, "_meminfo_available", lambda: (8 * GiB, "MemAvailable"))
    assert memory.system_available() == (GiB, "cgroup limit")
    monkeypatch.setattr(memory, "_cgroup_available", lambda: None)
    monkeypatch.setattr(memory, "_meminfo_available", lambda: None)
    monkeypatch.setattr(memory, "_sysconf_available", lambda: (GiB, "sysconf"))
    assert memory.system_available() == (GiB, "sysconf")


def test_small_arrays_do_not_ask_the_system(monkeypatch, limit):
    def fail():
        raise AssertionError("asked the system for a small array")

    monkeypatch.setattr(memory, "system_available", fail)
    mx.nd.zeros((256, 256))
    _net().simple_bind(mx.cpu(), data=(2, 3, 8, 8))


# --- refused before anything is allocated -------------------------------------------------------
def test_simple_bind_too_big_for_the_limit(limit):
    limit("64MiB")
    net = _net()
    raised, peak = _peak_during(lambda: net.simple_bind(mx.cpu(), data=(256, 3, 224, 224)))
    assert isinstance(raised, MXNetMemoryError)
    assert isinstance(raised, RuntimeError) and isinstance(raised, MemoryError)
    assert peak < 4 << 20, f"{peak} bytes were allocated before refusing"
    text = str(raised)
    assert text.startswith("simple_bind error. Arguments:\ndata: (256, 3, 224, 224)\n")
    for part in (
        "simple_bind: this executor needs",
        "more than the 64.0 MiB of memory available "
        "to this process (set by MINISYM_MEMORY_LIMIT=64MiB); nothing was allocated",
        "arguments 150.8 MiB",
        "the largest 'data' (256, 3, 224, 224) float32, 147.0 MiB",
        "operator outputs (the memory plan)",
        "'conv1_output' (256, 8, 224, 224) float32",
        "im2col workspace while the largest convolution runs",
        "Fix: a smaller batch: data=(256, 3, 224, 224) -> at most about data=(",
        "grad_req='null'",
        "os.environ['MINISYM_MEMORY_LIMIT'] = '",
    ):
        assert part in text, part
    with pytest.raises(RuntimeError, match="simple_bind error"):  # MXNet code's except
        net.simple_bind(mx.cpu(), data=(256, 3, 224, 224))


def test_the_batch_suggested_fits(limit):
    limit("64MiB")
    net = _net()
    with pytest.raises(MemoryError) as info:
        net.simple_bind(mx.cpu(), data=(256, 3, 224, 224))
    suggested = int(str(info.value).split("at most about data=(")[1].split(",")[0])
    assert 1 <= suggested < 256
    ex = net.simple_bind(mx.cpu(), data=(suggested, 3, 224, 224))
    assert ex.forward()[0].shape == (suggested, 10)


def test_what_bind_checks_is_what_the_executor_allocates(monkeypatch):
    net = _net()
    for plan in ("1", "0"):
        monkeypatch.setenv("MINISYM_MEMORY_PLAN", plan)
        for grad_req in ("write", "null"):
            ex = net.simple_bind(mx.cpu(), data=(4, 3, 16, 16), grad_req=grad_req)
            shapes = {k: a.shape for k, a in ex._data.items()}
            dtypes = {k: a.dtype for k, a in ex._data.items()}
            parts = {
                what: nbytes
                for what, nbytes, _ in executor_memory.executor_needs(
                    net, shapes, dtypes, ex._grad_req
                )
            }
            assert parts["operator outputs (the memory plan)"] == ex.memory_stats.planned_bytes
            assert parts["arguments"] == sum(a._data.nbytes for a in ex.arg_arrays)
            assert parts["gradients"] == sum(
                a._data.nbytes for a in ex.grad_arrays if a is not None
            )
            assert parts["auxiliary states"] == sum(a._data.nbytes for a in ex.aux_arrays)


def test_bind_with_your_arrays_checks_the_outputs(limit):
    limit("64MiB")
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    outer = mx.sym.broadcast_add(a, b, name="outer")
    args = {"a": mx.nd.ones((20000, 1)), "b": mx.nd.ones((1, 20000))}
    before = snapshot(list(args.values()))
    raised, peak = _peak_during(lambda: outer.bind(mx.cpu(), args))
    assert isinstance(raised, MXNetMemoryError), raised
    assert peak < 4 << 20
    assert "bind: this executor needs 1.5 GiB" in str(raised)
    assert (
        "operator outputs (the memory plan) 1.5 GiB (the largest 'outer_output' (20000, "
        "20000) float32, 1.5 GiB)" in str(raised)
    )
    assert_unchanged(before, list(args.values()))


@pytest.mark.parametrize(
    "make",
    [
        lambda: mx.nd.zeros((1024, 1024, 64)),
        lambda: mx.nd.ones((1024, 1024, 64)),
        lambda: mx.nd.empty((1024, 1024, 64)),
        lambda: mx.nd.full((1024, 1024, 64), 7.0),
    ],
    ids=["zeros", "ones", "empty", "full"],
)
def test_nd_creation_refused(make, limit):
    limit("128MiB")
    raised, peak = _peak_during(make)
    assert isinstance(raised, MXNetMemoryError) and isinstance(raised, mx.base.MXNetError)
    assert peak < 1 << 20
    assert (
        "an array of shape (1024, 1024, 64) float32 needs 256.0 MiB, more than the 128.0 "
        "MiB of memory available" in str(raised)
    )
    assert "Fix: a smaller shape" in str(raised)


def test_nd_zeros_float64_counts_the_dtype(limit):
    limit("100MiB")
    assert mx.nd.zeros((1024, 1024, 20)).shape == (1024, 1024, 20)  # 80 MiB of float32
    with pytest.raises(MemoryError, match=r"\(1024, 1024, 20\) float64 needs 160.0 MiB") as info:
        mx.nd.zeros((1024, 1024, 20), dtype="float64")
    assert "float16 / uint8" in str(info.value)


def test_reshape_that_grows_is_refused_and_keeps_the_executor(limit):
    net = _net()
    ex = net.simple_bind(mx.cpu(), data=(2, 3, 16, 16))
    ex.arg_dict["data"][:] = 1
    ex.forward(is_train=True)
    before = snapshot(ex)
    limit("64MiB")
    with pytest.raises(
        MXNetMemoryError,
        match=r"Executor.reshape: this executor needs .*arrays "
        r"that grow .*at most about data=\(",
    ):
        ex.reshape(allow_up_sizing=True, data=(512, 3, 64, 64))
    assert_unchanged(before, ex)
    with pytest.raises(ValueError, match="allow_up_sizing=True"):  # that error comes first
        ex.reshape(data=(512, 3, 64, 64))
    assert ex.reshape(data=(1, 3, 16, 16)).forward()[0].shape == (1, 10)  # shrinking is free


def test_copy_refused(limit):
    ex = _net().simple_bind(mx.cpu(), data=(64, 3, 32, 32))
    limit("4MiB")
    with pytest.raises(MXNetMemoryError, match="Executor.copy: this executor needs"):
        ex.copy()


def test_ndarrayiter_batch_too_big(limit):
    limit("64MiB")
    x = np.zeros((100, 3, 32, 32), np.float32)
    with pytest.raises(
        MXNetMemoryError,
        match=r"NDArrayIter: a batch of batch_size=10000 "
        r"examples needs 117.2 MiB.*'data': one batch of "
        r"it has shape \(10000, 3, 32, 32\).*at most about "
        r"batch_size=5",
    ):
        mx.io.NDArrayIter(x, np.zeros(100), batch_size=10000)
    assert mx.io.NDArrayIter(x, np.zeros(100), batch_size=50).provide_data[0].shape == (
        50,
        3,
        32,
        32,
    )


def test_load_of_a_file_too_big(tmp_path, limit):
    path = tmp_path / "huge.params"
    with open(path, "wb") as f:  # a sparse file: 1 GiB on paper, nothing on disk
        f.truncate(GiB)
    limit("256MiB")
    raised, peak = _peak_during(lambda: mx.nd.load(str(path)))
    assert isinstance(raised, MXNetMemoryError), raised
    assert peak < 1 << 20
    assert (
        f"mx.nd.load: loading {str(path)!r} (1.0 GiB: its bytes, then the arrays made "
        "from them) needs 2.0 GiB" in str(raised)
    )


def test_module_bind_refused_and_module_intact(limit):
    mod = mx.mod.Module(mx.sym.SoftmaxOutput(_net(), name="softmax"))
    mod.bind(data_shapes=[("data", (4, 3, 16, 16))], label_shapes=[("softmax_label", (4,))])
    mod.init_params()
    before = snapshot(mod)
    limit("32MiB")
    with pytest.raises(MemoryError, match="simple_bind: this executor needs"):
        mod.bind(
            data_shapes=[("data", (1024, 3, 64, 64))],
            label_shapes=[("softmax_label", (1024,))],
            force_rebind=True,
        )
    assert_unchanged(before, mod)


def test_unlimited_turns_the_check_off(limit):
    limit("unlimited")
    memory.check_fits(1 << 60, "test", "this needs", "nothing")  # no error: no limit
    limit("1GiB")
    with pytest.raises(MXNetMemoryError):
        memory.check_fits(1 << 60, "test", "this needs", "nothing")


# --- never an out-of-memory kill ---------------------------------------------------------------
LEARNER = textwrap.dedent("""
    import os, resource, numpy as np
    # a safety net for this test only: were a check missing, numpy would fail, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    import minisym as mx
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(mx.sym.Convolution(data, kernel=(3, 3), num_filter=16,
                                                   name='conv1'), num_hidden=10, name='fc1')
    attempts = [lambda: net.simple_bind(mx.cpu(), data=(10 ** 7, 3, 224, 224)),
                lambda: mx.nd.zeros((10 ** 7, 3, 224, 224)),
                lambda: mx.nd.ones((4, 1 << 40)),
                lambda: mx.io.NDArrayIter(np.zeros((10, 3, 224, 224), np.float32),
                                          batch_size=10 ** 7)]
    for limit in ('1GiB', None):  # set by the variable, then what the system says
        if limit:
            os.environ['MINISYM_MEMORY_LIMIT'] = limit
        else:
            os.environ.pop('MINISYM_MEMORY_LIMIT', None)
        refused = []
        for attempt in attempts:
            try:
                attempt()
            except MemoryError as exc:
                assert isinstance(exc, mx.base.MXNetError), exc
                refused.append(str(exc).splitlines()[-1].split(':')[0])
        ex = net.simple_bind(mx.cpu(), data=(8, 3, 32, 32))   # a batch that fits still works
        ex.arg_dict['data'][:] = 1
        print(refused, ex.forward()[0].shape, flush=True)
""")


@pytest.mark.slow
def test_a_learner_process_survives_huge_requests():
    """In a process of its own: every request is refused, first with MINISYM_MEMORY_LIMIT=1GiB,
    then with what the system says, and the process goes on."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(memory.ENV, None)
    done = subprocess.run(
        [sys.executable, "-c", LEARNER], env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-3000:]
    expected = "['simple_bind', 'mx.nd.zeros', 'mx.nd.ones', 'NDArrayIter'] (8, 10)"
    assert done.stdout.splitlines() == [expected, expected], done.stdout + done.stderr[-2000:]
