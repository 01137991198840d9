"""2-D max / average / sum pooling, forward and backward, over (N*C) planes in parallel.

Semantics are MXNet's (see ``minisym.kernels.reference.pool_forward``): padding is the lowest
float for max and 0 otherwise; max backward sends the gradient to the first maximum of the
window in row-major order; avg divides by the window clipped to the padded input, or by the
real cells when ``count_include_pad`` is False.
"""

import numba
import numpy as np
from numba import njit, prange, uint64

from .jit import CACHE, parallel_kernel

__all__ = ["pool2d_forward", "pool2d_backward"]

_MAX, _AVG, _SUM = 0, 1, 2
_KINDS = {"max": _MAX, "avg": _AVG, "sum": _SUM}
_PLANES_A_CHUNK = 16  # planes a thread takes at once (sharing its scratch arrays), at most


@njit(cache=CACHE, inline="always")
def _window(o, stride, pad, k, size):
    """(first cell, end cell, padded start, padded end) of window ``o`` along one axis."""
    start = o * stride - pad
    end = min(start + k, size + pad)
    return max(start, 0), min(end, size), start, end


@njit(cache=CACHE, inline="always")
def _reduce_run(kind, acc, src):
    """acc[k] max= or += src[k] over acc (1-D views from 0: the loop vectorises)."""
    if kind == _MAX:
        for k in range(acc.size):
            value, best = src[k], acc[k]
            # a select, not a branch: it vectorises (and random data mispredicts no branch);
            # NaN never wins
            acc[k] = value if value > best else best
    else:
        for k in range(acc.size):
            acc[k] += src[k]


@njit(cache=CACHE, inline="always")
def _fill(array, value):
    for k in range(array.size):
        array[k] = value


@njit(cache=CACHE, inline="always")
def _column_phases(plane, sw, pw, cols, fill, out):
    """out[q, a, m] = the plane padded with ``fill``, at row a and column m * sw + q - pw
    (``out`` flat, (sw, height, cols), then ``fill`` after): each column tap of a strided
    window then reads one contiguous run of one phase."""
    height, width = plane.shape
    _fill(out, fill)
    if sw == 2 and width >= 32:
        _column_pairs(plane, pw, cols, out)
        return
    for q in range(sw):
        x0 = (q - pw) % sw  # the first input column of phase q
        count = (width - x0 + sw - 1) // sw if x0 < width else 0
        for a in range(height):
            start = (q * height + a) * cols + (x0 + pw) // sw
            run, src = out[start : start + count], plane[a, x0:]
            for k in range(count):
                run[k] = src[k * sw]


