"""Compile every kernel for float32 and float64 once, so that later runs load them from
numba's cache: ``python -m minisym.kernels.warmup`` (``make lab`` runs it)."""
import time

import numpy as np

from . import batchnorm, conv, nms, pool, roi, sampler

__all__ = ["warm_up"]


def _conv_and_pool(dtype):
    x = np.ones((1, 2, 5, 5), dtype)
    w = np.ones((2, 2, 3, 3), dtype)
    y = conv.conv2d_forward(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    conv.conv2d_backward(y, x, w, (1, 1), (1, 1), (1, 1), 1)
    depthwise = np.ones((2, 1, 3, 3), dtype)  # the direct kernels of grouped_conv.py
    y = conv.conv2d_forward(x, depthwise, None, (1, 1), (1, 1), (1, 1), 2)
    conv.conv2d_backward(y, x, depthwise, (1, 1), (1, 1), (1, 1), 2)
    for kind in ("max", "avg"):
        out = pool.pool2d_forward(x, kind, (2, 2), (2, 2), (0, 0), (2, 2))
        pool.pool2d_backward(out, x, out, kind, (2, 2), (2, 2), (0, 0))


def _batchnorm(dtype):
    x = np.ones((2, 3, 2, 2), dtype)
    ones = np.ones(3, dtype)
    y, mean, invstd, _ = batchnorm.bn_forward_train(x, ones, ones, 1e-3)
    batchnorm.bn_normalize(x, mean, invstd, ones, ones, relu=True)
    batchnorm.bn_backward(y, x, mean, invstd, ones, True)


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


def warm_up(verbose=True):
    """Run each kernel once per dtype; returns the seconds it took."""
    start = time.perf_counter()
    for dtype in (np.float32, np.float64):
        _conv_and_pool(dtype)
        _batchnorm(dtype)
        _image(dtype)
    nms.nms(np.array([[0, 0, 9, 9], [1, 1, 9, 9]], np.float32), 0.7, 2)  # float32 only
    seconds = time.perf_counter() - start
    if verbose:
        print(f"minisym kernels ready ({seconds:.1f} s)")
    return seconds


if __name__ == "__main__":
    warm_up()
