"""Pooling (max / avg / sum; 1-D, 2-D, 3-D), with numba fast paths for 1-D and 2-D beside
the NumPy references of minisym/kernels/reference.py. Mirrors MXNet 1.9.1's
src/operator/nn/pooling.cc."""

from ...assign import assign
from ...base import MXNetValueError
from ...kernels import finish, write_target
from ...kernels import pool as kpool
from ...kernels import reference as ref
from ..common import (
    as_4d,
    check_layout,
    check_spatial,
    fast_path,
    lift_1d,
    spatial_param,
)
from ..operator_base import Operator, register
from ..params import Param, boolean, optional, shape_tuple
from ..rules import channel_first_axes, fmt, permute, unpermute

__all__ = []


@register("Pooling")
class Pooling(Operator):
    """Max / average / sum pooling over windows; global_pool pools each map to 1x1."""

    params = {
        "kernel": Param(shape_tuple, ()),
        "pool_type": Param(str, "max", choices=("avg", "lp", "max", "sum")),
        "global_pool": Param(boolean, False),
        "cudnn_off": Param(boolean, False),
        "pooling_convention": Param(str, "valid", choices=("full", "same", "valid")),
        "stride": Param(shape_tuple, ()),
        "pad": Param(shape_tuple, ()),
        "p_value": Param(optional(int), None),
        "count_include_pad": Param(optional(boolean), None),
        "layout": Param(optional(str), None),
    }
    backward_needs = ("out_grad", "in_data", "out_data")
    ONEDNN_LAYOUTS = (None, "NCW", "NCHW", "NCDHW")  # where oneDNN's max pooling runs

    def mxnet_json_outputs(self):
        """One more than ``list_outputs()`` where pip's MXNet 1.9.1 gives the node a hidden
        ``workspace`` output.

        That MXNet is built with oneDNN, whose max pooling keeps the argmax of each window for
        backward as a second output: a max ``Pooling`` with a 1- to 3-D kernel and a
        channel-first (or no) layout. No listing shows it (``list_outputs``, ``get_internals``),
        nothing in a graph reads it; only ``node_row_ptr`` counts it. minisym's pooling needs no
        workspace, so the node has none: the writer counts it to write MXNet's bytes, the reader
        accepts both."""
        if (
            self.pool_type == "max"
            and 1 <= len(self.kernel) <= 3
            and self.layout in self.ONEDNN_LAYOUTS
        ):
            return len(self.list_outputs()) + 1
        return super().mxnet_json_outputs()

    def validate(self):
        """kernel has 1 to 3 dims (unless global_pool) and stride / pad one value per dim."""
        if not self.global_pool:
            if not 1 <= len(self.kernel) <= 3:
                raise MXNetValueError(
                    f"{self.where}: kernel={self.kernel} must have 1 to 3 "
                    "dimensions (or set global_pool=True)"
                )
            check_spatial(self, longer_ok=True)  # MXNet ignores extra values

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, *x) -> (N, C, *out), out by ``pooling_convention``; global: (N, C, 1, ..).

        A channel-last ``layout`` ('NHWC') is read and written in that order. As in MXNet,
        nothing comes back from the output, and an unknown (0) batch or channel size stays
        unknown; an unknown spatial size cannot be pooled (MXNet computes with it and fails).
        """
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        if not 3 <= len(data) <= 5:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {len(data)} dimensions; "
                "Pooling takes 3 to 5: (batch, channels, 1 to 3 spatial)"
            )
        axes = channel_first_axes(self.layout, len(data))
        x = permute(data, axes)
        if self.global_pool:
            return [data], [unpermute(x[:2] + (1,) * (len(x) - 2), axes)], []
        nd = len(self.kernel)
        if len(data) != nd + 2:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {len(data)} dimensions; "
                f"kernel {self.kernel} needs {nd + 2}"
            )
        stride, pad = spatial_param(self, "stride", 1), spatial_param(self, "pad", 0)
        if self.pooling_convention == "same":
            self._check_same(data, pad)
        spatial = []
        for i, (size, k, s, p) in enumerate(zip(x[2:], self.kernel, stride, pad)):
            if not size:
                raise MXNetValueError(
                    f"{self.where}: data {fmt(data)} has an unknown size on spatial axis {i}; "
                    "pooling computes every output size from the input size, so give the whole "
                    "shape of data (only the batch and channel sizes may be 0, unknown)"
                )
            if size + 2 * p < k:
                raise MXNetValueError(
                    f"{self.where}: kernel {self.kernel} is larger than the "
                    f"padded input {fmt(data)} (pad {pad})"
                )
            if self.pooling_convention == "valid":
                spatial.append((size + 2 * p - k) // s + 1)
            elif self.pooling_convention == "full":
                spatial.append(-(-(size + 2 * p - k) // s) + 1)
            else:
                spatial.append(-(-size // s))
        return [data], [unpermute(x[:2] + tuple(spatial), axes)], []

    def _check_same(self, data, pad):
        """'same' (out = ceil(in / stride)) is MXNet's for 1-D pooling without padding only."""
        if len(data) != 3:
            raise MXNetValueError(
                f"{self.where}: pooling_convention='same' pools 1-D data (batch, channel, x) "
                f"only (as in MXNet), but data is {fmt(data)}; use 'valid' or 'full' here"
            )
        if any(pad):
            raise MXNetValueError(
                f"{self.where}: pooling_convention='same' chooses its own padding, so pad must "
                f"be 0, but pad is {self.pad}; leave pad out"
            )

    def _geometry(self, data):
        """(kernel, stride, pad) for ``data``; global pooling covers each whole map."""
        if self.global_pool:
            spatial = data.shape[2:]
            return spatial, (1,) * len(spatial), (0,) * len(spatial)
        return self.kernel, spatial_param(self, "stride", 1), spatial_param(self, "pad", 0)

    @property
    def _include_pad(self):
        """Whether avg divides by the padded window: MXNet's default (None) counts the padding."""
        return self.count_include_pad is not False

    def _check_runnable(self, data):
        """A teaching error for what the graph accepts but minisym cannot compute."""
        check_layout(self, data.ndim - 2)
        if self.pool_type == "lp":
            raise NotImplementedError(
                f"{self.where}: pool_type='lp' is not implemented in "
                "minisym; use 'max', 'avg' or 'sum'"
            )

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x) -> (N, C, *out): max / avg / sum over each (padded) window."""
        (data,) = in_data
        self._check_runnable(data)
        kernel, stride, pad = self._geometry(data)
        if fast_path(data, len(kernel)):
            target = write_target(out_data[0], req[0])
            kpool.pool2d_forward(
                as_4d(data),
                self.pool_type,
                lift_1d(kernel, 1),
                lift_1d(stride, 1),
                lift_1d(pad, 0),
                as_4d(target).shape[2:],
                self._include_pad,
                out=as_4d(target),
            )
            finish(out_data[0], req[0], target)
            return
        out = ref.pool_forward(
            data, self.pool_type, kernel, stride, pad, out_data[0].shape[2:], self._include_pad
        )
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """max: dy to the first max of each window; sum/avg: dy (/ divisor) to every cell."""
        (data,) = in_data
        kernel, stride, pad = self._geometry(data)
        if req[0] == "null":
            return
        include_pad = self._include_pad
        if fast_path(data, len(kernel)):
            grad = kpool.pool2d_backward(
                as_4d(out_grad[0]),
                as_4d(data),
                as_4d(out_data[0]),
                self.pool_type,
                lift_1d(kernel, 1),
                lift_1d(stride, 1),
                lift_1d(pad, 0),
                include_pad,
            )
            assign(in_grad[0], req[0], grad.reshape(data.shape))
            return
        grad = ref.pool_backward(
            out_grad[0], data, out_data[0], self.pool_type, kernel, stride, pad, include_pad
        )
        assign(in_grad[0], req[0], grad)
