"""Deconvolution (transposed convolution, 1-D / 2-D / 3-D): the gradient of a Convolution with
respect to its input, run forward. A GEMM per group then col2im; its backward is a convolution.
The fast path (1-D and 2-D) calls the im2col / col2im kernels of minisym/kernels/conv.py.
Mirrors MXNet 1.9.1's src/operator/nn/deconvolution.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ...kernels import conv as kconv
from ...kernels import reference as ref
from ..common import as_4d, at_least, check_layout, check_spatial, fast_path, lift_1d, spatial_param
from ..operator_base import Operator, register
from ..params import Param, boolean, optional, shape_tuple
from ..rules import channel_first_axes, fmt, permute, unpermute
from .convolution import kernel_geometry

__all__ = ["Deconvolution", "deconv_forward", "deconv_backward"]


@register("Deconvolution")
class Deconvolution(Operator):
    """Transposed convolution. data (N, C, *x), weight (C, num_filter/num_group, *kernel)."""

    params = {
        "kernel": Param(shape_tuple, doc="(kh, kw) or (k,)"),
        "stride": Param(shape_tuple, ()),
        "dilate": Param(shape_tuple, ()),
        "pad": Param(shape_tuple, ()),
        "adj": Param(shape_tuple, ()),
        "target_shape": Param(shape_tuple, ()),
        "num_filter": Param(int, check=at_least(1)),
        "num_group": Param(int, 1, check=at_least(1)),
        "workspace": Param(int, 512),
        "no_bias": Param(boolean, True),  # MXNet 1.9.1: Deconvolution has no bias by default
        "cudnn_tune": Param(optional(str), None),
        "cudnn_off": Param(boolean, False),
        "layout": Param(optional(str), None),
    }
    backward_needs = ("out_grad", "in_data")

    def validate(self):
        """kernel has 1 to 3 dims; stride / dilate / pad / adj one value per dim (MXNet checks
        these when the symbol is created); num_group divides num_filter."""
        if not 1 <= len(self.kernel) <= 3:
            raise MXNetValueError(
                f"{self.where}: kernel={self.kernel} must have 1, 2 or 3 "
                "dimensions (1-D, 2-D or 3-D deconvolution)"
            )
        check_spatial(self)
        if self.adj and len(self.adj) != len(self.kernel):
            raise MXNetValueError(
                f"{self.where}: adj={self.adj} has {len(self.adj)} values but "
                f"kernel={self.kernel} has {len(self.kernel)}; give one per "
                "spatial dimension"
            )
        if any(a < 0 for a in self.adj):
            raise MXNetValueError(f"{self.where}: adj={self.adj} must not be negative")
        if self.num_filter % self.num_group:
            raise MXNetValueError(
                f"{self.where}: num_filter={self.num_filter} must be divisible "
                f"by num_group={self.num_group}"
            )

    def list_arguments(self):
        return ["data", "weight"] if self.no_bias else ["data", "weight", "bias"]

    def geometry(self, spatial):
        """(stride, dilate, pad, adj) per axis for input sizes ``spatial``; with a target_shape,
        pad and adj are MXNet's: the overshoot split in two, the odd cell to adj."""
        stride, dilate = spatial_param(self, "stride", 1), spatial_param(self, "dilate", 1)
        pad, adj = list(spatial_param(self, "pad", 0)), list(spatial_param(self, "adj", 0))
        if any(self.target_shape):
            for i, (x, k, s, d) in enumerate(zip(spatial, self.kernel, stride, dilate)):
                target = self.target_shape[i] if i < len(self.target_shape) else 0
                if not x:
                    continue
                full = s * (x - 1) + d * (k - 1) + 1
                if full < target:
                    raise MXNetValueError(
                        f"{self.where}: target_shape={self.target_shape} is too big: input size "
                        f"{x} on spatial axis {i} reaches at most {full} with kernel "
                        f"{self.kernel} and stride {stride}; lower target_shape or raise stride"
                    )
                pad[i], adj[i] = (full - target + 1) // 2, (full - target) % 2
        return stride, dilate, tuple(pad), tuple(adj)

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, *x) -> weight (C, num_filter/num_group, *kernel), bias (num_filter,),
        output (N, num_filter, *y) with y = stride*(x-1) + dilated kernel - 2*pad + adj.

        As in MXNet, shapes flow only forward, from data: an unknown size (0) of data stays
        unknown in the output, and nothing comes back from the output or the weight.
        """
        data = in_shape[0]
        nd = len(self.kernel)
        if data is None:
            return list(in_shape), list(out_shape), []
        if len(data) != nd + 2:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {len(data)} dimensions but the {nd}-D "
                f"kernel {self.kernel} needs {nd + 2}: (batch, channels, {nd} spatial)"
            )
        axes = channel_first_axes(self.layout, nd + 2)
        x = permute(data, axes)
        channels = x[1]
        if channels and channels % self.num_group:
            raise MXNetValueError(
                f"{self.where}: data has {channels} channels, not divisible "
                f"by num_group={self.num_group}; the input channels are split "
                "into num_group equal groups, so pick a num_group that "
                f"divides {channels}"
            )
        stride, dilate, pad, adj = self.geometry(x[2:])
        for i, (s, a) in enumerate(zip(stride, adj)):
            if a > s - 1:
                raise MXNetValueError(
                    f"{self.where}: adj {a} on spatial axis {i} must be smaller than the stride "
                    f"{s} there (adj adds at most stride-1 cells to the output); lower adj or "
                    "raise stride"
                )
        spatial = tuple(
            self._out_size(i, size, k, s, d, p, a)
            for i, (size, k, s, d, p, a) in enumerate(
                zip(x[2:], self.kernel, stride, dilate, pad, adj)
            )
        )
        weight = (channels, self.num_filter // self.num_group) + tuple(self.kernel)
        ins = [data, unpermute(weight, axes)] + ([] if self.no_bias else [(self.num_filter,)])
        return ins, [unpermute((x[0], self.num_filter) + spatial, axes)], []

    def _out_size(self, axis, size, k, s, d, p, a):
        if not size:
            return 0
        out = s * (size - 1) + d * (k - 1) + 1 - 2 * p + a
        target = self.target_shape[axis] if axis < len(self.target_shape) else 0
        if out < 1:
            raise MXNetValueError(
                f"{self.where}: the output would have size {out} on spatial axis {axis} (input "
                f"{size}, kernel {k}, stride {s}, pad {p}): pad removes more than the "
                "deconvolution produces; lower pad"
            )
        if target and target != out:
            raise MXNetValueError(
                f"{self.where}: target_shape={self.target_shape} cannot be "
                f"reached on spatial axis {axis}: the output has size {out}"
            )
        return out

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x), weight (C, F/g, *k), bias (F,) -> (N, F, *y): W^T.data, col2im."""
        data, weight, *rest = in_data
        check_layout(self, len(self.kernel))
        stride, dilate, pad, _ = self.geometry(data.shape[2:])
        out = deconv_forward(
            data, weight, out_data[0].shape, self.kernel, stride, dilate, pad, self.num_group
        )
        if rest:
            out += rest[0].reshape((-1,) + (1,) * len(self.kernel))
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """d data = Convolution(dy, weight), d weight = data . im2col(dy)^T, d bias = sum dy."""
        data, weight, *_ = in_data
        dy = out_grad[0]
        stride, dilate, pad, _ = self.geometry(data.shape[2:])
        dx, dw = deconv_backward(
            dy,
            data,
            weight,
            self.kernel,
            stride,
            dilate,
            pad,
            self.num_group,
            need_dx=req[0] != "null",
            need_dw=req[1] != "null",
        )
        assign(in_grad[0], req[0], dx)
        assign(in_grad[1], req[1], dw)
        if not self.no_bias:
            assign(in_grad[2], req[2], dy.sum(axis=(0,) + tuple(range(2, dy.ndim))))


