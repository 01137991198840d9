"""Kernels compiled once per image, not once per student.

The package is copied, its kernels are warmed into its own ``kernels/__pycache__`` under
``NUMBA_CPU_NAME=generic`` (as an image build does), and the copy is made read-only (read-only
files for a normal user, a read-only bind mount in a private mount namespace for root). A fresh
interpreter with an empty HOME, as each student starts, must then load every kernel from the
cache minisym seeded from the shared one, and compile none; without the seed, or on another
CPU name, the same run compiles. Unsafe shared folders are refused with a warning.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numba
import pytest

from minisym.kernels import jit
from read_only import IS_ROOT, as_root_with_read_only, make_read_only, make_writable

ROOT = Path(__file__).resolve().parent.parent
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux paths and modes")
NEEDS_JIT = pytest.mark.skipif(
    bool(numba.config.DISABLE_JIT), reason="NUMBA_DISABLE_JIT=1: nothing is compiled or cached"
)

STUDENT = textwrap.dedent("""
    import json, os, shutil, sys
    import numpy as np
    from minisym.kernels import conv, jit, warmup
    if 'no-seed' in sys.argv:  # as if nothing had been seeded: the same run without the copies
        shutil.rmtree(jit.kernel_folder())
        os.makedirs(jit.kernel_folder())
    if 'import-only' not in sys.argv:
        x, w = np.ones((1, 2, 5, 5), np.float32), np.ones((2, 2, 3, 3), np.float32)
        if 'one-kernel' in sys.argv:
            conv.conv2d_forward(x, w, None, (1, 1), (1, 1), (1, 1), 1)
        else:
            warmup.warm_up(verbose=False)
    compiled, loaded = warmup.kernel_counts()
    print(json.dumps({'cache': jit.cache_folder(), 'kernel_folder': jit.kernel_folder(),
                      'numba_looks_in': conv._im2col.parallel._cache.cache_path,
                      'seeded': jit.seeded(), 'compiled': compiled, 'loaded': loaded,
                      'cpu': warmup.cpu_name()}))
""")


# --- a read-only installation ----------------------------------------------------------------


def _copy_package(site):
    shutil.copytree(
        ROOT / "minisym", site / "minisym", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )


def _student(site, env, *args, read_only=True):
    """Run STUDENT with ``site`` first on the path (read-only unless told); its JSON, stderr."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(site),
        "LANG": "C.UTF-8",
        **env,
    }
    command = [sys.executable, "-c", STUDENT, *args]
    if read_only and IS_ROOT:
        command = as_root_with_read_only(command, [site])
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=600, cwd=site.parent
    )  # not the project: its minisym/ would come first
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """(read-only site whose kernels were warmed for a generic CPU, the warm-up's counts)."""
    top = tmp_path_factory.mktemp("warmed")
    site, home = top / "site", top / "home"
    home.mkdir()
    _copy_package(site)
    result, _ = _student(site, {"HOME": str(home), "NUMBA_CPU_NAME": "generic"}, read_only=False)
    assert result["kernel_folder"] == str(site / "minisym" / "kernels" / "__pycache__"), result
    assert result["compiled"] > 0 and result["cpu"] == "generic", result
    if not IS_ROOT:
        make_read_only(site)
    yield site, result
    make_writable(top)


def _fresh_home(tmp_path, hub_cache):
    """(HOME, environment) of a student who never ran a lesson; ``hub_cache``: the cache in the
    home that the hub configs name with NUMBA_CACHE_DIR, else numba's own user cache."""
    home = tmp_path / "student"
    home.mkdir()
    env = {"HOME": str(home), "NUMBA_CPU_NAME": "generic", "TMPDIR": str(tmp_path)}
    if hub_cache:
        env["NUMBA_CACHE_DIR"] = str(home / ".cache" / "minisym" / "numba")
    return home, env


