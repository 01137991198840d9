"""Nothing lost on disk: a save that is killed, interrupted or runs out of space leaves the
previous file readable.

``mx.nd.save``, ``Symbol.save``, ``mx.model.save_checkpoint`` and ``Module.save_params`` write
to a temporary file in the same folder and ``os.replace`` it over the old one
(``minisym/fileio.py``). The tests: a process killed with SIGKILL in the middle of writing a
checkpoint; a full disk (the write raises ENOSPC half-way); a real file-size limit from the
kernel (RLIMIT_FSIZE: the write fails with EFBIG); Ctrl-C during a save. Each time the old
file loads with its old values, and only a killed process leaves its temporary file behind.
"""

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import minisym as mx
from minisym import fileio

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mlp():
    data = mx.sym.Variable("data")
    return mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(data, num_hidden=3, name="fc1"), name="softmax"
    )


def old_checkpoint(folder):
    """``model-symbol.json`` and ``model-0001.params`` holding ones: what must survive."""
    prefix = os.path.join(folder, "model")
    args = {"fc1_weight": mx.nd.ones((3, 4)), "fc1_bias": mx.nd.ones((3,))}
    mx.model.save_checkpoint(prefix, 1, mlp(), args, {})
    return prefix


def assert_old_checkpoint(prefix):
    symbol, args, auxs = mx.model.load_checkpoint(prefix, 1)
    assert symbol.list_arguments() == ["data", "fc1_weight", "fc1_bias", "softmax_label"]
    assert sorted(args) == ["fc1_bias", "fc1_weight"] and auxs == {}
    assert (args["fc1_weight"].asnumpy() == 1).all() and (args["fc1_bias"].asnumpy() == 1).all()


def temporary_files(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


# --- a process killed while it writes -----------------------------------------------------------
CHILD = textwrap.dedent("""
    import os, sys, time
    import minisym as mx
    from minisym import fileio

    prefix, started = sys.argv[1], sys.argv[2]

    class Slow:
        # a file whose writes go out in small pieces, slowly, as on a busy network disk
        def __init__(self, f, path):
            self.f, self.path = f, path
        def write(self, data):
            view = memoryview(data)
            for start in range(0, len(view), 1 << 16):
                self.f.write(view[start:start + (1 << 16)])
                self.f.flush()
                if ".params." in self.path and not os.path.exists(started):
                    open(started, "w").close()  # the new .params is being written
                time.sleep(0.05)
        def __getattr__(self, name):
            return getattr(self.f, name)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.f.close()

    real_open = open
    fileio.open = lambda path, mode: Slow(real_open(path, mode), path)
    data = mx.sym.Variable("data")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=3, name="fc1"),
                               name="softmax")
    big = {"fc1_weight": mx.nd.zeros((3, 4)) + 7, "fc1_bias": mx.nd.zeros((3,)) + 7,
           "padding": mx.nd.zeros((1 << 20,))}  # 4 MiB: 64 slow pieces
    mx.model.save_checkpoint(prefix, 1, net, big, {})
    print("finished")
""")


@pytest.mark.slow
def test_a_process_killed_in_the_middle_of_a_save_leaves_the_old_checkpoint(tmp_path):
    prefix = old_checkpoint(str(tmp_path))
    started = str(tmp_path / "started")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, prefix, started],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(started):
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the child never started writing"
            time.sleep(0.02)
        partial = temporary_files(str(tmp_path))
        assert len(partial) == 1 and partial[0].startswith(".model-0001.params.")
        while os.path.getsize(tmp_path / partial[0]) < 3 << 16:  # a few pieces in
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL and b"finished" not in out
    size = os.path.getsize(tmp_path / partial[0])
    assert 0 < size < 4 << 20  # killed mid-write
    assert_old_checkpoint(prefix)  # the previous file, whole


