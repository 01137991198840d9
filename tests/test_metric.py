"""mx.metric: the formulas on hand-computed values, per-sample versus per-batch averaging, local
and global sums, create() and the composite, custom metrics and the errors."""
import math

import pytest

import minisym as mx

nd = mx.nd.array


def test_accuracy_averages_over_samples():
    acc = mx.metric.Accuracy()
    assert acc.get()[0] == "accuracy" and math.isnan(acc.get()[1])
    acc.update([nd([0, 1, 2])], [nd([[0.9, 0.1, 0], [0.1, 0.2, 0.7], [0, 0, 1]])])
    acc.update([nd([1])], [nd([[0.2, 0.8, 0]])])
    assert (acc.sum_metric, acc.num_inst) == (3, 4)
    assert acc.get() == ("accuracy", 0.75)
    assert acc.get_name_value() == [("accuracy", 0.75)]
    assert str(acc) == "EvalMetric: {'accuracy': 0.75}"


def test_accuracy_with_class_predictions_and_float_labels():
    acc = mx.metric.Accuracy()
    acc.update([nd([0, 1, 2, 1.9])], [nd([0, 1, 1, 1])])   # labels truncate to int: 1.9 -> 1
    assert acc.get()[1] == 0.75


def test_accuracy_axis_and_single_arrays():
    acc = mx.metric.Accuracy(axis=0)
    acc.update([nd([0, 1, 1])], [nd([[0.9, 0.1, 0.2], [0.1, 0.9, 0.8]])])
    assert acc.get()[1] == 1.0
    acc = mx.metric.Accuracy()
    acc.update(nd([0, 1]), nd([[0.9, 0.1], [0.8, 0.2]]))     # wrapped into lists
    assert acc.get()[1] == 0.5


def test_accuracy_shape_errors():
    with pytest.raises(ValueError, match="does not match"):
        mx.metric.Accuracy().update([nd([0]), nd([1])], [nd([[1.0, 0]])])
    with pytest.raises(ValueError, match="does not match"):
        mx.metric.Accuracy().update([nd([0, 1, 1])], [nd([[1.0, 0], [0, 1.0]])])


def test_reset_local_keeps_the_global_sums():
    acc = mx.metric.Accuracy()
    acc.update([nd([0, 1])], [nd([[1.0, 0], [1.0, 0]])])
    acc.reset_local()
    acc.update([nd([0])], [nd([[1.0, 0]])])
    assert acc.get()[1] == 1.0
    assert acc.get_global() == ("accuracy", pytest.approx(2 / 3))
    assert acc.get_global_name_value() == [("accuracy", pytest.approx(2 / 3))]
    acc.reset()
    assert acc.global_num_inst == 0 and math.isnan(acc.get_global()[1])


def test_top_k_accuracy():
    top = mx.metric.TopKAccuracy(top_k=2)
    assert top.name == "top_k_accuracy_2"
    top.update([nd([2, 2, 3])], [nd([[0.1, 0.5, 0.3, 0.1], [0.6, 0.1, 0.2, 0.1],
                                     [0.25, 0.25, 0.3, 0.2]])])
    assert top.get()[1] == pytest.approx(2 / 3)
    with pytest.raises(AssertionError, match="Accuracy"):
        mx.metric.TopKAccuracy(top_k=1)


@pytest.mark.parametrize("cls, batch1, batch2", [
    (mx.metric.MSE, (0.25 + 0 + 1 + 4) / 4, 9.0),
    (mx.metric.MAE, (0.5 + 0 + 1 + 2) / 4, 3.0),
    (mx.metric.RMSE, math.sqrt((0.25 + 0 + 1 + 4) / 4), 3.0),
])
def test_regression_metrics_average_per_batch(cls, batch1, batch2):
    metric = cls()
    metric.update([nd([1, 2, 3, 4])], [nd([1.5, 2, 2, 6])])
    metric.update([nd([0])], [nd([3])])
    assert metric.num_inst == 2          # one per batch, not one per sample
    assert metric.get()[1] == pytest.approx((batch1 + batch2) / 2, rel=1e-6)


def test_regression_metrics_accept_column_predictions():
    mse = mx.metric.MSE()
    mse.update([nd([1, 2])], [nd([[2], [2]])])
    assert mse.get()[1] == 0.5


def test_cross_entropy_is_per_sample():
    ce = mx.metric.CrossEntropy()
    ce.update([nd([0, 2])], [nd([[0.5, 0.5, 0], [0.1, 0.1, 0.8]])])
    ce.update([nd([1])], [nd([[0.0, 1.0, 0.0]])])
    expected = -(math.log(0.5) + math.log(0.8) + math.log(1.0)) / 3
    assert ce.num_inst == 3 and ce.get() == ("cross-entropy", pytest.approx(expected, rel=1e-6))
    eps = mx.metric.CrossEntropy(eps=0.5)
    eps.update([nd([0])], [nd([[0.5, 0.5]])])
    assert eps.get()[1] == pytest.approx(0.0, abs=1e-7)


