"""Dense layers: FullyConnected, Dropout and Embedding. Each class is one operator:
parameters, names, shape rule, backward needs, forward, backward."""
import numpy as np

from ..base import MXNetError, MXNetValueError
from ..random import generator
from .assign import assign
from .common import at_least, in_range
from .params import Param, boolean, dtype_str, optional, shape_tuple
from .registry import Operator, register
from .rules import fmt, known, prod

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
                "Give them all (only the batch size may be 0, unknown).")
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
                    f"(Unexpected shape for bias). Give the bias the shape ({self.num_hidden},).")
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


@register("Dropout")
class Dropout(Operator):
    """Training: keep each value with probability 1-p and scale by 1/(1-p). Testing: identity."""

    params = {
        "p": Param(float, 0.5, check=in_range(0, 1)),
        "mode": Param(str, "training", choices=("always", "training")),
        "axes": Param(shape_tuple, ()),
        "cudnn_off": Param(optional(boolean), False),
    }
    backward_needs = ("out_grad", "out_data")

    def list_outputs(self):
        return ["output", "mask"]

    def num_visible_outputs(self):
        return 1

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output like data, and the mask (1 along ``axes``)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        # size 1 along ``axes``: one draw is shared along them (variational dropout)
        mask = tuple(1 if i in self.axes else d for i, d in enumerate(data))
        return [data], [data, mask], []

    def is_train_note(self, is_train, phase):
        """Whether this forward drops values: only in training, unless mode='always' or p=0."""
        if phase != "forward":
            return ""
        if self.p == 0:
            return "p=0: Dropout passes data through unchanged, whatever is_train is"
        drops = (f"Dropout zeroes each value with probability p={self.p:g} and multiplies the "
                 "others by 1/(1-p)" + (f" = {1 / (1 - self.p):.4g}" if self.p < 1 else "")
                 + "; the mask output holds those factors")
        if self.mode == "always":
            return f"mode='always': {drops}, whatever is_train is"
        if is_train:
            return f"is_train=True: {drops}"
        return ("is_train=False: Dropout passes data through unchanged (the mask is all ones); "
                "forward(is_train=True) drops values")

    def forward(self, is_train, req, in_data, out_data, aux):
        """output = data * mask; mask (1 along ``axes``) holds 0 or 1/(1-p). Identity when off."""
        (data,) = in_data
        mask_shape = out_data[1].shape
        if self.p > 0 and (is_train or self.mode == "always"):
            keep = generator().random(mask_shape) < 1 - self.p
            with np.errstate(divide="ignore", invalid="ignore"):  # p=1 gives NaN, like MXNet
                mask = keep.astype(data.dtype) / data.dtype.type(1 - self.p)
        else:
            mask = np.ones(mask_shape, data.dtype)
        assign(out_data[1], req[1], mask)
        assign(out_data[0], req[0], data * mask)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * mask (the mask broadcast along ``axes``)."""
        _, mask = out_data
        assign(in_grad[0], req[0], out_grad[0] * mask)


@register("Embedding")
class Embedding(Operator):
    """Row lookup: data (any shape, integer ids) -> data.shape + (output_dim,)."""

    params = {
        "input_dim": Param(int, check=at_least(1)),
        "output_dim": Param(int, check=at_least(1)),
        "dtype": Param(dtype_str, "float32"),
        "sparse_grad": Param(boolean, False),
    }
    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("data",)

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> weight (input_dim, output_dim), output data.shape + (output_dim,)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        return [data, (self.input_dim, self.output_dim)], [data + (self.output_dim,)], []

    def infer_type(self, in_type, out_type):
        """weight and output take ``dtype``; the ids keep their own (``dtype`` if unknown)."""
        dtype = np.dtype(self.dtype)
        data = in_type[0] if in_type[0] is not None else dtype
        return [data, dtype], [dtype], []

    def _rows(self, data):
        """The weight row of every id: truncated to an integer, clipped to [0, input_dim)."""
        return np.clip(data.astype(np.int64), 0, self.input_dim - 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) of ids, weight (input_dim, output_dim) -> data.shape + (output_dim,)."""
        data, weight = in_data
        assign(out_data[0], req[0], weight[self._rows(data)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dweight[i] = sum of dy over the positions whose id is i; ids have no gradient."""
        data, weight = in_data
        if req[0] != "null":
            raise MXNetError(f"{self.where}: Embedding layer doesn't support calculate data "
                             f"gradient: the ids have none. Bind with grad_req 'null' for the "
                             f"data input (e.g. grad_req={{'{self.node_name}_weight': 'write'}}"
                             " or Module's default inputs_need_grad=False).")
        if req[1] != "null":
            dweight = np.zeros_like(weight)
            np.add.at(dweight, self._rows(data), out_grad[0])
            assign(in_grad[1], req[1], dweight)
