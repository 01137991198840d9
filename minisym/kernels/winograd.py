"""Winograd's F(2x2, 3x3): a stride-1 3x3 convolution with 2.25x fewer multiplications.

Each 4x4 input tile d becomes V = Bᵀ d B, each 3x3 filter g becomes U = G g Gᵀ; the 16
elementwise products of the transformed tiles are 16 GEMMs ``U[k] (F, C) @ V[k] (C, tiles)``
summed over channels; each 2x2 output tile is Aᵀ M A. The transforms are numba loops, the GEMMs
NumPy's BLAS. The float32 error against the direct sum is bounded in tests/test_kernels.py.

Layouts: x (N, C, H, W), weight (F, C, 3, 3), V (16, C, tiles), U (16, F, C), M (16, F, tiles),
tiles ordered (image, tile row, tile column).
"""

import numpy as np
from numba import prange

from .jit import parallel_kernel

__all__ = ["applies", "winograd_forward"]

# Below these the transforms cost more than the multiplications saved (and the 16 GEMMs get
# too thin for BLAS): measured on ResNet's layers, benchmarks/README.md.
_MIN_CHANNELS = 16
_MIN_TILES = 49


def applies(weight_shape, stride, dilate, groups, out_shape=None):
    """Whether a convolution with these settings (and output (N, F, OH, OW), if known) may run
    as F(2x2, 3x3)."""
    filters, channels, kh, kw = weight_shape
    if out_shape is not None:
        n, _, out_h, out_w = out_shape
        if n * ((out_h + 1) // 2) * ((out_w + 1) // 2) < _MIN_TILES:
            return False
    return (
        (kh, kw) == (3, 3)
        and tuple(stride) == (1, 1)
        and tuple(dilate) == (1, 1)
        and groups == 1
        and min(filters, channels) >= _MIN_CHANNELS
    )


@parallel_kernel
def _input_transform(x, ph, pw, tiles_h, tiles_w, v):
    """v[:, c, tile] = Bᵀ d B for each 4x4 tile d of the zero-padded x (tile stride 2)."""
    n_img, channels, height, width = x.shape
    for task in prange(channels * n_img):
        c, n = task // n_img, task % n_img
        # the plane zero-padded to whole tiles, so the loads below need no bounds tests
        xp = np.zeros((2 * tiles_h + 2, 2 * tiles_w + 2), x.dtype)
        rows, cols = min(height, 2 * tiles_h + 2 - ph), min(width, 2 * tiles_w + 2 - pw)
        xp[ph : ph + rows, pw : pw + cols] = x[n, c, :rows, :cols]
        # a row of tiles is transformed into ``local`` and then copied out one of the 16 rows
        # of v at a time: writing the 16 far-apart rows of v tile by tile thrashed the cache
        local = np.empty((16, tiles_w), x.dtype)
        for th in range(tiles_h):
            for tw in range(tiles_w):
                r, q = 2 * th, 2 * tw
                for i in range(4):  # row i of t = Bᵀ d, then v's row i = t[i] B
                    if i == 0:
                        t0, t1 = xp[r, q] - xp[r + 2, q], xp[r, q + 1] - xp[r + 2, q + 1]
                        t2, t3 = xp[r, q + 2] - xp[r + 2, q + 2], xp[r, q + 3] - xp[r + 2, q + 3]
                    elif i == 1:
                        t0, t1 = xp[r + 1, q] + xp[r + 2, q], xp[r + 1, q + 1] + xp[r + 2, q + 1]
                        t2 = xp[r + 1, q + 2] + xp[r + 2, q + 2]
                        t3 = xp[r + 1, q + 3] + xp[r + 2, q + 3]
                    elif i == 2:
                        t0, t1 = xp[r + 2, q] - xp[r + 1, q], xp[r + 2, q + 1] - xp[r + 1, q + 1]
                        t2 = xp[r + 2, q + 2] - xp[r + 1, q + 2]
                        t3 = xp[r + 2, q + 3] - xp[r + 1, q + 3]
                    else:
                        t0, t1 = xp[r + 1, q] - xp[r + 3, q], xp[r + 1, q + 1] - xp[r + 3, q + 1]
                        t2 = xp[r + 1, q + 2] - xp[r + 3, q + 2]
                        t3 = xp[r + 1, q + 3] - xp[r + 3, q + 3]
                    local[4 * i + 0, tw] = t0 - t2
                    local[4 * i + 1, tw] = t1 + t2
                    local[4 * i + 2, tw] = t2 - t1
                    local[4 * i + 3, tw] = t1 - t3
            first = (n * tiles_h + th) * tiles_w
            for k in range(16):
                v[k, c, first : first + tiles_w] = local[k]


@parallel_kernel
def _output_transform(m, tiles_h, tiles_w, y):
    """y's 2x2 tile = Aᵀ M A for each filter and tile (cropped at the bottom / right edge)."""
    n_img, filters, out_h, out_w = y.shape
    for task in prange(filters * n_img):
        f, n = task // n_img, task % n_img
        plane = np.empty((2 * tiles_h, 2 * tiles_w), m.dtype)  # whole tiles, cropped below
        local = np.empty((16, tiles_w), m.dtype)  # a row of tiles, read as whole rows of m
        for th in range(tiles_h):
            first = (n * tiles_h + th) * tiles_w
            for k in range(16):
                local[k] = m[k, f, first : first + tiles_w]
            for tw in range(tiles_w):
                s0 = local[0, tw] + local[4, tw] + local[8, tw]  # t = Aᵀ M, by column
                s1 = local[1, tw] + local[5, tw] + local[9, tw]
                s2 = local[2, tw] + local[6, tw] + local[10, tw]
                s3 = local[3, tw] + local[7, tw] + local[11, tw]
                d0 = local[4, tw] - local[8, tw] - local[12, tw]
                d1 = local[5, tw] - local[9, tw] - local[13, tw]
                d2 = local[6, tw] - local[10, tw] - local[14, tw]
                d3 = local[7, tw] - local[11, tw] - local[15, tw]
                r, q = 2 * th, 2 * tw  # y = t A
                plane[r, q], plane[r, q + 1] = s0 + s1 + s2, s1 - s2 - s3
                plane[r + 1, q], plane[r + 1, q + 1] = d0 + d1 + d2, d1 - d2 - d3
        y[n, f] = plane[:out_h, :out_w]


@parallel_kernel
def _weight_transform(weight, u):
    """u[:, f, c] = G g Gᵀ of each 3x3 filter g = weight[f, c]."""
    filters, channels = weight.shape[:2]
    for f in prange(filters):
        t = np.empty((4, 3), np.float64)
        for c in range(channels):
            for j in range(3):  # t = G g
                g0, g1, g2 = weight[f, c, 0, j], weight[f, c, 1, j], weight[f, c, 2, j]
                t[0, j], t[3, j] = g0, g2
                t[1, j], t[2, j] = 0.5 * (g0 + g1 + g2), 0.5 * (g0 - g1 + g2)
            for i in range(4):  # u = t Gᵀ
                u[4 * i + 0, f, c] = t[i, 0]
                u[4 * i + 1, f, c] = 0.5 * (t[i, 0] + t[i, 1] + t[i, 2])
                u[4 * i + 2, f, c] = 0.5 * (t[i, 0] - t[i, 1] + t[i, 2])
                u[4 * i + 3, f, c] = t[i, 2]


def transform_weight(weight):
    """U (16, F, C) = G g Gᵀ of every (F, C, 3, 3) filter, in the weight's dtype."""
    u = np.empty((16,) + weight.shape[:2], weight.dtype)
    _weight_transform(np.ascontiguousarray(weight), u)
    return u


def winograd_forward(x, weight, pad, y):
    """x (N, C, H, W), weight (F, C, 3, 3), stride 1 -> y (N, F, OH, OW), written into ``y``."""
    n, c, h, w = x.shape
    out_h, out_w = y.shape[2:]
    tiles_h, tiles_w = (out_h + 1) // 2, (out_w + 1) // 2
    v = np.empty((16, c, n * tiles_h * tiles_w), x.dtype)
    _input_transform(np.ascontiguousarray(x), pad[0], pad[1], tiles_h, tiles_w, v)
    m = np.matmul(transform_weight(weight), v)  # 16 GEMMs (F, C) @ (C, tiles)
    _output_transform(m, tiles_h, tiles_w, y)
    return y
