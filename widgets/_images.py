"""Small pictures of arrays for the widgets, made with NumPy and zlib only (no network, no
matplotlib): feature-map grids and heatmaps as palette PNGs, histograms as bar counts.

Colours are colour-blind safe: a viridis-like sequential ramp for activations, and a
blue-white-vermillion diverging ramp, centred on zero, for gradients.
"""

import base64
import math
import struct
import zlib

import numpy as np

from .i18n import gettext as _
from .i18n import ngettext

__all__ = ["picture", "legend", "png_indexed", "ramp", "SEQUENTIAL", "DIVERGING"]

MAX_TILES = 16  # channels of sample 0 a feature-map grid shows
TILE_SIDE = 56  # a larger feature map is averaged down to this many pixels a side
TILE_MIN = 28  # a smaller one is enlarged (nearest neighbour) to at least this
HEAT_SIDE = 160  # a heatmap is averaged down to at most this many cells a side
HEAT_MIN = 48
GAP = 2  # pixels between tiles
BINS = 24
FEW_VALUES = 12  # up to this many values are listed instead of drawn
GAP_INDEX = 255  # palette index of the gaps between tiles
GRADIENT_PERCENTILE = 99

# anchors (position, RGB) of the two ramps
SEQUENTIAL = [
    (0.0, (68, 1, 84)),
    (0.125, (71, 44, 122)),
    (0.25, (59, 82, 139)),
    (0.375, (44, 114, 142)),
    (0.5, (33, 145, 140)),
    (0.625, (39, 173, 129)),
    (0.75, (92, 200, 99)),
    (0.875, (170, 220, 50)),
    (1.0, (253, 231, 37)),
]
DIVERGING = [
    (0.0, (0, 84, 147)),
    (0.25, (86, 180, 233)),
    (0.5, (247, 247, 247)),
    (0.75, (240, 168, 80)),
    (1.0, (213, 94, 0)),
]


def ramp(anchors):
    """(256, 3) uint8 palette: 255 colours interpolated along ``anchors``, then a grey gap."""
    where = np.linspace(0.0, 1.0, 255)
    xs = [a for a, _ in anchors]
    colours = np.stack([np.interp(where, xs, [c[k] for _, c in anchors]) for k in range(3)], 1)
    return np.vstack([np.round(colours), [[128, 128, 128]]]).astype(np.uint8)


_PALETTES = {"sequential": ramp(SEQUENTIAL), "diverging": ramp(DIVERGING)}


def legend(palette):
    """A 128 x 8 PNG data URL of ``palette`` ('sequential' or 'diverging'), low to high."""
    ramp_row = np.round(np.linspace(0, 254, 128)).astype(np.uint8)
    data = png_indexed(np.tile(ramp_row, (8, 1)), _PALETTES[palette])
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def png_indexed(indices, palette):
    """PNG bytes of a (H, W) uint8 image of palette indices (colour type 3, 8 bits)."""
    height, width = indices.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), indices.astype(np.uint8)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", palette.tobytes())
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind, body):
    return (
        struct.pack(">I", len(body))
        + kind
        + body
        + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    )


def picture(array, gradient):
    """A dict the page draws for ``array``: kind 'image' (a PNG data URL), 'bars' or 'values'.

    4-D (N, C, H, W): the first channels of sample 0 as a grid of tiles; 2-D (and 3-D: its
    sample 0) as a heatmap; anything else as a histogram, or its values when there are few.
    """
    values = np.asarray(array)
    if values.dtype == bool:
        values = values.astype(np.uint8)
    squeezed = values.reshape([d for d in values.shape if d != 1] or [1])
    if values.ndim == 4 and values.shape[2] * values.shape[3] > 1 and values.size:
        return _feature_grid(values, gradient)
    if values.ndim == 4 and values.size and squeezed.ndim == 2:  # (N, C, 1, 1) or 1x1 kernels
        return _heatmap(
            values.reshape(values.shape[0], values.shape[1]),
            gradient,
            _("{rows} × {columns} (the 1 × 1 maps)").format(
                rows=values.shape[0], columns=values.shape[1]
            ),
        )
    if values.ndim == 3 and squeezed.ndim >= 2 and values.size:
        return _heatmap(
            values[0],
            gradient,
            _("sample 0 of {n}: {rows} × {columns}").format(
                n=values.shape[0], rows=values.shape[1], columns=values.shape[2]
            ),
        )
    if values.ndim == 2 and squeezed.ndim == 2:
        return _heatmap(values, gradient, f"{values.shape[0]} × {values.shape[1]}")
    return _bars(values, gradient)


