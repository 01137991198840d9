"""LinearRegressionOutput, LogisticRegressionOutput and MAERegressionOutput: loss heads whose
backward ignores the head gradient. Mirrors MXNet 1.9.1's src/operator/regression_output.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from ..kernels import reference as ref
from .loss_common import f32_scale
from .operator_base import Operator, register
from .params import Param
from .rules import fmt, known, prod

__all__ = []


class _Regression(Operator):
    """Forward: identity (Logistic: sigmoid). Backward: grad_scale/num_output * f(out - label)."""

    params = {"grad_scale": Param(float, 1.0)}
    backward_needs = ("in_data", "out_data")

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, ...) -> output like data; label like data ((N,) for data (N, 1))."""
        data, label = in_shape
        if data is None or not known(data):  # as MXNet: nothing until data is wholly known
            return [data, label], [None], []
        if label is None:
            label = (data[0],) if len(data) == 2 and data[1] == 1 else data
        elif not known(label):
            raise MXNetValueError(
                f"Error in operator {self.node_name}: Shape inconsistent, Provided={fmt(label)}, "
                f"inferred shape={fmt(data)}. {self.where}: input 1 'label' {fmt(label)} has "
                f"unknown dimensions (0) while data {fmt(data)} is known; give the label's whole "
                "shape, or leave it out and let inference fill it in"
            )
        elif label[0] != data[0] or prod(label) != prod(data):
            raise MXNetValueError(
                f"Error in operator {self.node_name}: Shape inconsistent, Provided={fmt(label)}, "
                f"inferred shape={fmt(data)}. {self.where}: input 1 'label' must have as many "
                f"values per sample as data {fmt(data)}"
            )
        return [data, label], [data], []

    def link(self, data):
        """The forward map: identity (LogisticRegressionOutput overrides with the sigmoid)."""
        return data

    def loss_grad(self, diff):
        """d loss / d out as a function of out - label (squared error: the difference)."""
        return diff

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, ...) -> out (same shape), train and test alike."""
        data, label = in_data
        assign(out_data[0], req[0], self.link(data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = f(out - label) * grad_scale / num_output; the label gets a zero gradient."""
        data, label = in_data
        out = out_data[0]
        num_output = label.size // label.shape[0]
        diff = out - label.reshape(out.shape)  # label may be (N,) for data (N, 1)
        assign(in_grad[0], req[0], self.loss_grad(diff) * f32_scale(self.grad_scale, num_output))
        assign(in_grad[1], req[1], 0)


@register("LinearRegressionOutput")
class LinearRegressionOutput(_Regression):
    """Squared-error head: grad = out - label."""

    head_loss, head_loss_reads_label = "squared", True


@register("LogisticRegressionOutput")
class LogisticRegressionOutput(_Regression):
    """Sigmoid head: out = sigmoid(x), grad = out - label."""

    head_loss, head_loss_reads_label = "logistic", True

    def link(self, data):
        """sigmoid(data)."""
        return ref.expit(data)


@register("MAERegressionOutput")
class MAERegressionOutput(_Regression):
    """Absolute-error head: grad = sign(out - label), with sign(0) = -1."""

    head_loss, head_loss_reads_label = "absolute", True

    def loss_grad(self, diff):
        """sign(out - label) as +1 / -1."""
        # QUIRK (MXNet minus_sign): a difference of exactly 0 gives -1, not 0.
        return np.where(diff > 0, 1, -1).astype(diff.dtype)
