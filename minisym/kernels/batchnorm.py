"""Batch normalization over the channel axis of x viewed as (N, C, S), one channel per thread.

Statistics accumulate in float64 whatever the data type, so float32 results stay within the
parity tolerance of MXNet's.
"""

import math

import numpy as np
from numba import prange

from .jit import parallel_kernel

__all__ = ["bn_forward_train", "bn_normalize", "bn_backward"]


@parallel_kernel
def _stats(x, mean, var):
    """Biased mean and variance of x (N, C, S) per channel."""
    n_img, channels, size = x.shape
    count = n_img * size
    for c in prange(channels):
        total = 0.0
        for n in range(n_img):
            for i in range(size):
                total += x[n, c, i]
        m = total / count
        sq = 0.0
        for n in range(n_img):
            for i in range(size):
                d = x[n, c, i] - m
                sq += d * d
        mean[c] = m
        var[c] = sq / count


@parallel_kernel
def _normalize(x, mean, invstd, gamma, beta, relu, y):
    """y = (x - mean) * invstd * gamma + beta per channel (then max(y, 0) if relu)."""
    n_img, channels, size = x.shape
    for c in prange(channels):
        scale = invstd[c] * gamma[c]
        shift = beta[c] - mean[c] * scale
        for n in range(n_img):
            for i in range(size):
                v = x[n, c, i] * scale + shift
                y[n, c, i] = v if (v > 0 or not relu) else 0


@parallel_kernel
def _backward(dy, x, mean, invstd, gamma, train, relu_y, dx, dgamma, dbeta):
    """Gradients of batch norm (train: through the batch statistics; else per channel).

    With a ReLU fused after it, ``relu_y`` is that ReLU's output and dy is the ReLU's head
    gradient, masked here (dy where relu_y > 0); otherwise ``relu_y`` has size 0.
    """
    n_img, channels, size = x.shape
    count = n_img * size
    masked = relu_y.size > 0
    for c in prange(channels):
        sum_dy = 0.0
        sum_dy_xhat = 0.0
        for n in range(n_img):
            for i in range(size):
                g = dy[n, c, i] if not masked or relu_y[n, c, i] > 0 else 0.0
                sum_dy += g
                sum_dy_xhat += g * (x[n, c, i] - mean[c]) * invstd[c]
        dbeta[c] = sum_dy
        dgamma[c] = sum_dy_xhat
        scale = gamma[c] * invstd[c]
        for n in range(n_img):
            for i in range(size):
                g = dy[n, c, i] if not masked or relu_y[n, c, i] > 0 else 0.0
                if train:
                    xhat = (x[n, c, i] - mean[c]) * invstd[c]
                    g = g - (sum_dy + xhat * sum_dy_xhat) / count
                dx[n, c, i] = g * scale


def _as3d(a, axis):
    """a (..., C at axis, ...) as a contiguous (N, C, S) array."""
    n = math.prod(a.shape[:axis])
    return np.ascontiguousarray(a).reshape(n, a.shape[axis], -1)


def bn_forward_train(x, gamma, beta, eps, axis=1, relu=False, out=None):
    """(y, mean, invstd, var) with the batch's biased statistics; x (..., C at axis, ...)."""
    x3 = _as3d(x, axis)
    channels = x3.shape[1]
    mean, var = np.empty(channels, x.dtype), np.empty(channels, x.dtype)
    _stats(x3, mean, var)
    invstd = (1.0 / np.sqrt(var + eps)).astype(x.dtype)
    y = bn_normalize(x3, mean, invstd, gamma, beta, relu=relu, out=out)
    return y.reshape(x.shape), mean, invstd, var


def bn_normalize(x, mean, invstd, gamma, beta, axis=1, relu=False, out=None):
    """y = (x - mean) * invstd * gamma + beta with given per-channel statistics."""
    x3 = _as3d(x, axis)
    y = np.empty_like(x3) if out is None else out.reshape(x3.shape)
    per_channel = (a.astype(x.dtype, copy=False) for a in (mean, invstd, gamma, beta))
    _normalize(x3, *per_channel, relu, y)
    return y.reshape(x.shape)


def bn_backward(dy, x, mean, invstd, gamma, train, axis=1, relu_y=None):
    """(dx, dgamma, dbeta); ``train`` differentiates through the batch statistics. With
    ``relu_y`` (the output of a ReLU right after), dy is that ReLU's head gradient."""
    x3 = _as3d(x, axis)
    dx = np.empty_like(x3)
    channels = x3.shape[1]
    dgamma, dbeta = np.empty(channels, x.dtype), np.empty(channels, x.dtype)
    mask = np.empty((0, 0, 0), x.dtype) if relu_y is None else _as3d(relu_y, axis)
    _backward(_as3d(dy, axis), x3, mean, invstd, gamma, bool(train), mask, dx, dgamma, dbeta)
    return dx.reshape(x.shape), dgamma, dbeta
