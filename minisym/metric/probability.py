"""Metrics of predicted probabilities and of losses the network already computes:
CrossEntropy, NegativeLogLikelihood, Perplexity, Loss (and its names Torch and Caffe)."""

import math

import numpy

from ..arrays.ndarray import NDArray
from ..base import MXNetValueError
from .base import EvalMetric, alias, check_class_labels, check_label_shapes, register

__all__ = ["CrossEntropy", "NegativeLogLikelihood", "Perplexity", "Loss", "Torch", "Caffe"]


@register
class Perplexity(EvalMetric):
    """exp(mean negative log probability of the labels), skipping ``ignore_label``."""

    def __init__(
        self, ignore_label, axis=-1, name="perplexity", output_names=None, label_names=None
    ):
        super().__init__(
            name,
            ignore_label=ignore_label,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        """Add one batch: preds (..., classes) probabilities, labels (...) class ids."""
        assert len(labels) == len(preds), "one label array per prediction array"
        loss, num = 0.0, 0
        for label, pred in zip(labels, preds):
            check_class_labels("Perplexity", label, pred, AssertionError, self.axis)
            assert label.size == pred.size / pred.shape[-1], (
                f"shape mismatch: {label.shape} vs. {pred.shape}: Perplexity.update needs one "
                f"label per row of probabilities (classes on the last axis), but the labels "
                f"hold {label.size} class ids and the predictions {pred.size // pred.shape[-1]} "
                "rows"
            )
            label_shape = label.shape
            label = label.asnumpy().reshape(label.size)
            probs = _pick(pred.asnumpy(), label.astype("int32"), self.axis, label_shape)
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(probs.dtype)
                num -= ignore.sum()
                probs = probs * (1 - ignore) + ignore
            loss -= numpy.log(numpy.maximum(1e-10, probs)).astype(probs.dtype).sum()
            num += probs.size
        self._add(float(loss), num)

    def _value(self, total, count):
        """``exp(total / count)``, or nan before any update."""
        return math.exp(total / count) if count != 0 else float("nan")


def _pick(pred, index, axis, label_shape):
    """pred's entries at ``index`` along ``axis`` of a 2-d ``pred`` (MXNet flattens the labels
    and picks with them, which works for 2-d predictions only)."""
    if pred.ndim != 2:
        batch = pred.size // pred.shape[-1]
        raise MXNetValueError(
            f"Perplexity.update: predictions of shape {pred.shape} with labels of shape "
            f"{label_shape}: the labels are flattened to ({index.size},), which can pick from "
            f"2-d predictions only. Reshape both first: "
            f"pred.reshape(({batch}, {pred.shape[-1]})) and label.reshape(({batch},))."
        )
    moved = numpy.moveaxis(pred, axis, -1).reshape(-1, pred.shape[axis])
    index = numpy.clip(index, 0, moved.shape[1] - 1)
    return moved[numpy.arange(moved.shape[0]), index]


class _LogLoss(EvalMetric):
    """-log(p[label] + eps) summed over samples: the body of CrossEntropy and NLL."""

    def __init__(self, eps, name, output_names, label_names):
        super().__init__(
            name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True
        )
        self.eps = eps

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) probabilities, labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_class_labels(type(self).__name__, label, pred, AssertionError)
            label = label.asnumpy().ravel()
            pred = pred.asnumpy()
            num_examples = pred.shape[0]
            assert label.shape[0] == num_examples, (
                f"{type(self).__name__}.update: {label.shape[0]} labels for {num_examples} "
                f"predictions (shape {pred.shape}): give one class id per row of "
                "probabilities, labels of shape (batch,) for predictions (batch, classes)"
            )
            prob = pred[numpy.arange(num_examples), numpy.int64(label)]
            self._add((-numpy.log(prob + self.eps)).sum(), num_examples)


@register
@alias("ce")
class CrossEntropy(_LogLoss):
    """Mean over samples of -log(p[label] + eps)."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
@alias("nll_loss")
class NegativeLogLikelihood(_LogLoss):
    """Mean over samples of -log(p[label] + eps) (the same formula as CrossEntropy)."""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
class Loss(EvalMetric):
    """Mean of the prediction's elements (for a network whose output is already the loss)."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    def update(self, _, preds):
        """Add one batch: the labels are ignored."""
        if isinstance(preds, NDArray):
            preds = [preds]
        for pred in preds:
            self._add(pred.asnumpy().sum(), pred.size)


@register
class Torch(Loss):
    """``Loss`` named 'torch'."""

    def __init__(self, name="torch", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """``Loss`` named 'caffe'."""

    def __init__(self, name="caffe", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)
