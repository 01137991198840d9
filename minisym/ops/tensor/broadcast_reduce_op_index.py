"""argmax / argmin and pick. Mirrors MXNet 1.9.1's src/operator/tensor/broadcast_reduce_op_index.cc.

argmax / argmin give indices in the data's dtype (MXNet has no integer result here:
indices of a float32 array are float32). pick reads its indices as take does: truncated
toward zero, then clipped or wrapped as ``mode`` says.
"""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..common import axis_in, index_dtype_known, wrap_or_clip
from ..operator_base import Operator, register
from ..params import Param, boolean, optional
from ..rules import merge_value

__all__ = []


def _reduce_axis_shape(shape, axis, keepdims):
    """MXNet's ReduceAxisShapeImpl: ``shape`` without ``axis`` ((1,) for 1-D data)."""
    if len(shape) == 1:
        return (1,)
    if keepdims:
        return shape[:axis] + (1,) + shape[axis + 1 :]
    return shape[:axis] + shape[axis + 1 :]


@register("pick")
class Pick(Operator):
    """out[i, ..] = data[i, .., index[i, ..], ..]: one element along ``axis`` per position."""

    params = {
        "axis": Param(optional(int), -1),
        "keepdims": Param(boolean, False),
        "mode": Param(str, "clip", choices=("clip", "wrap")),
    }
    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("index",)

    def validate(self):
        """pick needs an axis (MXNet: 'axis=None is not supported by pick yet')."""
        if self.axis is None:
            raise MXNetValueError(
                f"{self.where}: axis=None is not supported by pick; give the "
                "axis to pick along, e.g. axis=-1 (the default) or axis=1"
            )

    def list_arguments(self):
        return ["data", "index"]

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> index and output without that axis (keepdims: a 1
        there); an index with data's number of dimensions must have the 1 (as in MXNet)."""
        data, index = in_shape
        if data is None:
            return [data, index], [None], []
        axis = axis_in(self, self.axis, len(data))
        keep = index is not None and len(index) == len(data)
        return (
            [data, _reduce_axis_shape(data, axis, keep)],
            [_reduce_axis_shape(data, axis, self.keepdims)],
            [],
        )

    def infer_type(self, in_type, out_type):
        """The output has data's dtype; the index keeps its own, which must be known."""
        index_dtype_known(self, in_type, 1)
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, in_type[1]], [dtype], []

    def _positions(self, data, index):
        """(axis, the index as an int array shaped like data with a 1 at axis)."""
        axis = self.axis % data.ndim
        kept = data.shape[:axis] + (1,) + data.shape[axis + 1 :]
        return axis, wrap_or_clip(index, data.shape[axis], self.mode).reshape(kept)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data, index -> data's element at index along axis, for every other position."""
        data, index = in_data
        axis, idx = self._positions(data, index)
        picked = np.take_along_axis(data, idx, axis=axis)
        assign(out_data[0], req[0], picked.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient goes to the picked element; the index gets a zero gradient."""
        data, index = in_data
        if req[0] != "null":
            axis, idx = self._positions(data, index)
            grad = np.zeros(data.shape, out_grad[0].dtype)
            np.put_along_axis(grad, idx, out_grad[0].reshape(idx.shape), axis=axis)
            assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)


class _ArgReduce(Operator):
    """The index along ``axis`` (of the flattened data when None); the first one on ties."""

    params = {"axis": Param(optional(int), None), "keepdims": Param(boolean, False)}
    backward_needs = ()  # the gradient is zero: nothing is read, not even a head gradient
    search = None  # np.argmax or np.argmin

    def infer_shape(self, in_shape, out_shape):
        """data (d0, ..., dn) -> data without ``axis`` ((1,) for axis=None or 1-D data);
        keepdims keeps a 1 there."""
        data = in_shape[0]
        if data is None:
            return [None], [out_shape[0]], []
        if self.axis is None:
            return [data], [(1,) * len(data) if self.keepdims else (1,)], []
        axis = axis_in(self, self.axis, len(data))
        return [data], [_reduce_axis_shape(data, axis, self.keepdims)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> indices (as data's dtype), shaped by infer_shape."""
        (data,) = in_data
        if self.axis is None:
            index = self.search(data.reshape(-1))
        else:
            index = self.search(data, axis=axis_in(self, self.axis, data.ndim))
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
