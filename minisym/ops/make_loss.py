"""MakeLoss: the identity forward, a head gradient of its own. Mirrors MXNet 1.9.1's
src/operator/make_loss.cc. (make_loss, its successor, is in
tensor/elemwise_unary_op_basic.py, as in MXNet.)"""

import numpy as np

from ..assign import assign
from .loss_common import f32_scale
from .operator_base import Operator, register
from .params import Param
from .rules import prod

__all__ = []


@register("MakeLoss")
class MakeLoss(Operator):
    """Forward: identity. Backward: grad_scale (normalized) whatever the head gradient."""

    params = {
        "grad_scale": Param(float, 1.0),
        "valid_thresh": Param(float, 0.0),
        "normalization": Param(str, "null", choices=("batch", "null", "valid")),
    }
    backward_needs = ("out_data",)
    head_loss = "mean"

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output of the same shape."""
        return list(in_shape), [in_shape[0]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> out (same shape): the identity."""
        (data,) = in_data
        assign(out_data[0], req[0], data)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = grad_scale / divisor everywhere (the head gradient is not read)."""
        out = out_data[0]
        assign(in_grad[0], req[0], np.full(out.shape, self._value(out), dtype=out.dtype))

    def _value(self, out):
        """grad_scale, divided by the rows of the (rest, last) view (batch) or by the count of
        outputs > valid_thresh (valid)."""
        if self.normalization == "valid":
            # MXNet divides in the data's dtype here, not in float32.
            valid = max(1, int(np.count_nonzero(out > self.valid_thresh)))
            return out.dtype.type(f32_scale(self.grad_scale)) / out.dtype.type(valid)
        if self.normalization == "batch":
            # QUIRK (MXNet): 'batch' divides by prod(shape[:-1]), the rows of the 2-D view
            # (shape[0] only for 2-D data; 1 for 1-D data).
            return f32_scale(self.grad_scale, prod(out.shape[:-1]))
        return f32_scale(self.grad_scale)
