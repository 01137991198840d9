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


@njit(cache=CACHE, inline="always")
def _taps_inside(out_size, stride, offset, size):
    """The outputs o in [lo, hi) whose tap at input o * stride + offset lies in [0, size)."""
    lo = 0 if offset >= 0 else (-offset + stride - 1) // stride
    hi = 0 if size - offset <= 0 else (size - offset + stride - 1) // stride
    return lo, max(lo, min(hi, out_size))


@njit(cache=CACHE, inline="always")
def _reduce_into(kind, acc, src, lo, hi, step, start):
    """acc[lo:hi] max= or += src[start + k * step] for k in 0..hi-lo (one branch, then a loop
    that vectorises)."""
    part = src[start : start + (hi - lo - 1) * step + 1 : step]
    if kind == _MAX:
        for k in range(hi - lo):
            value, best = part[k], acc[lo + k]
            # a select, not a branch: it vectorises (and random data mispredicts no branch);
            # NaN never wins, as in the window loop this replaces
            acc[lo + k] = value if value > best else best
    else:
        for k in range(hi - lo):
            acc[lo + k] += part[k]


@njit(cache=CACHE, inline="always")
def _counts(out_size, stride, pad, k, size, include_pad):
    """The cells that average pooling divides by along one axis, per output."""
    counts = np.empty(out_size, np.int64)
    for o in range(out_size):
        first, end, padded_start, padded_end = _window(o, stride, pad, k, size)
        counts[o] = padded_end - padded_start if include_pad else end - first
    return counts


@parallel_kernel
def _pool_forward(x, kind, kh, kw, sh, sw, ph, pw, include_pad, y):
    """Separable windows: each input row reduced over the kw column taps, then each output row
    over the kh row taps (kh + kw passes of whole rows, not kh * kw reads per output)."""
    planes, height, width = x.shape
    oh, ow = y.shape[1], y.shape[2]
    fill = np.finfo(x.dtype).min if kind == _MAX else 0.0
    count_h = _counts(oh, sh, ph, kh, height, include_pad)
    count_w = _counts(ow, sw, pw, kw, width, include_pad)
    for p in prange(planes):
        rows = np.full((height, ow), fill)  # float64: sums of many float32 cells stay exact
        for a in range(height):
            for t in range(kw):
                lo, hi = _taps_inside(ow, sw, t - pw, width)
                if lo < hi:
                    _reduce_into(kind, rows[a], x[p, a], lo, hi, sw, lo * sw + t - pw)
        line = np.empty(ow)
        for i in range(oh):
            line[:] = fill
            for t in range(kh):
                a = i * sh - ph + t
                if 0 <= a < height:
                    _reduce_into(kind, line, rows[a], 0, ow, 1, 0)
            for j in range(ow):
                value = line[j]
                if kind == _AVG:
                    value /= max(count_h[i] * count_w[j], 1)
                y[p, i, j] = value


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
