"""SoftmaxOutput (Softmax): a loss head whose backward ignores the head gradient and
makes its own. Mirrors MXNet 1.9.1's src/operator/softmax_output.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from .loss_common import class_index, f32_scale, softmax_along
from .operator_base import Operator, register
from .params import Param, boolean
from .rules import fmt, known, prod

__all__ = []


def _target_minus(prob, label, smooth_alpha):
    """prob (N, C, S) minus the (smoothed) one-hot of the labels (N, S); an out-of-range label
    (e.g. -1) has no one-hot entry."""
    classes = prob.shape[1]
    onehot = np.arange(classes)[None, :, None] == class_index(label)[:, None, :]
    if not smooth_alpha:
        return prob - onehot
    # Label smoothing: the true class gets 1 - alpha, every other class alpha / (C - 1).
    target = np.where(
        onehot, 1.0 - f32_scale(smooth_alpha), f32_scale(smooth_alpha, max(classes - 1, 1))
    )
    return prob - target.astype(prob.dtype)


def _count_valid(label, ignore_label):
    """How many labels differ from ignore_label (as ints), at least 1: the 'valid' divisor."""
    return max(1, int(np.count_nonzero(class_index(label) != int(ignore_label))))


@register("SoftmaxOutput", "Softmax")
class SoftmaxOutput(Operator):
    """Forward: softmax. Backward: grad_scale * (softmax - onehot(label)) / normalization."""

    params = {
        "grad_scale": Param(float, 1.0),
        "ignore_label": Param(float, -1.0),
        "multi_output": Param(boolean, False),
        "use_ignore": Param(boolean, False),
        "preserve_shape": Param(boolean, False),
        "normalization": Param(str, "null", choices=("batch", "null", "valid")),
        "out_grad": Param(boolean, False),
        "smooth_alpha": Param(float, 0.0),
    }
    backward_needs = ("in_data", "out_data")
    head_loss, head_loss_reads_label = "cross_entropy", True

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output like data; label data.shape[:-1], or with multi_output
        (N, prod(spatial)) / (N, *spatial), or data's own shape for probability labels."""
        data, label = in_shape
        if data is None:
            return [None, label], [out_shape[0]], []
        if label == data:  # a probability label: same shape as data
            return [data, label], [data], []
        if self.multi_output:
            if not known(data):  # MXNet computes the label from data's size: it must be known
                raise MXNetValueError(
                    f"{self.where}: with multi_output=True the label's shape comes from data's "
                    f"size, but data {fmt(data)} has unknown dimensions (0); give data's whole "
                    "shape"
                )
            spatial = data[2:]
            flat = (data[0], prod(spatial))
            keep = data[:1] + spatial
            chan1 = data[:1] + (1,) + spatial
            if label is None:
                label = flat
            elif label not in (flat, keep, chan1):
                raise MXNetValueError(
                    f"{self.where}: label {fmt(label)} does not fit data {fmt(data)} with "
                    f"multi_output=True; expecting {fmt(flat)} or {fmt(keep)}"
                )
            return [data, label], [data], []
        return [data, data[:-1]], [data], []

    def _softmax_view(self, shape):
        """The 3-D shape (N, C, S) whose axis 1 the softmax runs along."""
        if self.multi_output:
            return (shape[0], shape[1], prod(shape[2:]))
        if self.preserve_shape:
            return (prod(shape[:-1]), shape[-1], 1)
        # QUIRK (MXNet): by default every axis after the first is one softmax: (N, rest).
        return (shape[0], prod(shape[1:]), 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, ...) -> softmax (same shape); train and test alike."""
        data, label = in_data
        view = data.reshape(self._softmax_view(data.shape))
        assign(out_data[0], req[0], softmax_along(view, axis=1).reshape(data.shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata from softmax and label (the head gradient is not read); label gets 0."""
        data, label = in_data
        out = out_data[0]
        if label.shape == out.shape:  # a probability label: never normalized
            grad = (out - label) * f32_scale(self.grad_scale)
        else:
            grad = self._label_gradient(out, label)
        if self.out_grad:
            # QUIRK (MXNet 1.9.1): the backward node never receives the head gradient; it
            # multiplies by its first input, the softmax output itself.
            grad = grad * out
        assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)

    def _label_gradient(self, out, label):
        """grad_scale * (softmax - onehot) / divisor for class-index labels; shape of out."""
        n, classes, spatial = self._softmax_view(out.shape)
        prob = out.reshape(n, classes, spatial)
        if self.multi_output:
            labels = label.reshape(n, spatial)
            smooth = 0.0  # MXNet applies smooth_alpha only without multi_output
        else:
            # QUIRK (MXNet): row i uses label.flat[i]; with the default (N, rest) view of
            # >=3-D data only the first N labels are read.
            labels = label.reshape(-1)[:n].reshape(n, 1)
            smooth = self.smooth_alpha
        grad = _target_minus(prob, labels, smooth)
        if self.use_ignore:
            grad = grad * (class_index(labels) != int(self.ignore_label))[:, None, :]
        scale = f32_scale(self.grad_scale, *self._divisors(label, n, spatial))
        return (grad * scale).reshape(out.shape)

    def _divisors(self, label, n, spatial):
        """What grad_scale is divided by under ``normalization`` (MXNet's exact counts)."""
        if self.normalization == "valid":
            count = _count_valid(label, self.ignore_label)
        elif self.normalization == "batch":
            count = n if self.multi_output else label.size
        else:
            count = 1
        if self.multi_output and self.normalization != "valid":
            # QUIRK (MXNet): with multi_output even 'null' divides by the spatial size.
            return (spatial, count)
        return (count,)
