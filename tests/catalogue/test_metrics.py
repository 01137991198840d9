"""Catalogue, metrics: labels given one-hot, or labels and predictions swapped.

A classification metric wants one class id per sample. Given one-hot labels (shaped like the
predictions) or ``update(preds, labels)`` (the wider array first), MXNet either reports a wrong
value without a word (Accuracy, PCC) or fails deep inside NumPy; minisym says what to change,
with MXNet's exception type. Regression metrics take (N, C) labels legitimately and stay silent.
Each test checks that the arrays handed in, and the metric's sums when it refuses, are as they
were.
"""

import warnings

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

RNG = np.random.default_rng(0)
SCORES = RNG.random((4, 3)).astype("float32")
SCORES /= SCORES.sum(axis=1, keepdims=True)
CLASSES = np.array([0, 2, 1, 2], "float32")
ONE_HOT = np.eye(3, dtype="float32")[CLASSES.astype(int)]
BINARY_SCORES = SCORES[:, :2] / SCORES[:, :2].sum(axis=1, keepdims=True)
BINARY = np.array([0, 1, 1, 0], "float32")

# metric, its error type (MXNet's), scores, class ids
REFUSING = [
    (lambda: mx.metric.TopKAccuracy(top_k=2), ValueError, SCORES, CLASSES),
    (lambda: mx.metric.F1(), ValueError, BINARY_SCORES, BINARY),
    (lambda: mx.metric.MCC(), ValueError, BINARY_SCORES, BINARY),
    (lambda: mx.metric.CrossEntropy(), AssertionError, SCORES, CLASSES),
    (lambda: mx.metric.NegativeLogLikelihood(), AssertionError, SCORES, CLASSES),
    (lambda: mx.metric.Perplexity(ignore_label=None), AssertionError, SCORES, CLASSES),
]
NAMES = ["TopKAccuracy", "F1", "MCC", "CrossEntropy", "NegativeLogLikelihood", "Perplexity"]


def _sums(metric):
    return repr((metric.get(), metric.get_global()))  # repr: nan before any update equals nan


def _one_hot(classes, scores):
    return np.eye(scores.shape[1], dtype="float32")[classes.astype(int)]


@pytest.mark.parametrize("make, error, scores, classes", REFUSING, ids=NAMES)
def test_one_hot_labels_given_to_a_classification_metric(make, error, scores, classes):
    metric = make()
    metric.update([mx.nd.array(classes)], [mx.nd.array(scores)])
    labels, preds = [mx.nd.array(_one_hot(classes, scores))], [mx.nd.array(scores)]
    before, sums = snapshot(labels + preds), _sums(metric)
    name = type(metric).__name__
    with pytest.raises(error) as info:
        metric.update(labels, preds)
    axis = -1 if name == "Perplexity" else 1
    assert str(info.value) == (
        f"{name}.update: give the labels as class ids, e.g. label.argmax(axis={axis}) (shape "
        f"(4,)) if they are one-hot. The labels have shape {scores.shape}, the predictions' own "
        f"shape, but {name} wants one class id per sample: labels of shape (4,) for scores of "
        f"shape {scores.shape}."
    )
    assert_unchanged(before, labels + preds)
    assert _sums(metric) == sums


@pytest.mark.parametrize("make, error, scores, classes", REFUSING, ids=NAMES)
def test_predictions_and_labels_swapped(make, error, scores, classes):
    metric = make()
    labels, preds = [mx.nd.array(classes)], [mx.nd.array(scores)]
    before, sums = snapshot(labels + preds), _sums(metric)
    name = type(metric).__name__
    with pytest.raises(error) as info:
        metric.update(preds, labels)
    assert str(info.value) == (
        f"{name}.update(labels, preds): pass the labels first: metric.update([label], [pred]). "
        f"The first argument (the labels) has shape {scores.shape} and holds scores, the second "
        "(the predictions) (4,): the predictions, one score per class, are the wider array, and "
        "the labels hold one class id per sample."
    )
    assert_unchanged(before, labels + preds)
    assert _sums(metric) == sums


