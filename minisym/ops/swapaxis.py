"""SwapAxis (swapaxes). Mirrors MXNet 1.9.1's src/operator/swapaxis.cc."""

import numpy as np

from ..assign import assign
from .common import axis_in
from .operator_base import Operator, register
from .params import Param

__all__ = []


@register("SwapAxis", "swapaxes")
class SwapAxis(Operator):
    """Exchange axes dim1 and dim2 (the default 0, 0 changes nothing)."""

    params = {"dim1": Param(int, 0), "dim2": Param(int, 0)}
    backward_needs = ("out_grad",)

    def infer_shape(self, in_shape, out_shape):
        """data -> data with sizes dim1 and dim2 exchanged; nothing back from the output."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        a = axis_in(self, self.dim1, len(data), "dim1")
        b = axis_in(self, self.dim2, len(data), "dim2")
        out = list(data)
        out[a], out[b] = out[b], out[a]
        return [data], [tuple(out)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.swapaxes(data, dim1, dim2)."""
        assign(out_data[0], req[0], np.swapaxes(in_data[0], self.dim1, self.dim2))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient with the same two axes exchanged back."""
        assign(in_grad[0], req[0], np.swapaxes(out_grad[0], self.dim1, self.dim2))
