"""ROI max pooling over (roi, channel) pairs in parallel, and its backward over channels.

The bins of every roi (which rows and columns each output cell pools, already clipped to the
map) come from ``minisym.ops.roi_pooling.roi_bins``; these loops only take the maxima. Semantics are
MXNet's: each bin starts at -FLT_MAX and takes a value only when strictly greater, scanning
rows then columns, so ties go to the first cell; an empty bin, or a roi whose batch index is
outside the batch, gives 0 with no argmax (-1).
"""

import numpy as np
from numba import prange

from .jit import parallel_kernel

__all__ = ["roi_pool_forward", "roi_pool_backward"]

_FLT_MAX = float(np.finfo(np.float32).max)


@parallel_kernel
def _forward(data, lowest, batch, hstart, hend, wstart, wend, out, argmax):
    n_img, channels, height, width = data.shape
    n_rois, pooled_h, pooled_w = hstart.shape[0], hstart.shape[1], wstart.shape[1]
    for task in prange(n_rois * channels):
        r, c = task // channels, task % channels
        b = batch[r]
        valid = 0 <= b < n_img
        base = ((b if valid else 0) * channels + c) * height * width
        for i in range(pooled_h):
            for j in range(pooled_w):
                h0, h1, w0, w1 = hstart[r, i], hend[r, i], wstart[r, j], wend[r, j]
                if not valid or h1 <= h0 or w1 <= w0:
                    out[r, c, i, j] = 0
                    argmax[r, c, i, j] = -1
                    continue
                best = lowest[0]
                where = -1
                for h in range(h0, h1):
                    for w in range(w0, w1):
                        value = data[b, c, h, w]
                        if value > best:
                            best = value
                            where = base + h * width + w
                out[r, c, i, j] = best
                argmax[r, c, i, j] = where


@parallel_kernel
def _backward(dy, argmax, dx_flat):
    n_rois, channels, pooled_h, pooled_w = dy.shape
    for c in prange(channels):  # an argmax of channel c lies in channel c: no two threads meet
        for r in range(n_rois):
            for i in range(pooled_h):
                for j in range(pooled_w):
                    where = argmax[r, c, i, j]
                    if where >= 0:
                        dx_flat[where] += dy[r, c, i, j]


def roi_pool_forward(data, bins, out, argmax):
    """data (N, C, H, W) pooled into out (R, C, PH, PW) and argmax (R, C, PH, PW), the flat
    index into data of each maximum; ``bins`` = (batch, hstart, hend, wstart, wend)."""
    lowest = np.full(1, -_FLT_MAX, data.dtype)  # compared in data's own dtype
    _forward(np.ascontiguousarray(data), lowest, *bins, out, argmax)


def roi_pool_backward(dy, argmax, data_shape):
    """d data (N, C, H, W): each output's head gradient added at its argmax."""
    dx = np.zeros(data_shape, dy.dtype)
    _backward(np.ascontiguousarray(dy), np.ascontiguousarray(argmax), dx.reshape(-1))
    return dx
