"""sum and mean. Mirrors MXNet 1.9.1's src/operator/tensor/broadcast_reduce_sum_value.cc."""

import numpy as np

from ..operator_base import register
from .broadcast_reduce_op import Reduce

__all__ = []


@register("sum", "sum_axis")
class Sum(Reduce):
    """Sum over axes."""

    backward_needs = ("out_grad",)
    reduce = staticmethod(np.sum)

    def local_gradient(self, grad, data, out):
        """Every summed value gets the head gradient unchanged."""
        return grad


@register("mean")
class Mean(Reduce):
    """Mean over axes."""

    backward_needs = ("out_grad",)
    reduce = staticmethod(np.mean)

    def local_gradient(self, grad, data, out):
        """Every averaged value gets the head gradient divided by how many were averaged."""
        return grad / (data.size // out.size)