# --- a full disk ----------------------------------------------------------------------------------
class FullDisk:
    """A file whose write stores half of the bytes, then fails as a full disk does."""

    def __init__(self, f, error=None):
        self.f = f
        self.error = error or OSError(errno.ENOSPC, "No space left on device")

    def write(self, data):
        self.f.write(bytes(memoryview(data)[: len(data) // 2]))
        self.f.flush()
        raise self.error

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def full_disk(monkeypatch, error=None):
    real_open = open
    monkeypatch.setattr(
        fileio,
        "open",
        lambda path, mode: FullDisk(real_open(path, mode), *([error] if error else [])),
        raising=False,
    )


def saves(folder):
    """(what, save the new values over the old file, the old file) for every saver."""
    prefix = os.path.join(folder, "model")
    module = mx.mod.Module(mlp())
    module.bind(data_shapes=[("data", (4, 4))], label_shapes=[("softmax_label", (4,))])
    module.init_params(mx.init.Constant(5))
    net2 = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=9, name="other")
    new = {"fc1_weight": mx.nd.zeros((3, 4)) + 5, "fc1_bias": mx.nd.zeros((3,)) + 5}
    return [
        (
            "mx.nd.save",
            lambda: mx.nd.save(prefix + "-0001.params", {f"arg:{k}": v for k, v in new.items()}),
        ),
        ("Symbol.save", lambda: net2.save(prefix + "-symbol.json")),
        ("save_checkpoint", lambda: mx.model.save_checkpoint(prefix, 1, mlp(), new, {})),
        ("Module.save_params", lambda: module.save_params(prefix + "-0001.params")),
    ]


@pytest.mark.parametrize(
    "which", ["mx.nd.save", "Symbol.save", "save_checkpoint", "Module.save_params"]
)
def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, which):
    prefix = old_checkpoint(str(tmp_path))
    save = dict((w, s) for w, s in saves(str(tmp_path)))[which]
    full_disk(monkeypatch)
    with pytest.raises(OSError) as info:
        save()
    message = str(info.value)
    assert isinstance(info.value, mx.base.MXNetError) and info.value.errno == errno.ENOSPC
    assert f'cannot write "{prefix}-' in message and "No space left on device" in message
    assert "the disk or your quota is full: free some space and save again" in message
    assert "still holds what was saved there before" in message
    monkeypatch.undo()
    assert temporary_files(str(tmp_path)) == []
    assert_old_checkpoint(prefix)


def test_ctrl_c_during_a_save_leaves_the_old_file(tmp_path, monkeypatch):
    prefix = old_checkpoint(str(tmp_path))
    full_disk(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        mx.model.save_checkpoint(
            prefix, 1, mlp(), {"fc1_weight": mx.nd.zeros((3, 4)), "fc1_bias": mx.nd.zeros((3,))}, {}
        )
    monkeypatch.undo()
    assert temporary_files(str(tmp_path)) == []
    assert_old_checkpoint(prefix)


CHILD_LIMITED = textwrap.dedent("""
    import resource, signal, sys
    import minisym as mx
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
    try:
        mx.nd.save(sys.argv[1], {"arg:fc1_weight": mx.nd.zeros((1 << 20,))})  # 4 MiB
    except OSError as exc:
        print(type(exc).__name__, exc.errno, exc)
""")


@pytest.mark.slow
def test_a_real_file_size_limit_from_the_kernel(tmp_path):
    """No monkeypatching: the kernel refuses the write past 1 MiB (RLIMIT_FSIZE)."""
    prefix = old_checkpoint(str(tmp_path))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-c", CHILD_LIMITED, prefix + "-0001.params"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"MXNetOSError {errno.EFBIG} mx.nd.save: cannot write"), (
        done.stdout
    )
    assert "the disk or your quota is full" in done.stdout
    assert temporary_files(str(tmp_path)) == []
    assert_old_checkpoint(prefix)


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = str(tmp_path / "x.params")
    mx.nd.save(path, [mx.nd.ones(2)])
    os.chmod(path, 0o640)
    mx.nd.save(path, [mx.nd.zeros(2)])
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert np.array_equal(mx.nd.load(path)[0].asnumpy(), [0, 0])
    assert temporary_files(str(tmp_path)) == []
