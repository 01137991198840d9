"""LeakyReLU (leaky, prelu, elu, selu, gelu, rrelu). Mirrors MXNet 1.9.1's
src/operator/leaky_relu.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from ..kernels import reference as ref
from ..random import generator
from .operator_base import Operator, register
from .params import Param
from .rules import fmt, known

__all__ = []


def gamma_layout(gamma, data):
    """The shape ``gamma`` takes to broadcast against ``data`` in prelu, or None when it cannot.

    As MXNet's ``expand_shape``: gamma's axes are matched from its last one backwards onto data's
    axis 1 then axis 0 (only those two), each equal to data's size there or 1. So (1,) is one
    slope, (C,) one per channel, (N, C) one per sample and channel (element-wise for 2-D data),
    (N,) one per sample when N != C; (C, H, W) does not line up.
    """
    layout, g = [1] * len(data), len(gamma) - 1
    for axis in range(min(len(data), 2) - 1, -1, -1):
        if g >= 0 and gamma[g] in (data[axis], 1):
            layout[axis] = gamma[g]
            g -= 1
    return tuple(layout) if g == -1 else None


class GammaShapeError(MXNetValueError):
    """A prelu gamma that does not line up with data; inference calls ``name_inputs`` so that
    the message names the gamma variable."""

    def __init__(self, op, gamma, data):
        self.op, self.gamma, self.data = op, gamma, data
        super().__init__(self._text(f"{op.node_name}_gamma"))

    def name_inputs(self, node):
        source = node.inputs[1][0]
        self.args = (self._text(source.name if source.is_variable else f"{source.name} output"),)

    def _text(self, gamma_name):
        n, c = self.data[0], self.data[1]
        shapes = ["(1,) for one slope", f"({c},) for one per channel"]
        if n != c:
            shapes.append(f"({n},) for one per sample")
        shapes.append(f"({n}, {c}) for one per sample and channel")
        whole = (
            " An element-wise gamma (data's own shape) works only for 2-D data (N, C)."
            if self.gamma == self.data
            else ""
        )
        return (
            f"{self.op.where}: gamma '{gamma_name}' has shape {fmt(self.gamma)}, which does "
            f"not line up with data {fmt(self.data)}: prelu broadcasts gamma over data's "
            f"axes 0 and 1 only (its last axis on axis 1). Give it "
            + ", ".join(shapes)
            + f" (MXNet 1.9.1 accepts this shape here and fails when it runs).{whole}"
        )


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
    call_inputs = ("data", "gamma")  # mx.sym.LeakyReLU(data, gamma, act_type, ...)

    def list_arguments(self):
        return ["data", "gamma"] if self.act_type == "prelu" else ["data"]

    def list_outputs(self):
        return ["output", "mask"] if self.act_type == "rrelu" else ["output"]

    def input_var_attrs(self, index):
        """prelu's implicit gamma starts at 0.25 (MXNet's init for it)."""
        return {"__init__": '["Constant", {"value": 0.25}]'} if index == 1 else {}

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output (and rrelu's mask) like data; prelu's gamma is (C,) unless
        given, and a given gamma must line up with data's axes 0 and 1 (see gamma_layout)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        outs = [data] * len(self.list_outputs())
        if self.act_type != "prelu":
            return [data], outs, []
        gamma = in_shape[1]
        if len(data) < 2 and gamma is None:  # MXNet fails here too (no axis 1 to read C from)
            raise MXNetValueError(
                f"{self.where}: prelu learns one slope per channel, the size of data's axis 1, "
                f"but data {fmt(data)} has no axis 1; give {self.node_name}_gamma the shape (1,) "
                "for one slope shared by every value"
            )
        if gamma is None:
            gamma = (data[1],)
        elif known(data) and known(gamma) and gamma_layout(gamma, data) is None:
            raise GammaShapeError(self, gamma, data)  # MXNet accepts it here, fails at forward
        return [data, gamma], outs, []

    def _slope(self, gamma, data):
        """prelu's gamma shaped to broadcast against ``data`` (MXNet's layout)."""
        return gamma.reshape(gamma_layout(gamma.shape, data.shape))

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, ...) -> same shape; rrelu also outputs its per-element slopes (mask)."""
        data = in_data[0]
        if self.act_type == "prelu":
            _, gamma = in_data
            slope = self._slope(gamma, data)
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
        """dx = dy * act'(x); prelu's dgamma sums dy * min(x, 0) over the axes gamma is spread
        along (all but the channel axis for a (C,) gamma, none for an element-wise one)."""
        data, output, dy = in_data[0], out_data[0], out_grad[0]
        if self.act_type == "prelu":
            _, gamma = in_data
            slope = self._slope(gamma, data)
            assign(in_grad[0], req[0], dy * np.where(data > 0, 1, slope))
            spread = tuple(i for i, (g, d) in enumerate(zip(slope.shape, data.shape)) if g != d)
            dgamma = np.sum(dy * np.where(data > 0, 0, data), axis=spread, keepdims=True)
            assign(in_grad[1], req[1], dgamma.reshape(gamma.shape))
        elif self.act_type == "rrelu":
            _, mask = out_data
            assign(in_grad[0], req[0], dy * np.where(output > 0, 1, mask))
        else:
            grad = ref.activation_grad(self.act_type, data, output, self.slope)
            assign(in_grad[0], req[0], dy * grad)
