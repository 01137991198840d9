"""Activation (relu, sigmoid, tanh, softrelu, softsign). Mirrors MXNet 1.9.1's
src/operator/nn/activation.cc."""

from ...assign import assign
from ...kernels import elementwise as kelem
from ...kernels import fast_kernels_enabled
from ...kernels import reference as ref
from ..operator_base import Operator, register
from ..params import Param
from ..rules import same_shape

__all__ = []


_ACT_TYPES = ("relu", "sigmoid", "softrelu", "softsign", "tanh")


@register("Activation")
class Activation(Operator):
    """Elementwise relu / sigmoid / tanh / softrelu (log(1+e^x)) / softsign (x/(1+|x|))."""

    params = {"act_type": Param(str, choices=_ACT_TYPES)}

    @property
    def is_plain_relu(self):
        """act_type='relu': what a BatchNorm before it may fuse."""
        return self.act_type == "relu"

    @property
    def backward_needs(self):
        """relu, sigmoid and tanh differentiate from their output; the others need the input."""
        if self.act_type in ("relu", "sigmoid", "tanh"):
            return ("out_grad", "out_data")
        return ("out_grad", "in_data")

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output of the same shape."""
        return same_shape(self, in_shape, out_shape)

    def _fast_relu(self, req):
        """Whether relu's numba loop may write the result (else the reference and assign)."""
        return self.act_type == "relu" and req[0] == "write" and fast_kernels_enabled()

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> act(data), same shape."""
        (data,) = in_data
        if self._fast_relu(req) and kelem.relu(data, out_data[0]):  # one pass, no copy
            return
        assign(out_data[0], req[0], ref.activation(self.act_type, data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * act'(x), from the output for relu/sigmoid/tanh, else from the input."""
        (data,) = in_data
        if self._fast_relu(req) and kelem.relu_grad(out_grad[0], out_data[0], in_grad[0]):
            return
        grad = ref.activation_grad(self.act_type, data, out_data[0])
        assign(in_grad[0], req[0], out_grad[0] * grad)
