"""A Convolution with what follows it folded into its kernels, at inference: a BatchNorm on
its moving statistics (y * scale + shift per filter) and a ReLU or ReLU6 Clip after it (an
activation alone: scale 1, shift 0). ``folded_runner`` chooses the path once for an executor
that runs the same node again and again: the direct depthwise / group-by-group loops and the
image-by-image kernels take the scale in their weights and the shift and activation while each
plane or image is in cache (their epilogue, epilogue.py); the GEMM path scales, shifts and
limits its output in one pass after the GEMMs.

Layouts as in conv.py: x (N, C, H, W), weight (F, C/g, kh, kw), y (N, F, OH, OW).
"""

import numpy as np
from numba import prange

from . import grouped_conv
from .conv import (
    _by_group,
    _by_image,
    _is_pointwise,
    _run_by_image,
    _use_winograd,
    conv2d_forward,
    im2col,
)
from .epilogue import shift_and_limit
from .jit import parallel_kernel

__all__ = ["folds_batchnorm", "conv2d_forward_folded", "folded_runner"]


def folds_batchnorm(x_shape, weight_shape, stride, pad, dilate, groups):
    """Whether ``conv2d_forward_folded`` takes this convolution: every path but Winograd."""
    (n, _, h, w), (f, cg, kh, kw) = x_shape, weight_shape
    oh = (h + 2 * pad[0] - dilate[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + 2 * pad[1] - dilate[1] * (kw - 1) - 1) // stride[1] + 1
    return grouped_conv.forward_prefers_direct(groups, cg, stride, oh * ow) or not _use_winograd(
        weight_shape, stride, dilate, groups, (n, f, oh, ow)
    )


def conv2d_forward_folded(x, weight, bias, stride, pad, dilate, groups, scale, shift, act, y):
    """y = act(conv(x, weight * scale) + bias * scale + shift), per filter: a Convolution and
    the BatchNorm after it at inference (scale = gamma / sqrt(var + eps), shift = beta - mean
    * scale) in one pass; act None, 'relu' or Clip's (low, high). x (N, C, H, W), weight
    (F, C/g, kh, kw), y (N, F, OH, OW) C-contiguous; only where ``folds_batchnorm``.

    Depthwise loops and a batch of small images take the scale in their (small) weights and
    the shift and act while each plane or image is in cache; otherwise scale, shift and act
    follow the GEMMs in one pass over y (where the BatchNorm would read y and write another
    array; scaling large weights instead would cost a pass over them every call)."""
    folded_runner(x, weight, bias, stride, pad, dilate, groups, act, y)(scale, shift)
    return y


def folded_runner(x, weight, bias, stride, pad, dilate, groups, act, y):
    """``run(scale, shift)``: ``conv2d_forward_folded`` of these arrays (their values as they
    are at each call) with its path, views and limits chosen once, for an executor that runs
    the same node again and again (that set-up was half a small layer's Python)."""
    n, f = y.shape[:2]
    dtype = x.dtype
    low, high = (-np.inf, np.inf) if act in (None, "relu") else act
    limits = (act == "relu", dtype.type(low), dtype.type(high))

    def offset_of(scale, shift):
        return (shift if bias is None else bias * scale + shift).astype(dtype, copy=False)

    positions = y.shape[2] * y.shape[3]
    if grouped_conv.forward_prefers_direct(groups, weight.shape[1], stride, positions):  # scaled

        def run_direct(scale, shift):
            scaled = (weight * scale.reshape(f, 1, 1, 1)).astype(dtype, copy=False)
            epilogue = (offset_of(scale, shift), *limits)
            grouped_conv.grouped_forward(x, scaled, stride, pad, dilate, groups, y, epilogue)

        return run_direct
    if _by_image(n, groups, weight.shape, stride, pad, positions):
        geometry = (*weight.shape[2:], *stride, *pad, *dilate)

        def run_by_image(scale, shift):
            rows = weight.reshape(f, -1) * scale.reshape(f, 1)
            _run_by_image(x, rows, geometry, (offset_of(scale, shift), *limits), y)

        return run_by_image
    gemms = _gemm_runner(x, weight, stride, pad, dilate, groups, y)
    planes = y.reshape(n, f, -1)

    def run_gemms(scale, shift):
        gemms()
        epilogue = (offset_of(scale, shift), *limits)
        scale = scale.astype(dtype, copy=False)
        _scale_and_shift_planes.sized(planes.size, planes, scale, *epilogue)

    return run_gemms


def _gemm_runner(x, weight, stride, pad, dilate, groups, y):
    """``run()``: ``conv2d_forward(x, weight, None, ..., out=y)`` off the depthwise and
    by-image paths, its views of x, weight and y made once where they can be (C-contiguous:
    reshaping is then a view of the values each call will find)."""
    contiguous = x.flags.c_contiguous and weight.flags.c_contiguous and y.flags.c_contiguous
    if not contiguous or _use_winograd(weight.shape, stride, dilate, groups, y.shape):
        return lambda: conv2d_forward(x, weight, None, stride, pad, dilate, groups, out=y)
    n, c = x.shape[:2]
    f, _, kh, kw = weight.shape
    w_g = weight.reshape(groups, f // groups, -1)
    y_g = _by_group(y.reshape(n, f, -1), groups)
    if _is_pointwise((kh, kw), stride, pad):
        cols = _by_group(x.reshape(n, c, -1), groups)
        return lambda: np.matmul(w_g, cols, out=y_g)
    out_hw = y.shape[2:]

    def run():
        cols = im2col(x, (kh, kw), stride, pad, dilate, out_hw, per_image=True)
        np.matmul(w_g, _by_group(cols, groups), out=y_g)

    return run


@parallel_kernel
def _scale_and_shift_planes(y, scale, shift, relu, low, high):
    """y[n, f] * scale[f] + shift[f], then ``shift_and_limit``'s relu and limits; y (N, F, P)."""
    n_img, filters = y.shape[:2]
    for task in prange(n_img * filters):
        n, f = task // filters, task % filters
        plane, by = y[n, f], scale[f]
        for k in range(plane.size):
            plane[k] *= by
        shift_and_limit(y[n, f : f + 1], shift[f : f + 1], relu, low, high)
