"""The metric machinery: ``EvalMetric`` (local and global sums), ``create`` and its registry,
``CompositeEvalMetric`` and ``CustomMetric`` (a function of numpy arrays) -- MXNet 1.9.1's."""

import warnings
from collections import OrderedDict
from numbers import Number

import numpy

from ..arrays.ndarray import NDArray
from ..base import MistakeWarning
from ..registry import Registry

__all__ = [
    "EvalMetric",
    "CompositeEvalMetric",
    "CustomMetric",
    "np",
    "create",
    "register",
    "alias",
    "check_label_shapes",
    "check_class_labels",
]


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """ValueError unless the lengths (or shapes) agree; ``wrap`` puts lone NDArrays in lists."""
    if shape:
        label_shape, pred_shape = labels.shape, preds.shape
    else:
        label_shape, pred_shape = len(labels), len(preds)
    if label_shape != pred_shape:
        raise ValueError(
            f"Shape of labels {label_shape} does not match shape of "
            f"predictions {pred_shape}: {_mismatch_hint(labels, preds, shape)}"
        )
    if wrap:
        if isinstance(labels, NDArray):
            labels = [labels]
        if isinstance(preds, NDArray):
            preds = [preds]
    return labels, preds


def _mismatch_hint(labels, preds, shape):
    """What the two sides of a failed check_label_shapes are, and how to make them agree."""
    if shape:
        return (
            "this metric compares labels and predictions element by element, so they need "
            "the same shape (reshape one, e.g. pred.reshape(label.shape))"
        )
    if isinstance(labels, NDArray) or isinstance(preds, NDArray):
        return (
            "one side is a single NDArray, whose len() counts its rows, and the other a "
            "list: pass both as lists, metric.update([label], [pred])"
        )
    if isinstance(labels, (list, tuple)) and isinstance(preds, (list, tuple)):
        return (
            f"update got {len(labels)} label array(s) and {len(preds)} prediction "
            "array(s), and a metric pairs the i-th label with the i-th prediction. A "
            "network with several outputs gives several predictions: create the metric "
            "with output_names=[...] (and label_names=[...]) to pick the ones it scores, as "
            "Module.update_metric passes them by name"
        )
    return (
        "a metric needs one label per sample: labels of shape (batch,) for predictions of "
        "shape (batch, classes), or class predictions of the labels' shape"
    )


def check_class_labels(metric, label, pred, error, axis=1, ids_allowed=False):
    """Refuse (raise ``error``) one (label, pred) pair of classification metric ``metric`` that
    has one-hot labels or the two swapped (the first argument the wider, holding scores).
    ``ids_allowed``: the metric takes class-id predictions shaped like the labels, so equal
    shapes are refused only when the predictions hold scores, and with a MistakeWarning (MXNet
    computes a wrong value there instead of failing)."""
    if label.ndim >= 2 and label.size > pred.size:
        if not _whole_numbers(label):
            raise error(
                f"{metric}.update(labels, preds): pass the labels first: "
                f"metric.update([label], [pred]). The first argument (the labels) has "
                f"shape {tuple(label.shape)} and holds scores, the second (the "
                f"predictions) {tuple(pred.shape)}: the predictions, one score per "
                "class, are the wider array, and the labels hold one class id per "
                "sample."
            )
        raise error(_one_hot_message(metric, label, pred, axis))
    if (
        pred.ndim < 2
        or tuple(label.shape) != tuple(pred.shape)
        or pred.shape[_class_axis(pred, axis)] < 2
    ):
        return
    if not ids_allowed:
        raise error(_one_hot_message(metric, label, pred, axis))
    if not _whole_numbers(pred):  # class ids shaped like the labels are what it compares
        warnings.warn(
            _one_hot_message(metric, label, pred, axis) + " With equal shapes the "
            "predictions are read as class ids (as MXNet does): the scores are cast "
            "to int, so the value it reports is wrong.",
            MistakeWarning,
            stacklevel=3,
        )


def _class_axis(array, axis):
    """``axis`` as a non-negative index into ``array``'s dimensions (the last one if beyond)."""
    return axis % array.ndim if -array.ndim <= axis < array.ndim else array.ndim - 1


def _whole_numbers(array):
    values = numpy.asarray(array)
    return bool(numpy.array_equal(values, numpy.round(values)))


def _one_hot_message(metric, label, pred, axis):
    """Labels given one-hot (shaped like, or wider than, the predictions): give class ids."""
    classes = _class_axis(label, axis)
    expected = tuple(d for i, d in enumerate(label.shape) if i != classes)
    how = (
        "the predictions' own shape"
        if tuple(label.shape) == tuple(pred.shape)
        else f"wider than the predictions' {tuple(pred.shape)}"
    )
    return (
        f"{metric}.update: give the labels as class ids, e.g. label.argmax(axis={axis}) "
        f"(shape {expected}) if they are one-hot. The labels have shape "
        f"{tuple(label.shape)}, {how}, but {metric} wants one class id per sample: labels "
        f"of shape {expected} for scores of shape {tuple(label.shape)}."
    )


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
        config.update(
            {
                "metric": type(self).__name__,
                "name": self.name,
                "output_names": self.output_names,
                "label_names": self.label_names,
            }
        )
        return config

    def update_dict(self, label, pred):
        """``update`` from dicts {name: NDArray}, picking ``label_names`` / ``output_names``."""
        pred = (
            [pred[name] for name in self.output_names]
            if self.output_names is not None
            else list(pred.values())
        )
        label = (
            [label[name] for name in self.label_names]
            if self.label_names is not None
            else list(label.values())
        )
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
        return (self.name, _plain(self._value(self.sum_metric, self.num_inst)))

    def get_global(self):
        """``(name, value)`` over everything since the last ``reset()``."""
        if not self._has_global_stats:
            return self.get()
        return (self.name, _plain(self._value(self.global_sum_metric, self.global_num_inst)))

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


@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` returns ([names], [values])."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )
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
class CustomMetric(EvalMetric):
    """``feval(label, pred)`` on numpy arrays returns a value (one instance) or (sum, count)."""

    def __init__(
        self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None
    ):
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = f"custom({name})"
        super().__init__(
            name,
            feval=feval,
            allow_extra_outputs=allow_extra_outputs,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
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
