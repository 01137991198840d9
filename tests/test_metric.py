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
    acc.update([nd([0, 1, 2, 1.9])], [nd([0, 1, 1, 1])])  # labels truncate to int: 1.9 -> 1
    assert acc.get()[1] == 0.75


def test_accuracy_axis_and_single_arrays():
    acc = mx.metric.Accuracy(axis=0)
    acc.update([nd([0, 1, 1])], [nd([[0.9, 0.1, 0.2], [0.1, 0.9, 0.8]])])
    assert acc.get()[1] == 1.0
    acc = mx.metric.Accuracy()
    acc.update(nd([0, 1]), nd([[0.9, 0.1], [0.8, 0.2]]))  # wrapped into lists
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
    top.update(
        [nd([2, 2, 3])], [nd([[0.1, 0.5, 0.3, 0.1], [0.6, 0.1, 0.2, 0.1], [0.25, 0.25, 0.3, 0.2]])]
    )
    assert top.get()[1] == pytest.approx(2 / 3)
    with pytest.raises(AssertionError, match="Accuracy"):
        mx.metric.TopKAccuracy(top_k=1)


@pytest.mark.parametrize(
    "cls, batch1, batch2",
    [
        (mx.metric.MSE, (0.25 + 0 + 1 + 4) / 4, 9.0),
        (mx.metric.MAE, (0.5 + 0 + 1 + 2) / 4, 3.0),
        (mx.metric.RMSE, math.sqrt((0.25 + 0 + 1 + 4) / 4), 3.0),
    ],
)
def test_regression_metrics_average_per_batch(cls, batch1, batch2):
    metric = cls()
    metric.update([nd([1, 2, 3, 4])], [nd([1.5, 2, 2, 6])])
    metric.update([nd([0])], [nd([3])])
    assert metric.num_inst == 2  # one per batch, not one per sample
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
    squares = [0.8**2, 0.2**2, 0.4**2, 0.6**2]
    assert values[0] == 0.5 and values[1] == pytest.approx(sum(squares) / 4, rel=1e-6)
    assert [n for n, _ in comp.get_name_value()] == ["accuracy", "mse"]
    assert isinstance(comp.get_metric(5), ValueError)  # MXNet returns it, it does not raise


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
    acc.update_dict(
        {"lab": nd([1]), "other": nd([0])}, {"out": nd([[0.0, 1.0]]), "x": nd([[1.0, 0.0]])}
    )
    assert acc.get()[1] == 1.0


def test_pearson_macro_averages_each_arrays_r():
    import numpy as np

    pr = mx.metric.create("pearsonr")
    assert type(pr) is mx.metric.PearsonCorrelation and pr.name == "pearsonr"
    a, b = [1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 5.0]
    c, d = [3.0, -1.0, 0.5], [2.0, -0.5, 0.1]
    pr.update([nd(a)], [nd(b)])
    pr.update([nd(c)], [nd(d)])
    expected = (np.corrcoef(a, b)[0, 1] + np.corrcoef(c, d)[0, 1]) / 2
    assert pr.num_inst == 2 and pr.get()[1] == pytest.approx(expected, rel=1e-6)
    assert type(pr.get()[1]) is float  # prints as 0.9, not np.float64(0.9)
    with pytest.raises(ValueError, match="does not match"):
        pr.update([nd([1.0, 2.0, 3.0])], [nd([[1.0, 2.0, 3.0]])])


