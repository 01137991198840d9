"""GridGenerator (affine or warp grids); grids hold source coordinates in [-1, 1]
(x first, then y). Mirrors MXNet 1.9.1's src/operator/grid_generator.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from .operator_base import Operator, register
from .params import Param, shape_tuple
from .rules import fmt

__all__ = ["GridGenerator", "affine_target_grid", "check_target"]


def affine_target_grid(target_shape, dtype):
    """(3, H*W): the target pixels' x and y in [-1, 1] (row-major) and a row of ones."""
    height, width = target_shape
    index = np.arange(height * width)
    with np.errstate(divide="ignore", invalid="ignore"):  # a size of 1 divides by 0, as in MXNet
        x = -1.0 + (index % width) * 2.0 / (width - 1)
        y = -1.0 + (index // width) * 2.0 / (height - 1)
    return np.stack([x, y, np.ones(height * width)]).astype(dtype)


def check_target(op):
    if len(op.target_shape) != 2 or min(op.target_shape) < 1:
        raise MXNetValueError(
            f"{op.where}: incorrect target_shape {op.target_shape}: give the output's (height, "
            "width), both at least 1, e.g. target_shape=(28, 28)"
        )


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
                    "(batch, 6): each image's 2x3 affine matrix"
                )
            check_target(self)
            h, w = self.target_shape
            return [data], [(data[0], 2, h, w), (3, h * w)], []
        if len(data) != 4 or data[1] not in (0, 2):
            raise MXNetValueError(
                f"{self.where}: with transform_type='warp' data {fmt(data)} "
                "must be an optical flow (batch, 2, height, width)"
            )
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
            grid_dst = np.stack(
                [np.tile(np.arange(w), (h, 1)), np.repeat(np.arange(h)[:, None], w, axis=1)]
            ).astype(data.dtype)
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
