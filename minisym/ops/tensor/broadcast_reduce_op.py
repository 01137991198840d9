"""What the reductions sum / mean / max / min / norm share (MXNet's
src/operator/tensor/broadcast_reduce_op.h): axes, keepdims / exclude and the gradient's
broadcast back to the data's shape."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..operator_base import Operator
from ..params import Param, boolean, optional, shape_tuple

__all__ = ["Reduce"]


class Reduce(Operator):
    """Reduce over ``axis`` (all when None); ``keepdims`` keeps size-1 axes; ``exclude`` inverts."""

    params = {
        "axis": Param(optional(shape_tuple), None),
        "keepdims": Param(boolean, False),
        "exclude": Param(boolean, False),
    }
    backward_needs = ("out_grad", "in_data", "out_data")

    def reduced_axes(self, ndim):
        """The axes that are reduced, as non-negative ints."""
        if self.axis is None or (self.axis == () and not self.exclude):
            return tuple(range(ndim))
        axes = []
        for a in self.axis:
            if not -ndim <= a < ndim:
                raise MXNetValueError(
                    f"{self.where}: axis {a} is out of range for data with {ndim} dimensions"
                )
            axes.append(a % ndim)
        if self.exclude:
            return tuple(i for i in range(ndim) if i not in axes)
        return tuple(sorted(set(axes)))

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        axes = self.reduced_axes(len(data))
        if self.keepdims:
            out = _keepdims_shape(data, axes)
        else:
            out = tuple(d for i, d in enumerate(data) if i not in axes) or (1,)
        return [data], [out], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> reduce(data) over the reduced axes, in the inferred output shape."""
        (data,) = in_data
        result = self.reduce(data, axis=self.reduced_axes(data.ndim), keepdims=True)
        assign(out_data[0], req[0], result.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient spread back over the reduced axes, times d reduce / d data."""
        (data,) = in_data
        kept = _keepdims_shape(data.shape, self.reduced_axes(data.ndim))
        grad = np.broadcast_to(out_grad[0].reshape(kept), data.shape)
        assign(in_grad[0], req[0], self.local_gradient(grad, data, out_data[0].reshape(kept)))


def _keepdims_shape(shape, axes):
    """``shape`` with every axis in ``axes`` set to 1 (the keepdims=True output shape)."""
    return tuple(1 if i in axes else d for i, d in enumerate(shape))
