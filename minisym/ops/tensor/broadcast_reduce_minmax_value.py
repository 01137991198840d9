"""max and min. Mirrors MXNet 1.9.1's src/operator/tensor/broadcast_reduce_minmax_value.cc."""

import numpy as np

from ..operator_base import register
from .broadcast_reduce_op import Reduce

__all__ = []


@register("max", "max_axis")
class Max(Reduce):
    """Maximum over axes (the gradient goes to every position equal to the maximum)."""

    reduce = staticmethod(np.max)

    def local_gradient(self, grad, data, out):
        """MXNet sends the full head gradient to EVERY tied maximum, not only the first."""
        return grad * (data == out)


@register("min", "min_axis")
class Min(Reduce):
    """Minimum over axes (the gradient goes to every position equal to the minimum)."""

    reduce = staticmethod(np.min)

    def local_gradient(self, grad, data, out):
        """MXNet sends the full head gradient to EVERY tied minimum, not only the first."""
        return grad * (data == out)
