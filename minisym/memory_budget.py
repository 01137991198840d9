"""How much memory this process may still take, and the check that refuses arrays which would
not fit *before anything is allocated*: a batch of 100000 images or a shape with one zero too
many is an error to read, not a Jupyter kernel killed by the system.

The memory available is the smallest of what the system says, unless ``MINISYM_MEMORY_LIMIT``
replaces it:

- the process's cgroup limit less what the cgroup uses (cgroup v2 ``memory.max`` and
  ``memory.current``, v1 ``memory.limit_in_bytes`` and ``memory.usage_in_bytes``: a container's,
  a JupyterHub spawner's or systemd's limit), reclaimable file cache not counted as used;
- ``MemAvailable`` in ``/proc/meminfo``: what the machine can give without swapping;
- without either (not Linux): the free physical pages, ``os.sysconf``.

``MINISYM_MEMORY_LIMIT=2GiB`` (or ``1500MB``, ``8G``, a number of bytes, ``unlimited``) is
read at every check, so ``os.environ['MINISYM_MEMORY_LIMIT'] = '8GiB'`` in a notebook counts
from the next call. KB / MB / GB are powers of 1000; K, M, G, KiB, MiB, GiB powers of 1024.
What is checked: everything ``simple_bind``, ``bind``, ``Executor.reshape`` and
``Executor.copy`` allocate (arguments, gradients, auxiliary states, the memory plan's buffers,
the largest convolution's im2col workspace), ``mx.nd.zeros / ones / empty / full``, an
``NDArrayIter``'s batches and the file ``mx.nd.load`` reads.
"""

import math
import os
import re

import numpy as np

from .base import MXNetMemoryError, MXNetValueError, dtype_name

__all__ = [
    "ENV",
    "available",
    "check_fits",
    "check_array",
    "format_bytes",
    "parse_size",
    "describe_array",
    "system_available",
]

ENV = "MINISYM_MEMORY_LIMIT"
# Below this, the system is not asked (a read of /proc per small array would cost time, and
# a few MiB never decide whether the kernel survives); MINISYM_MEMORY_LIMIT checks every size.
SYSTEM_CHECK_FROM = 64 << 20

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kib": 1 << 10,
    "kb": 10**3,
    "m": 1 << 20,
    "mib": 1 << 20,
    "mb": 10**6,
    "g": 1 << 30,
    "gib": 1 << 30,
    "gb": 10**9,
    "t": 1 << 40,
    "tib": 1 << 40,
    "tb": 10**12,
}
_NO_LIMIT = ("unlimited", "none", "off", "inf", "max")
_SIZE = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)")


def parse_size(text):
    """Bytes from ``'2GiB'``, ``'1.5 GB'``, ``'512M'``, ``'1000000'``; None for ``'unlimited'``."""
    raw = str(text).strip().lower().replace("_", "")
    if raw in _NO_LIMIT:
        return None
    match = _SIZE.fullmatch(raw)
    if match is None or match.group(2) not in _UNITS:
        raise MXNetValueError(
            f"{ENV}={text!r} is not a size: write it as 2GiB, 1500MB, 8G or a number of bytes "
            f"(or 'unlimited' to turn the memory check off)"
        )
    return int(float(match.group(1)) * _UNITS[match.group(2)])


def format_bytes(nbytes):
    """``'37.3 GiB'``, ``'512 B'``: bytes in the largest unit that keeps the number >= 1."""
    size = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024:
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} EiB"


def _limit_text(nbytes):
    """A value for MINISYM_MEMORY_LIMIT a little above ``nbytes``, in whole GiB or MiB."""
    gib = nbytes * 1.1 / (1 << 30)
    return f"{math.ceil(gib)}GiB" if gib >= 1 else f"{math.ceil(gib * 1024)}MiB"


# --- what the system says ------------------------------------------------------------------
def _read(path):
    with open(path) as handle:
        return handle.read().strip()


def _stat_value(folder, key):
    """The value of ``key`` in ``folder/memory.stat`` (0 when absent)."""
    try:
        for line in _read(os.path.join(folder, "memory.stat")).splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _cgroup_folders(root, path):
    """``root/path`` and each of its parents up to ``root`` (a limit anywhere above counts)."""
    folder = os.path.normpath(os.path.join(root, path.lstrip("/")))
    while True:
        yield folder
        if folder == root or len(folder) <= len(root):
            return
        folder = os.path.dirname(folder)


