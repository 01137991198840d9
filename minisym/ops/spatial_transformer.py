"""SpatialTransformer (an affine grid, then bilinear sampling) and its two halves as MXNet
also offers them: GridGenerator (affine or warp grids) and BilinearSampler. Grids hold source
coordinates in [-1, 1] (x first, then y); the sampling loops run in minisym/kernels/sampler.py,
with the NumPy reference below."""
import numpy as np

from ..base import MXNetValueError
from ..kernels import fast_kernels_enabled
from ..kernels import sampler as ksampler
from .assign import assign
from .params import Param, boolean, optional, shape_tuple
from .registry import Operator, register
from .rules import fmt, known

__all__ = ["SpatialTransformer", "GridGenerator", "BilinearSampler", "sampling_points",
           "sample_reference", "sample_backward_reference"]


# --- bilinear sampling, shared by the three operators ------------------------------------------
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
    for dy, dx, weight in ((0, 0, wy * wx), (0, 1, wy * (1 - wx)), (1, 0, (1 - wy) * wx),
                           (1, 1, (1 - wy) * (1 - wx))):
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
                    np.add.at(dx[image, channel], index[image][inside[image]],
                              (dy[image, channel] * weight[image])[inside[image]])
    tl, tr, bl, br = values
    wx, wy = points[2][:, None], points[3][:, None]
    cross = tl - tr - bl + br
    gy = -(dy * (tr - br + cross * wx)).sum(axis=1)
    gx = -(dy * (bl - br + cross * wy)).sum(axis=1)
    return (dx.reshape(data.shape) if need_dx else None), gx, gy


def _fast(data):
    return fast_kernels_enabled() and data.dtype in (np.float32, np.float64)


def bilinear_sample(data, grid):
    """data (N, C, H, W) sampled at grid (N, 2, P) -> (N, C, P)."""
    points = sampling_points(grid, *data.shape[2:])
    if _fast(data):
        return ksampler.sample_forward(data, points, data.dtype)
    return sample_reference(data, points)


def bilinear_sample_grad(dy, data, grid, need_dx=True):
    """(d data or None, d grid (N, 2, P)) for the head gradient dy (N, C, P)."""
    height, width = data.shape[2:]
    points = sampling_points(grid, height, width)
    if _fast(data):
        ddata, gx, gy = ksampler.sample_backward(np.ascontiguousarray(dy), data, points,
                                                  need_dx)
    else:
        ddata, gx, gy = sample_backward_reference(dy, data, points, need_dx)
    dgrid = np.stack([gx * (width - 1) / 2, gy * (height - 1) / 2], axis=1)
    return ddata, dgrid.astype(dy.dtype)


