"""Bilinear sampling (SpatialTransformer, BilinearSampler): gather four neighbours per output
pixel for every channel, and scatter the gradients back, batch images in parallel.

The per-pixel geometry (top-left corner and its weights, computed in the data's dtype as MXNet
does) comes from ``minisym.ops.bilinear_sampler.sampling_points``; these loops do the
per-channel work. A neighbour outside the map reads as 0 and receives no gradient.
"""

import numpy as np
from numba import prange

from .jit import parallel_kernel

__all__ = ["sample_forward", "sample_backward"]


@parallel_kernel
def _forward(data, x0, y0, wx, wy, out):
    n_img, channels, height, width = data.shape
    points = x0.shape[1]
    for task in prange(n_img * channels):
        n, c = task // channels, task % channels
        for p in range(points):
            x, y, ax, ay = x0[n, p], y0[n, p], wx[n, p], wy[n, p]
            total = 0.0
            if 0 <= y < height:
                if 0 <= x < width:
                    total += data[n, c, y, x] * ay * ax
                if 0 <= x + 1 < width:
                    total += data[n, c, y, x + 1] * ay * (1 - ax)
            if 0 <= y + 1 < height:
                if 0 <= x < width:
                    total += data[n, c, y + 1, x] * (1 - ay) * ax
                if 0 <= x + 1 < width:
                    total += data[n, c, y + 1, x + 1] * (1 - ay) * (1 - ax)
            out[n, c, p] = total


@parallel_kernel
def _backward(dy, data, x0, y0, wx, wy, need_dx, dx, gx, gy):
    n_img, channels, height, width = data.shape
    points = x0.shape[1]
    for n in prange(n_img):  # one image per thread: its dx and grid gradients are its own
        for p in range(points):
            x, y, ax, ay = x0[n, p], y0[n, p], wx[n, p], wy[n, p]
            sx, sy = 0.0, 0.0
            for c in range(channels):
                g = dy[n, c, p]
                tl, tr, bl, br = 0.0, 0.0, 0.0, 0.0
                if 0 <= y < height and 0 <= x < width:
                    tl = data[n, c, y, x]
                    if need_dx:
                        dx[n, c, y, x] += g * ay * ax
                if 0 <= y < height and 0 <= x + 1 < width:
                    tr = data[n, c, y, x + 1]
                    if need_dx:
                        dx[n, c, y, x + 1] += g * ay * (1 - ax)
                if 0 <= y + 1 < height and 0 <= x < width:
                    bl = data[n, c, y + 1, x]
                    if need_dx:
                        dx[n, c, y + 1, x] += g * (1 - ay) * ax
                if 0 <= y + 1 < height and 0 <= x + 1 < width:
                    br = data[n, c, y + 1, x + 1]
                    if need_dx:
                        dx[n, c, y + 1, x + 1] += g * (1 - ay) * (1 - ax)
                cross = tl - tr - bl + br
                sy -= g * (tr - br + cross * ax)
                sx -= g * (bl - br + cross * ay)
            gx[n, p] = sx
            gy[n, p] = sy


def sample_forward(data, points, out_dtype):
    """data (N, C, H, W) sampled at ``points`` = (x0, y0, wx, wy), each (N, P) -> (N, C, P)."""
    out = np.empty(data.shape[:2] + (points[0].shape[1],), out_dtype)
    _forward(np.ascontiguousarray(data), *points, out)
    return out


def sample_backward(dy, data, points, need_dx):
    """(d data (N, C, H, W) or None, d x (N, P), d y (N, P)) in sampled-pixel units."""
    dx = np.zeros(data.shape, dy.dtype)
    gx = np.empty(points[0].shape, dy.dtype)
    gy = np.empty(points[0].shape, dy.dtype)
    _backward(np.ascontiguousarray(dy), np.ascontiguousarray(data), *points, need_dx, dx, gx, gy)
    return (dx if need_dx else None), gx, gy
