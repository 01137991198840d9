"""Compile every kernel for float32 and float64 once, so that later runs load them from
numba's cache: ``python -m minisym.kernels.warmup`` (``make lab`` runs it). It says which CPU
the code is compiled for and how many kernels were compiled and how many loaded from the cache.
For an image many machines share, warm with ``NUMBA_CPU_NAME=generic``: numba keys its cache by
the CPU, so kernels compiled for the build machine's CPU would be compiled again elsewhere."""

import itertools
import time

import numpy as np
from numba.core import config

from . import (
    batchnorm,
    conv,
    conv_folded,
    elementwise,
    grouped_conv,
    jit,
    nms,
    pool,
    roi,
    sampler,
    winograd,
)

__all__ = ["warm_up", "kernel_counts", "cpu_name"]

_MODULES = (
    batchnorm,
    conv,
    conv_folded,
    elementwise,
    grouped_conv,
    nms,
    pool,
    roi,
    sampler,
    winograd,
)


def _conv_and_pool(dtype):
    x = np.ones((1, 2, 5, 5), dtype)
    w = np.ones((2, 2, 3, 3), dtype)
    y = conv.conv2d_forward(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    conv.conv2d_backward(y, x, w, (1, 1), (1, 1), (1, 1), 1)
    batch = np.ones((2, 2, 5, 5), dtype)  # a batch of small images: _forward_by_image
    y = conv.conv2d_forward(batch, w, None, (2, 2), (1, 1), (1, 1), 1)
    conv.conv2d_backward(y, batch, w, (2, 2), (1, 1), (1, 1), 1)  # _backward_by_image
    depthwise = np.ones((2, 1, 3, 3), dtype)  # the direct kernels of grouped_conv.py
    y = conv.conv2d_forward(x, depthwise, None, (1, 1), (1, 1), (1, 1), 2)
    conv.conv2d_backward(y, x, depthwise, (1, 1), (1, 1), (1, 1), 2)
    wide = np.ones((4, 2, 3, 3), dtype)  # groups of two channels, strided: _forward_by_group
    conv.conv2d_forward(np.ones((1, 4, 5, 5), dtype), wide, None, (2, 2), (1, 1), (1, 1), 2)
    ones = np.ones(2, dtype)  # a folded BatchNorm after the GEMMs: _scale_and_shift_planes
    y = np.empty((1, 2, 5, 5), dtype)
    conv_folded.conv2d_forward_folded(x, w, None, (1, 1), (1, 1), (1, 1), 1, ones, ones, "relu", y)
    for kind in ("max", "avg"):
        out = pool.pool2d_forward(x, kind, (2, 2), (2, 2), (0, 0), (2, 2))
        pool.pool2d_backward(out, x, out, kind, (2, 2), (2, 2), (0, 0))


def _batchnorm(dtype):
    x = np.ones((2, 3, 2, 2), dtype)
    ones = np.ones(3, dtype)
    y, mean, invstd, _ = batchnorm.bn_forward_train(x, ones, ones, 1e-3)
    batchnorm.bn_normalize(x, mean, invstd, ones, ones, relu=True)
    batchnorm.bn_backward(y, x, mean, invstd, ones, True)
    elementwise.relu(x, y)
    elementwise.relu_grad(x, y, x)


def _image(dtype):
    """The loops of ROIPooling and of the bilinear sampler (SpatialTransformer)."""
    x = np.ones((1, 2, 4, 4), dtype)
    cells = np.zeros((1, 1), np.int64), np.ones((1, 1), np.int64)
    out, argmax = np.empty((1, 2, 1, 1), dtype), np.empty((1, 2, 1, 1), np.int64)
    roi.roi_pool_forward(x, (np.zeros(1, np.int64),) + cells + cells, out, argmax)
    roi.roi_pool_backward(out, argmax, x.shape)
    points = (np.zeros((1, 3), np.int64),) * 2 + (np.full((1, 3), 0.5, dtype),) * 2
    sampled = sampler.sample_forward(x, points, dtype)
    sampler.sample_backward(sampled, x, points, True)


def _dispatchers():
    """numba's dispatchers of every kernel (both twins of a parallel kernel once made)."""
    for module in _MODULES:
        for value in vars(module).values():
            if isinstance(value, jit.ParallelKernel):
                yield from (d for d in (value.parallel, value._serial) if d is not None)
            elif hasattr(value, "stats") and hasattr(value, "py_func"):
                if not getattr(value, "inside_kernels", False):
                    yield value


def kernel_counts():
    """(kernels compiled, kernels loaded from numba's cache) in this process so far, one per
    kernel and signature (0, 0 under NUMBA_DISABLE_JIT=1: nothing is compiled)."""
    compiled = loaded = 0
    for dispatcher in _dispatchers():
        compiled += sum(dispatcher.stats.cache_misses.values())
        loaded += sum(dispatcher.stats.cache_hits.values())
    return compiled, loaded


def cpu_name():
    """The CPU numba compiles for: 'generic' (NUMBA_CPU_NAME=generic, any x86-64) or 'host
    (<name>)', this machine's."""
    if config.CPU_NAME:
        return config.CPU_NAME
    import llvmlite.binding as llvm

    return f"host ({llvm.get_host_cpu_name()})"


def warm_up(verbose=True):
    """Run each kernel once per dtype; returns the seconds it took."""
    start = time.perf_counter()
    for dtype, twin in itertools.product((np.float32, np.float64), ("parallel", "serial")):
        with jit.twins_forced(twin):  # small calls run the serial twin, large ones the other
            _conv_and_pool(dtype)
            _batchnorm(dtype)
            _image(dtype)
    nms.nms(np.array([[0, 0, 9, 9], [1, 1, 9, 9]], np.float32), 0.7, 2)  # float32 only
    seconds = time.perf_counter() - start
    if verbose:
        compiled, loaded = kernel_counts()
        print(
            f"minisym kernels ready ({seconds:.1f} s) for CPU {cpu_name()}: {compiled} "
            f"compiled, {loaded} loaded from the cache in {jit.kernel_folder()}"
        )
    return seconds


if __name__ == "__main__":
    warm_up()