@pytest.mark.parametrize(
    "metric, mxnet_value", [(mx.metric.Accuracy, 0.6666666666666666), (mx.metric.PCC, float("nan"))]
)
def test_one_hot_labels_given_to_accuracy_compute_what_mxnet_does_with_a_warning(
    metric, mxnet_value
):
    metric = metric()
    labels, preds = [mx.nd.array(ONE_HOT)], [mx.nd.array(SCORES)]
    before = snapshot(labels + preds)
    name = type(metric).__name__
    with pytest.warns(mx.MistakeWarning) as caught:
        metric.update(labels, preds)
    assert str(caught[0].message) == (
        f"{name}.update: give the labels as class ids, e.g. label.argmax(axis=1) (shape (4,)) "
        f"if they are one-hot. The labels have shape (4, 3), the predictions' own shape, but "
        f"{name} wants one class id per sample: labels of shape (4,) for scores of shape "
        "(4, 3). With equal shapes the predictions are read as class ids (as MXNet does): the "
        "scores are cast to int, so the value it reports is wrong."
    )
    assert caught[0].filename == __file__
    np.testing.assert_equal(metric.get()[1], mxnet_value)  # MXNet 1.9.1's (wrong) value
    assert_unchanged(before, labels + preds)


def test_accuracy_with_labels_and_predictions_swapped():
    metric = mx.metric.Accuracy()
    labels, preds = [mx.nd.array(CLASSES)], [mx.nd.array(SCORES)]
    before = snapshot(labels + preds)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: MXNetError from argmax's axis
        metric.update(preds, labels)
    assert str(info.value).startswith("Accuracy.update(labels, preds): pass the labels first")
    assert isinstance(info.value, ValueError)
    assert_unchanged(before, labels + preds)
    assert metric.num_inst == 0


def test_accuracy_with_one_hot_labels_and_class_id_predictions():
    metric = mx.metric.Accuracy()
    with pytest.raises(
        mx.base.MXNetError,
        match=r"^Accuracy\.update: give the labels as class "
        r"ids, e\.g\. label\.argmax\(axis=1\) \(shape "
        r"\(4,\)\).*wider than the predictions' \(4,\)",
    ):
        metric.update([mx.nd.array(ONE_HOT)], [mx.nd.array(CLASSES)])


@pytest.mark.parametrize(
    "make", [mx.metric.MSE, mx.metric.MAE, mx.metric.RMSE, mx.metric.PearsonCorrelation]
)
def test_regression_metrics_take_labels_shaped_like_the_predictions(make):
    metric = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", mx.MistakeWarning)
        metric.update([mx.nd.array(ONE_HOT)], [mx.nd.array(SCORES)])
    assert np.isfinite(metric.get()[1])


@pytest.mark.parametrize(
    "make, labels, preds",
    [
        (mx.metric.Accuracy, CLASSES, SCORES),  # scores, class ids
        (mx.metric.Accuracy, CLASSES, CLASSES),  # class ids both sides
        (
            mx.metric.Accuracy,
            np.array([[0, 2], [1, 1]], "float32"),  # per-position class ids
            np.array([[0, 2], [1, 0]], "float32"),
        ),
        (mx.metric.Accuracy, CLASSES[:, None], SCORES),  # (N, 1) labels
        (mx.metric.PCC, CLASSES, SCORES),
        (lambda: mx.metric.TopKAccuracy(top_k=2), CLASSES, SCORES),
        (mx.metric.CrossEntropy, CLASSES, SCORES),
        (mx.metric.F1, BINARY, BINARY_SCORES),
    ],
)
def test_right_labels_stay_silent(make, labels, preds):
    metric = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", mx.MistakeWarning)
        metric.update([mx.nd.array(labels)], [mx.nd.array(preds)])
    assert metric.num_inst > 0