def _scale(values, gradient):
    """(low, high) of the colour scale. Gradients: symmetric around 0, up to the 99th
    percentile of |values| (a few large ones would otherwise wash every other one out)."""
    finite = values[np.isfinite(values)]
    if not finite.size:
        return 0.0, 0.0
    if gradient:
        size = np.abs(finite)
        top = float(np.percentile(size, GRADIENT_PERCENTILE)) or float(size.max())
        return -top, top
    return float(finite.min()), float(finite.max())


def _indices(values, low, high):
    """Palette indices 0..254 of ``values`` on the scale low..high (the middle when flat)."""
    values = np.nan_to_num(values.astype(np.float64), nan=0.0, posinf=high, neginf=low)
    if high <= low:
        return np.full(values.shape, 127, np.uint8)
    return np.clip(np.round((values - low) / (high - low) * 254), 0, 254).astype(np.uint8)


def _resized(image, largest, smallest):
    """``image`` averaged down in blocks to at most ``largest`` a side, or enlarged by a whole
    factor to at least ``smallest``."""
    height, width = image.shape
    fy, fx = math.ceil(height / largest), math.ceil(width / largest)
    if fy > 1 or fx > 1:
        h, w = height // fy * fy, width // fx * fx
        image = image[:h, :w].reshape(h // fy, fy, w // fx, fx).mean(axis=(1, 3))
    grow = max(1, smallest // max(image.shape))
    if grow > 1:
        image = np.repeat(np.repeat(image, grow, axis=0), grow, axis=1)
    return image


def _feature_grid(values, gradient):
    n, channels, height, width = values.shape
    shown = min(channels, MAX_TILES)
    cells = [_resized(t, TILE_SIDE, TILE_MIN) for t in values[0, :shown].astype(np.float64)]
    low, high = _scale(np.stack(cells), gradient)  # of what is drawn, after averaging
    th, tw = cells[0].shape
    cols = math.ceil(math.sqrt(shown))
    rows = math.ceil(shown / cols)
    grid = np.full((rows * (th + GAP) - GAP, cols * (tw + GAP) - GAP), GAP_INDEX, np.uint8)
    for k, cell in enumerate(cells):
        r, c = divmod(k, cols)
        grid[r * (th + GAP) : r * (th + GAP) + th, c * (tw + GAP) : c * (tw + GAP) + tw] = _indices(
            cell, low, high
        )
    caption = _(
        "channels 0–{last} of {channels}, sample 0 of {n}; each map {height} × {width}"
    ).format(last=shown - 1, channels=channels, n=n, height=height, width=width) + _drawn(
        height, width, cells[0].shape
    )
    return _image(grid, gradient, low, high, caption)


def _heatmap(values, gradient, caption):
    values = values.astype(np.float64)
    cells = _resized(values, HEAT_SIDE, HEAT_MIN)
    low, high = _scale(cells, gradient)
    caption += _drawn(*values.shape, cells.shape)
    return _image(_indices(cells, low, high), gradient, low, high, caption)


def _drawn(height, width, shape):
    """', averaged to 56 × 56' when a map was averaged down (enlarging is not mentioned)."""
    if shape[0] >= height and shape[1] >= width:
        return ""
    return _(", averaged to {rows} × {columns}").format(rows=shape[0], columns=shape[1])


def _image(indices, gradient, low, high, caption):
    palette = "diverging" if gradient else "sequential"
    if gradient:
        caption += _("; colours up to the {percentile}th percentile of |value|").format(
            percentile=GRADIENT_PERCENTILE
        )
    data = base64.b64encode(png_indexed(indices, _PALETTES[palette])).decode("ascii")
    return {
        "kind": "image",
        "src": "data:image/png;base64," + data,
        "palette": palette,
        "width": int(indices.shape[1]),
        "height": int(indices.shape[0]),
        "low": _number(low),
        "high": _number(high),
        "caption": caption,
    }


def _bars(values, gradient):
    flat = values.reshape(-1)
    if flat.size <= FEW_VALUES:
        return {
            "kind": "values",
            "values": [_number(v) for v in flat.tolist()],
            "caption": ngettext("all {n} value", "all {n} values", flat.size).format(n=flat.size),
        }
    finite = flat[np.isfinite(flat)].astype(np.float64)
    if not finite.size:
        return {"kind": "values", "values": [], "caption": _("no finite values")}
    counts, edges = np.histogram(finite, bins=BINS)
    return {
        "kind": "bars",
        "counts": counts.tolist(),
        "low": _number(edges[0]),
        "high": _number(edges[-1]),
        "palette": "diverging" if gradient else "sequential",
        "caption": _("histogram of {n} values in {bins} bins").format(
            n=f"{flat.size:,}", bins=BINS
        ),
    }


def _number(value):
    """Four significant digits, as text (JSON-safe for inf and nan)."""
    return f"{float(value):.4g}"
