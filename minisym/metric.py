"""``mx.metric``: evaluation metrics that accumulate over batches (as in MXNet 1.9.1).

A metric keeps ``sum_metric`` and ``num_inst``; ``get()`` returns ``(name, sum_metric / num_inst)``
(``nan`` before any update). What one instance is differs, and matters when batches differ in
size:

- ``Accuracy``, ``TopKAccuracy``, ``CrossEntropy``, ``NegativeLogLikelihood``: one per sample,
  so the value is the mean over all samples seen;
- ``MSE``, ``MAE``, ``RMSE``: one per *array* passed to ``update``: each batch's mean error
  counts once, so the value is the mean of the per-batch means;
- ``Loss``: one per element of the prediction.

Each metric also keeps ``global_sum_metric`` / ``global_num_inst``, which ``reset_local()`` leaves
alone (``get_global()``). ``update(labels, preds)`` takes lists of NDArrays (a single NDArray is
wrapped when the lengths agree).
"""
import math
from collections import OrderedDict
from numbers import Number

import numpy

from .ndarray.ndarray import NDArray
from .registry import Registry

__all__ = ["EvalMetric", "CompositeEvalMetric", "Accuracy", "TopKAccuracy", "F1", "MCC",
           "Perplexity", "MAE", "MSE", "RMSE", "CrossEntropy", "NegativeLogLikelihood", "Loss",
           "Torch", "Caffe", "CustomMetric", "np", "create", "register", "alias",
           "check_label_shapes"]


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """ValueError unless the lengths (or shapes) agree; ``wrap`` puts lone NDArrays in lists."""
    if shape:
        label_shape, pred_shape = labels.shape, preds.shape
    else:
        label_shape, pred_shape = len(labels), len(preds)
    if label_shape != pred_shape:
        raise ValueError(f"Shape of labels {label_shape} does not match shape of "
                         f"predictions {pred_shape}")
    if wrap:
        if isinstance(labels, NDArray):
            labels = [labels]
        if isinstance(preds, NDArray):
            preds = [preds]
    return labels, preds


