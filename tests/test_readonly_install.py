"""minisym installed where it cannot be written, as on a shared JupyterHub.

The package (``minisym/`` and ``widgets/`` as ``minisym_widgets``, the layout a wheel installs)
is copied into a folder nobody may write to: read-only files when the tests run as a normal
user, a read-only bind mount in a private mount namespace (``unshare -m``) when they run as root
(root writes through file modes). A fresh interpreter then imports it from there, binds a conv
net and runs it. numba cannot cache next to the package, so:

- with a writable HOME, numba's own user-wide cache takes the kernels (``~/.cache/numba``);
- with a HOME that cannot be written either (numba alone would refuse ``cache=True`` at import:
  "cannot cache function ...: no locator available"), minisym points numba's cache at a private
  folder in the temporary directory, ``$TMPDIR/minisym-<uid>/numba`` (mode 700);
- with nothing writable at all, the kernels compile without a cache and everything still runs.

A non-editable ``pip install`` into a fresh venv is not done here: building the wheel needs
setuptools >= 77 from the network. The copy has the wheel's layout.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from read_only import IS_ROOT, as_root_with_read_only, make_read_only, make_writable

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux paths"),
]

LEARNER = textwrap.dedent("""
    import json, os, sys, tempfile
    if 'no-temp' in sys.argv:  # as if no temporary folder could be written (no /tmp fallback)
        tempfile.tempdir = os.environ['TMPDIR']
    import numpy as np
    import minisym as mx
    from minisym.kernels import conv, jit
    package = os.path.dirname(mx.__file__)
    try:
        open(os.path.join(package, 'probe'), 'w')
        writable = True
    except OSError:
        writable = False
    if 'import-only' in sys.argv:
        print(json.dumps({'minisym': mx.__file__, 'package_writable': writable,
                          'cache': jit.cache_folder()}))
        sys.exit()
    data = mx.sym.Variable('data')
    net = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, name='conv1')
    net = mx.sym.Pooling(mx.sym.Activation(net, act_type='relu'), kernel=(2, 2), stride=(2, 2),
                         pool_type='max', name='pool1')
    ex = net.simple_bind(mx.cpu(), data=(2, 3, 8, 8), grad_req='null')
    kernel = conv._forward_by_image  # a batch of small images: the convolution runs it
    ex.arg_dict['data'][:] = np.arange(2 * 3 * 8 * 8).reshape(2, 3, 8, 8) / 100.0
    ex.arg_dict['conv1_weight'][:] = 0.5
    fast = ex.forward()[0].asnumpy().copy()
    os.environ['MINISYM_KERNELS'] = 'reference'
    reference = ex.forward()[0].asnumpy()
    widgets = None
    if 'widgets' in sys.argv:
        import minisym_widgets
        from minisym_widgets import IndexMap
        widgets = minisym_widgets.__file__
        assert 'conv1_weight' in IndexMap(net, node='conv1', shapes={'data': (2, 3, 8, 8)}).text()
    print(json.dumps({
        'minisym': mx.__file__, 'widgets': widgets, 'package_writable': writable,
        'cache': jit.cache_folder(),
        'cache_hits': sum(sum(twin.stats.cache_hits.values())  # small calls run the serial one
                          for twin in (kernel.parallel, kernel._serial) if twin),
        'same': bool(np.allclose(fast, reference, rtol=1e-5)), 'shape': list(fast.shape),
        'tmp': tempfile.gettempdir()}))
""")


@pytest.fixture
def install(tmp_path):
    """(site folder holding a read-only minisym and minisym_widgets, tmp_path)."""
    site = tmp_path / "site"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "minisym", site / "minisym", ignore=skip)
    shutil.copytree(ROOT / "widgets", site / "minisym_widgets", ignore=skip)
    make_read_only(site)
    yield site
    for path in tmp_path.iterdir():
        make_writable(path)


def _run(site, read_only, env, *args):
    """Run LEARNER with ``site`` first on the path and the folders ``read_only`` unwritable."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(site),
        "LANG": "C.UTF-8",
        **env,
    }
    command = [sys.executable, "-c", LEARNER, *args]
    if IS_ROOT:
        command = as_root_with_read_only(command, [site, *read_only])
    else:
        for path in read_only:
            make_read_only(path)
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=300, cwd=site.parent
    )  # not the project: its minisym/ would come first
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["minisym"].startswith(str(site)), result
    assert not result["package_writable"]
    if "import-only" not in args:
        assert result["same"] and result["shape"] == [2, 4, 4, 4], result
    assert not list(site.rglob("__pycache__")), "something was written into the package"
    return result


def _cached_kernels(folder):
    return sorted(p.name for p in Path(folder).rglob("*.nbi"))


def test_writable_home_gets_numbas_user_cache(install, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    result = _run(install, [], {"HOME": str(home), "TMPDIR": str(tmp_path)}, "widgets")
    assert result["widgets"].startswith(str(install / "minisym_widgets"))
    assert result["cache"] == str(home / ".cache" / "numba"), result
    cached = _cached_kernels(result["cache"])
    assert any(name.startswith("conv._forward_by_image") for name in cached)
    again = _run(install, [], {"HOME": str(home), "TMPDIR": str(tmp_path)})
    assert again["cache_hits"] >= 1, "the second session did not load the cached kernel"


def test_read_only_home_falls_back_to_a_private_temporary_folder(install, tmp_path):
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    result = _run(install, [home], {"HOME": str(home), "TMPDIR": str(temp)})
    folder = temp / f"minisym-{os.getuid()}" / "numba"
    assert result["cache"] == str(folder)
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    assert any(name.startswith("conv._forward_by_image") for name in _cached_kernels(folder))
    assert not list(home.rglob("*")), "something was written into the read-only HOME"


@pytest.mark.parametrize("planted", ["world-writable", "another user's"])
def test_a_temporary_folder_others_control_is_not_used(install, tmp_path, planted):
    """numba's cache holds machine code: a folder someone else could write is never used."""
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    folder = temp / f"minisym-{os.getuid()}"
    folder.mkdir()
    if planted == "world-writable":
        os.chmod(folder, 0o777)
    elif IS_ROOT:
        os.chmod(folder, 0o700)
        os.chown(folder, 65534, 65534)
    else:
        pytest.skip("only root can give a folder to another user")
    result = _run(install, [home], {"HOME": str(home), "TMPDIR": str(temp)}, "import-only")
    assert result["cache"].startswith("none"), result
    assert not list(folder.iterdir())


def test_nothing_writable_still_runs_without_a_cache(install, tmp_path):
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    result = _run(install, [home, temp], {"HOME": str(home), "TMPDIR": str(temp)}, "no-temp")
    assert result["cache"].startswith("none"), result
    assert result["cache_hits"] == 0
