"""2-D convolution as im2col + one GEMM per group; 1x1 stride-1 convolutions skip im2col;
many small groups (depthwise) run as direct loops (grouped_conv.py), and stride-1 3x3
convolutions as Winograd F(2x2, 3x3) (winograd.py).

Layouts: x (N, C, H, W); weight (F, C/g, kh, kw); columns (C*kh*kw, N*OH*OW), so that one
matrix product ``weight (F, K) @ cols (K, N*OH*OW)`` computes a whole group for the batch.
"""

import numpy as np
from numba import njit, prange

from . import fast_algorithms_enabled, grouped_conv, winograd
from .jit import CACHE, parallel_kernel

__all__ = ["conv2d_forward", "conv2d_backward", "im2col", "col2im"]


@njit(cache=CACHE, inline="always")
def _valid_range(out_size, stride, offset, size):
    """The output positions o in [lo, hi) whose input o * stride + offset lies in [0, size)."""
    lo = 0 if offset >= 0 else (-offset + stride - 1) // stride
    hi = 0 if size - offset <= 0 else (size - offset + stride - 1) // stride
    return lo, max(lo, min(hi, out_size))


@parallel_kernel
def _im2col(x, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, cols):
    """x (N, C, H, W) -> cols (C*kh*kw, N*oh*ow); padding reads as 0."""
    n_img, channels, height, width = x.shape
    for task in prange(channels * kh * kw):
        c, tap = task // (kh * kw), task % (kh * kw)
        i, j = tap // kw, tap % kw
        x_lo, x_hi = _valid_range(ow, sw, j * dw - pw, width)
        # element loops, not slice assignments: a row of a small image is a few elements, and
        # each slice costs numba a view (twice the time at 8x8)
        for n in range(n_img):
            for y in range(oh):
                start = (n * oh + y) * ow
                iy = y * sh - ph + i * dh
                inside = 0 <= iy < height
                ix = x_lo * sw - pw + j * dw
                for k in range(ow):
                    if inside and x_lo <= k < x_hi:
                        cols[task, start + k] = x[n, c, iy, ix + (k - x_lo) * sw]
                    else:
                        cols[task, start + k] = 0


@parallel_kernel
def _col2im(cols, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, dx):
    """Add cols (C*kh*kw, N*oh*ow) back into dx (N, C, H, W) where im2col read them."""
    n_img, channels, height, width = dx.shape
    for c in prange(channels):  # one channel per thread: no two threads write one cell
        for tap in range(kh * kw):
            i, j = tap // kw, tap % kw
            row = c * kh * kw + tap
            x_lo, x_hi = _valid_range(ow, sw, j * dw - pw, width)
            for n in range(n_img):
                for y in range(oh):
                    iy = y * sh - ph + i * dh
                    if iy < 0 or iy >= height:
                        continue
                    start = (n * oh + y) * ow
                    ix = x_lo * sw - pw + j * dw
                    for k in range(x_hi - x_lo):
                        dx[n, c, iy, ix + k * sw] += cols[row, start + x_lo + k]


def im2col(x, kernel, stride, pad, dilate, out_hw):
    """x (N, C, H, W) -> columns (C*kh*kw, N*OH*OW)."""
    n, c = x.shape[:2]
    cols = np.empty((c * kernel[0] * kernel[1], n * out_hw[0] * out_hw[1]), x.dtype)
    _im2col(np.ascontiguousarray(x), *kernel, *stride, *pad, *dilate, *out_hw, cols)
    return cols


def col2im(cols, x_shape, kernel, stride, pad, dilate, out_hw):
    """Columns (C*kh*kw, N*OH*OW) -> dx (N, C, H, W), summing overlapping taps."""
    dx = np.zeros(x_shape, cols.dtype)
    _col2im(cols, *kernel, *stride, *pad, *dilate, *out_hw, dx)
    return dx


def _is_pointwise(kernel, stride, pad):
    return tuple(kernel) == (1, 1) and tuple(stride) == (1, 1) and tuple(pad) == (0, 0)


def _columns(x, kernel, stride, pad, dilate, out_hw):
    """(C*kh*kw, N*OH*OW) columns of x; a free reshape for 1x1 stride-1 on one image."""
    if _is_pointwise(kernel, stride, pad):
        n, c = x.shape[:2]
        if n == 1:
            return x.reshape(c, -1)
        return np.ascontiguousarray(x.reshape(n, c, -1).transpose(1, 0, 2)).reshape(c, -1)
    return im2col(x, kernel, stride, pad, dilate, out_hw)


def _to_nchw(flat, n, f, out_hw):
    """(F, N*OH*OW) GEMM result -> (N, F, OH, OW)."""
    return flat.reshape(f, n, *out_hw).transpose(1, 0, 2, 3)