class EvalMetric:
    """Base class: accumulates ``sum_metric`` over ``num_inst`` instances, locally and globally."""

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return f"EvalMetric: {dict(self.get_name_value())}"

    def get_config(self):
        """The constructor arguments as a dict (``create(**config)`` rebuilds the metric)."""
        config = self._kwargs.copy()
        config.update({"metric": type(self).__name__, "name": self.name,
                       "output_names": self.output_names, "label_names": self.label_names})
        return config

    def update_dict(self, label, pred):
        """``update`` from dicts {name: NDArray}, picking ``label_names`` / ``output_names``."""
        pred = ([pred[name] for name in self.output_names] if self.output_names is not None
                else list(pred.values()))
        label = ([label[name] for name in self.label_names] if self.label_names is not None
                 else list(label.values()))
        self.update(label, pred)

    def update(self, labels, preds):
        """Add one batch: ``labels`` and ``preds`` are lists of NDArrays."""
        raise NotImplementedError()

    def _add(self, value, count):
        """Add ``value`` over ``count`` instances to the local and the global sums."""
        value, count = _plain(value), _plain(count)
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def reset(self):
        """Forget everything, the global sums included."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Forget the local sums only (``get_global`` still sees everything)."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def _value(self, total, count):
        """``total / count``, or nan before any update."""
        return total / count if count != 0 else float("nan")

    def get(self):
        """``(name, value)``: sum_metric / num_inst, or nan before any update."""
        return (self.name, self._value(self.sum_metric, self.num_inst))

    def get_global(self):
        """``(name, value)`` over everything since the last ``reset()``."""
        if not self._has_global_stats:
            return self.get()
        return (self.name, self._value(self.global_sum_metric, self.global_num_inst))

    def get_name_value(self):
        """``[(name, value), ...]``: ``get()`` as a list of pairs."""
        return _pairs(*self.get())

    def get_global_name_value(self):
        """``[(name, value), ...]``: ``get_global()`` as a list of pairs."""
        if not self._has_global_stats:
            return self.get_name_value()
        return _pairs(*self.get_global())


def _plain(value):
    """A numpy scalar as a Python number (so values print as 0.75, not np.float64(0.75))."""
    return value.item() if isinstance(value, numpy.generic) else value


def _pairs(name, value):
    names = name if isinstance(name, list) else [name]
    values = value if isinstance(value, list) else [value]
    return list(zip(names, values))


# --- registry: mx.metric.create('acc') ----------------------------------------------------------
_REGISTRY = Registry(EvalMetric, "metric")
register = _REGISTRY.register
alias = _REGISTRY.alias


def create(metric, *args, **kwargs):
    """A metric from a name (``'acc'``), a function, a list (composite) or an instance."""
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _REGISTRY.create(metric, *args, **kwargs)


# --- the metrics -------------------------------------------------------------------------------
@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` returns ([names], [values])."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.metrics = [create(m) for m in (metrics or [])]

    def add(self, metric):
        """Add a child metric (anything ``create`` accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at ``index``."""
        try:
            return self.metrics[index]
        except IndexError:
            # MXNet returns (does not raise) this error.
            return ValueError(f"Metric index {index} is out of range 0 and {len(self.metrics)}")

    def update_dict(self, labels, preds):
        """``update_dict`` on every child, after filtering by this metric's names."""
        if self.label_names is not None:
            labels = OrderedDict(i for i in labels.items() if i[0] in self.label_names)
        if self.output_names is not None:
            preds = OrderedDict(i for i in preds.items() if i[0] in self.output_names)
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        """``update`` every child."""
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        """``reset`` every child."""
        for metric in getattr(self, "metrics", []):  # reset() runs before metrics exists
            metric.reset()

    def reset_local(self):
        """``reset_local`` every child."""
        for metric in self.metrics:
            metric.reset_local()

    def get(self):
        """``([name, ...], [value, ...])`` of the children, flattened."""
        return self._collect(lambda metric: metric.get())

    def get_global(self):
        """``get_global()`` of the children, flattened."""
        return self._collect(lambda metric: metric.get_global())

    def _collect(self, read):
        names, values = [], []
        for metric in self.metrics:
            name, value = read(metric)
            names.extend([name] if isinstance(name, str) else name)
            values.extend([value] if isinstance(value, (Number, numpy.generic)) else value)
        return (names, values)

    def get_config(self):
        """The config of this metric and of its children."""
        config = super().get_config()
        config.update({"metrics": [m.get_config() for m in self.metrics]})
        return config


@register
@alias("acc")
class Accuracy(EvalMetric):
    """Fraction of samples whose argmax over ``axis`` (or whose given class) equals the label."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) scores or (n,) classes; labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            pred = pred.asnumpy()
            label = label.asnumpy()
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
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        assert self.top_k > 1, "Please use Accuracy if top_k is no more than 1"
        self.name += f"_{self.top_k}"

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) scores, labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            assert len(pred.shape) <= 2, "Predictions should be no more than 2 dims"
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
            raise ValueError(f"{type(self).__name__} currently only supports binary "
                             "classification.")
        pred_true, label_true = pred_label == 1, label == 1
        pred_false, label_false = 1 - pred_true, 1 - label_true
        counts = {"true_positives": (pred_true * label_true).sum(),
                  "false_positives": (pred_true * label_false).sum(),
                  "false_negatives": (pred_false * label_true).sum(),
                  "true_negatives": (pred_false * label_false).sum()}
        for key, value in counts.items():
            value = int(value)
            setattr(self, key, getattr(self, key) + value)
            setattr(self, "global_" + key, getattr(self, "global_" + key) + value)

    def _counts(self, use_global):
        prefix = "global_" if use_global else ""
        return [getattr(self, prefix + key) for key in self._COUNTS]

    def precision_(self, use_global=False):
        tp, _, fp, _ = self._counts(use_global)
        return float(tp) / (tp + fp) if tp + fp > 0 else 0.

    def recall_(self, use_global=False):
        tp, fn, _, _ = self._counts(use_global)
        return float(tp) / (tp + fn) if tp + fn > 0 else 0.

    def fscore_(self, use_global=False):
        precision, recall = self.precision_(use_global), self.recall_(use_global)
        if precision + recall > 0:
            return 2 * precision * recall / (precision + recall)
        return 0.

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
            return 0.
        denom = 1.
        for term in (tp + fp, tp + fn, tn + fp, tn + fn):
            if term != 0.:
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
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    def _score(self, use_global):
        raise NotImplementedError()

    def update(self, labels, preds):
        """Add one batch: preds (n, 2) scores, labels (n,) in {0, 1}."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
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

    def _score(self, use_global):
        return self._stats.fscore_(use_global)


@register
class MCC(_BinaryMetric):
    """Binary Matthews correlation coefficient (zero margins count as 1 in the denominator)."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self._stats.matthewscc(use_global)


@register
class Perplexity(EvalMetric):
    """exp(mean negative log probability of the labels), skipping ``ignore_label``."""

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None,
                 label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        """Add one batch: preds (..., classes) probabilities, labels (...) class ids."""
        assert len(labels) == len(preds), "one label array per prediction array"
        loss, num = 0., 0
        for label, pred in zip(labels, preds):
            assert label.size == pred.size / pred.shape[-1], \
                f"shape mismatch: {label.shape} vs. {pred.shape}"
            label = label.asnumpy().reshape(label.size)
            probs = _pick(pred.asnumpy(), label.astype("int32"), self.axis)
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


def _pick(pred, index, axis):
    """pred's entries at ``index`` along ``axis`` (index flattened over the other axes)."""
    moved = numpy.moveaxis(pred, axis, -1).reshape(-1, pred.shape[axis])
    index = numpy.clip(index, 0, moved.shape[1] - 1)
    return moved[numpy.arange(moved.shape[0]), index]


def _as_columns(label, pred):
    """Labels and preds as numpy, 1-d arrays turned into (n, 1) columns."""
    label, pred = label.asnumpy(), pred.asnumpy()
    if label.ndim == 1:
        label = label.reshape(label.shape[0], 1)
    if pred.ndim == 1:
        pred = pred.reshape(pred.shape[0], 1)
    return label, pred


class _BatchError(EvalMetric):
    """Error of same-size labels and preds, one instance per update array (MAE, MSE, RMSE)."""

    def __init__(self, name, output_names, label_names):
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    def update(self, labels, preds):
        """Add one batch: labels and preds of the same size, (n,) or (n, k)."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label, pred = _as_columns(label, pred)
            self._add(self._error(label - pred), 1)


@register
class MAE(_BatchError):
    """Mean absolute error, averaged per batch (each update array counts once)."""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        """The mean absolute difference."""
        return numpy.abs(diff).mean()


@register
class MSE(_BatchError):
    """Mean squared error, averaged per batch (each update array counts once)."""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        """The mean squared difference."""
        return (diff ** 2.0).mean()


@register
class RMSE(_BatchError):
    """Root mean squared error of each batch, averaged over batches."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        """The root of the mean squared difference."""
        return numpy.sqrt((diff ** 2.0).mean())


class _LogLoss(EvalMetric):
    """-log(p[label] + eps) summed over samples: the body of CrossEntropy and NLL."""

    def __init__(self, eps, name, output_names, label_names):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        """Add one batch: preds (n, classes) probabilities, labels (n,) class ids."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = label.asnumpy().ravel()
            pred = pred.asnumpy()
            num_examples = pred.shape[0]
            assert label.shape[0] == num_examples, (label.shape[0], num_examples)
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
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

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


@register
class CustomMetric(EvalMetric):
    """``feval(label, pred)`` on numpy arrays returns a value (one instance) or (sum, count)."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None,
                 label_names=None):
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = f"custom({name})"
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs,
                         output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        """Call ``feval`` on each (label, pred) pair of the batch."""
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            result = self._feval(label.asnumpy(), pred.asnumpy())
            if isinstance(result, tuple):
                self._add(*result)
            else:
                self._add(result, 1)

    def get_config(self):
        """Not available: a Python function cannot be written into a config."""
        raise NotImplementedError("CustomMetric cannot be serialized")


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A CustomMetric from ``numpy_feval(label, pred)`` (named after the function)."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