def _cgroup_available():
    """(bytes left under this process's cgroup memory limit, where that comes from), or None
    when there is no limit or it cannot be read."""
    try:
        lines = _read("/proc/self/cgroup").splitlines()
    except OSError:
        return None
    best = None
    for line in lines:
        hierarchy, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if hierarchy == "0" and controllers == "":
            roots, names = (
                ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"),
                ("memory.max", "memory.current", "inactive_file"),
            )
        elif "memory" in controllers.split(","):
            roots, names = (
                ("/sys/fs/cgroup/memory",),
                ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"),
            )
        else:
            continue
        limit_file, usage_file, inactive = names
        for root in roots:
            for folder in _cgroup_folders(root, path):
                try:
                    text = _read(os.path.join(folder, limit_file))
                    if text == "max" or int(text) >= 1 << 60:
                        continue
                    used = int(_read(os.path.join(folder, usage_file)))
                except (OSError, ValueError):
                    continue
                left = max(int(text) - max(used - _stat_value(folder, inactive), 0), 0)
                if best is None or left < best[0]:
                    best = (
                        left,
                        f"cgroup limit {format_bytes(int(text))} in "
                        f"{os.path.join(folder, limit_file)}",
                    )
    return best


def _meminfo_available():
    try:
        for line in _read("/proc/meminfo").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024, "MemAvailable in /proc/meminfo"
    except (OSError, ValueError, IndexError):
        pass
    return None


def _sysconf_available():
    try:
        pages, size = os.sysconf("SC_AVPHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return (pages * size, "free physical memory (os.sysconf)") if pages > 0 else None


def system_available():
    """(bytes, where the figure comes from) the system can still give this process, or
    (None, 'unknown')."""
    found = [f for f in (_cgroup_available(), _meminfo_available()) if f is not None]
    if not found:
        found = [f for f in (_sysconf_available(),) if f is not None]
    return min(found) if found else (None, "unknown")


def available():
    """(bytes available, or None for no limit; where the figure comes from):
    ``MINISYM_MEMORY_LIMIT`` when set, else the system's."""
    text = os.environ.get(ENV, "").strip()
    if text:
        return parse_size(text), f"set by {ENV}={text}"
    return system_available()


# --- the check -------------------------------------------------------------------------------
def describe_array(name, shape, dtype):
    """``'data' (100000, 784) float32, 299.1 MiB``."""
    shape = tuple(int(d) for d in shape)
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    return f"{name} {shape} {dtype_name(dtype)}, {format_bytes(nbytes)}"


def check_fits(nbytes, where, asked, fix, detail=""):
    """Raise MXNetMemoryError when ``nbytes`` is more than the memory available.

    ``asked``: what needs the bytes, with its verb (``'this executor needs'``); ``fix``: what to
    change (a str, or a function of the bytes available giving it); ``detail``: what the
    bytes are made of. Nothing is read from the system for fewer than 64 MiB unless
    MINISYM_MEMORY_LIMIT is set.
    """
    if nbytes < SYSTEM_CHECK_FROM and not os.environ.get(ENV, "").strip():
        return
    limit, source = available()
    if limit is None or nbytes <= limit:
        return
    fix = fix(limit) if callable(fix) else fix
    raise MXNetMemoryError(
        f"{where}: {asked} {format_bytes(nbytes)}, more than the {format_bytes(limit)} of "
        f"memory available to this process ({source}); nothing was allocated."
        + (f" {detail}." if detail else "")
        + f" Fix: {fix}. If the memory really is there, raise the limit: "
        f"os.environ['{ENV}'] = '{_limit_text(nbytes)}' (or {ENV}=... in the shell; "
        "'unlimited' turns this check off)."
    )


def check_array(shape, dtype, where, fix=None):
    """The check for one new array of ``shape`` and ``dtype`` (``mx.nd.zeros`` ...)."""
    shape = tuple(int(d) for d in shape)
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    check_fits(
        nbytes,
        where,
        f"an array of shape {shape} {dtype_name(dtype)} needs",
        fix
        or "a smaller shape (check each size: a batch too large, a size typed with a "
        "zero too many), or a smaller dtype (float16 / uint8 halve or quarter it)",
    )
