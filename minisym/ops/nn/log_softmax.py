"""log_softmax. Mirrors MXNet 1.9.1's src/operator/nn/log_softmax.cc."""

import numpy as np

from ...assign import assign
from ..operator_base import register
from .softmax import SoftmaxFamily

__all__ = []


def _log_softmax(x, axis):
    """log(softmax(x)) along ``axis``, computed as shifted - log(sum(exp(shifted)))."""
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


@register("log_softmax")
class log_softmax(SoftmaxFamily):
    """log(softmax(data / temperature)) along axis."""

    infers_data_from_output = True

    def _check_no_length(self):
        """use_length is not supported (MXNet 1.9.1 cannot bind log_softmax with it either)."""
        if self.use_length:
            raise NotImplementedError(
                f"{self.where}: use_length=True is not supported by log_softmax (MXNet 1.9.1 "
                f"fails to bind it too); mask with softmax(use_length=True) and take the log"
            )

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> log softmax along axis (same shape)."""
        self._check_no_length()
        (data,) = in_data
        assign(out_data[0], req[0], _log_softmax(self._scaled(data), self.axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = (dy - exp(y) * sum(dy)) / temperature."""
        self._check_no_length()
        dtype = in_grad[0].dtype  # the output may have another dtype (the dtype parameter)
        y, dy = out_data[0].astype(dtype), out_grad[0].astype(dtype)
        grad = dy - np.exp(y) * dy.sum(axis=self.axis, keepdims=True)
        assign(in_grad[0], req[0], self._unscale(grad))
