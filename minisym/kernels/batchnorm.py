"""Batch normalization over the channel axis of x viewed as (N, C, S), one channel per thread.

Statistics accumulate in float64 whatever the data type, so float32 results stay within the
parity tolerance of MXNet's.
"""

import math

import numpy as np
from numba import njit, prange

from .jit import CACHE, parallel_kernel, reassociating_sum

__all__ = ["bn_forward_train", "bn_normalize", "bn_backward"]


# The per-channel sums below are reassociated (jit.reassociating_sum), 4x faster at 112x112.
# Their float64 partial sums are grouped by the CPU's vector width, so two machines can differ
# in the last bits of a float64 sum, never in a float32 statistic beyond a rare last-bit tie.


@reassociating_sum
def _shifted_sums(row, shift):
    """(sum of row - shift, sum of (row - shift)^2) in float64."""
    total = squares = 0.0
    for i in range(row.size):
        d = row[i] - shift
        total += d
        squares += d * d
    return total, squares


@reassociating_sum
def _gradient_sums(dy, x, relu_y, masked, mean):
    """(sum of g, sum of g * (x - mean)) in float64 over one row, g = dy (0 where a fused
    ReLU's output relu_y is not > 0 when ``masked``)."""
    total = weighted = 0.0
    for i in range(dy.size):
        g = dy[i] if not masked or relu_y[i] > 0 else 0.0
        total += g
        weighted += g * (x[i] - mean)
    return total, weighted


@njit(cache=CACHE, inline="always")
def _gradient_row(dy, x, relu_y, masked, train, mean, shift, slope, scale, dx):
    """dx = scale * (g - shift - (x - mean) * slope) over one row in training, scale * g
    else (x unread), g as in _gradient_sums."""
    for i in range(dy.size):
        g = dy[i] if not masked or relu_y[i] > 0 else 0.0
        dx[i] = scale * (g - shift - (x[i] - mean) * slope) if train else scale * g


@parallel_kernel
def _stats(x, mean, var):
    """Biased mean and variance of x (N, C, S) per channel (two passes)."""
    n_img, channels, size = x.shape
    count = n_img * size
    for c in prange(channels):
        total = 0.0
        for n in range(n_img):
            total += _shifted_sums(x[n, c], 0.0)[0]
        m = total / count
        sq = 0.0
        for n in range(n_img):
            sq += _shifted_sums(x[n, c], m)[1]
        mean[c] = m
        var[c] = sq / count


@parallel_kernel
def _normalize(x, mean, invstd, gamma, beta, relu, low, high, y):
    """y = (x - mean) * invstd * gamma + beta per channel, then max(y, 0) if relu, then
    limited to [low, high] as Clip does (NaN passes; -inf, inf: unchanged)."""
    n_img, channels, size = x.shape
    for c in prange(channels):
        scale = invstd[c] * gamma[c]
        shift = beta[c] - mean[c] * scale
        for n in range(n_img):
            for i in range(size):
                v = x[n, c, i] * scale + shift
                v = v if (v > 0 or not relu) else 0
                y[n, c, i] = low if v < low else (high if v > high else v)


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
        sum_dy = sum_dy_xc = 0.0
        for n in range(n_img):
            mask = relu_y[n, c] if masked else dy[n, c]  # read only when masked
            part = _gradient_sums(dy[n, c], x[n, c], mask, masked, mean[c])
            sum_dy += part[0]
            sum_dy_xc += part[1]
        sum_dy_xhat = sum_dy_xc * invstd[c]
        dbeta[c] = sum_dy
        dgamma[c] = sum_dy_xhat
        scale = gamma[c] * invstd[c]
        # dx = scale * (g - (sum_dy + xhat * sum_dy_xhat) / count) in training, scale * g else
        shift = sum_dy / count if train else 0.0
        slope = sum_dy_xhat * invstd[c] / count if train else 0.0
        for n in range(n_img):
            mask = relu_y[n, c] if masked else dy[n, c]
            _gradient_row(
                dy[n, c], x[n, c], mask, masked, train, mean[c], shift, slope, scale, dx[n, c]
            )


def _as3d(a, axis):
    """a (..., C at axis, ...) as a contiguous (N, C, S) array."""
    n = math.prod(a.shape[:axis])
    return np.ascontiguousarray(a).reshape(n, a.shape[axis], -1)


def bn_forward_train(x, gamma, beta, eps, axis=1, relu=False, clip=None, out=None):
    """(y, mean, invstd, var) with the batch's biased statistics; x (..., C at axis, ...)."""
    x3 = _as3d(x, axis)
    channels = x3.shape[1]
    mean, var = np.empty(channels, x.dtype), np.empty(channels, x.dtype)
    _stats(x3, mean, var)
    invstd = (1.0 / np.sqrt(var + eps)).astype(x.dtype)
    y = bn_normalize(x3, mean, invstd, gamma, beta, relu=relu, clip=clip, out=out)
    return y.reshape(x.shape), mean, invstd, var


def bn_normalize(x, mean, invstd, gamma, beta, axis=1, relu=False, clip=None, out=None):
    """y = (x - mean) * invstd * gamma + beta with given per-channel statistics; then ReLU
    with ``relu``, then Clip to ``clip`` = (a_min, a_max), a_min <= a_max, when given."""
    x3 = _as3d(x, axis)
    y = np.empty_like(x3) if out is None else out.reshape(x3.shape)
    per_channel = (a.astype(x.dtype, copy=False) for a in (mean, invstd, gamma, beta))
    low, high = (-np.inf, np.inf) if clip is None else clip
    _normalize(x3, *per_channel, relu, x.dtype.type(low), x.dtype.type(high), y)
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
