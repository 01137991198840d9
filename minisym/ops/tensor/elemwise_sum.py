"""add_n (ElementWiseSum). Mirrors MXNet 1.9.1's src/operator/tensor/elemwise_sum.cc."""

from ...assign import assign
from ..operator_base import Operator, register
from ..params import Param
from ..rules import same_shape

__all__ = []


@register("add_n", "ElementWiseSum")
class AddN(Operator):
    """arg0 + arg1 + ... elementwise (equal shapes); each input gets the head gradient."""

    params = {
        "num_args": Param(
            int, check=lambda v: None if v >= 1 else "add_n needs at least 1 input (num_args >= 1)"
        )
    }
    key_var_num_args = "num_args"
    backward_needs = ("out_grad",)

    def list_arguments(self):
        return [f"arg{i}" for i in range(self.num_args)]

    def infer_shape(self, in_shape, out_shape):
        """arg0, arg1, ... and the output share one shape (each may fill the others' sizes)."""
        return same_shape(
            self,
            in_shape,
            out_shape,
            fix="To add two arrays whose shapes broadcast, use mx.sym.broadcast_add(a, b).",
        )

    def forward(self, is_train, req, in_data, out_data, aux):
        """arg0, arg1, ... (one shape) -> their sum, same shape."""
        total = in_data[0].copy()
        for x in in_data[1:]:
            total += x
        assign(out_data[0], req[0], total)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/darg_i = dL/dout for every input."""
        for i in range(len(in_grad)):
            assign(in_grad[i], req[i], out_grad[0])