# --- a student's first run -------------------------------------------------------------------
@pytest.mark.slow
@LINUX
@NEEDS_JIT
@pytest.mark.parametrize("hub_cache", [True, False], ids=["hub NUMBA_CACHE_DIR", "user cache"])
def test_a_fresh_student_loads_the_warmed_kernels_instead_of_compiling(warmed, tmp_path, hub_cache):
    site, warm = warmed
    home, env = _fresh_home(tmp_path, hub_cache)
    first, _ = _student(site, env)
    if hub_cache:  # the NUMBA_CACHE_DIR the student's environment sets still wins
        assert first["cache"] == env["NUMBA_CACHE_DIR"], first
    else:
        assert first["cache"] == str(home / ".cache" / "numba"), first
    assert first["kernel_folder"] == first["numba_looks_in"], first
    assert first["kernel_folder"].startswith(str(home)), first
    assert first["seeded"]["from"] == [str(site / "minisym" / "kernels" / "__pycache__")]
    assert first["seeded"]["kernels"], first
    assert (first["compiled"], first["loaded"]) == (0, warm["compiled"]), first
    again, _ = _student(site, env)
    assert again["seeded"]["kernels"] == [], "seeded again although the copies were current"
    assert again["compiled"] == 0, again


@pytest.mark.slow
@LINUX
@NEEDS_JIT
def test_without_the_seed_the_same_run_compiles(warmed, tmp_path):
    """The control of the test above: it would fail if seeding did nothing."""
    site, _ = warmed
    _, env = _fresh_home(tmp_path, hub_cache=True)
    result, _ = _student(site, env, "no-seed", "one-kernel")
    assert result["compiled"] >= 1 and result["loaded"] == 0, result


@pytest.mark.slow
@LINUX
@NEEDS_JIT
def test_kernels_warmed_for_a_generic_cpu_are_compiled_again_for_the_host_cpu(warmed, tmp_path):
    """numba's cache key holds the CPU name: a student without NUMBA_CPU_NAME=generic compiles."""
    site, _ = warmed
    _, env = _fresh_home(tmp_path, hub_cache=True)
    del env["NUMBA_CPU_NAME"]
    result, _ = _student(site, env, "one-kernel")
    assert result["seeded"]["kernels"], result
    assert result["cpu"].startswith("host"), result
    assert result["compiled"] >= 1 and result["loaded"] == 0, result


@pytest.mark.slow
@LINUX
@NEEDS_JIT
def test_minisym_shared_cache_seeds_an_installation_without_a_warmed_cache(warmed, tmp_path):
    site, warm = warmed
    bare = tmp_path / "bare"
    _copy_package(bare)
    _, env = _fresh_home(tmp_path, hub_cache=True)
    env["MINISYM_SHARED_CACHE"] = str(site / "minisym" / "kernels" / "__pycache__")
    result, _ = _student(bare, env, read_only=False)
    assert result["seeded"]["from"] == [env["MINISYM_SHARED_CACHE"]], result
    assert (result["compiled"], result["loaded"]) == (0, warm["compiled"]), result


# --- where numba looks, and unsafe shared folders (no compile: fast) -------------------------
@pytest.fixture
def bare_site(tmp_path):
    site = tmp_path / "site"
    _copy_package(site)
    return site


@LINUX
@NEEDS_JIT
@pytest.mark.parametrize("cache_dir", [True, False], ids=["NUMBA_CACHE_DIR", "in the package"])
def test_kernel_folder_is_where_numba_looks_for_the_kernels(bare_site, tmp_path, cache_dir):
    env = {"HOME": str(tmp_path)}
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    result, _ = _student(bare_site, env, "import-only", read_only=False)
    assert result["kernel_folder"] == result["numba_looks_in"], result
    assert result["kernel_folder"].startswith(str(tmp_path / "numba" if cache_dir else bare_site))


