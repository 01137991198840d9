"""Fast kernels: numba loops where the time goes (im2col / col2im, pooling, batch norm, grouped
and depthwise convolution, Winograd's transforms, ROI pooling, bilinear sampling, NMS), NumPy's
BLAS for the matrix products, and the switches that choose them (MINISYM_KERNELS,
``exact_kernels``) with ``write_target`` / ``finish`` for writing their results.

Each kernel has a plain-NumPy reference that the tests compare it with: ``reference.py`` for
im2col / col2im, pooling and the activations; the operator's own module for the others
(``ops/roi_pooling.py``, ``ops/bilinear_sampler.py``, ``ops/contrib/proposal.py``). This package
imports nothing of ``minisym.ops``. ``jit.py`` says where numba caches the kernels and how
parallel kernels stay safe from threads and forked processes."""

import contextlib
import contextvars
import os

import numpy as np

from ..assign import assign
from .threads import configure_threads

configure_threads()  # before any kernel runs: OpenMP reads its settings when numba starts it


def fast_kernels_enabled():
    """The numba/BLAS fast paths are used unless MINISYM_KERNELS=reference."""
    return os.environ.get("MINISYM_KERNELS", "fast") != "reference"


_EXACT = contextvars.ContextVar("minisym_exact_kernels", default=False)


def fast_algorithms_enabled():
    """Algorithms that compute the same result with reordered arithmetic (Winograd) run only
    when asked for, MINISYM_KERNELS=winograd, and never while a trace or monitor watches.
    Measured on ResNet's layers they were no faster than im2col + one GEMM on 2 cores (the 16
    thin GEMMs use BLAS less well), and they change a trained network's last digits."""
    return os.environ.get("MINISYM_KERNELS", "fast") == "winograd" and not _EXACT.get()


@contextlib.contextmanager
def exact_kernels():
    """Within this block every kernel computes the textbook way (an executor being traced or
    monitored runs in it, so what the learner inspects is what the lessons describe)."""
    token = _EXACT.set(True)
    try:
        yield
    finally:
        _EXACT.reset(token)


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