@njit(cache=CACHE, inline="always")
def _column_pairs(plane, pw, cols, out):
    """``_column_phases`` at stride 2: each row's even and odd columns in one loop, which LLVM
    vectorises as one interleaved load (two strided copies do not vectorise)."""
    height, width = plane.shape
    even_phase = pw % 2  # the phase whose first column is the plane's column 0
    pairs, odd_width = uint64(width // 2), width % 2
    for a in range(height):
        row = plane[a]
        even = uint64((even_phase * height + a) * cols + pw // 2)
        odd = uint64(((1 - even_phase) * height + a) * cols + (1 + pw) // 2)
        for m in range(pairs):
            out[even + m] = row[uint64(2) * m]
            out[odd + m] = row[uint64(2) * m + uint64(1)]
        if odd_width:
            out[even + pairs] = row[uint64(2) * pairs]


@njit(cache=CACHE, inline="always")
def _counts(out_size, stride, pad, k, size, include_pad):
    """The cells that average pooling divides by along one axis, per output."""
    counts = np.empty(out_size, np.int64)
    for o in range(out_size):
        first, end, padded_start, padded_end = _window(o, stride, pad, k, size)
        counts[o] = padded_end - padded_start if include_pad else end - first
    return counts


@njit(cache=CACHE, inline="always")
def _pool_planes(x, kind, geometry, counts, per_chunk, chunk, rows, line, y):
    """``_pool_forward``'s planes of one chunk, reducing in ``rows`` and ``line`` (scratch of
    the dtype the reduction runs in); ``geometry`` (kh, kw, sh, sw, ph, pw), ``counts`` the
    cells an average divides by along each axis (``_counts``)."""
    kh, kw, sh, sw, ph, pw = geometry
    planes, height, width = x.shape
    oh, ow = y.shape[1], y.shape[2]
    fill = np.finfo(x.dtype).min if kind == _MAX else 0.0
    cols = (max(width + 2 * pw, (ow - 1) * sw + kw) + sw - 1) // sw
    slack = (kw - 1) // sw + 1  # the last column tap's run ends that far past its phase
    phases = np.empty(sw * height * cols + slack, x.dtype)  # once a chunk of planes
    count_h, count_w = counts
    for p in range(chunk * per_chunk, min(planes, (chunk + 1) * per_chunk)):
        _column_phases(x[p], sw, pw, cols, fill, phases)
        _fill(rows, fill)
        inside = rows[ph * cols : (ph + height) * cols]
        for t in range(kw):
            start = (t % sw) * height * cols + t // sw
            _reduce_run(kind, inside, phases[start : start + height * cols])
        _fill(line, fill)
        for t in range(kh):
            if sh == 1:
                _reduce_run(kind, line, rows[t * cols : (t + oh) * cols])
                continue
            for i in range(oh):
                r = i * sh + t
                _reduce_run(kind, line[i * cols : (i + 1) * cols], rows[r * cols :])
        for i in range(oh):
            out, row = y[p, i], line[i * cols : i * cols + ow]
            if kind == _AVG:
                for j in range(ow):
                    out[j] = row[j] / max(count_h[i] * count_w[j], 1)
            else:
                for j in range(ow):
                    out[j] = row[j]


@njit(cache=CACHE, inline="always")
def _scratch_sizes(x, kh, kw, sh, sw, ph, pw, y):
    """The sizes of ``_pool_planes``' rows and line: (rows of the padded plane that windows
    read) x (a column phase's width), and output rows x that width."""
    height, width = x.shape[1], x.shape[2]
    oh, ow = y.shape[1], y.shape[2]
    cols = (max(width + 2 * pw, (ow - 1) * sw + kw) + sw - 1) // sw
    span = max(height + 2 * ph, (oh - 1) * sh + kh)
    return span * cols, oh * cols


@parallel_kernel
def _pool_forward(x, kind, kh, kw, sh, sw, ph, pw, include_pad, per_chunk, y):
    """Separable windows: each input row reduced over the kw column taps, then each output row
    over the kh row taps (kh + kw passes, not kh * kw reads per output). Rows are as wide as a
    column phase's (``cols``; the outputs past ``ow`` read the next row and are dropped), so a
    column tap is one contiguous run over the plane, and at stride 1 a row tap too. Sums run
    in float64 (many float32 cells stay exact), maxima in the data's own dtype (twice as many
    to a vector)."""
    chunks = (x.shape[0] + per_chunk - 1) // per_chunk
    row_size, line_size = _scratch_sizes(x, kh, kw, sh, sw, ph, pw, y)
    geometry = (kh, kw, sh, sw, ph, pw)
    height, width = x.shape[1], x.shape[2]
    counts = (
        _counts(y.shape[1], sh, ph, kh, height, include_pad),
        _counts(y.shape[2], sw, pw, kw, width, include_pad),
    )
    if kind == _MAX:
        for chunk in prange(chunks):
            rows, line = np.empty(row_size, x.dtype), np.empty(line_size, x.dtype)
            _pool_planes(x, kind, geometry, counts, per_chunk, chunk, rows, line, y)
    else:
        for chunk in prange(chunks):
            rows, line = np.empty(row_size), np.empty(line_size)
            _pool_planes(x, kind, geometry, counts, per_chunk, chunk, rows, line, y)


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
    planes = _planes(x)
    per_chunk = max(1, min(_PLANES_A_CHUNK, len(planes) // (4 * numba.get_num_threads())))
    flat_y = y.reshape(-1, *out_hw)
    _pool_forward(planes, kind, *kernel, *stride, *pad, include_pad, per_chunk, flat_y)
    return y


def pool2d_backward(dy, x, y, pool_type, kernel, stride, pad, count_include_pad=True):
    """dx (N, C, H, W) for y = pool2d_forward(x) and its gradient dy."""
    dx = np.zeros(x.shape, dy.dtype)
    kind, include_pad = _KINDS[pool_type], bool(count_include_pad)
    _pool_backward(
        _planes(dy), _planes(x), _planes(y), kind, *kernel, *stride, *pad, include_pad, _planes(dx)
    )
    return dx
