"""Regression metrics: MAE, MSE, RMSE (one instance per array passed to ``update``) and
PearsonCorrelation."""

import numpy

from .base import EvalMetric, _plain, alias, check_label_shapes, register

__all__ = ["MAE", "MSE", "RMSE", "PearsonCorrelation"]


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
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

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
        return (diff**2.0).mean()


@register
class RMSE(_BatchError):
    """Root mean squared error of each batch, averaged over batches."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        """The root of the mean squared difference."""
        return numpy.sqrt((diff**2.0).mean())


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson's r of labels and predictions: 'macro' averages each array's r, 'micro' computes
    one r over every value seen (from running means, as MXNet does)."""

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    def reset(self):
        """Forget everything (the running statistics of 'micro' included)."""
        super().reset()
        if self.average == "micro":
            self._labels = _RunningMoments()
            self._preds = _RunningMoments()
            self._comoment = 0.0

    def update(self, labels, preds):
        """Add one batch: each label array and its prediction have the same shape."""
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            label = label.asnumpy().ravel().astype(numpy.float64)
            pred = pred.asnumpy().ravel().astype(numpy.float64)
            if self.average == "macro":
                self._add(numpy.corrcoef(pred, label)[0, 1], 1)
                continue
            self.num_inst += 1
            self.global_num_inst += 1
            # MXNet's order: the label mean is already updated, the prediction mean not yet.
            self._labels.add(label)
            self._comoment += numpy.sum((label - self._labels.mean) * (pred - self._preds.mean))
            self._preds.add(pred)

    def get(self):
        """``(name, r)``: the mean per-array r ('macro') or r over everything ('micro')."""
        if self.num_inst == 0:
            return (self.name, float("nan"))
        if self.average == "macro":
            return (self.name, self.sum_metric / self.num_inst)
        n = self._labels.count
        spread = numpy.sqrt(self._preds.m2 / (n - 1)) * numpy.sqrt(self._labels.m2 / (n - 1))
        return (self.name, _plain(self._comoment / ((n - 1) * spread)))


class _RunningMoments:
    """Count, mean and sum of squared deviations, updated a batch at a time (Welford)."""

    def __init__(self):
        self.count, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, values):
        self.count += len(values)
        delta = values - self.mean
        self.mean += numpy.sum(delta / self.count)
        self.m2 += numpy.sum(delta * (values - self.mean))
