"""How the kernels are compiled and called: numba's cache wherever one can be written, and
``parallel=True`` kernels that are safe to call from Python threads and from forked processes.

- **Cache.** numba caches a compiled kernel next to its source (``kernels/__pycache__``), else
  in the user's cache (``$XDG_CACHE_HOME/numba``, ``~/.cache/numba``). In a read-only
  installation whose users' HOME cannot be written either (a shared JupyterHub image, a
  container run as another user) neither works, and numba refuses ``cache=True`` when the
  module is imported ("cannot cache function ...: no locator available"). minisym then points
  numba's cache at a private per-user folder in the temporary directory
  (``/tmp/minisym-<uid>/numba``, mode 700, never one another user owns: the cache holds machine
  code), or compiles without a cache if nothing at all can be written. A ``NUMBA_CACHE_DIR``
  you set always wins.
- **Threads.** numba runs parallel kernels on a threading layer: ``omp`` and ``tbb`` may be
  called from several Python threads at once; ``workqueue`` aborts the whole process when two
  threads use it ("Concurrent access has been detected"). Under ``workqueue`` (and until the
  first parallel call shows which layer numba chose) kernel calls take one lock, so threads
  wait for each other instead. minisym never calls a parallel kernel from inside another.
- **Forks.** GNU OpenMP cannot be used in a process forked after it started: the child dies
  with "Terminating: fork() called from a process already using GNU OpenMP, this is unsafe"
  (a ``multiprocessing.Pool`` with the default fork start method, after a forward ran in the
  notebook, would hang on its dead workers). In such a child the kernels run their serial twin:
  the same loops compiled without ``parallel=True``.
"""
import functools
import os
import stat
import tempfile
import threading
import types

import numba
from numba import njit

__all__ = ["CACHE", "parallel_kernel", "cache_folder", "kernel_mode"]


# --- the cache -------------------------------------------------------------------------------
def _writable(folder):
    """Whether files can be created in ``folder`` (made if missing), as numba tests it."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def _own_private(folder):
    """``folder``, created with mode 700, if it is a real folder of this user's that no one
    else can write into; else None."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022:
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return folder


def _user_tag():
    if hasattr(os, "getuid"):
        return str(os.getuid())
    import getpass
    return getpass.getuser()


def _choose_cache():
    """(cache=True possible, the folder numba's cache goes to or a description)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return True, os.environ["NUMBA_CACHE_DIR"]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    if _writable(here):
        return True, here
    try:
        from numba.misc.appdirs import AppDirs
        user = AppDirs(appname="numba", appauthor=False).user_cache_dir
    except Exception:  # an older numba: its user-wide locator may be missing too
        user = None
    if user is not None and _writable(user):
        return True, user
    top = _own_private(os.path.join(tempfile.gettempdir(), f"minisym-{_user_tag()}"))
    folder = top and _own_private(os.path.join(top, "numba"))
    if folder and _writable(folder):
        os.environ["NUMBA_CACHE_DIR"] = folder
        numba.core.config.reload_config()
        return True, folder
    return False, "none: nothing can be written, kernels compile in every session"


CACHE, _CACHE_FOLDER = _choose_cache()


def cache_folder():
    """Where the compiled kernels are cached (or why they are not)."""
    return _CACHE_FOLDER


# --- calling parallel kernels safely ---------------------------------------------------------
_LOCK = threading.Lock()
_SAFE_FROM_THREADS = ("omp", "tbb")
_launched = {"layer": None, "pid": None}  # numba's threading layer, and the process that began it


def _learn_layer():
    """Record which threading layer numba launched (known after the first parallel call)."""
    if _launched["layer"] is None:
        try:
            layer = numba.threading_layer()
        except ValueError:  # not launched (NUMBA_DISABLE_JIT=1: the kernels are plain Python)
            return
        _launched["pid"], _launched["layer"] = os.getpid(), layer


def _forked():
    """In a forked child: a threading layer already launched was launched by the parent (by
    minisym or by any other numba code), not by this process."""
    try:
        layer = numba.threading_layer()
    except ValueError:
        return
    _launched["pid"], _launched["layer"] = None, layer


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def _gnu_openmp():
    try:
        from numba.np.ufunc import omppool
        return omppool.openmp_vendor == "GNU"
    except Exception:
        return True  # cannot tell: assume the fork-unsafe one


def kernel_mode():
    """How a parallel kernel is called now: 'parallel', 'locked' (one thread at a time) or
    'serial' (a child forked after GNU OpenMP started)."""
    layer = _launched["layer"]
    if layer == "omp" and _launched["pid"] != os.getpid() and _gnu_openmp():
        return "serial"
    return "parallel" if layer in _SAFE_FROM_THREADS else "locked"


class ParallelKernel:
    """A ``numba.njit(parallel=True)`` kernel, called like the function it compiles; see the
    module's docstring for when it runs locked or serial instead."""

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.parallel = njit(cache=CACHE, parallel=True)(func)
        self._serial = None

    @property
    def serial(self):
        """The same loops compiled without parallel=True (made at first use; its own name, so
        numba's cache keeps the two apart)."""
        if self._serial is None:
            func = self.py_func
            twin = types.FunctionType(func.__code__, func.__globals__, func.__name__ + "_serial",
                                      func.__defaults__, func.__closure__)
            twin.__qualname__ = func.__qualname__ + "_serial"
            twin.__module__ = func.__module__
            self._serial = njit(cache=CACHE)(twin)
        return self._serial

    def __call__(self, *args):
        mode = kernel_mode()
        if mode == "parallel":
            return self.parallel(*args)
        if mode == "serial":
            return self.serial(*args)
        with _LOCK:
            result = self.parallel(*args)
            _learn_layer()
        return result

    def __repr__(self):
        return f"<parallel kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def parallel_kernel(func):
    """Decorator: ``func`` compiled with ``numba.njit(cache=..., parallel=True)``, safe from
    threads and forks."""
    return ParallelKernel(func)
