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
- **A shared, warmed cache.** numba only reads the cache it writes to, so kernels warmed into a
  read-only installation (``python -m minisym.kernels.warmup`` in the image) would be compiled
  again by every user whose cache is elsewhere (a hub's ``NUMBA_CACHE_DIR`` in each home).
  Once per process, before any kernel runs, minisym therefore seeds the user's cache folder
  (``kernel_folder()``) from the installation's ``kernels/__pycache__`` and from the folder
  ``MINISYM_SHARED_CACHE`` names (flat, or laid out as a ``NUMBA_CACHE_DIR``): each kernel's
  index (``.nbi``) with its compiled files (``.nbc``), when the user lacks it or holds an older
  copy. numba's index is keyed by the source's content and by the CPU name and features, so the
  copies load only on a matching CPU: warm with ``NUMBA_CPU_NAME=generic`` (and run with it)
  for a cache valid on any x86-64 host. A shared folder or file that another user could write,
  or that a user other than root, you or the installation's owner owns, is refused with a
  ``SharedCacheWarning``; symlinked files are never followed. ``MINISYM_SHARED_CACHE=none``
  seeds nothing (to measure a first run that compiles).
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
- **Small calls.** Waking sleeping OpenMP workers costs about 70 µs per parallel loop on 2
  cores, more than a call on a small image computes (im2col of one 16x8x8 image: 9 µs serially,
  68 µs in parallel; 6 µs when the workers spin, see threads.py). A call whose largest array has
  fewer than ``SERIAL_BELOW`` elements runs the serial twin; every loop a kernel runs in
  parallel is independent of the others, so both twins compute the same values. A kernel that
  does little per element (im2col copies at a tenth of a nanosecond) is declared ``light``:
  its serial twin runs up to that many times as many elements.
"""

import contextlib
import functools
import os
import stat
import tempfile
import threading
import types
import warnings

import numba
import numpy as np
from numba import njit

__all__ = [
    "CACHE",
    "SERIAL_BELOW",
    "parallel_kernel",
    "reassociating_sum",
    "twins_forced",
    "cache_folder",
    "kernel_folder",
    "parallel_call_mode",
    "seed_cache",
    "seeded",
    "SharedCacheWarning",
]


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
    except Exception:  # noqa: BLE001 -- an exception that cannot be copied: its text is kept
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


# --- seeding the user's cache from a shared, warmed one --------------------------------------
_KERNELS = os.path.dirname(os.path.abspath(__file__))
_IN_TREE = os.path.join(_KERNELS, "__pycache__")
_seeding = {"done": False, "from": [], "kernels": []}


class SharedCacheWarning(UserWarning):
    """A shared cache of compiled kernels was not used (unsafe, or holds none)."""


def _subpath():
    """The subfolder numba's NUMBA_CACHE_DIR and user-wide locators keep this folder's kernels
    in (its name and a hash of its absolute path)."""
    from numba.core.caching import _CacheLocator

    return _CacheLocator.get_suitable_cache_subpath(os.path.join(_KERNELS, "jit.py"))


def kernel_folder():
    """The folder numba reads and writes this installation's compiled kernels in, or None."""
    if not CACHE:
        return None
    if _CACHE_FOLDER == _IN_TREE and not os.environ.get("NUMBA_CACHE_DIR"):
        return _IN_TREE
    return os.path.join(_CACHE_FOLDER, _subpath())


def _trusted_owners():
    """Root, this user, and whoever owns the installation (who can change its code anyway)."""
    owners = {0, os.getuid()}
    try:
        owners.add(os.stat(_KERNELS).st_uid)
    except OSError:
        pass
    return owners


def _unsafe(info):
    """Why a shared folder or file with this ``stat`` result cannot be trusted, or None."""
    if not hasattr(os, "getuid"):
        return None
    if info.st_mode & 0o022:
        return "other users can write it"
    if info.st_uid not in _trusted_owners():
        return f"it belongs to another user (uid {info.st_uid})"
    return None


def _read_shared(path):
    """The bytes and stat of the regular file ``path``, never through a symlink; ValueError
    saying why if it cannot be trusted."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        reason = _unsafe(info)
        if reason:
            raise ValueError(reason)
        return f.read(), info


def _write_private(folder, name, data, info):
    """Write ``data`` to ``folder/name`` at once (a reader sees the old file or the new one),
    keeping the source's modification time."""
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.utime(temporary, ns=(info.st_atime_ns, info.st_mtime_ns))
        os.replace(temporary, os.path.join(folder, name))
    except BaseException:
        os.unlink(temporary)
        raise


def _kernel_files(folder):
    """{index file name: [its data file names]} of the compiled kernels in ``folder``."""
    names = os.listdir(folder)
    groups = {}
    for index in (n for n in names if n.endswith(".nbi")):
        base = index[: -len(".nbi")]
        groups[index] = sorted(
            n
            for n in names
            if n.startswith(base + ".")
            and n.endswith(".nbc")
            and n[len(base) + 1 : -len(".nbc")].isdigit()
        )
    return groups


def _needs_copy(src_index, dst_index):
    try:
        return os.stat(dst_index).st_mtime_ns < os.stat(src_index).st_mtime_ns
    except FileNotFoundError:
        return True


def _own_folder(folder):
    """``folder`` (made if missing) if it resolves to a folder of this user's; else None."""
    try:
        os.makedirs(folder, exist_ok=True)
        info = os.stat(os.path.realpath(folder))
    except OSError:
        return None
    owned = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return folder if stat.S_ISDIR(info.st_mode) and owned else None


def _copy_kernel(src, dst, index, data_files):
    """Copy one kernel's index and data files; the old index goes first and the new one comes
    last, so numba never pairs an index with another version's data files."""
    files = [(name, *_read_shared(os.path.join(src, name))) for name in data_files + [index]]
    try:
        os.unlink(os.path.join(dst, index))
    except FileNotFoundError:
        pass
    for name, data, info in files:
        _write_private(dst, name, data, info)


def seed_cache(src, dst):
    """Copy into ``dst`` (numba's cache folder for these kernels, made if missing) the compiled
    kernels of ``src`` that ``dst`` lacks or holds older copies of; returns the index files
    copied. Warns (SharedCacheWarning) and copies nothing from a ``src`` others could change;
    skips, with a warning, a kernel whose files are unsafe or symlinks."""
    real = os.path.realpath(src)
    reason = _unsafe(os.stat(real))
    if reason:
        warnings.warn(
            f"not using the compiled kernels in {src}: {reason}", SharedCacheWarning, stacklevel=2
        )
        return []
    if _own_folder(dst) is None:
        warnings.warn(
            f"not seeding {dst}: it is not a folder of yours", SharedCacheWarning, stacklevel=2
        )
        return []
    copied = []
    for index, data_files in sorted(_kernel_files(real).items()):
        if not _needs_copy(os.path.join(real, index), os.path.join(dst, index)):
            continue
        try:
            _copy_kernel(real, dst, index, data_files)
        except (OSError, ValueError) as error:
            warnings.warn(
                f"not using the compiled kernel {os.path.join(src, index)}: {error}",
                SharedCacheWarning,
                stacklevel=2,
            )
            continue
        copied.append(index)
    return copied


def _warmed(folder):
    """``folder``, or its subfolder in NUMBA_CACHE_DIR's layout, if it holds compiled kernels."""
    for candidate in (folder, os.path.join(folder, _subpath())):
        try:
            if any(name.endswith(".nbi") for name in os.listdir(candidate)):
                return candidate
        except OSError:
            pass
    return None


def _shared_folders():
    """The folders to seed from: MINISYM_SHARED_CACHE's, then the installation's own."""
    named = os.environ.get("MINISYM_SHARED_CACHE")
    if named == "none":
        return []
    folders = []
    if named:
        if _warmed(named) is None:
            warnings.warn(
                f"MINISYM_SHARED_CACHE={named} holds no compiled minisym kernels "
                f"(flat, or in {_subpath()})",
                SharedCacheWarning,
                stacklevel=3,
            )
        else:
            folders.append(_warmed(named))
    if _warmed(_IN_TREE):
        folders.append(_IN_TREE)
    return folders


def _seed_once():
    """Seed the user's cache from the shared ones, once per process, before any kernel runs."""
    if _seeding["done"] or numba.core.config.DISABLE_JIT:
        return
    _seeding["done"] = True
    dst = kernel_folder()
    if dst is None:
        return
    for folder in _shared_folders():
        if os.path.realpath(folder) == os.path.realpath(dst):
            continue
        _seeding["from"].append(folder)
        try:
            _seeding["kernels"] += seed_cache(folder, dst)
        except OSError as error:  # a folder that vanished or cannot be read: compile instead
            warnings.warn(
                f"not using the compiled kernels in {folder}: {error}",
                SharedCacheWarning,
                stacklevel=2,
            )


def seeded():
    """What this process copied into its cache: {'from': [shared folders], 'kernels': [index
    files copied]} (nothing when the cache already held them)."""
    return {"from": list(_seeding["from"]), "kernels": list(_seeding["kernels"])}


_seed_once()


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
    except Exception:  # noqa: BLE001 -- an exception that cannot be copied: its text is kept
        return True  # cannot tell: assume the fork-unsafe one


def parallel_call_mode():
    """How a parallel kernel is called now: 'parallel', 'locked' (one thread at a time) or
    'serial' (a child forked after GNU OpenMP started)."""
    layer = _launched["layer"]
    if layer == "omp" and _launched["pid"] != os.getpid() and _gnu_openmp():
        return "serial"
    return "parallel" if layer in _SAFE_FROM_THREADS else "locked"


# elements of a call's largest array below which the serial twin is faster: where the two cross
# on 2 cores with OpenMP's workers asleep between loops, and spinning (threads.py)
SERIAL_BELOW = 1 << 17
SERIAL_BELOW_SPINNING = 1 << 13
_forced = threading.local()  # warmup.py compiles both twins on its small arrays


@contextlib.contextmanager
def twins_forced(twin):
    """Within the block, every parallel kernel runs its ``'parallel'`` or ``'serial'`` twin
    whatever its arrays' sizes (what warmup.py uses to compile both)."""
    before = getattr(_forced, "twin", None)
    _forced.twin = twin
    try:
        yield
    finally:
        _forced.twin = before


def _largest(args):
    """The element count of the largest array among ``args``."""
    return max((a.size for a in args if isinstance(a, np.ndarray)), default=0)


class ParallelKernel:
    """A ``numba.njit(parallel=True)`` kernel, called like the function it compiles; see the
    module's docstring for when it runs locked or serial instead."""

    def __init__(self, func, light=1):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.light = light
        self.parallel = njit(cache=CACHE, parallel=True)(func)
        self._serial = None

    @property
    def serial(self):
        """The same loops compiled without parallel=True (made at first use; its own name, so
        numba's cache keeps the two apart)."""
        if self._serial is None:
            func = self.py_func
            twin = types.FunctionType(
                func.__code__,
                func.__globals__,
                func.__name__ + "_serial",
                func.__defaults__,
                func.__closure__,
            )
            twin.__qualname__ = func.__qualname__ + "_serial"
            twin.__module__ = func.__module__
            self._serial = njit(cache=CACHE)(twin)
        return self._serial

    def __call__(self, *args):
        return self.sized(_largest(args), *args)

    def sized(self, size, *args):
        """Call with ``size`` (not the largest array's elements) compared with the threshold:
        for a kernel whose work does not go with its arrays' sizes."""
        mode = parallel_call_mode()
        twin = getattr(_forced, "twin", None)
        small = twin is None and size < SERIAL_BELOW * self.light
        if mode == "serial" or twin == "serial" or small:
            return self.serial(*args)
        if mode == "parallel":
            return self.parallel(*args)
        with _LOCK:
            result = self.parallel(*args)
            _learn_layer()
        return result

    def __repr__(self):
        return f"<parallel kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def parallel_kernel(func=None, *, light=1):
    """Decorator: ``func`` compiled with ``numba.njit(cache=..., parallel=True)``, safe from
    threads and forks; ``@parallel_kernel(light=k)`` runs serially up to k times the elements
    (see the module's docstring)."""
    if func is None:
        return lambda f: ParallelKernel(f, light)
    return ParallelKernel(func, light)


def reassociating_sum(func):
    """Decorator for a float sum a kernel calls: ``func`` compiled with numba.njit(cache=...,
    fastmath={'reassoc'}), so that LLVM keeps vector-wide partial sums instead of one chain of
    dependent adds. Not a kernel of its own: it is cached inside the kernels that call it, and
    the warm-up's counts leave it out."""
    compiled = njit(cache=CACHE, fastmath={"reassoc"})(func)
    compiled.inside_kernels = True
    return compiled
