"""Activation (relu, sigmoid, tanh, softrelu, softsign) and LeakyReLU (leaky, prelu, elu,
selu, gelu, rrelu)."""
import numpy as np

from ..random import generator
from . import nn_reference as ref
from .assign import assign
from .common import all_but, per_channel
from .params import Param
from .registry import Operator, register
from .rules import same_shape

__all__ = []


_ACT_TYPES = ("relu", "sigmoid", "softrelu", "softsign", "tanh")


@register("Activation")
class Activation(Operator):
    """Elementwise relu / sigmoid / tanh / softrelu (log(1+e^x)) / softsign (x/(1+|x|))."""

    params = {"act_type": Param(str, choices=_ACT_TYPES)}

    @property
    def backward_needs(self):
        """relu, sigmoid and tanh differentiate from their output; the others need the input."""
        if self.act_type in ("relu", "sigmoid", "tanh"):
            return ("out_grad", "out_data")
        return ("out_grad", "in_data")

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output of the same shape."""
        return same_shape(self, in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> act(data), same shape."""
        (data,) = in_data
        if self.act_type == "relu" and req[0] == "write":  # the hot case: one pass, no copy
            np.maximum(data, 0, out=out_data[0])
            return
        assign(out_data[0], req[0], ref.activation(self.act_type, data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * act'(x), from the output for relu/sigmoid/tanh, else from the input."""
        (data,) = in_data
        if self.act_type == "relu" and req[0] == "write":
            np.multiply(out_grad[0], out_data[0] > 0, out=in_grad[0])
            return
        grad = ref.activation_grad(self.act_type, data, out_data[0])
        assign(in_grad[0], req[0], out_grad[0] * grad)


@register("LeakyReLU")
class LeakyReLU(Operator):
    """leaky: x>0 ? x : slope*x; prelu learns gamma per channel; elu, selu, gelu, rrelu."""

    params = {
        "act_type": Param(str, "leaky", choices=("elu", "gelu", "leaky", "prelu", "rrelu", "selu")),
        "slope": Param(float, 0.25),
        "lower_bound": Param(float, 0.125),
        "upper_bound": Param(float, 0.334),
    }
    backward_needs = ("out_grad", "in_data", "out_data")

    def list_arguments(self):
        return ["data", "gamma"] if self.act_type == "prelu" else ["data"]

    def list_outputs(self):
        return ["output", "mask"] if self.act_type == "rrelu" else ["output"]

    def input_var_attrs(self, index):
        """prelu's implicit gamma starts at 0.25 (MXNet's init for it)."""
        return {"__init__": '["Constant", {"value": 0.25}]'} if index == 1 else {}

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output (and rrelu's mask) like data; prelu's gamma (C,) or (1,)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        outs = [data] * len(self.list_outputs())
        if self.act_type != "prelu":
            return [data], outs, []
        channels = (data[1],) if len(data) > 1 else (1,)
        gamma = in_shape[1]
        if gamma not in ((1,), channels):  # (1,) broadcasts one slope to every channel
            gamma = channels
        return [data, gamma], outs, []

    def _slope(self, gamma, ndim):
        """prelu's gamma shaped to broadcast: (C,) along axis 1, (1,) everywhere."""
        return gamma if gamma.size == 1 or ndim < 2 else per_channel(gamma, ndim, 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, ...) -> same shape; rrelu also outputs its per-element slopes (mask)."""
        data = in_data[0]
        if self.act_type == "prelu":
            _, gamma = in_data
            slope = self._slope(gamma, data.ndim)
            assign(out_data[0], req[0], np.where(data > 0, data, slope * data))
        elif self.act_type == "rrelu":
            if is_train:
                uniform = generator().random(data.shape)
                slope = self.lower_bound + (self.upper_bound - self.lower_bound) * uniform
            else:
                slope = np.full(data.shape, (self.lower_bound + self.upper_bound) / 2)
            slope = slope.astype(data.dtype)
            # The mask is written in test mode too, so that backward can always read it.
            assign(out_data[1], req[1], slope)
            assign(out_data[0], req[0], np.where(data > 0, data, slope * data))
        else:
            assign(out_data[0], req[0], ref.activation(self.act_type, data, self.slope))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * act'(x); prelu's dgamma sums dy * min(x, 0) over all but the channel axis."""
        data, output, dy = in_data[0], out_data[0], out_grad[0]
        if self.act_type == "prelu":
            _, gamma = in_data
            slope = self._slope(gamma, data.ndim)
            assign(in_grad[0], req[0], dy * np.where(data > 0, 1, slope))
            dgamma = dy * np.where(data > 0, 0, data)
            dgamma = dgamma.sum() if gamma.size == 1 else dgamma.sum(axis=all_but(data.ndim, 1))
            assign(in_grad[1], req[1], np.reshape(dgamma, gamma.shape))
        elif self.act_type == "rrelu":
            _, mask = out_data
            assign(in_grad[0], req[0], dy * np.where(output > 0, 1, mask))
        else:
            grad = ref.activation_grad(self.act_type, data, output, self.slope)
            assign(in_grad[0], req[0], dy * grad)