def test_pearson_micro_is_one_r_over_every_value():
    import numpy as np

    pr = mx.metric.PearsonCorrelation(average="micro")
    # MXNet's running update is exact for the first batch and close afterwards
    pr.update([nd([1.0, 2.0, 3.0, 4.0])], [nd([1.5, 2.0, 2.5, 5.0])])
    assert pr.get()[1] == pytest.approx(np.corrcoef([1, 2, 3, 4], [1.5, 2, 2.5, 5])[0, 1])
    pr.update([nd([3.0, -1.0])], [nd([2.0, -0.5])])
    whole = np.corrcoef([1, 2, 3, 4, 3, -1], [1.5, 2, 2.5, 5, 2, -0.5])[0, 1]
    assert pr.get()[1] == pytest.approx(whole, abs=0.05)
    assert pr.get_global() == ("pearsonr", 0.0)  # MXNet keeps no global sum under micro
    pr.reset()
    assert math.isnan(pr.get()[1]) and pr._labels.count == 0


def test_pcc_is_mcc_for_two_classes_and_grows_with_classes():
    labels, scores = (
        nd([1, 0, 1, 1, 0]),
        nd([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6], [0.6, 0.4]]),
    )
    pcc, mcc = mx.metric.PCC(), mx.metric.MCC()
    pcc.update([labels], [scores])
    mcc.update([labels], [scores])
    assert pcc.get()[1] == pytest.approx(mcc.get()[1]) and type(pcc.get()[1]) is float
    grow = mx.metric.create("pcc")
    grow.update([nd([0, 4, 1])], [nd([0, 4, 3])])  # class ids up to 4: a 5 x 5 matrix
    assert grow.k == 5 and grow.lcm.shape == (5, 5) and grow.lcm[3, 1] == 1
    assert grow.num_inst == 1  # one instance per update call
    single = mx.metric.PCC()
    single.update([nd([1, 1])], [nd([[0.2, 0.8], [0.3, 0.7]])])
    assert math.isnan(single.get()[1])  # one class only: undefined
    single.reset_local()
    assert single.lcm.sum() == 0 and single.gcm.sum() == 2


def test_perplexity_on_sequences_says_how_to_reshape():
    ppl = mx.metric.Perplexity(ignore_label=None)
    with pytest.raises(mx.base.MXNetError) as info:
        ppl.update([nd([[1, 2], [0, 0]])], [mx.nd.ones((2, 2, 3)) / 3])
    assert isinstance(info.value, ValueError)
    text = str(info.value)
    assert "Perplexity.update" in text and "(2, 2, 3)" in text and "(2, 2)" in text
    assert "pred.reshape((4, 3))" in text and "label.reshape((4,))" in text
    assert ppl.num_inst == 0  # nothing was added
    ppl.update([nd([1, 2, 0, 0])], [mx.nd.ones((4, 3)) / 3])
    assert ppl.get()[1] == pytest.approx(3.0, rel=1e-5)


def test_binary_counts_under_mxnets_attribute_names():
    f1, mcc = mx.metric.F1(average="micro"), mx.metric.MCC()
    batch = ([nd([1, 0, 1, 1])], [nd([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6]])])
    f1.update(*batch)
    assert (f1.metrics.true_positives, f1.metrics.false_positives) == (2, 1)
    assert f1.metrics.precision == pytest.approx(2 / 3) and mcc._metrics.total_examples == 0


def test_every_mxnet_name_creates_its_metric():
    expected = {
        "acc": "Accuracy",
        "top_k_accuracy": "TopKAccuracy",
        "ce": "CrossEntropy",
        "nll_loss": "NegativeLogLikelihood",
        "pearsonr": "PearsonCorrelation",
        "pcc": "PCC",
        "mcc": "MCC",
        "f1": "F1",
        "rmse": "RMSE",
        "mse": "MSE",
        "mae": "MAE",
        "perplexity": "Perplexity",
        "loss": "Loss",
        "torch": "Torch",
        "caffe": "Caffe",
        "composite": "CompositeEvalMetric",
    }
    for name, cls in expected.items():
        kwargs = {"top_k": 2} if name.startswith("top") else {}
        if name == "perplexity":
            kwargs = {"ignore_label": None}
        assert type(mx.metric.create(name.upper(), **kwargs)).__name__ == cls, name
    with pytest.raises(AssertionError, match="cross-entropy is not registered"):
        mx.metric.create("cross-entropy")  # the metric's display name is not a create name


