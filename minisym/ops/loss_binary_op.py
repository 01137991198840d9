"""softmax_cross_entropy. Mirrors MXNet 1.9.1's src/operator/loss_binary_op.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetError, MXNetValueError
from .loss_common import class_index, softmax_along
from .operator_base import Operator, register
from .rules import fmt

__all__ = []


def _row_labels(op, label, classes):
    """The class index of each row (a float label truncated toward zero), refused when outside
    0..classes-1: MXNet 1.9.1 reads past the row there and returns a neighbour's value."""
    index = class_index(label)
    bad = (index < 0) | (index >= classes)
    if bad.any():
        row = int(np.argmax(bad))
        raise MXNetValueError(
            f"{op.where}: label[{row}] = {label[row]:g} is not a class index: data has "
            f"{classes} classes, so each label must be 0..{classes - 1}. (MXNet 1.9.1 reads "
            "outside the row there and returns a wrong loss.) Check the labels you feed."
        )
    return index


@register("softmax_cross_entropy")
class SoftmaxCrossEntropy(Operator):
    """sum over rows of -log(softmax(data)[row, label[row]]): one number, shape (1,)."""

    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("label",)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C), label (N,) -> (1,): the loss summed over the batch. Both shapes must
        be given, as in MXNet (the label's is not inferred)."""
        data, label = in_shape
        if data is None or len(data) != 2:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy only accept 2D data: data is "
                f"{fmt(data)}, but it must be (batch, classes); flatten it first "
                "(mx.sym.flatten) or give its shape"
            )
        if label is None or len(label) != 1:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy only accept 1D label: label is "
                f"{fmt(label)}, but it must be ({data[0] or 'batch'},), one class index per "
                "row of data; give its shape (MXNet does not infer it)"
            )
        if data[0] and label[0] and data[0] != label[0]:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy: data label shape mismatch: data "
                f"{fmt(data)} has {data[0]} rows but label {fmt(label)} has {label[0]} "
                "entries; give one label per row"
            )
        return [data, label], [(1,)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C), label (N,) -> (1,): -sum of log(max(p, 1e-8)) of each row's class."""
        data, label = in_data
        prob = softmax_along(data, axis=1)
        index = _row_labels(self, label, data.shape[1])
        picked = prob[np.arange(data.shape[0]), index]
        loss = -np.log(np.maximum(picked, data.dtype.type(1e-8))).sum()
        assign(out_data[0], req[0], np.reshape(loss, (1,)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = dL/dout * (softmax(data) - onehot(label)); the label has no gradient."""
        data, label = in_data
        if req[1] != "null":
            raise MXNetError(
                f"{self.where}: SoftmaxCrossEntropy: Cannot take gradient wrt label: a class "
                "index has none. Give the label variable grad_req 'null': a dict such as "
                "grad_req={'softmax_label': 'null', ...} (with your label's name) in bind / "
                "simple_bind, or train with mx.mod.Module, which never asks for label "
                "gradients."
            )
        grad = softmax_along(data, axis=1)
        grad[np.arange(data.shape[0]), _row_labels(self, label, data.shape[1])] -= 1
        assign(in_grad[0], req[0], out_grad[0] * grad)
