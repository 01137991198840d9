"""LRN (local response normalization across channels). Mirrors MXNet 1.9.1's
src/operator/nn/lrn.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..common import at_least
from ..operator_base import Operator, register
from ..params import Param
from ..rules import fmt, known

__all__ = ["LRN"]


@register("LRN")
class LRN(Operator):
    """Local response normalization across channels:
    out = data / (knorm + alpha / nsize * (sum of data^2 over nsize neighbouring channels))^beta.
    The denominator's base is kept as the hidden output ``tmp_norm`` for backward."""

    params = {
        "alpha": Param(float, 1e-4),
        "beta": Param(float, 0.75),
        "knorm": Param(float, 2.0),
        "nsize": Param(int, check=at_least(1)),
    }

    def list_outputs(self):
        return ["output", "tmp_norm"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The head gradient, data and tmp_norm (MXNet's _backward_LRN inputs)."""
        return [out_grad[0], in_data[0], out_data[1]]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output and tmp_norm like data; nothing while data has an
        unknown size (as in MXNet)."""
        data = in_shape[0]
        if data is not None and len(data) < 2:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} needs a channel axis: (batch, channel, ...)"
            )
        if not known(data):
            return [data], [None, None], []
        return [data], [data, data], []

    def _window_sum(self, values):
        """values (N, C, ...) summed over the channels c - h .. c + h, h = (nsize - 1) // 2,
        clipped to [0, C). (So an even nsize sums nsize - 1 channels but still divides alpha by
        nsize, as MXNet 1.9.1's CPU kernel does.)"""
        half = (self.nsize - 1) // 2
        c = values.shape[1]
        cum = np.concatenate([np.zeros_like(values[:, :1]), np.cumsum(values, axis=1)], axis=1)
        hi = np.minimum(np.arange(c) + half + 1, c)  # cum[:, j] = sum of channels below j
        lo = np.maximum(np.arange(c) - half, 0)
        return cum[:, hi] - cum[:, lo]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> data * tmp_norm^-beta, tmp_norm = knorm + alpha/nsize * window sum of data^2."""
        (data,) = in_data
        norm = self.knorm + (self.alpha / self.nsize) * self._window_sum(data * data)
        assign(out_data[0], req[0], data * norm**-self.beta)
        assign(out_data[1], req[1], norm)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * n^-beta - 2 beta alpha/nsize * x * window sum of (dy * x * n^(-beta-1))."""
        (data,), dy, norm = in_data, out_grad[0], out_data[1]
        scale = -2.0 * self.beta * self.alpha / self.nsize
        grad = dy * norm**-self.beta + scale * data * self._window_sum(
            dy * data * norm ** (-self.beta - 1)
        )
        assign(in_grad[0], req[0], grad)
