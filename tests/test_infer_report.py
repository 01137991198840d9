"""``infer_report``: every node's shapes as shape inference left them, the node where it stopped
and the very message ``infer_shape`` raises there (what the shape explorer and graph view show)."""

import pytest

import minisym as mx
from minisym.graph.infer import InferReport, NodeShapes, infer_report


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    return mx.sym.FullyConnected(x, num_hidden=3, name="fc2")


def conv_bn():
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv1")
    return mx.sym.BatchNorm(x, name="bn1")


# --- a Prop whose infer_shape raises (op_type names start with 'tir_') ----------------------------
class NeedsThreeChannels(ValueError):
    """What the Prop below raises for anything but 3 channels."""


@mx.operator.register("tir_rgb_only")
class RgbOnlyProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        if in_shape[0][1] != 3:
            raise NeedsThreeChannels(f"expected 3 channels, got {in_shape[0][1]}")
        return in_shape, in_shape


def rgb_net():
    data = mx.sym.Variable("data")
    x = mx.sym.Custom(data, op_type="tir_rgb_only", name="rgb")
    return mx.sym.Activation(x, act_type="relu", name="after")


# --- complete -----------------------------------------------------------------------------------
def test_every_node_in_topological_order_variables_included():
    sym = mlp()
    report = infer_report(sym, {"data": (4, 7)})
    assert isinstance(report, InferReport)
    assert all(isinstance(n, NodeShapes) for n in report.nodes)
    assert [n.name for n in report.nodes] == [n.name for n in sym.topo_order()]
    assert [n.op for n in report.nodes] == [
        "null",
        "null",
        "null",
        "FullyConnected",
        "Activation",
        "null",
        "null",
        "FullyConnected",
    ]
    assert report.ok and report.failed_node is None and report.error == ""


def test_complete_mlp_slots_name_argument_entry_and_shape():
    report = infer_report(mlp(), {"data": (4, 7)})
    fc1 = report.node("fc1")
    assert fc1.inputs == (
        ("data", "data", (4, 7)),
        ("weight", "fc1_weight", (10, 7)),
        ("bias", "fc1_bias", (10,)),
    )
    assert fc1.outputs == (("output", "fc1_output", (4, 10)),)
    assert fc1.aux == ()
    assert report.node("fc2").inputs[0] == ("data", "relu1_output", (4, 10))
    assert report.node("fc2_weight").outputs == (("fc2_weight", "fc2_weight", (3, 10)),)
    assert all(n.reached for n in report.nodes)


def test_shapes_agree_with_infer_shape():
    sym = conv_bn()
    args, outs, aux = sym.infer_shape(data=(2, 3, 8, 8))
    report = infer_report(sym, {"data": (2, 3, 8, 8)})
    by_name = {n.name: n.outputs[0][2] for n in report.nodes if n.op == "null"}
    assert [by_name[a] for a in sym.list_arguments()] == args
    assert [by_name[a] for a in sym.list_auxiliary_states()] == aux
    bn = report.node("bn1")
    assert bn.outputs[0] == ("output", "bn1_output", outs[0])
    assert bn.aux == (
        ("moving_mean", "bn1_moving_mean", (4,)),
        ("moving_var", "bn1_moving_var", (4,)),
    )
    assert [s[0] for s in bn.slots()] == [
        "data",
        "gamma",
        "beta",
        "output",
        "mean",
        "var",
        "moving_mean",
        "moving_var",
    ]


# --- partial ------------------------------------------------------------------------------------
def test_unknown_batch_stays_zero_and_unknown_shapes_stay_none():
    report = infer_report(mlp(), {"data": (0, 7)})
    assert report.ok
    assert report.node("fc1").outputs[0][2] == (0, 10)
    assert report.node("fc1").inputs[1][2] == (10, 7)  # the weight needs no batch
    assert report.node("fc2").outputs[0][2] == (0, 3)
    nothing = infer_report(mlp(), {})
    assert nothing.ok
    assert nothing.node("fc1").outputs[0][2] is None
    assert nothing.node("data").outputs[0][2] is None