def affine_target_grid(target_shape, dtype):
    """(3, H*W): the target pixels' x and y in [-1, 1] (row-major) and a row of ones."""
    height, width = target_shape
    index = np.arange(height * width)
    with np.errstate(divide="ignore", invalid="ignore"):  # a size of 1 divides by 0, as in MXNet
        x = -1.0 + (index % width) * 2.0 / (width - 1)
        y = -1.0 + (index // width) * 2.0 / (height - 1)
    return np.stack([x, y, np.ones(height * width)]).astype(dtype)


def _check_target(op):
    if len(op.target_shape) != 2 or min(op.target_shape) < 1:
        raise MXNetValueError(
            f"{op.where}: incorrect target_shape {op.target_shape}: give the output's (height, "
            "width), both at least 1, e.g. target_shape=(28, 28)")


def _check_batch(op, data, other, name):
    if data[0] and other[0] and data[0] != other[0]:
        raise MXNetValueError(f"{op.where}: {name} {fmt(other)} has batch size {other[0]} but "
                              f"data {fmt(data)} has {data[0]}: one {name} per image")


@register("SpatialTransformer")
class SpatialTransformer(Operator):
    """Warp data (N, C, H, W) by the affine map loc (N, 6) = rows (a, b, tx, c, d, ty) of a
    2x3 matrix taking each target pixel's (x, y, 1) in [-1, 1] to a source point, sampled
    bilinearly -> (N, C, *target_shape)."""

    params = {
        "target_shape": Param(shape_tuple, (0, 0)),
        "transform_type": Param(str, choices=("affine",)),
        "sampler_type": Param(str, choices=("bilinear",)),
        "cudnn_off": Param(optional(boolean), None),
    }

    def list_arguments(self):
        return ["data", "loc"]

    def list_outputs(self):
        return ["output", "grid_dst", "grid_src"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The head gradient, both grids and data (MXNet's declaration; loc is not read)."""
        return [out_grad[0], out_data[1], out_data[2], in_data[0]]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, H, W), loc (N, 6) -> output (N, C, th, tw), grid_dst (3, th*tw),
        grid_src (N, 2, th*tw); nothing until both are wholly known (as in MXNet)."""
        data, loc = in_shape
        if data is not None and len(data) != 4:
            raise MXNetValueError(f"{self.where}: data {fmt(data)} must be 4-D (batch, channel, "
                                  "height, width)")
        if loc is not None and (len(loc) != 2 or loc[1] not in (0, 6)):
            raise MXNetValueError(
                f"{self.where}: loc {fmt(loc)} must be (batch, 6): the 6 numbers of each "
                "image's 2x3 affine matrix, e.g. the output of FullyConnected(num_hidden=6)")
        if not known(data) or not known(loc):
            return [data, loc], [None, None, None], []
        _check_batch(self, data, loc, "loc")
        _check_target(self)
        h, w = self.target_shape
        return [data, loc], [data[:2] + (h, w), (3, h * w), (data[0], 2, h * w)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """grid_src = loc (as 2x3) @ grid_dst; output = data sampled there."""
        data, loc = in_data
        grid_dst = affine_target_grid(self.target_shape, data.dtype)
        grid_src = loc.reshape(-1, 2, 3) @ grid_dst
        out = bilinear_sample(data, grid_src)
        assign(out_data[0], req[0], out.reshape(out_data[0].shape))
        assign(out_data[1], req[1], grid_dst)
        assign(out_data[2], req[2], grid_src)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """d data by scattering the head gradient to the four neighbours; d loc = d grid_src
        @ grid_dst^T. (MXNet overwrites grid_src with its gradient here; minisym leaves it.)"""
        data = in_data[0]
        grid_dst, grid_src = out_data[1], out_data[2]
        dy = out_grad[0].reshape(data.shape[:2] + (-1,))
        ddata, dgrid = bilinear_sample_grad(dy, data, grid_src, req[0] != "null")
        assign(in_grad[0], req[0], ddata)
        assign(in_grad[1], req[1], (dgrid @ grid_dst.T).reshape(in_grad[1].shape))


@register("GridGenerator")
class GridGenerator(Operator):
    """The sampling grid (N, 2, H, W) of source x, y in [-1, 1]: from affine matrices (N, 6)
    over target_shape, or from an optical flow (N, 2, H, W) in pixels ('warp')."""

    params = {
        "transform_type": Param(str, choices=("affine", "warp")),
        "target_shape": Param(shape_tuple, (0, 0)),
    }

    def list_outputs(self):
        return ["output", "grid_dst"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """affine: the head gradient and grid_dst; warp: the head gradient only (MXNet's)."""
        return [out_grad[0], out_data[1]] if self.transform_type == "affine" else [out_grad[0]]

    def infer_shape(self, in_shape, out_shape):
        """affine: data (N, 6) -> (N, 2, *target_shape), grid_dst (3, H*W); warp: data
        (N, 2, H, W) -> output like data, grid_dst (2, H, W)."""
        data = in_shape[0]
        if data is None:
            return [None], [None, None], []
        if self.transform_type == "affine":
            if len(data) != 2 or data[1] not in (0, 6):
                raise MXNetValueError(
                    f"{self.where}: with transform_type='affine' data {fmt(data)} must be "
                    "(batch, 6): each image's 2x3 affine matrix")
            _check_target(self)
            h, w = self.target_shape
            return [data], [(data[0], 2, h, w), (3, h * w)], []
        if len(data) != 4 or data[1] not in (0, 2):
            raise MXNetValueError(f"{self.where}: with transform_type='warp' data {fmt(data)} "
                                  "must be an optical flow (batch, 2, height, width)")
        return [data], [data, (2,) + data[2:]], []

    def _warp_scale(self, shape, dtype):
        """(1, 2, 1, 1): pixels per unit of the [-1, 1] grid, for x and for y."""
        return np.array([(shape[3] - 1) / 2, (shape[2] - 1) / 2], dtype).reshape(1, 2, 1, 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """affine: data (as 2x3) @ grid_dst; warp: (pixel + flow) scaled to [-1, 1]."""
        (data,) = in_data
        if self.transform_type == "affine":
            grid_dst = affine_target_grid(self.target_shape, data.dtype)
            out = (data.reshape(-1, 2, 3) @ grid_dst).reshape(out_data[0].shape)
        else:
            h, w = data.shape[2:]
            grid_dst = np.stack([np.tile(np.arange(w), (h, 1)),
                                 np.repeat(np.arange(h)[:, None], w, axis=1)]).astype(data.dtype)
            out = (data + grid_dst) / self._warp_scale(data.shape, data.dtype) - 1
        assign(out_data[0], req[0], out)
        assign(out_data[1], req[1], grid_dst)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """affine: d grid @ grid_dst^T; warp: d grid over the pixel scale."""
        dy = out_grad[0]
        if self.transform_type == "affine":
            flat = dy.reshape(dy.shape[0], 2, -1)
            assign(in_grad[0], req[0], (flat @ out_data[1].T).reshape(in_grad[0].shape))
        else:
            assign(in_grad[0], req[0], dy / self._warp_scale(dy.shape, dy.dtype))


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
            raise MXNetValueError(f"{self.where}: grid {fmt(grid)} must have 2 channels, the x "
                                  "and y of each sampling point: (batch, 2, height, width)")
        if not known(data) or not known(grid):
            return [data, grid], [None, None], []
        _check_batch(self, data, grid, "grid")
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
        ddata, dgrid = bilinear_sample_grad(dy, data, grid.reshape(grid.shape[0], 2, -1),
                                            req[0] != "null")
        assign(in_grad[0], req[0], ddata)
        assign(in_grad[1], req[1], dgrid.reshape(grid.shape))
