"""softmax (with temperature, length masking and dtype), and what log_softmax and softmin
share with it. Mirrors MXNet 1.9.1's src/operator/nn/softmax.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..loss_common import softmax_along, softmax_backward
from ..operator_base import Operator, register
from ..params import Param, boolean, dtype_str, optional
from ..rules import fmt, same_shape

__all__ = ["SoftmaxFamily"]


def _masked_softmax(x, axis, length):
    """softmax over the first ``length`` entries along ``axis`` (length: x's shape without axis);
    the entries past the length, and whole rows of length 0, are 0."""
    position = np.arange(x.shape[axis]).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
    keep = position < np.expand_dims(length.astype(np.int64), axis)
    shifted = np.where(keep, x, -np.inf)
    top = shifted.max(axis=axis, keepdims=True)
    e = np.where(keep, np.exp(shifted - np.where(np.isfinite(top), top, 0)), 0).astype(x.dtype)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


class SoftmaxFamily(Operator):
    """softmax(data / temperature) along ``axis``; an ordinary op (needs a head gradient)."""

    params = {
        "axis": Param(int, -1),
        "temperature": Param(optional(float), None),
        "dtype": Param(optional(dtype_str), None),
        "use_length": Param(optional(boolean), False),
    }
    backward_needs = ("out_grad", "out_data")

    def list_arguments(self):
        return ["data", "length"] if self.use_length else ["data"]

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output like data; length: data's shape without ``axis``.

        As in MXNet, the output's shape reaches back to data only for log_softmax (softmax
        never infers its data from its output), and use_length needs data's shape first.
        """
        if self.use_length and in_shape[0] is None:
            raise MXNetValueError(
                f"{self.where}: with use_length=True the shape of 'length' comes from data's, "
                "so data's shape must be known first (MXNet does not infer it from the output "
                "either); give data's shape"
            )
        ins, outs, _ = same_shape(self, in_shape[:1], out_shape)
        data = ins[0]
        if data is not None and not -len(data) <= self.axis < len(data):  # MXNet does not check
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data {fmt(data)}"
            )
        if not self.infers_data_from_output:
            ins = [in_shape[0]]
        if self.use_length:
            given = in_shape[0]
            axis = self.axis % len(given)
            ins.append(given[:axis] + given[axis + 1 :] or (1,))
        return ins, outs, []

    def infer_type(self, in_type, out_type):
        """The output takes ``dtype`` when given (and an unknown data dtype becomes it too, as
        in MXNet's SoftmaxOpType), else the data's dtype."""
        if self.dtype:
            out = np.dtype(self.dtype)
            return [in_type[0] if in_type[0] is not None else out] + list(in_type[1:]), [out], []
        return list(in_type), [in_type[0]], []

    def _scaled(self, data):
        """data / temperature (data itself without a temperature)."""
        return data if self.temperature is None else data / self.temperature

    def _unscale(self, grad):
        """The chain rule through data / temperature."""
        return grad if self.temperature is None else grad / self.temperature


@register("softmax")
class softmax(SoftmaxFamily):
    """softmax(data / temperature) along axis; with use_length only the first length entries."""

    infers_data_from_output = False  # MXNet's SoftmaxOpShape never writes the data's shape back

    call_inputs = ("data", "length")  # mx.sym.softmax(data, length, axis, ...)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> softmax along axis (same shape); length: data without axis."""
        data = in_data[0]
        x = self._scaled(data)
        if self.use_length:
            _, length = in_data
            y = _masked_softmax(x, self.axis % data.ndim, length)
        else:
            y = softmax_along(x, self.axis)
        assign(out_data[0], req[0], y)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = y * (dy - sum(dy * y)) / temperature; the length gets 0."""
        dtype = in_grad[0].dtype  # the output may have another dtype (the dtype parameter)
        y, dy = out_data[0].astype(dtype), out_grad[0].astype(dtype)
        assign(in_grad[0], req[0], self._unscale(softmax_backward(y, dy, self.axis)))
        if self.use_length:
            assign(in_grad[1], req[1], 0)