def _group_rows(weight, groups):
    """weight (C, F/g, *k) -> (g, C/g, F/g * K): one matrix per group."""
    return weight.reshape(groups, weight.shape[0] // groups, -1)


def deconv_forward(data, weight, out_shape, kernel, stride, dilate, pad, groups):
    """data (N, C, *x), weight (C, F/g, *kernel) -> (N, F, *out_shape[2:]), no bias."""
    w = _group_rows(weight, groups)
    n, c = data.shape[:2]
    f = out_shape[1]
    if fast_path(data, len(kernel)):
        x4 = as_4d(data)
        in_hw, out_hw = x4.shape[2:], lift_1d(tuple(out_shape[2:]), 1)
        out = np.zeros((n, f) + tuple(out_hw), data.dtype)
        cg, fg = c // groups, f // groups
        geometry = lift_1d(kernel, 1), *kernel_geometry(stride, pad, dilate)
        for g in range(groups):
            rows = np.ascontiguousarray(x4[:, g * cg : (g + 1) * cg].transpose(1, 0, 2, 3))
            cols = w[g].T @ rows.reshape(cg, -1)  # (F/g*K, N*H*W)
            out[:, g * fg : (g + 1) * fg] = kconv.col2im(
                cols, (n, fg) + tuple(out_hw), *geometry, in_hw
            )
        return out.reshape(out_shape)
    spatial = data.shape[2:]
    x = data.reshape(n, groups, c // groups, -1)  # (N, g, C/g, L)
    cols = np.einsum("ngcl,gcf->ngfl", x, w)  # (N, g, F/g*K, L)
    cols = cols.reshape((n, f) + tuple(kernel) + tuple(spatial))
    return ref.col2im(cols, out_shape, kernel, stride, dilate, pad)


def deconv_backward(
    dy, data, weight, kernel, stride, dilate, pad, groups, need_dx=True, need_dw=True
):
    """(d data, d weight) of deconv_forward for the head gradient dy (N, F, *y); None where
    not needed."""
    n, c = data.shape[:2]
    f = dy.shape[1]
    cg, fg = c // groups, f // groups
    w = _group_rows(weight, groups)
    if fast_path(data, len(kernel)):
        geometry = lift_1d(kernel, 1), *kernel_geometry(stride, pad, dilate)
        cols = kconv.im2col(as_4d(dy), *geometry, as_4d(data).shape[2:])
        cols = cols.reshape(groups, fg * int(np.prod(kernel)), -1)  # (g, F/g*K, N*L)
        rows = np.ascontiguousarray(data.reshape(n, groups, cg, -1).transpose(1, 2, 0, 3))
        rows = rows.reshape(groups, cg, -1)  # (g, C/g, N*L)
        dx = dw = None
        if need_dx:
            dx = (w @ cols).reshape(c, n, -1).transpose(1, 0, 2).reshape(data.shape)
        if need_dw:
            dw = (rows @ cols.transpose(0, 2, 1)).reshape(weight.shape)
        return dx, dw
    cols = ref.im2col(dy, kernel, stride, dilate, pad, data.shape[2:])  # (N, F, *k, *x)
    cols = cols.reshape(n, groups, fg * int(np.prod(kernel)), -1)  # (N, g, F/g*K, L)
    x = data.reshape(n, groups, cg, -1)
    dx = np.einsum("gcf,ngfl->ngcl", w, cols).reshape(data.shape) if need_dx else None
    dw = np.einsum("ngcl,ngfl->gcf", x, cols).reshape(weight.shape) if need_dw else None
    return dx, dw
