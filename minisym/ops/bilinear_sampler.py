"""BilinearSampler: bilinear sampling of data at a grid of source coordinates in
[-1, 1] (x first, then y); the loops run in minisym/kernels/sampler.py, with the NumPy
reference below. Mirrors MXNet 1.9.1's src/operator/bilinear_sampler.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from ..kernels import sampler as ksampler
from .common import fast_path
from .operator_base import Operator, register
from .params import Param, boolean, optional
from .rules import fmt, known

__all__ = [
    "BilinearSampler",
    "sampling_points",
    "sample_reference",
    "sample_backward_reference",
    "bilinear_sample",
    "bilinear_sample_grad",
    "check_batch",
]


def sampling_points(grid, height, width):
    """grid (N, 2, P) of x, y in [-1, 1] -> (x0, y0, wx, wy), each (N, P): the top-left
    neighbour of each point on a (height, width) map and its weights, in grid's dtype."""
    dtype = grid.dtype.type
    x_real = (grid[:, 0] + dtype(1)) * dtype(width - 1) / dtype(2)
    y_real = (grid[:, 1] + dtype(1)) * dtype(height - 1) / dtype(2)
    x0, y0 = np.floor(x_real), np.floor(y_real)
    wx, wy = dtype(1) - (x_real - x0), dtype(1) - (y_real - y0)
    return x0.astype(np.int64), y0.astype(np.int64), wx, wy


def _corners(points, height, width):
    """The four neighbours: (flat index into a map, inside the map?, weight) each."""
    x0, y0, wx, wy = points
    for dy, dx, weight in (
        (0, 0, wy * wx),
        (0, 1, wy * (1 - wx)),
        (1, 0, (1 - wy) * wx),
        (1, 1, (1 - wy) * (1 - wx)),
    ):
        x, y = x0 + dx, y0 + dy
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        yield np.where(inside, y * width + x, 0), inside, weight


def sample_reference(data, points):
    """The plain NumPy sampling: data (N, C, H, W) at ``points`` -> (N, C, P)."""
    n, c, height, width = data.shape
    flat = data.reshape(n, c, -1)
    out = np.zeros((n, c, points[0].shape[1]), data.dtype)
    for index, inside, weight in _corners(points, height, width):
        values = np.take_along_axis(flat, np.broadcast_to(index[:, None], out.shape), axis=2)
        out += np.where(inside[:, None], values, 0) * weight[:, None]
    return out


def sample_backward_reference(dy, data, points, need_dx):
    """(d data or None, d x (N, P), d y (N, P)) of sample_reference for the gradient dy."""
    n, c, height, width = data.shape
    flat = data.reshape(n, c, -1)
    values = []
    dx = np.zeros((n, c, height * width), dy.dtype)
    for index, inside, weight in _corners(points, height, width):
        where = np.broadcast_to(index[:, None], dy.shape)
        values.append(np.where(inside[:, None], np.take_along_axis(flat, where, axis=2), 0))
        if need_dx:
            for image in range(n):
                for channel in range(c):
                    np.add.at(
                        dx[image, channel],
                        index[image][inside[image]],
                        (dy[image, channel] * weight[image])[inside[image]],
                    )
    tl, tr, bl, br = values
    wx, wy = points[2][:, None], points[3][:, None]
    cross = tl - tr - bl + br
    gy = -(dy * (tr - br + cross * wx)).sum(axis=1)
    gx = -(dy * (bl - br + cross * wy)).sum(axis=1)
    return (dx.reshape(data.shape) if need_dx else None), gx, gy


def bilinear_sample(data, grid):
    """data (N, C, H, W) sampled at grid (N, 2, P) -> (N, C, P)."""
    points = sampling_points(grid, *data.shape[2:])
    if fast_path(data, 2):
        return ksampler.sample_forward(data, points, data.dtype)
    return sample_reference(data, points)


def bilinear_sample_grad(dy, data, grid, need_dx=True):
    """(d data or None, d grid (N, 2, P)) for the head gradient dy (N, C, P)."""
    height, width = data.shape[2:]
    points = sampling_points(grid, height, width)
    if fast_path(data, 2):
        ddata, gx, gy = ksampler.sample_backward(np.ascontiguousarray(dy), data, points, need_dx)
    else:
        ddata, gx, gy = sample_backward_reference(dy, data, points, need_dx)
    dgrid = np.stack([gx * (width - 1) / 2, gy * (height - 1) / 2], axis=1)
    return ddata, dgrid.astype(dy.dtype)


def check_batch(op, data, other, name):
    if data[0] and other[0] and data[0] != other[0]:
        raise MXNetValueError(
            f"{op.where}: {name} {fmt(other)} has batch size {other[0]} but "
            f"data {fmt(data)} has {data[0]}: one {name} per image"
        )


@register("BilinearSampler")
class BilinearSampler(Operator):
    """Sample data (N, C, H, W) at grid (N, 2, h, w) of source x, y in [-1, 1] (outside reads
    0) -> (N, C, h, w)."""

    params = {"cudnn_off": Param(optional(boolean), None)}

    def list_arguments(self):
        return ["data", "grid"]

    def list_outputs(self):
        return ["output", "tmp"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The head gradient, data, tmp and grid (MXNet's declaration)."""
        return [out_grad[0], in_data[0], out_data[1], in_data[1]]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, H, W), grid (N, 2, h, w) -> output (N, C, h, w), tmp (N, h, w, 2)."""
        data, grid = in_shape
        for name, shape in (("data", data), ("grid", grid)):
            if shape is not None and len(shape) != 4:
                raise MXNetValueError(f"{self.where}: {name} {fmt(shape)} must be 4-D")
        if grid is not None and grid[1] not in (0, 2):
            raise MXNetValueError(
                f"{self.where}: grid {fmt(grid)} must have 2 channels, the x "
                "and y of each sampling point: (batch, 2, height, width)"
            )
        if not known(data) or not known(grid):
            return [data, grid], [None, None], []
        check_batch(self, data, grid, "grid")
        return [data, grid], [data[:2] + grid[2:], (grid[0],) + grid[2:] + (2,)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """Each output pixel: the bilinear blend of data's four pixels around its grid point."""
        data, grid = in_data
        out = bilinear_sample(data, grid.reshape(grid.shape[0], 2, -1))
        assign(out_data[0], req[0], out.reshape(out_data[0].shape))
        assign(out_data[1], req[1], 0)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """d data scattered to the four neighbours; d grid from the blend's slopes."""
        data, grid = in_data
        dy = out_grad[0].reshape(data.shape[:2] + (-1,))
        ddata, dgrid = bilinear_sample_grad(
            dy, data, grid.reshape(grid.shape[0], 2, -1), req[0] != "null"
        )
        assign(in_grad[0], req[0], ddata)
        assign(in_grad[1], req[1], dgrid.reshape(grid.shape))
