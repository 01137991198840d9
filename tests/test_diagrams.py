"""The course's pictures of an operator's three lists and six arrays: drawn from the engine's
contract of the node (every slot the engine lists is labelled, nothing else), and the committed
images are the ones the code draws."""

from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

import minisym as mx
from minisym.contract import node_contract
from minisym_widgets.diagram_examples import examples
from minisym_widgets.diagrams import dependency_diagram, slot_diagram, write_course_pictures

IMAGES = Path(__file__).resolve().parents[1] / "lessons" / "images"


def labels(picture):
    return [t.get_text() for ax in picture.figure.axes for t in ax.texts]


@pytest.mark.parametrize("name", sorted(examples()))
def test_every_slot_of_the_contract_is_labelled(name):
    symbol, title = examples()[name]
    fig = slot_diagram(symbol, title)
    shown = labels(fig)
    node = symbol.outputs[0][0]
    for doc in node_contract(node):
        if doc.role in ("in_data", "out_data", "aux"):
            assert any(f"{doc.role}[{doc.index}] {doc.name}" in text for text in shown), doc
        if doc.role in ("in_grad",) or (doc.role == "out_grad" and doc.in_backward):
            assert f"{doc.role}[{doc.index}] grad of {doc.name}" in shown, doc


def test_a_loss_shows_why_it_has_no_out_grad():
    shown = " ".join(labels(slot_diagram(examples()["slots_softmax_loss"][0])))
    assert "need_top_grad=False" in shown and "out_grad[0]" not in shown
    assert "no auxiliary states" in shown


def test_the_declared_names_come_from_the_operator():
    data = mx.sym.Variable("data")
    shown = labels(slot_diagram(mx.sym.BatchNorm(data, name="bn")))
    assert "list_auxiliary_states()\n-> ['moving_mean', 'moving_var']" in shown
    assert "in_data[2] beta" in shown


def test_a_variable_is_refused_with_what_to_give():
    with pytest.raises(ValueError, match=r"'x' is a Variable, not an operator"):
        slot_diagram(mx.sym.Variable("x"))


def test_the_committed_pictures_are_the_ones_the_code_draws(tmp_path):
    for drawn in write_course_pictures(tmp_path):
        committed = IMAGES / drawn.name
        assert committed.exists(), (
            f"{committed} missing: python -m minisym_widgets.diagrams lessons/images"
        )
        new, old = imread(drawn), imread(committed)
        assert new.shape == old.shape, drawn.name
        # fonts may rasterise a pixel apart on another machine; the drawing may not differ
        assert np.mean(np.abs(new - old) > 0.25) < 0.01, drawn.name


def test_the_dependency_picture_numbers_as_mxnet_does():
    data = mx.sym.Variable("data")
    picture = dependency_diagram(mx.sym.BatchNorm(data, name="bn"))
    # BatchNorm: 3 outputs (output, mean, var), 3 arguments; it reads out_grad[0], in_data
    # and the saved mean / var, so ids 0, 3, 4, 5, 7, 8
    assert repr(picture).startswith(
        "declare_backward_dependency(out_grad=[0, 1, 2], "
        "in_data=[3, 4, 5], out_data=[6, 7, 8]) returned ["
    )
    assert picture._repr_png_().startswith(b"\x89PNG")
    shown = labels(picture)
    assert "in_data[2]\nbeta" in shown and "out_grad[0]\noutput" in shown


def test_the_dependency_picture_follows_the_props_declaration():
    class TwoProp(mx.operator.CustomOpProp):
        def list_outputs(self):
            return ["half", "square"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0], in_shape[0]], []

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return out_grad + [in_data[0]]

    mx.operator.register("diagram_test_two")(TwoProp)
    two = mx.sym.Custom(data=mx.sym.Variable("x"), op_type="diagram_test_two", name="two")
    picture = dependency_diagram(two)
    assert repr(picture) == (
        "declare_backward_dependency(out_grad=[0, 1], in_data=[2], "
        "out_data=[3, 4]) returned [0, 1, 2]"
    )
    assert labels(picture).count("empty") == 2  # out_data 3 and 4
