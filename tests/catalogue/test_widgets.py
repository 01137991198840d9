"""Catalogue, widgets: what a learner gives or clicks that is wrong never escapes a widget.

Each widget runs its steps inside ``reporting()``: a mistake lands in ``w.error`` as the
engine's teaching message (the widget stays usable), and the learner's executor never changes,
because widgets run on ``executor.copy()``. Each test does the mistake as a notebook cell or a
click would (constructor arguments, traits set as the page sets them).
"""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets import (
    GradReqPlayground,
    GraphView,
    IndexMap,
    Lifecycle,
    ShapeExplorer,
    Stepper,
)
from softmax_op import SoftmaxProp

from .state import assert_unchanged, snapshot


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


@pytest.fixture
def executor():
    """The learner's executor after one training step: arguments, gradients and outputs set."""
    ex = mlp().simple_bind(mx.cpu(), data=(2, 5))
    rng = np.random.RandomState(0)
    for name, arr in ex.arg_dict.items():
        arr[:] = rng.randint(0, 3, arr.shape) if name == "softmax_label" else rng.randn(*arr.shape)
    ex.forward(is_train=True)
    ex.backward()
    return ex


@pytest.fixture
def kept(executor):
    """After the test: the learner's executor holds exactly what it held before."""
    before = snapshot(executor)
    reqs = list(executor._grad_req)
    yield executor
    assert_unchanged(before, executor)
    assert list(executor._grad_req) == reqs


def first_line(widget):
    return widget.error.splitlines()[0] if widget.error else ""


# --- ShapeExplorer --------------------------------------------------------------------------------
def test_shape_explorer_of_something_that_is_not_a_network():
    widget = ShapeExplorer("net")  # raised TypeError out of the constructor before
    assert first_line(widget) == (
        "TypeError: ShapeExplorer shows a Symbol, an Executor or a Module; got str"
    )
    assert widget.rows == []


def test_shape_explorer_with_a_fractional_size():
    """The field showed '2, 5' (int() dropped the .5) and the table looked fine."""
    widget = ShapeExplorer(mlp(), data=(2, 5.5))
    assert widget.shapes["data"] == "2, 5.5" and widget.bad_field == "data"
    assert (
        "Shape field 'data': '2, 5.5' is not a shape ('5.5' is not a whole number)" in widget.error
    )


def test_shape_explorer_batch_slider_dragged_below_zero(kept):
    widget = ShapeExplorer(kept)
    widget.batch = -3  # as the slider's number box sets it
    assert "'-3' is not a whole number (sizes cannot be negative)" in widget.error
    widget.shapes = {"data": "4, 5", "softmax_label": "4"}  # fixing the fields clears it
    assert widget.error == "" and widget.failed_node == ""


def test_shape_explorer_with_a_weight_of_the_wrong_shape():
    widget = ShapeExplorer(mlp(), data=(2, 5))
    widget.shapes = {**widget.shapes, "fc1_weight": "7, 7"}
    assert widget.failed_node == "fc1"
    assert (
        "input 1 'weight' (node 'fc1_weight') is (7, 7) but the operator needs (10, 5)"
        in widget.error
        and "Fix: give 'fc1_weight' the shape (10, 5)" in widget.error
    )


# --- IndexMap -------------------------------------------------------------------------------------
def test_index_map_with_a_shape_that_is_text():
    widget = IndexMap(SoftmaxProp, shapes={"data": "abc"})
    assert "simple_bind: data='abc' is not a shape; give a tuple of sizes" in widget.error
    assert widget.tables  # the names are still shown, from the Prop alone


def test_index_map_of_a_node_that_does_not_exist(kept):
    widget = IndexMap(kept, node="fc9")
    assert first_line(widget).startswith(
        "KeyError: \"no operator node named 'fc9'; the operator nodes are: fc1, relu1, fc2, softmax"
    )


def test_index_map_grad_req_misspelled(kept):
    widget = IndexMap(kept, node="fc1")
    widget.grad_req = {**widget.grad_req, "fc1_weight": "wrte"}
    assert "grad_req must be in" in widget.error and "got 'wrte'" in widget.error


# --- GradReqPlayground ----------------------------------------------------------------------------
def test_grad_req_playground_misspelled_argument(kept):
    widget = GradReqPlayground(kept, argument="fc1_wieght")
    assert first_line(widget) == (
        "KeyError: \"'fc1_wieght' is not an argument; the arguments "
        "are ['data', 'fc1_weight', 'fc1_bias', 'fc2_weight', "
        "'fc2_bias', 'softmax_label']\""
    )
    widget.argument = "fc1_weight"  # the widget stays usable, and still works on a copy
    assert widget.error == "" and len(widget.columns) == 3


def test_grad_req_playground_asked_for_too_many_runs(kept):
    widget = GradReqPlayground(kept, runs=1000)
    assert first_line(widget) == "ValueError: runs must be between 1 and 10, got 1000"


# --- Stepper --------------------------------------------------------------------------------------
def test_stepper_with_data_of_another_shape(kept):
    widget = Stepper(kept, data=np.ones((3, 7)))
    assert "Shape not match! Argument data, need: (2, 5), received: (3, 7)" in widget.error
    assert "ex.reshape(data=(3, 7))" in widget.error


def test_stepper_jump_to_a_node_that_did_not_run(kept):
    widget = Stepper(kept)
    widget.jump = "fc9"
    assert (
        "no operator node named 'fc9' ran in this recording. Did you mean fc2, fc1? The "
        "operators are: fc1, relu1, fc2, softmax" in widget.error
    )
    widget.cursor = 10**6  # past the end: stays on the last call
    assert widget.cursor == len(widget.calls) - 1


# --- GraphView ------------------------------------------------------------------------------------
def test_graph_view_with_a_negative_size():
    widget = GraphView(mlp(), data=(1, -3))
    assert (
        "GraphView: the shape of 'data' must be a tuple of whole numbers (0 = unknown), "
        "e.g. data=(1, 3, 224, 224); got [1, -3]"
    ) in widget.error


def test_graph_view_click_on_a_node_that_does_not_exist(kept):
    widget = GraphView(kept)
    widget.selected = "fc9"
    assert "GraphView: no node named 'fc9'" in widget.error


# --- Lifecycle ------------------------------------------------------------------------------------
def test_lifecycle_of_something_that_is_not_an_operator_name():
    widget = Lifecycle(5)  # raised TypeError (and a second one from __del__) before
    try:
        assert first_line(widget).startswith(
            "TypeError: Lifecycle(op_type): op_type is the name "
            "a custom operator was registered under"
        )
        assert not widget.recording
    finally:
        widget.close()
    by_class = Lifecycle(SoftmaxProp)  # the Prop class itself: read as its registered name
    try:
        assert by_class.error == "" and by_class.log.op_types == {"softmax"}
    finally:
        by_class.stop()
        by_class.close()


def test_lifecycle_show_a_view_that_does_not_exist():
    widget = Lifecycle("softmax")
    try:
        widget.show = "everything"
        assert "show='everything' is not one of 'all', 'prop', 'op'" in widget.error
    finally:
        widget.stop()
        widget.close()
