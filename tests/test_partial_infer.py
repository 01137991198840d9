"""Partial shape inference as MXNet 1.9.1 does it: sizes left 0 (unknown) filled in forward and
backward, operator by operator, and the teaching errors where MXNet cannot infer. The recorded
comparisons with MXNet are tests/differential/programs/p550-p557; these pin down what the
fixtures cannot: the messages, the deliberate differences, and what the widgets read."""

import pytest

import minisym as mx
from minisym.base import MXNetError
from minisym.graph.infer import infer_report

V = mx.sym.Variable
a, b, c, label = V("a"), V("b"), V("c"), V("l")


def named(sym, result):
    """infer_shape's (args, outs, aux) with the arguments by name."""
    args, outs, aux = result
    return dict(zip(sym.list_arguments(), args)), outs, aux


# --- the example -------------------------------------------------------------------------
def test_fully_connected_fills_the_batch_back_from_the_output():
    net = mx.sym.FullyConnected(a, num_hidden=21, name="fc") + c
    expected = (
        {"a": (5, 10), "fc_weight": (21, 10), "fc_bias": (21,), "c": (5, 21)},
        [(5, 21)],
        [],
    )
    assert named(net, net.infer_shape_partial(a=(0, 10), c=(5, 0))) == expected
    assert named(net, net.infer_shape(a=(0, 10), c=(5, 0))) == expected


def test_without_the_output_the_batch_stays_unknown_and_infer_shape_warns():
    net = mx.sym.FullyConnected(a, num_hidden=21, name="fc") + c
    args, outs, _ = named(net, net.infer_shape_partial(a=(0, 10)))
    assert args["a"] == (0, 10) and args["c"] == (0, 21) and outs == [(0, 21)]
    with pytest.warns(UserWarning) as caught:
        assert net.infer_shape(a=(0, 10)) == (None, None, None)
    assert str(caught[0].message) == (
        "Cannot decide shape for the following arguments (0s in shape means unknown "
        "dimensions). Consider providing them as input:\n\ta: (0, 10)\n\tc: (0, 21)"
    )


# --- operator by operator ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "sym, given, name, expected",
    [
        # Convolution: the batch always, a spatial size where the stride is 1
        (
            mx.sym.Convolution(a, kernel=(3, 3), num_filter=4, name="cv") + c,
            dict(a=(0, 3, 0, 0), c=(2, 4, 6, 6)),
            "a",
            (2, 3, 8, 8),
        ),
        (
            mx.sym.Convolution(a, kernel=(3, 3), stride=(2, 1), num_filter=4, name="cv") + c,
            dict(a=(0, 3, 0, 0), c=(2, 4, 5, 6)),
            "a",
            (2, 3, 0, 8),
        ),
        # SliceChannel: data's other sizes from one part
        (
            mx.sym.split(a, num_outputs=2, axis=1, name="sp")[0] + b,
            dict(a=(0, 6), b=(2, 3)),
            "a",
            (2, 6),
        ),
        (
            mx.sym.split(a, num_outputs=3, axis=1, squeeze_axis=True, name="sq")[1] + b,
            dict(a=(0, 3, 0), b=(2, 4)),
            "a",
            (2, 3, 4),
        ),
        # transpose and expand_dims merge both ways
        (mx.sym.transpose(a, axes=(1, 0, 2)) + b, dict(a=(2, 0, 4), b=(5, 0, 0)), "a", (2, 5, 4)),
        (mx.sym.expand_dims(a, axis=1) + b, dict(a=(0, 3), b=(2, 1, 0)), "a", (2, 3)),
        # log_softmax and SoftmaxActivation infer their data back, softmax does not
        (mx.sym.log_softmax(a) + b, dict(b=(2, 3)), "a", (2, 3)),
        (mx.sym.softmax(a) + b, dict(b=(2, 3)), "a", ()),
        (mx.sym.SoftmaxActivation(a) + b, dict(a=(0, 3), b=(2, 0)), "a", (2, 3)),
        # Flatten and the regression outputs: nothing until data is wholly known
        (mx.sym.Flatten(a) + b, dict(a=(0, 3, 4), b=(2, 0)), "b", (2, 0)),
        (mx.sym.LinearRegressionOutput(a, label, name="lr"), dict(a=(0, 3)), "l", ()),
        # a prelu gamma from a partly known data
        (mx.sym.LeakyReLU(a, act_type="prelu", name="pr"), dict(a=(0, 3, 4)), "pr_gamma", (3,)),
    ],
)
def test_partial_shapes_go_where_mxnet_sends_them(sym, given, name, expected):
    assert named(sym, sym.infer_shape_partial(**given))[0][name] == expected


