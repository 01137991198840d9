"""argmax / argmin: the index of the largest (smallest) value along an axis, in the data's
dtype (MXNet has no integer result here: indices of a float32 array are float32)."""
import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .params import Param, boolean, optional
from .registry import Operator, register

__all__ = []


class _ArgReduce(Operator):
    """The index along ``axis`` (of the flattened data when None); the first one on ties."""

    params = {"axis": Param(optional(int), None), "keepdims": Param(boolean, False)}
    backward_needs = ()  # the gradient is zero: nothing is read, not even a head gradient
    search = None        # np.argmax or np.argmin

    def _axis(self, ndim):
        if not -ndim <= self.axis < ndim:
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data with "
                                  f"{ndim} dimensions; use an axis in [{-ndim}, {ndim - 1}]")
        return self.axis % ndim

    def infer_shape(self, in_shape, out_shape):
        """data (d0, ..., dn) -> data without ``axis`` ((1,) for axis=None or 1-D data);
        keepdims keeps a 1 there."""
        data = in_shape[0]
        if data is None:
            return [None], [out_shape[0]], []
        if self.axis is None:
            return [data], [(1,) * len(data) if self.keepdims else (1,)], []
        axis = self._axis(len(data))
        if self.keepdims:
            return [data], [data[:axis] + (1,) + data[axis + 1:]], []
        return [data], [data[:axis] + data[axis + 1:] or (1,)], []  # MXNet has no 0-d arrays

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> indices (as data's dtype), shaped by infer_shape."""
        data, = in_data
        if self.axis is None:
            index = self.search(data.reshape(-1))
        else:
            index = self.search(data, axis=self._axis(data.ndim))
        assign(out_data[0], req[0], np.reshape(index, out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """A zero gradient (an index does not change when the data moves a little)."""
        assign(in_grad[0], req[0], 0)


@register("argmax")
class Argmax(_ArgReduce):
    """The index of the largest value along axis (the first one on ties)."""

    search = staticmethod(np.argmax)


@register("argmin")
class Argmin(_ArgReduce):
    """The index of the smallest value along axis (the first one on ties)."""

    search = staticmethod(np.argmin)