def conv2d_forward(x, weight, bias, stride, pad, dilate, groups, out=None):
    """x (N, C, H, W), weight (F, C/g, kh, kw), bias (F,) or None -> y (N, F, OH, OW).

    ``out`` (C-contiguous, the right shape) receives the result when given.
    """
    n, c, h, w = x.shape
    f, cg, kh, kw = weight.shape
    oh = (h + 2 * pad[0] - dilate[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + 2 * pad[1] - dilate[1] * (kw - 1) - 1) // stride[1] + 1
    fg = f // groups
    y = np.empty((n, f, oh, ow), x.dtype) if out is None else out
    if grouped_conv.prefers_direct(groups, cg):
        grouped_conv.grouped_forward(x, weight, stride, pad, dilate, groups, y)
        groups = 0  # every group is done
    elif _use_winograd(weight.shape, stride, dilate, groups, y.shape):
        winograd.winograd_forward(x, weight, pad, y)
        groups = 0
    for g in range(groups):
        cols = _columns(x[:, g * cg : (g + 1) * cg], (kh, kw), stride, pad, dilate, (oh, ow))
        w_g = weight[g * fg : (g + 1) * fg].reshape(fg, -1)
        if n == 1 and groups == 1:  # the GEMM writes straight into the output
            np.dot(w_g, cols, out=y.reshape(f, oh * ow))
        else:
            y[:, g * fg : (g + 1) * fg] = _to_nchw(w_g @ cols, n, fg, (oh, ow))
    if bias is not None:
        y += bias.reshape(1, f, 1, 1)
    return y


def conv2d_backward(
    dy, x, weight, stride, pad, dilate, groups, need_dx=True, need_dw=True, dx_out=None, dw_out=None
):
    """(dx or None, dweight or None) for y = conv2d_forward(x, weight, ...): x (N, C, H, W),
    weight (F, C/g, kh, kw), dy (N, F, OH, OW).

    ``dx_out`` / ``dw_out`` (C-contiguous, the right shapes) receive the gradients when given,
    saving a copy; the bias gradient is left to the caller (``dy`` summed over N, H, W).
    """
    n, c, h, w = x.shape
    f, cg, kh, kw = weight.shape
    oh, ow = dy.shape[2:]
    fg = f // groups
    if grouped_conv.prefers_direct(groups, cg):
        dx = (np.empty_like(x) if dx_out is None else dx_out) if need_dx else None
        dw = (np.empty_like(weight) if dw_out is None else dw_out) if need_dw else None
        return grouped_conv.grouped_backward(dy, x, weight, stride, pad, dilate, groups, dx, dw)
    # dx of a stride-1 3x3 convolution is the convolution of dy with the flipped, transposed
    # filters and the complementary padding: Winograd applies to it as well
    winograd_dx = (
        need_dx
        and pad[0] <= 2
        and pad[1] <= 2
        and _use_winograd((c, f, kh, kw), stride, dilate, groups, x.shape)
    )
    if winograd_dx:
        dx = np.empty_like(x) if dx_out is None else dx_out
        rotated = np.ascontiguousarray(weight[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        winograd.winograd_forward(dy, rotated, (2 - pad[0], 2 - pad[1]), dx)
        need_dx = False
    else:
        dx = (np.zeros_like(x) if dx_out is None else _zeroed(dx_out)) if need_dx else None
    dw = (np.empty_like(weight) if dw_out is None else dw_out) if need_dw else None
    for g in range(groups):
        dy_g = np.ascontiguousarray(dy[:, g * fg : (g + 1) * fg].transpose(1, 0, 2, 3))
        dy_g = dy_g.reshape(fg, -1)
        x_g = x[:, g * cg : (g + 1) * cg]
        if need_dw:
            cols = _columns(x_g, (kh, kw), stride, pad, dilate, (oh, ow))
            np.dot(dy_g, cols.T, out=dw[g * fg : (g + 1) * fg].reshape(fg, -1))
        if need_dx:
            dcols = weight[g * fg : (g + 1) * fg].reshape(fg, -1).T @ dy_g
            dx_g = dx[:, g * cg : (g + 1) * cg]
            if _is_pointwise((kh, kw), stride, pad):
                dx_g[...] = dcols.reshape(cg, n, h, w).transpose(1, 0, 2, 3)
            else:
                _col2im(dcols, kh, kw, *stride, *pad, *dilate, oh, ow, dx_g)
    return dx, dw


def _zeroed(array):
    array[...] = 0
    return array


def _use_winograd(weight_shape, stride, dilate, groups, out_shape):
    """Whether this convolution runs as Winograd F(2x2, 3x3) now (see winograd.py)."""
    return fast_algorithms_enabled() and winograd.applies(
        weight_shape, stride, dilate, groups, out_shape
    )