def test_broadcast_leaves_an_axis_unknown_while_either_side_is():
    out = mx.sym.broadcast_add(a, b)
    assert out.infer_shape_partial(a=(0, 3), b=(2, 3))[1] == [(0, 3)]
    assert out.infer_shape_partial(a=(0, 3), b=(1, 3))[1] == [(0, 3)]
    assert out.infer_shape_partial(a=(2, 1, 0), b=(1, 5, 4))[1] == [(2, 5, 0)]


def test_channel_last_layouts_read_and_write_in_their_order():
    conv = mx.sym.Convolution(a, kernel=(3, 2), num_filter=4, layout="NHWC", name="cv")
    args, outs, _ = named(conv, conv.infer_shape(a=(2, 8, 9, 5)))
    assert args["cv_weight"] == (4, 3, 2, 5) and outs == [(2, 6, 8, 4)]
    back = conv + c
    assert named(back, back.infer_shape_partial(a=(0, 0, 9, 5), c=(2, 6, 8, 4)))[0]["a"] == (
        2,
        8,
        9,
        5,
    )
    pool = mx.sym.Pooling(a, kernel=(2, 2), stride=(2, 2), layout="NHWC", name="pl")
    assert pool.infer_shape(a=(2, 8, 6, 3))[1] == [(2, 4, 3, 3)]


def test_a_custom_prop_sees_minus_one_for_an_unknown_size():
    seen = []

    class Prop(mx.operator.CustomOpProp):
        def infer_shape(self, in_shape):
            seen.append([list(s) for s in in_shape])
            return in_shape, [in_shape[0]], []

    mx.operator.register("tpi_partial")(Prop)
    cu = mx.sym.Custom(a, op_type="tpi_partial", name="cu")
    assert cu.infer_shape_partial(a=(0, 3)) == ([(0, 3)], [(0, 3)], [])  # -1 back is unknown
    assert seen and all(s == [[-1, 3]] for s in seen)


def test_a_custom_prop_returning_a_negative_size_is_told_why():
    class Prop(mx.operator.CustomOpProp):
        def infer_shape(self, in_shape):
            return in_shape, [[in_shape[0][0] * 2, 3]], []

    mx.operator.register("tpi_negative")(Prop)
    cu = mx.sym.Custom(a, op_type="tpi_negative", name="cu")
    with pytest.raises(MXNetError) as caught:
        cu.infer_shape_partial(a=(0, 3))
    text = str(caught.value)
    assert "Custom 'cu'" in text and "[-2, 3]" in text and "in_shape=[[-1, 3]]" in text
    assert "leave an unknown size at -1" in text


