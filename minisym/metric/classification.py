"""Classification metrics: Accuracy, TopKAccuracy, and F1 / MCC / PCC from counts of right and
wrong predictions (binary for F1 and MCC, any number of classes for PCC)."""

import math

import numpy

from ..base import MXNetValueError
from .base import EvalMetric, _plain, alias, check_class_labels, check_label_shapes, register

__all__ = ["Accuracy", "TopKAccuracy", "F1", "MCC", "PCC"]


@register
@alias("acc")
class Accuracy(EvalMetric):
    """Fraction of samples whose argmax over ``axis`` (or whose given class) equals the label."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(
            name,
            axis=axis,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self.axis = axis

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) scores or (n,) classes; labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            pred = pred.asnumpy()
            label = label.asnumpy()
            check_class_labels("Accuracy", label, pred, MXNetValueError, self.axis, True)
            if pred.shape != label.shape:
                pred = numpy.argmax(pred, axis=self.axis)
            pred = pred.astype("int32").ravel()
            label = label.astype("int32").ravel()
            check_label_shapes(label, pred)
            self._add((pred == label).sum(), len(pred))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """Fraction of samples whose label is among the ``top_k`` highest scores (top_k > 1)."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(
            name,
            top_k=top_k,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self.top_k = top_k
        assert self.top_k > 1, "Please use Accuracy if top_k is no more than 1"
        self.name += f"_{self.top_k}"

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) scores, labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_class_labels("TopKAccuracy", label, pred, ValueError)
            assert len(pred.shape) <= 2, "Predictions should be no more than 2 dims"
            if pred.ndim == 2 and self.top_k > pred.shape[1]:
                raise ValueError(
                    f"TopKAccuracy(top_k={self.top_k}).update: the predictions of shape "
                    f"{pred.shape} score {pred.shape[1]} classes, fewer than top_k: use a "
                    f"top_k of at most {pred.shape[1]}"
                )
            ranked = numpy.argpartition(pred.asnumpy().astype("float32"), -self.top_k)
            label = label.asnumpy().astype("int32")
            check_label_shapes(label, ranked)
            num_samples = ranked.shape[0]
            if ranked.ndim == 1:
                # As in MXNet: a 1-d prediction adds to the local sum only, not the global one.
                self.sum_metric += _plain((ranked.flat == label.flat).sum())
            else:
                num_classes = ranked.shape[1]
                for j in range(min(num_classes, self.top_k)):
                    correct = _plain((ranked[:, num_classes - 1 - j].flat == label.flat).sum())
                    self.sum_metric += correct
                    self.global_sum_metric += correct
            self.num_inst += num_samples
            self.global_num_inst += num_samples


class _BinaryClassificationMetrics:
    """True/false positive/negative counts (local and global) for F1 and MCC."""

    _COUNTS = ("true_positives", "false_negatives", "false_positives", "true_negatives")

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        """Count one batch: pred (n, 2) scores, label (n,) in {0, 1}."""
        pred = pred.asnumpy()
        label = label.asnumpy().astype("int32")
        pred_label = numpy.argmax(pred, axis=1)
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            classes = ", ".join(str(c) for c in numpy.unique(label)[:6])
            owner = getattr(self, "owner", type(self).__name__)
            raise ValueError(
                f"{owner} currently only supports binary "
                f"classification. These labels hold the classes {classes}; "
                "for more than two classes use mx.metric.PCC() (a multiclass "
                "MCC) or mx.metric.Accuracy()."
            )
        pred_true, label_true = pred_label == 1, label == 1
        pred_false, label_false = 1 - pred_true, 1 - label_true
        counts = {
            "true_positives": (pred_true * label_true).sum(),
            "false_positives": (pred_true * label_false).sum(),
            "false_negatives": (pred_false * label_true).sum(),
            "true_negatives": (pred_false * label_false).sum(),
        }
        for key, value in counts.items():
            value = int(value)
            setattr(self, key, getattr(self, key) + value)
            setattr(self, "global_" + key, getattr(self, "global_" + key) + value)

    def _counts(self, use_global):
        prefix = "global_" if use_global else ""
        return [getattr(self, prefix + key) for key in self._COUNTS]

    def precision_(self, use_global=False):
        tp, _, fp, _ = self._counts(use_global)
        return float(tp) / (tp + fp) if tp + fp > 0 else 0.0

    def recall_(self, use_global=False):
        tp, fn, _, _ = self._counts(use_global)
        return float(tp) / (tp + fn) if tp + fn > 0 else 0.0

    def fscore_(self, use_global=False):
        precision, recall = self.precision_(use_global), self.recall_(use_global)
        if precision + recall > 0:
            return 2 * precision * recall / (precision + recall)
        return 0.0

    precision = property(lambda self: self.precision_())
    global_precision = property(lambda self: self.precision_(True))
    recall = property(lambda self: self.recall_())
    global_recall = property(lambda self: self.recall_(True))
    fscore = property(lambda self: self.fscore_())
    global_fscore = property(lambda self: self.fscore_(True))
    total_examples = property(lambda self: sum(self._counts(False)))
    global_total_examples = property(lambda self: sum(self._counts(True)))

    def matthewscc(self, use_global=False):
        """(TP*TN - FP*FN) / sqrt of the product of the non-zero margins."""
        tp, fn, fp, tn = (float(c) for c in self._counts(use_global))
        if not (tp + fn + fp + tn):
            return 0.0
        denom = 1.0
        for term in (tp + fp, tp + fn, tn + fp, tn + fn):
            if term != 0.0:
                denom *= term
        return ((tp * tn) - (fp * fn)) / math.sqrt(denom)

    def local_reset_stats(self):
        for key in self._COUNTS:
            setattr(self, key, 0)

    def reset_stats(self):
        for key in self._COUNTS:
            setattr(self, key, 0)
            setattr(self, "global_" + key, 0)


