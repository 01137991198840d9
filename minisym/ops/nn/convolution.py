"""Convolution (1-D, 2-D, 3-D; NCW / NCHW / NCDHW), with numba / BLAS fast paths for 1-D and 2-D
beside the NumPy references of minisym/kernels/reference.py. Mirrors MXNet 1.9.1's
src/operator/nn/convolution.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ...kernels import conv as kconv
from ...kernels import conv_folded, finish, write_target
from ...kernels import reference as ref
from ..common import (
    all_but,
    as_4d,
    at_least,
    check_layout,
    check_spatial,
    fast_path,
    lift_1d,
    spatial_param,
)
from ..operator_base import Operator, register
from ..params import Param, boolean, optional, shape_tuple
from ..rules import channel_first_axes, fmt, permute, prod, try_merge, unpermute

__all__ = ["kernel_geometry"]


def kernel_geometry(stride, pad, dilate):
    """1-D or 2-D (stride, pad, dilate) as the 2-D kernels of minisym/kernels/conv.py take them."""
    return lift_1d(stride, 1), lift_1d(pad, 0), lift_1d(dilate, 1)


@register("Convolution")
class Convolution(Operator):
    """Cross-correlation. data (N, C, *spatial), weight (num_filter, C/num_group, *kernel)."""

    params = {
        "kernel": Param(shape_tuple, doc="(kh, kw) or (k,)"),
        "stride": Param(shape_tuple, ()),
        "dilate": Param(shape_tuple, ()),
        "pad": Param(shape_tuple, ()),
        "num_filter": Param(int, check=at_least(1)),
        "num_group": Param(int, 1, check=at_least(1)),
        "workspace": Param(int, 1024),
        "no_bias": Param(boolean, False),
        "cudnn_tune": Param(optional(str), None),
        "cudnn_off": Param(boolean, False),
        "layout": Param(optional(str), None),
    }
    backward_needs = ("out_grad", "in_data")
    fuses_following_batchnorm = True

    def workspace_bytes(self, in_shapes, out_shapes, itemsize, runs_backward):
        """The im2col matrix (C*prod(kernel), N*prod(out spatial)), twice over when backward
        runs (the columns and their gradient); 0 without a data shape."""
        if not in_shapes or in_shapes[0] is None:
            return 0
        data, out = in_shapes[0], out_shapes[0]
        columns = data[1] * prod(self.kernel) * data[0] * prod(out[2:])
        return columns * itemsize * (2 if runs_backward else 1)

    def validate(self):
        """kernel has 1 to 3 dims, stride / dilate / pad one value per dim, and num_group
        divides num_filter."""
        if not 1 <= len(self.kernel) <= 3:
            raise MXNetValueError(
                f"{self.where}: kernel={self.kernel} must have 1, 2 or 3 "
                "dimensions (1-D, 2-D or 3-D convolution)"
            )
        check_spatial(self)
        if self.num_filter % self.num_group:
            raise MXNetValueError(
                f"{self.where}: num_filter={self.num_filter} must be divisible "
                f"by num_group={self.num_group}"
            )

    def list_arguments(self):
        return ["data", "weight"] if self.no_bias else ["data", "weight", "bias"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, *x) -> weight (num_filter, C/num_group, *kernel), bias (num_filter,),
        output (N, num_filter, *out) with out = (x + 2*pad - dilated kernel) // stride + 1.

        A channel-last ``layout`` ('NHWC') reads and writes data, weight and output in that
        order. As in MXNet, unknown sizes (0) come back from a known output: the batch size
        always, a spatial size where the stride is 1.
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
        x = permute(data, axes)  # (N, C, *spatial)
        channels = x[1]
        if channels and channels % self.num_group:
            raise MXNetValueError(
                f"{self.where}: data has {channels} channels, not "
                f"divisible by num_group={self.num_group}"
            )
        weight = (self.num_filter, channels // self.num_group if channels else 0) + self.kernel
        out = (x[0], self.num_filter) + self._spatial_out(data, x[2:])
        if out_shape[0] is not None and len(out_shape[0]) == nd + 2:
            x = self._data_from_output(x, try_merge(out, permute(out_shape[0], axes)))
        ins = [unpermute(x, axes), unpermute(weight, axes)]
        ins += [] if self.no_bias else [(self.num_filter,)]
        return ins, [unpermute(out, axes)], []

    def _spatial_out(self, data, sizes):
        """Each output size from an input size (0, unknown, stays unknown)."""
        spatial = []
        for x, (k, s, d, p) in zip(sizes, zip(self.kernel, *self._geometry())):
            extent = d * (k - 1) + 1
            if x and x + 2 * p < extent:
                raise MXNetValueError(
                    f"{self.where}: kernel {self.kernel} (dilated size {extent}) is larger "
                    f"than the padded input {fmt(data)} with pad {p}"
                )
            spatial.append((x + 2 * p - extent) // s + 1 if x else 0)
        return tuple(spatial)

    def _data_from_output(self, x, out):
        """MXNet's backward fill of a channel-first data shape from the output: the batch size,
        and a spatial size x = out + dilated kernel - 1 - 2*pad where the stride is 1."""
        if out is None:  # the output disagrees: merging it reports where
            return x
        filled = [x[0] or out[0], x[1]]
        for size, o, (k, s, d, p) in zip(x[2:], out[2:], zip(self.kernel, *self._geometry())):
            back = o + d * (k - 1) - 2 * p if o and s == 1 else 0
            filled.append(size or max(back, 0))
        return tuple(filled)

    def _geometry(self):
        """(stride, dilate, pad), each with one value per spatial axis."""
        return (
            spatial_param(self, "stride", 1),
            spatial_param(self, "dilate", 1),
            spatial_param(self, "pad", 0),
        )

    def _grouped(self, array, rows):
        """(N, F or C, ...) -> (N, num_group, rows per group, positions)."""
        return array.reshape(array.shape[0], self.num_group, rows // self.num_group, -1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x), weight (F, C/g, *k), bias (F,) -> (N, F, *out) via im2col."""
        data, weight, *rest = in_data
        bias = rest[0] if rest else None
        check_layout(self, len(self.kernel))
        stride, dilate, pad = self._geometry()
        if fast_path(data, len(self.kernel)):
            target = write_target(out_data[0], req[0])
            kconv.conv2d_forward(
                as_4d(data),
                as_4d(weight),
                bias,
                *kernel_geometry(stride, pad, dilate),
                self.num_group,
                out=as_4d(target),
            )
            finish(out_data[0], req[0], target)
            return
        out_shape = out_data[0].shape
        cols = ref.im2col(data, self.kernel, stride, dilate, pad, out_shape[2:])
        cols = self._grouped(cols, data.shape[1] * prod(self.kernel))  # (N, g, C/g*K, L)
        w = weight.reshape(self.num_group, self.num_filter // self.num_group, -1)
        out = (w @ cols).reshape(out_shape)  # (g, F/g, C/g*K) @ (N, g, C/g*K, L)
        if bias is not None:
            out = out + bias.reshape((-1,) + (1,) * len(self.kernel))
        assign(out_data[0], req[0], out)

    def fusable_with_batchnorm(self, in_data):
        """Whether ``forward_batchnorm`` can run on these inputs: 2-D, channel-first, on the
        numba kernels, im2col + GEMM (``kernels.conv_folded.folds_batchnorm``)."""
        data, weight = in_data[:2]
        if len(self.kernel) != 2 or self.layout not in (None, "NCHW"):
            return False
        if not fast_path(data, 2) or weight.dtype != data.dtype:
            return False
        stride, dilate, pad = self._geometry()
        return conv_folded.folds_batchnorm(
            data.shape, weight.shape, stride, pad, dilate, self.num_group
        )

    def forward_batchnorm(self, in_data, scale, shift, act, out):
        """This convolution, then a BatchNorm on given statistics (y * scale + shift per
        filter, scale folded into the weights), then ``act`` (None, 'relu' or a Clip's
        bounds), into ``out``: an executor optimisation at inference, not part of the
        operator contract (the output of this operator is left unwritten)."""
        self.batchnorm_runner(in_data, act, out)(scale, shift)

    def activation_runner(self, in_data, act, out):
        """``run()``: this convolution, its bias and then ``act`` ('relu' or a Clip's bounds)
        into ``out`` in one pass (``batchnorm_runner`` with scale 1 and shift 0, which leave
        every value as it is): an executor optimisation at inference, not part of the operator
        contract (the output of this operator is left unwritten)."""
        convolve = self.batchnorm_runner(in_data, act, out)
        ones, zeros = np.ones(self.num_filter, out.dtype), np.zeros(self.num_filter, out.dtype)
        return lambda: convolve(ones, zeros)

    def batchnorm_runner(self, in_data, act, out):
        """``run(scale, shift)``: ``forward_batchnorm`` on these arrays, its choices made
        once (an executor keeps it while its buffers stay)."""
        data, weight, *rest = in_data
        bias = rest[0] if rest else None
        stride, dilate, pad = self._geometry()
        geometry = kernel_geometry(stride, pad, dilate)
        return conv_folded.folded_runner(data, weight, bias, *geometry, self.num_group, act, out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx by col2im of Wᵀ.dy, dW = dy.colsᵀ summed over the batch, db = sum of dy."""
        data, weight, *_ = in_data
        stride, dilate, pad = self._geometry()
        if fast_path(data, len(self.kernel)):
            self._backward_fast(req, out_grad[0], data, weight, in_grad, stride, dilate, pad)
            return
        dy = self._grouped(out_grad[0], self.num_filter)  # (N, g, F/g, L)
        w = weight.reshape(self.num_group, self.num_filter // self.num_group, -1)
        if req[0] != "null":
            dcols = (w.swapaxes(1, 2) @ dy).reshape(
                data.shape[:2] + self.kernel + out_grad[0].shape[2:]
            )
            assign(
                in_grad[0], req[0], ref.col2im(dcols, data.shape, self.kernel, stride, dilate, pad)
            )
        if req[1] != "null":
            cols = ref.im2col(data, self.kernel, stride, dilate, pad, out_grad[0].shape[2:])
            cols = self._grouped(cols, data.shape[1] * prod(self.kernel))
            dw = (dy @ cols.swapaxes(2, 3)).sum(axis=0)  # (g, F/g, C/g*K)
            assign(in_grad[1], req[1], dw.reshape(weight.shape))
        if not self.no_bias:
            assign(in_grad[2], req[2], out_grad[0].sum(axis=all_but(out_grad[0].ndim, 1)))

    def _backward_fast(self, req, dy, data, weight, in_grad, stride, dilate, pad):
        """The same gradients through im2col / col2im kernels and BLAS, written in place when
        req is write (one copy less)."""
        dx_target = write_target(in_grad[0], req[0]) if req[0] != "null" else None
        dw_target = write_target(in_grad[1], req[1]) if req[1] != "null" else None
        kconv.conv2d_backward(
            as_4d(dy),
            as_4d(data),
            as_4d(weight),
            *kernel_geometry(stride, pad, dilate),
            self.num_group,
            need_dx=req[0] != "null",
            need_dw=req[1] != "null",
            dx_out=None if dx_target is None else as_4d(dx_target),
            dw_out=None if dw_target is None else as_4d(dw_target),
        )
        if dx_target is not None:
            finish(in_grad[0], req[0], dx_target)
        if dw_target is not None:
            finish(in_grad[1], req[1], dw_target)
        if not self.no_bias:
            assign(in_grad[2], req[2], dy.sum(axis=all_but(dy.ndim, 1)))