# --- where MXNet cannot infer: the teaching errors -----------------------------------------------
@pytest.mark.parametrize(
    "make, given, words",
    [
        (
            lambda: mx.sym.FullyConnected(a, num_hidden=3, name="fc"),
            dict(a=(5, 0)),
            ["FullyConnected 'fc'", "(5, ?)", "unknown feature dimension", "only the batch size"],
        ),
        (
            lambda: mx.sym.Pooling(a, kernel=(2, 2), name="pool"),
            dict(a=(2, 3, 0, 8)),
            ["Pooling 'pool'", "(2, 3, ?, 8)", "spatial axis 0", "give the whole shape of data"],
        ),
        (
            lambda: mx.sym.split(a, num_outputs=2, axis=1, name="sp"),
            dict(a=(4, 0)),
            ["SliceChannel 'sp'", "axis 1", "(4, ?)", "num_outputs=2", "a multiple of 2"],
        ),
        (
            lambda: mx.sym.SoftmaxOutput(a, label, multi_output=True, name="som"),
            dict(a=(0, 3, 4)),
            ["SoftmaxOutput 'som'", "multi_output=True", "(?, 3, 4)", "give data's whole shape"],
        ),
        (
            lambda: mx.sym.LinearRegressionOutput(a, label, name="lr"),
            dict(a=(4, 3), l=(0, 3)),
            ["Error in operator lr", "Provided=(?, 3)", "input 1 'label'", "leave it out"],
        ),
        (
            lambda: mx.sym.Reshape(a, target_shape=(0, 12), name="rs"),
            dict(a=(0, 3, 4)),
            ["Reshape 'rs'", "target_shape=(0, 12)", "(?, 3, 4)", "use shape="],
        ),
        (
            lambda: mx.sym.softmax(a, length=label, axis=1, use_length=True, name="sml") + b,
            dict(b=(2, 5, 3)),
            ["softmax 'sml'", "use_length=True", "'length'", "give data's shape"],
        ),
        (
            lambda: mx.sym.LeakyReLU(a, act_type="prelu", name="pr"),
            dict(a=(5,)),
            ["LeakyReLU 'pr'", "(5,)", "no axis 1", "pr_gamma the shape (1,)"],
        ),
    ],
)
def test_what_mxnet_cannot_infer_raises_a_teaching_error(make, given, words):
    sym = make()
    for infer in (sym.infer_shape_partial, sym.infer_shape):
        with pytest.raises(MXNetError) as caught:
            infer(**given)
        assert isinstance(caught.value, ValueError)
        for word in words:
            assert word in str(caught.value), (word, str(caught.value))


def test_pooling_with_an_unknown_size_raises_even_where_a_big_pad_lets_mxnet_compute():
    # MXNet computes (-1 + 2*2 - 3) // 1 + 1 = 1 from its internal -1 here; minisym raises
    pool = mx.sym.Pooling(a, kernel=(3, 3), pad=(2, 2), name="pool")
    with pytest.raises(MXNetError, match="unknown size on spatial axis 0"):
        pool.infer_shape_partial(a=(2, 3, 0, 8))
    gpool = mx.sym.Pooling(a, kernel=(3, 3), global_pool=True, name="gp")
    assert gpool.infer_shape_partial(a=(2, 3, 0, 0))[1] == [(2, 3, 1, 1)]


def test_a_fully_connected_bias_column_is_inferred_but_cannot_run():
    fc = mx.sym.FullyConnected(a, num_hidden=3, name="fc")
    assert fc.infer_shape(a=(4, 5), fc_bias=(3, 1))[0] == [(4, 5), (3, 5), (3, 1)]
    ex = fc.simple_bind(mx.cpu(), a=(4, 5), fc_bias=(3, 1))
    with pytest.raises(MXNetError) as caught:
        ex.forward()
    assert "FullyConnected 'fc'" in str(caught.value)
    assert "Give the bias the shape (3,)" in str(caught.value)


# --- what the shape explorer reads ---------------------------------------------------------------
def test_the_inference_report_shows_sizes_filled_in_backward():
    net = mx.sym.FullyConnected(a, num_hidden=21, name="fc") + c
    report = infer_report(net, {"a": (0, 10), "c": (5, 0)})
    assert report.ok
    assert report.node("a").outputs[0][2] == (5, 10)
    fc = report.node("fc")
    assert [s for _, _, s in fc.inputs] == [(5, 10), (21, 10), (21,)]
    assert fc.outputs[0][2] == (5, 21)


def test_the_inference_report_stops_at_a_pooling_with_an_unknown_size():
    net = mx.sym.Pooling(
        mx.sym.Convolution(a, kernel=(3, 3), num_filter=2, name="cv"), kernel=(2, 2), name="pool"
    )
    report = infer_report(net, {"a": (1, 3, 0, 8)})
    assert report.failed_node == "pool" and "spatial axis 0" in report.error
    assert report.node("cv").outputs[0][2] == (1, 2, 0, 6)