def test_mismatched_labels_and_predictions_say_how_to_pair_them():
    with pytest.raises(ValueError) as info:
        mx.metric.Accuracy().update([nd([0]), nd([1])], [nd([[1.0, 0]])])
    assert str(info.value).startswith(
        "Shape of labels 2 does not match shape of predictions 1: "
        "update got 2 label array(s) and 1 prediction array(s)"
    )
    assert "output_names=[...]" in str(info.value)
    with pytest.raises(
        ValueError,
        match=r"labels 3 does not match shape of predictions 2: a "
        r"metric needs one label per sample",
    ):
        mx.metric.Accuracy().update([nd([0, 1, 1])], [nd([[1.0, 0], [0, 1.0]])])
    with pytest.raises(ValueError, match=r"a single NDArray, whose len\(\) counts its rows"):
        mx.metric.Accuracy().update(nd([0, 1, 1]), [nd([[1.0, 0], [0, 1.0], [0, 1.0]])])
    with pytest.raises(
        ValueError,
        match=r"\(3,\) does not match shape of predictions \(1, 3\): "
        r"this metric compares .* pred.reshape\(label.shape\)",
    ):
        mx.metric.PearsonCorrelation().update([nd([1.0, 2.0, 3.0])], [nd([[1.0, 2.0, 3.0]])])


def test_module_update_metric_names_the_output_a_metric_scores():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    net = mx.sym.Group([mx.sym.SoftmaxOutput(fc, name="softmax"), mx.sym.BlockGrad(fc)])
    mod = mx.mod.Module(net)
    mod.bind(data_shapes=[("data", (2, 3))], label_shapes=[("softmax_label", (2,))])
    mod.init_params()
    mod.forward(mx.io.DataBatch([mx.nd.ones((2, 3))], [nd([0, 1])]), is_train=False)
    with pytest.raises(ValueError, match="2 prediction array"):
        mod.update_metric(mx.metric.Accuracy(), [nd([0, 1])])
    acc = mx.metric.Accuracy(output_names=["softmax_output"])
    mod.update_metric(acc, [nd([0, 1])])
    assert acc.num_inst == 2


def test_probability_and_class_count_mistakes_say_what_fits():
    with pytest.raises(AssertionError) as info:
        mx.metric.CrossEntropy().update([nd([0, 1, 1])], [nd([[0.6, 0.4], [0.3, 0.7]])])
    assert str(info.value) == (
        "CrossEntropy.update: 3 labels for 2 predictions (shape (2, 2)): give one class id per "
        "row of probabilities, labels of shape (batch,) for predictions (batch, classes)"
    )
    with pytest.raises(
        AssertionError,
        match=r"^shape mismatch: \(3,\) vs. \(2, 2\): Perplexity"
        r".* hold 3 class ids and the predictions 2 rows",
    ):
        mx.metric.Perplexity(None).update([nd([0, 1, 1])], [nd([[0.6, 0.4], [0.3, 0.7]])])
    with pytest.raises(
        ValueError,
        match=r"^F1 currently only supports binary classification. "
        r"These labels hold the classes 0, 1, 2; .*PCC",
    ):
        mx.metric.F1().update([nd([0, 1, 2])], [mx.nd.ones((3, 3))])
    top = mx.metric.TopKAccuracy(top_k=5)
    with pytest.raises(
        ValueError,
        match=r"top_k=5\).update: the predictions of shape \(2, 3\) "
        r"score 3 classes, fewer than top_k",
    ):
        top.update([nd([0, 1])], [nd([[0.2, 0.5, 0.3]] * 2)])
    assert top.num_inst == 0
    exact = mx.metric.TopKAccuracy(top_k=3)  # as many as the classes: all right
    exact.update([nd([0, 1])], [nd([[0.2, 0.5, 0.3]] * 2)])
    assert exact.get()[1] == 1.0