def test_nll_and_perplexity_and_loss():
    nll = mx.metric.create("nll_loss")
    nll.update([nd([1])], [nd([[0.75, 0.25]])])
    assert nll.name == "nll-loss" and nll.get()[1] == pytest.approx(-math.log(0.25))
    ppl = mx.metric.Perplexity(ignore_label=1)
    ppl.update([nd([0, 1])], [nd([[0.5, 0.5], [0.9, 0.1]])])
    assert ppl.num_inst == 1 and ppl.get()[1] == pytest.approx(2.0)
    loss = mx.metric.Loss()
    loss.update(None, [nd([[1, 2], [3, 4]])])
    assert loss.get() == ("loss", 2.5)


def test_f1_and_mcc():
    f1 = mx.metric.F1()
    # predictions [1, 1, 0, 1] against labels [1, 0, 1, 1]: tp=2, fp=1, fn=1
    f1.update([nd([1, 0, 1, 1])], [nd([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6]])])
    assert f1.get()[1] == pytest.approx(2 / 3)
    mcc = mx.metric.MCC()
    mcc.update([nd([1, 0, 1, 1])], [nd([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6]])])
    # (tp*tn - fp*fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)) with tn=0: the zero term counts as 1
    assert mcc.get()[1] == pytest.approx((0 - 1) / math.sqrt(3 * 3 * 1))
    with pytest.raises(ValueError, match="binary"):
        mx.metric.F1().update([nd([0, 1, 2])], [mx.nd.ones((3, 3))])


def test_create_names_lists_callables_and_instances():
    assert type(mx.metric.create("acc")) is mx.metric.Accuracy
    assert type(mx.metric.create("ce")) is mx.metric.CrossEntropy
    assert mx.metric.create("top_k_acc", top_k=3).name == "top_k_accuracy_3"
    acc = mx.metric.Accuracy()
    assert mx.metric.create(acc) is acc
    comp = mx.metric.create(["acc", "mse"])
    assert type(comp) is mx.metric.CompositeEvalMetric
    with pytest.raises(AssertionError, match="nosuch is not registered"):
        mx.metric.create("nosuch")


def test_composite_flattens_names_and_values():
    comp = mx.metric.CompositeEvalMetric(["acc", mx.metric.MSE()])
    comp.update([nd([0, 1])], [nd([[0.8, 0.2], [0.6, 0.4]])])
    names, values = comp.get()
    assert names == ["accuracy", "mse"]
    # MSE turns the (2,) label into a (2, 1) column, which broadcasts against the (2, 2) scores
    squares = [0.8 ** 2, 0.2 ** 2, 0.4 ** 2, 0.6 ** 2]
    assert values[0] == 0.5 and values[1] == pytest.approx(sum(squares) / 4, rel=1e-6)
    assert [n for n, _ in comp.get_name_value()] == ["accuracy", "mse"]
    assert isinstance(comp.get_metric(5), ValueError)     # MXNet returns it, it does not raise


def test_custom_metrics():
    def errors(label, pred):
        return float((pred.argmax(axis=1) != label).sum())
    custom = mx.metric.create(errors)
    custom.update([nd([0, 1])], [nd([[0.9, 0.1], [0.8, 0.2]])])
    custom.update([nd([0, 1])], [nd([[0.9, 0.1], [0.8, 0.2]])])
    assert custom.name == "errors" and custom.num_inst == 2 and custom.get()[1] == 1.0

    def hits(label, pred):
        return float((pred.argmax(axis=1) == label).sum()), len(label)
    custom = mx.metric.np(hits)
    custom.update([nd([0, 1])], [nd([[0.9, 0.1], [0.8, 0.2]])])
    assert custom.num_inst == 2 and custom.get() == ("hits", 0.5)
    assert mx.metric.CustomMetric(lambda label, pred: 0.0).name == "custom(<lambda>)"
    with pytest.raises(NotImplementedError):
        mx.metric.CustomMetric(errors).get_config()


def test_update_dict_picks_by_name():
    acc = mx.metric.Accuracy(output_names=["out"], label_names=["lab"])
    acc.update_dict({"lab": nd([1]), "other": nd([0])},
                    {"out": nd([[0.0, 1.0]]), "x": nd([[1.0, 0.0]])})
    assert acc.get()[1] == 1.0