# --- a conflict ---------------------------------------------------------------------------------
def test_conflict_names_the_failing_node_with_infer_shapes_own_message():
    sym = mlp()
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_shape(data=(4, 7), fc1_weight=(10, 6))
    report = infer_report(sym, {"data": (4, 7), "fc1_weight": (10, 6)})
    assert report.failed_node == "fc1"
    assert report.error == str(info.value)
    assert "Fix: give 'fc1_weight' the shape (10, 7)" in report.error
    assert not report.ok


def test_conflict_keeps_what_was_known_and_marks_later_nodes_not_reached():
    report = infer_report(mlp(), {"data": (4, 7), "fc1_weight": (10, 6)})
    fc1 = report.node("fc1")
    assert fc1.inputs[0][2] == (4, 7) and fc1.inputs[1][2] == (10, 6)
    assert fc1.outputs[0][2] is None
    assert fc1.reached
    assert not report.node("relu1").reached and not report.node("fc2").reached
    assert report.node("fc2_weight").reached  # a variable holds what it was given (nothing)


def test_rule_that_raises_is_reported_not_raised():
    data = mx.sym.Variable("data")
    sym = mx.sym.Convolution(data, num_filter=2, kernel=(3, 3), name="c1")
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_shape(data=(1, 3, 8))
    report = infer_report(sym, {"data": (1, 3, 8)})
    assert report.failed_node == "c1"
    assert report.error == str(info.value)


def test_conflict_found_walking_backwards_leaves_every_node_reached():
    x = mx.sym.Variable("x")
    left = mx.sym.Activation(x, act_type="relu", name="act") + mx.sym.Variable("c")
    right = x + mx.sym.Variable("e")
    sym = mx.sym.Group([left, right])
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_shape(c=(2, 3), e=(2, 4))
    report = infer_report(sym, {"c": (2, 3), "e": (2, 4)})
    assert report.failed_node == "act"
    assert report.error == str(info.value)
    assert all(n.reached for n in report.nodes)


# --- a custom Prop whose infer_shape raises -----------------------------------------------------
def test_custom_prop_exception_is_reported_with_the_engines_notes():
    sym = rgb_net()
    with pytest.raises(NeedsThreeChannels) as info:
        sym.infer_shape(data=(2, 4, 5, 5))
    report = infer_report(sym, {"data": (2, 4, 5, 5)})
    assert report.failed_node == "rgb"
    assert report.error == "\n".join([str(info.value), *info.value.__notes__])
    assert "expected 3 channels, got 4" in report.error
    assert "RgbOnlyProp.infer_shape of Custom 'rgb' (op_type='tir_rgb_only')" in report.error
    assert not report.node("after").reached
    assert report.node("rgb").inputs == (("data", "data", (2, 4, 5, 5)),)


def test_custom_prop_that_accepts_the_shape_reports_complete():
    report = infer_report(rgb_net(), {"data": (2, 3, 5, 5)})
    assert report.ok
    assert report.node("after").outputs[0][2] == (2, 3, 5, 5)


# --- what still raises: naming an argument that is not there ------------------------------------
def test_unknown_argument_name_raises_infer_shapes_keyword_error():
    with pytest.raises(mx.base.MXNetError, match="Keyword argument name dta not found"):
        infer_report(mlp(), {"dta": (4, 7)})


def test_node_lookup_names_the_nodes():
    with pytest.raises(KeyError, match="no node named 'fc9'.*fc1"):
        infer_report(mlp(), {}).node("fc9")


def test_infer_shape_still_raises_after_the_refactor():
    with pytest.raises(mx.base.MXNetError, match="Error in operator fc1"):
        mlp().infer_shape(data=(4, 7), fc1_weight=(10, 6))
