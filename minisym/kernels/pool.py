"""2-D max / average / sum pooling, forward and backward, over (N*C) planes in parallel.

Semantics are MXNet's (see ``minisym.kernels.reference.pool_forward``): padding is the lowest
float for max and 0 otherwise; max backward sends the gradient to the first maximum of the
window in row-major order; avg divides by the window clipped to the padded input, or by the
real cells when ``count_include_pad`` is False.
"""

import numpy as np
from numba import njit, prange

from .jit import CACHE, parallel_kernel

__all__ = ["pool2d_forward", "pool2d_backward"]

_MAX, _AVG, _SUM = 0, 1, 2
_KINDS = {"max": _MAX, "avg": _AVG, "sum": _SUM}


@njit(cache=CACHE, inline="always")
def _window(o, stride, pad, k, size):
    """(first cell, end cell, padded start, padded end) of window ``o`` along one axis."""
    start = o * stride - pad
    end = min(start + k, size + pad)
    return max(start, 0), min(end, size), start, end


@parallel_kernel
def _pool_forward(x, kind, kh, kw, sh, sw, ph, pw, include_pad, y):
    planes, height, width = x.shape
    oh, ow = y.shape[1], y.shape[2]
    lowest = np.finfo(x.dtype).min
    for p in prange(planes):
        for i in range(oh):
            y0, y1, py0, py1 = _window(i, sh, ph, kh, height)
            for j in range(ow):
                x0, x1, px0, px1 = _window(j, sw, pw, kw, width)
                if kind == _MAX:
                    best = lowest
                    for a in range(y0, y1):
                        for b in range(x0, x1):
                            if x[p, a, b] > best:
                                best = x[p, a, b]
                    y[p, i, j] = best
                else:
                    total = 0.0
                    for a in range(y0, y1):
                        for b in range(x0, x1):
                            total += x[p, a, b]
                    if kind == _AVG:
                        count = (py1 - py0) * (px1 - px0) if include_pad else (y1 - y0) * (x1 - x0)
                        total /= max(count, 1)
                    y[p, i, j] = total


@parallel_kernel
def _pool_backward(dy, x, y, kind, kh, kw, sh, sw, ph, pw, include_pad, dx):
    planes, height, width = x.shape
    oh, ow = dy.shape[1], dy.shape[2]
    for p in prange(planes):
        for i in range(oh):
            y0, y1, py0, py1 = _window(i, sh, ph, kh, height)
            for j in range(ow):
                x0, x1, px0, px1 = _window(j, sw, pw, kw, width)
                g = dy[p, i, j]
                if kind == _MAX:
                    found = False
                    for a in range(y0, y1):
                        for b in range(x0, x1):
                            if not found and x[p, a, b] == y[p, i, j]:
                                dx[p, a, b] += g
                                found = True
                    continue
                if kind == _AVG:
                    count = (py1 - py0) * (px1 - px0) if include_pad else (y1 - y0) * (x1 - x0)
                    g = g / max(count, 1)
                for a in range(y0, y1):
                    for b in range(x0, x1):
                        dx[p, a, b] += g


def _planes(a):
    return np.ascontiguousarray(a).reshape(-1, a.shape[-2], a.shape[-1])


def pool2d_forward(x, pool_type, kernel, stride, pad, out_hw, count_include_pad=True, out=None):
    """x (N, C, H, W) -> (N, C, OH, OW) (into ``out``, C-contiguous, when given)."""
    y = np.empty(x.shape[:2] + tuple(out_hw), x.dtype) if out is None else out
    kind, include_pad = _KINDS[pool_type], bool(count_include_pad)
    _pool_forward(_planes(x), kind, *kernel, *stride, *pad, include_pad, y.reshape(-1, *out_hw))
    return y


def pool2d_backward(dy, x, y, pool_type, kernel, stride, pad, count_include_pad=True):
    """dx (N, C, H, W) for y = pool2d_forward(x) and its gradient dy."""
    dx = np.zeros(x.shape, dy.dtype)
    kind, include_pad = _KINDS[pool_type], bool(count_include_pad)
    _pool_backward(
        _planes(dy), _planes(x), _planes(y), kind, *kernel, *stride, *pad, include_pad, _planes(dx)
    )
    return dx
