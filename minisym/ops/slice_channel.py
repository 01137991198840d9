"""SliceChannel (split). Mirrors MXNet 1.9.1's src/operator/slice_channel.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from .operator_base import Operator, register
from .params import Param, boolean
from .rules import fmt, try_merge

__all__ = []


@register("SliceChannel", "split")
class SliceChannel(Operator):
    """Split ``axis`` into ``num_outputs`` equal parts (``squeeze_axis`` drops a size-1 axis)."""

    params = {
        "num_outputs": Param(int, check=lambda v: None if v >= 1 else "must be >= 1"),
        "axis": Param(int, 1),
        "squeeze_axis": Param(boolean, False),
    }
    backward_needs = ("out_grad",)

    def list_outputs(self):
        return [f"output{i}" for i in range(self.num_outputs)]

    def infer_shape(self, in_shape, out_shape):
        """data (.., n*k at axis, ..) -> n = num_outputs parts (.., k, ..); squeeze_axis drops
        the axis (k must be 1). Data's other sizes also come back from the outputs (MXNet)."""
        data = in_shape[0]
        n = self.num_outputs
        if data is None:
            return [None], [None] * n, []
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data {fmt(data)}"
            )
        size = data[axis]
        if not size and n > 1:
            raise MXNetValueError(
                f"{self.where}: axis {self.axis} of data {fmt(data)} is "
                f"unknown (0), so it cannot be cut into num_outputs={n} "
                f"equal parts; give that size (a multiple of {n})"
            )
        if size % n:
            raise MXNetValueError(
                f"{self.where}: axis {self.axis} has size {size}, which "
                f"num_outputs={n} does not divide"
            )
        if self.squeeze_axis and size and size != n:
            raise MXNetValueError(
                f"{self.where}: squeeze_axis=True needs each part to have "
                f"size 1, but {size} / {n} = {size // n}"
            )
        part = data[:axis] + (size // n,) + data[axis + 1 :]
        if self.squeeze_axis:
            part = data[:axis] + data[axis + 1 :]
        for given in out_shape:
            output = try_merge(part, given)
            if output is not None:  # a disagreeing output is reported when it is merged
                data = try_merge(data, self._data_from_part(output, axis)) or data
        return [data], [part] * n, []

    def _data_from_part(self, part, axis):
        """The data shape one output part describes (its axis times num_outputs)."""
        if self.squeeze_axis:
            return part[:axis] + (self.num_outputs,) + part[axis:]
        return part[:axis] + (part[axis] * self.num_outputs,) + part[axis + 1 :]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., n*k, ...) -> num_outputs arrays (..., k, ...) (squeezed when k == 1)."""
        (data,) = in_data
        parts = np.split(data, self.num_outputs, axis=self.axis % data.ndim)
        for j, part in enumerate(parts):
            assign(out_data[j], req[j], part.reshape(out_data[j].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradients of every part joined back along axis."""
        (data,) = in_data
        axis = self.axis % data.ndim
        part = data.shape[:axis] + (data.shape[axis] // self.num_outputs,) + data.shape[axis + 1 :]
        grads = [g.reshape(part) for g in out_grad]
        assign(in_grad[0], req[0], np.concatenate(grads, axis=axis))