@LINUX
@NEEDS_JIT
@pytest.mark.parametrize("setting", [None, "none"])
def test_the_installations_own_cache_seeds_the_users_unless_told_none(bare_site, tmp_path, setting):
    in_tree = bare_site / "minisym" / "kernels" / "__pycache__"
    _fake_kernel(in_tree, "nms.nms-14.py311")
    env = {"HOME": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    if setting:
        env["MINISYM_SHARED_CACHE"] = setting
    result, _ = _student(bare_site, env, "import-only", read_only=False)
    seeded = (Path(result["kernel_folder"]) / "nms.nms-14.py311.nbi").exists()
    if setting == "none":
        assert result["seeded"] == {"from": [], "kernels": []} and not seeded, result
    else:
        assert result["seeded"] == {"from": [str(in_tree)], "kernels": ["nms.nms-14.py311.nbi"]}
        assert seeded


def _fake_kernel(folder, base, numbers=(1,), mtime=None):
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{base}.{n}.nbc" for n in numbers] + [folder / f"{base}.nbi"]
    for path in paths:
        path.write_bytes(f"{path.name} from {folder.name}".encode())
        if mtime is not None:
            os.utime(path, (mtime, mtime))
    return paths


@LINUX
def test_an_unsafe_minisym_shared_cache_is_refused_with_a_warning(bare_site, tmp_path):
    shared = tmp_path / "shared"
    _fake_kernel(shared, "conv._im2col-25.py311")
    os.chmod(shared, 0o777)
    env = {
        "HOME": str(tmp_path),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "MINISYM_SHARED_CACHE": str(shared),
    }
    result, errors = _student(bare_site, env, "import-only", read_only=False)
    assert "SharedCacheWarning" in errors and "other users can write it" in errors, errors
    assert result["seeded"]["kernels"] == [], result
    if result["kernel_folder"]:  # None under NUMBA_DISABLE_JIT=1
        assert not list(Path(result["kernel_folder"]).iterdir())


# --- seed_cache itself ------------------------------------------------------------------------
@LINUX
def test_seed_cache_copies_missing_and_older_kernels_with_their_data_files(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    now = time.time()
    _fake_kernel(src, "conv._im2col-25.py311", numbers=(1, 2), mtime=now - 100)
    _fake_kernel(src, "pool._pool_forward-27.py311", mtime=now - 100)
    _fake_kernel(src, "nms.nms-14.py311", mtime=now - 100)
    _fake_kernel(dst, "pool._pool_forward-27.py311", mtime=now - 500)  # older: replaced
    _fake_kernel(dst, "nms.nms-14.py311", mtime=now)  # the student's own, newer: kept
    copied = jit.seed_cache(str(src), str(dst))
    assert copied == ["conv._im2col-25.py311.nbi", "pool._pool_forward-27.py311.nbi"]
    for name in (
        "conv._im2col-25.py311.1.nbc",
        "conv._im2col-25.py311.2.nbc",
        "pool._pool_forward-27.py311.1.nbc",
        "pool._pool_forward-27.py311.nbi",
    ):
        assert (dst / name).read_bytes() == (src / name).read_bytes(), name
        assert (dst / name).stat().st_mtime == pytest.approx(now - 100, abs=1e-3)
    assert (dst / "nms.nms-14.py311.nbi").read_bytes().endswith(b"from dst")
    assert not [p for p in dst.iterdir() if p.name.startswith(".")], "temporary files left"
    assert jit.seed_cache(str(src), str(dst)) == [], "copied again although current"


@LINUX
def test_seed_cache_refuses_a_world_writable_folder_with_a_warning(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    _fake_kernel(src, "conv._im2col-25.py311")
    os.chmod(src, 0o777)
    with pytest.warns(jit.SharedCacheWarning, match="other users can write it"):
        assert jit.seed_cache(str(src), str(dst)) == []
    assert not dst.exists() or not list(dst.iterdir())


@LINUX
@pytest.mark.parametrize("planted", ["symlink", "world-writable file"])
def test_seed_cache_skips_a_kernel_whose_files_are_unsafe(tmp_path, planted):
    src, dst, elsewhere = tmp_path / "src", tmp_path / "dst", tmp_path / "elsewhere"
    _fake_kernel(src, "pool._pool_forward-27.py311")
    data = src / "conv._im2col-25.py311.1.nbc"
    _fake_kernel(elsewhere, "conv._im2col-25.py311")
    (src / "conv._im2col-25.py311.nbi").write_bytes(b"index")
    if planted == "symlink":
        data.symlink_to(elsewhere / data.name)
    else:
        data.write_bytes(b"data")
        os.chmod(data, 0o666)
    with pytest.warns(jit.SharedCacheWarning, match="conv._im2col"):
        copied = jit.seed_cache(str(src), str(dst))
    assert copied == ["pool._pool_forward-27.py311.nbi"]
    assert sorted(p.name for p in dst.iterdir()) == [
        "pool._pool_forward-27.py311.1.nbc",
        "pool._pool_forward-27.py311.nbi",
    ]


@LINUX
@pytest.mark.skipif(not IS_ROOT, reason="only root can give a folder to another user")
def test_seed_cache_never_writes_into_another_users_folder(tmp_path):
    src, theirs, dst = tmp_path / "src", tmp_path / "theirs", tmp_path / "dst"
    _fake_kernel(src, "conv._im2col-25.py311")
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    dst.symlink_to(theirs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert jit.seed_cache(str(src), str(dst)) == []
    assert any("not a folder of yours" in str(w.message) for w in caught)
    assert not list(theirs.iterdir())