class _BinaryMetric(EvalMetric):
    """F1 and MCC: 'macro' averages the per-batch score, 'micro' scores all batches together."""

    def __init__(self, name, output_names, label_names, average):
        self.average = average
        self._stats = _BinaryClassificationMetrics()
        self._stats.owner = type(self).__name__  # named in its errors: 'F1', not the counts
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    def _score(self, use_global):
        raise NotImplementedError()

    def update(self, labels, preds):
        """Add one batch: preds (n, 2) scores, labels (n,) in {0, 1}."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_class_labels(type(self).__name__, label, pred, ValueError)
            self._stats.update_binary_stats(label, pred)
        if self.average == "macro":
            self._add_macro()
        else:
            self.sum_metric = self._score(False) * self._stats.total_examples
            self.global_sum_metric = self._score(True) * self._stats.global_total_examples
            self.num_inst = self._stats.total_examples
            self.global_num_inst = self._stats.global_total_examples

    def _add_macro(self):
        self.sum_metric += self._score(False)
        self.global_sum_metric += self._score(True)
        self.num_inst += 1
        self.global_num_inst += 1
        # As in MXNet, the global counts are cleared too, so the global score is macro as well.
        self._stats.reset_stats()

    def reset(self):
        """Forget everything."""
        super().reset()
        self._stats.reset_stats()

    def reset_local(self):
        """Forget the local sums and counts."""
        super().reset_local()
        self._stats.local_reset_stats()


@register
class F1(_BinaryMetric):
    """Binary F1 score (label 1 is positive; the prediction is the argmax of 2 scores)."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    metrics = property(lambda self: self._stats, doc="The counts (MXNet's name for F1).")

    def _score(self, use_global):
        return self._stats.fscore_(use_global)


@register
class MCC(_BinaryMetric):
    """Binary Matthews correlation coefficient (zero margins count as 1 in the denominator)."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    _metrics = property(lambda self: self._stats, doc="The counts (MXNet's name for MCC).")

    def _score(self, use_global):
        return self._stats.matthewscc(use_global)


@register
class PCC(EvalMetric):
    """Pearson's correlation of a K x K confusion matrix (MCC for any number of classes): one
    value over every sample since the last reset, the matrix growing with the class ids seen."""

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(
            name,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=has_global_stats,
        )

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) scores or (n,) class ids, labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_class_labels("PCC", label, pred, ValueError, 1, True)
            label = label.asnumpy().astype("int32")
            pred = pred.asnumpy()
            pred = pred.argmax(axis=1) if pred.shape != label.shape else pred.astype("int32")
            largest = max(pred.max(), label.max())
            if largest >= self.k:
                self._grow(largest + 1 - self.k)
            counts = numpy.zeros((self.k, self.k))
            for predicted, actual in zip(pred, label):  # rows: predicted, columns: label
                counts[predicted, actual] += 1
            self.lcm += counts
            self.gcm += counts
        self.num_inst += 1  # one instance per update call, as in MXNet
        self.global_num_inst += 1

    def _grow(self, extra):
        """Make room for ``extra`` more classes in both confusion matrices."""
        self.lcm = numpy.pad(self.lcm, ((0, extra), (0, extra)))
        self.gcm = numpy.pad(self.gcm, ((0, extra), (0, extra)))
        self.k += extra

    @staticmethod
    def _correlation(confusion):
        """The multiclass MCC of a confusion matrix; nan when one side is a single class."""
        total = confusion.sum()
        predicted, actual = confusion.sum(axis=1), confusion.sum(axis=0)
        var_predicted = numpy.sum(predicted * (total - predicted))
        var_actual = numpy.sum(actual * (total - actual))
        if var_predicted == 0 or var_actual == 0:
            return float("nan")
        covariance = numpy.sum(confusion.diagonal() * total - predicted * actual)
        return covariance / (var_predicted * var_actual) ** 0.5

    sum_metric = property(lambda self: self._correlation(self.lcm) * self.num_inst)
    global_sum_metric = property(lambda self: self._correlation(self.gcm) * self.global_num_inst)

    def reset(self):
        """Forget everything: both confusion matrices."""
        self.global_num_inst = 0.0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        """Forget the local confusion matrix only."""
        self.num_inst = 0.0
        self.lcm = numpy.zeros((self.k, self.k))
