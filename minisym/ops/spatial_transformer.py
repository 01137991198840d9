"""SpatialTransformer: an affine grid (grid_generator.py), then bilinear sampling
(bilinear_sampler.py). Mirrors MXNet 1.9.1's src/operator/spatial_transformer.cc."""

from ..assign import assign
from ..base import MXNetValueError
from .bilinear_sampler import bilinear_sample, bilinear_sample_grad, check_batch
from .grid_generator import affine_target_grid, check_target
from .operator_base import Operator, register
from .params import Param, boolean, optional, shape_tuple
from .rules import fmt, known

__all__ = ["SpatialTransformer"]


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
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} must be 4-D (batch, channel, height, width)"
            )
        if loc is not None and (len(loc) != 2 or loc[1] not in (0, 6)):
            raise MXNetValueError(
                f"{self.where}: loc {fmt(loc)} must be (batch, 6): the 6 numbers of each "
                "image's 2x3 affine matrix, e.g. the output of FullyConnected(num_hidden=6)"
            )
        if not known(data) or not known(loc):
            return [data, loc], [None, None, None], []
        check_batch(self, data, loc, "loc")
        check_target(self)
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
