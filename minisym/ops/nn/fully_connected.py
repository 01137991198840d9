"""FullyConnected. Mirrors MXNet 1.9.1's src/operator/nn/fully_connected.cc."""

from ...assign import assign
from ...base import MXNetValueError
from ..common import at_least
from ..operator_base import Operator, register
from ..params import Param, boolean
from ..rules import fmt, known, prod

__all__ = []


@register("FullyConnected")
class FullyConnected(Operator):
    """out = data · weightᵀ + bias. data (N, K...) -> (N, num_hidden); weight (num_hidden, K)."""

    params = {
        "num_hidden": Param(int, check=at_least(1), doc="number of output units"),
        "no_bias": Param(boolean, False, doc="leave out the bias"),
        "flatten": Param(boolean, True, doc="flatten data to (N, K); else act on the last axis"),
    }
    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["data", "weight"] if self.no_bias else ["data", "weight", "bias"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, K...) -> weight (num_hidden, prod(K...)), bias (num_hidden,), output
        (N, num_hidden); without flatten, K is the last axis and the others are kept.

        As in MXNet: nothing is inferred before data's shape is known (not even the bias), a
        batch size N left unknown (0) comes back from a known output, and without flatten an
        unknown K leaves the weight's second dimension unknown.
        """
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        if self.flatten and not known(data[1:]):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has an unknown feature dimension; the weight "
                "(num_hidden, prod(data.shape[1:])) needs every dimension after the batch axis. "
                "Give them all (only the batch size may be 0, unknown)."
            )
        features = prod(data[1:]) if self.flatten else data[-1]
        weight = (self.num_hidden, features)
        out = (data[0], self.num_hidden) if self.flatten else data[:-1] + (self.num_hidden,)
        given = out_shape[0]
        if given is not None and not data[0]:  # the batch size, back from the output
            data = (given[0],) + data[1:]
        ins = [data, weight]
        if not self.no_bias:  # MXNet also accepts a bias given as a column (num_hidden, 1)
            column = (self.num_hidden, 1)
            ins.append(column if in_shape[2] == column else (self.num_hidden,))
        return ins, [out], []

    def _rows(self, data):
        """data as a matrix (rows, K): (N, prod(rest)) when flatten, else (prod(lead), last)."""
        return data.reshape(data.shape[0], -1) if self.flatten else data.reshape(-1, data.shape[-1])

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, K...) or (..., K), weight (H, K), bias (H,) -> (N, H) or (..., H)."""
        data, weight, *rest = in_data
        bias = rest[0] if rest else None
        out = self._rows(data) @ weight.T
        if bias is not None:
            if bias.ndim != 1:  # inference accepts a column, MXNet 1.9.1's CPU forward does not
                raise MXNetValueError(
                    f"{self.where}: the bias has shape {fmt(bias.shape)}; shape inference "
                    f"accepts a column ({self.num_hidden}, 1), but MXNet 1.9.1 cannot run it "
                    f"(Unexpected shape for bias). Give the bias the shape ({self.num_hidden},)."
                )
            out = out + bias
        assign(out_data[0], req[0], out.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy . W, dW = dyᵀ . x, db = sum of dy over every row."""
        data, weight, *_ = in_data
        dy = out_grad[0].reshape(-1, self.num_hidden)
        if req[0] != "null":
            assign(in_grad[0], req[0], (dy @ weight).reshape(data.shape))
        if req[1] != "null":
            assign(in_grad[1], req[1], dy.T @ self._rows(data))
        if not self.no_bias:
            assign(in_grad[2], req[2], dy.sum(axis=0))
