"""SoftmaxActivation (instance or channel mode). Mirrors MXNet 1.9.1's
src/operator/nn/softmax_activation.cc."""

from ...assign import assign
from ...base import MXNetValueError
from ..loss_common import softmax_along, softmax_backward
from ..operator_base import Operator, register
from ..params import Param
from ..rules import fmt, same_shape

__all__ = []


@register("SoftmaxActivation")
class SoftmaxActivation(Operator):
    """Deprecated softmax: mode='instance' over the last axis, 'channel' over axis 1."""

    params = {"mode": Param(str, "instance", choices=("channel", "instance"))}
    backward_needs = ("out_grad", "out_data")

    def infer_shape(self, in_shape, out_shape):
        """data (N, ...) -> output of the same shape, inferred either way ('channel' needs 3 or
        more dimensions: MXNet finds that out only when it runs)."""
        ins, outs, aux = same_shape(self, in_shape, out_shape)
        data = ins[0]
        if self.mode == "channel" and data is not None and len(data) < 3:
            raise MXNetValueError(
                f"{self.where}: mode='channel' needs data with at least 3 "
                f"dimensions (N, C, ...); got {fmt(data)}"
            )
        return ins, outs, aux

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, ...) -> softmax over the last axis (instance) or axis 1 (channel)."""
        (data,) = in_data
        # MXNet's 'instance' views data as (rest, last): a softmax over the last axis only.
        axis = 1 if self.mode == "channel" else -1
        assign(out_data[0], req[0], softmax_along(data, axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = y * (dy - sum over axis 1 of dy * y), in both modes."""
        y, dy = out_data[0], out_grad[0]
        if y.ndim < 2:
            raise MXNetValueError(
                f"{self.where}: backward needs data with at least 2 "
                f"dimensions (N, C, ...); got {fmt(y.shape)}"
            )
        # QUIRK (MXNet): backward always sums over axis 1, so for 'instance' mode on >=3-D data
        # it is not the derivative of the forward (which normalizes over the last axis).
        assign(in_grad[0], req[0], softmax_backward(y, dy, axis=1))
