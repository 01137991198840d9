"""Compile every kernel for float32 and float64 once, so that later runs load them from
numba's cache: ``python -m minisym.kernels.warmup`` (``make lab`` runs it)."""
import time

import numpy as np

from . import batchnorm, conv, pool

__all__ = ["warm_up"]


def _conv_and_pool(dtype):
    x = np.ones((1, 2, 5, 5), dtype)
    w = np.ones((2, 2, 3, 3), dtype)
    y = conv.conv2d_forward(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    conv.conv2d_backward(y, x, w, (1, 1), (1, 1), (1, 1), 1)
    for kind in ("max", "avg"):
        out = pool.pool2d_forward(x, kind, (2, 2), (2, 2), (0, 0), (2, 2))
        pool.pool2d_backward(out, x, out, kind, (2, 2), (2, 2), (0, 0))


def _batchnorm(dtype):
    x = np.ones((2, 3, 2, 2), dtype)
    ones = np.ones(3, dtype)
    y, mean, invstd, _ = batchnorm.bn_forward_train(x, ones, ones, 1e-3)
    batchnorm.bn_normalize(x, mean, invstd, ones, ones, relu=True)
    batchnorm.bn_backward(y, x, mean, invstd, ones, True)


def warm_up(verbose=True):
    """Run each kernel once per dtype; returns the seconds it took."""
    start = time.perf_counter()
    for dtype in (np.float32, np.float64):
        _conv_and_pool(dtype)
        _batchnorm(dtype)
    seconds = time.perf_counter() - start
    if verbose:
        print(f"minisym kernels ready ({seconds:.1f} s)")
    return seconds


if __name__ == "__main__":
    warm_up()
