"""Fast kernels: numba loops where the time goes (im2col / col2im, pooling, batch norm),
NumPy's BLAS for the matrix products. Each has a plain-NumPy reference in
``minisym.ops.nn_reference`` that the tests compare it with. ``jit.py`` says where numba caches
them and how parallel kernels stay safe from threads and forked processes."""
import os

import numpy as np

from ..ops.assign import assign

# numba's OpenMP threads would otherwise spin after each kernel and fight OpenBLAS's threads
# for the cores: the whole network ran 4x slower. Must be set before numba starts its pool.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .threads import configure_threads  # noqa: E402  (after the environment is set)

configure_threads()


def fast_kernels_enabled():
    """The numba/BLAS fast paths are used unless MINISYM_KERNELS=reference."""
    return os.environ.get("MINISYM_KERNELS", "fast") != "reference"


def write_target(out, req):
    """Where a kernel should put its result: ``out`` itself when it may simply overwrite it
    (req write/inplace, C-contiguous), else a fresh array that ``finish`` then assigns."""
    if req in ("write", "inplace") and out.flags.c_contiguous:
        return out
    return np.empty(out.shape, out.dtype)


def finish(out, req, result):
    """Complete a kernel call begun with ``write_target``: assign unless written in place."""
    if result is not out:
        assign(out, req, result)
