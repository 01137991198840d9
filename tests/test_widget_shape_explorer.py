"""ShapeExplorer at trait level: every interaction sets traits as a click in the page would,
and the rows, sliders, failing node and inline error follow; bad input never escapes."""

import re

import numpy as np
import pytest

import minisym as mx
from minisym_widgets import ShapeExplorer
from minisym_widgets._base import MAX_MESSAGE_BYTES
from minisym_widgets.shape_explorer import ShapeTextError, parse_shape
from nets import resnet


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def small_cnn():
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv1")
    x = mx.sym.BatchNorm(x, name="bn1")
    x = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    return mx.sym.FullyConnected(mx.sym.Flatten(x, name="flat"), num_hidden=5, name="fc1")


def row(widget, name):
    """{'op', 'in', 'out', 'aux', 'status'} of the row called ``name``."""
    for r in widget.rows:
        if r[0] == name:
            return {
                "op": r[1],
                "in": {s[0]: s[2] for s in r[2]},
                "entries": {s[0]: s[1] for s in r[2]},
                "out": dict(r[3]),
                "aux": dict(r[4]),
                "status": r[5],
            }
    raise AssertionError(f"no row {name!r} in {[r[0] for r in widget.rows]}")


def names(widget):
    return [r[0] for r in widget.rows]


# --- the text fields ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, shape",
    [
        ("1, 3, 224, 224", (1, 3, 224, 224)),
        ("(2,3)", (2, 3)),
        ("[4, 5]", (4, 5)),
        ("(3,)", (3,)),
        ("7", (7,)),
        ("0, 7", (0, 7)),
        ("?, 3, ?, ?", (0, 3, 0, 0)),
        ("", None),
        ("  ", None),
        ("()", None),
    ],
)
def test_shape_text_parses(text, shape):
    assert parse_shape(text, "data") == shape


@pytest.mark.parametrize(
    "text, why",
    [
        ("1, 3, x", "'x' is not a whole number"),
        ("1,,3", "a dimension is missing"),
        ("-1, 3", "sizes cannot be negative"),
        ("2.5, 3", "'2.5' is not a whole number"),
    ],
)
def test_bad_shape_text_names_the_field_and_why(text, why):
    with pytest.raises(ShapeTextError, match=re.escape(why)) as info:
        parse_shape(text, "data")
    assert info.value.field == "data"
    assert "Shape field 'data'" in str(info.value)


# --- opening it ---------------------------------------------------------------------------------
def test_opens_with_fields_sliders_and_operator_rows():
    w = ShapeExplorer(mlp(), data=(4, 7), softmax_label=(4,))
    assert w.shapes == {"data": "4, 7", "softmax_label": "4"}
    assert w.batch == 4 and not w.has_image
    assert w.batch_fields == ["data", "softmax_label"]
    assert names(w) == ["fc1", "relu1", "fc2", "softmax"]  # variables folded away
    assert row(w, "fc1")["in"] == {"data": "(4, 7)", "weight": "(10, 7)", "bias": "(10,)"}
    assert row(w, "fc2")["entries"]["data"] == "relu1_output"
    assert row(w, "softmax")["out"] == {"output": "(4, 3)"}
    assert all(r[5] == "ok" for r in w.rows)
    assert w.error == "" and w.failed_node == ""
    assert w.summary == "Every shape of all 4 operators is known."
    assert "fc2_weight" in w.candidates and "data" not in w.candidates


def test_default_data_field_is_an_image_batch_of_one():
    w = ShapeExplorer(small_cnn())
    assert w.shapes == {"data": "1, 3, 224, 224"}
    assert (w.batch, w.image_size, w.has_image) == (1, 224, True)
    assert row(w, "pool1")["out"]["output"] == "(1, 4, 112, 112)"


def test_default_data_is_left_out_when_the_symbol_has_no_data():
    sym = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=2, name="fc")
    w = ShapeExplorer(sym, x=(3, 5))
    assert w.shapes == {"x": "3, 5"} and w.error == ""
    assert row(w, "fc")["out"]["output"] == "(3, 2)"


# --- editing a field ----------------------------------------------------------------------------
def test_editing_a_field_updates_rows_and_sliders():
    w = ShapeExplorer(small_cnn())
    w.shapes = {"data": "2, 3, 32, 32"}
    assert (w.batch, w.image_size) == (2, 32)
    assert row(w, "conv1")["out"]["output"] == "(2, 4, 32, 32)"
    assert row(w, "fc1")["in"]["weight"] == "(5, 1024)"
    assert w.largest_message < MAX_MESSAGE_BYTES


def test_a_field_that_is_not_4d_hides_the_image_slider():
    w = ShapeExplorer(small_cnn())
    w.shapes = {"data": "2, 3, 32"}
    assert not w.has_image
    assert w.failed_node == "conv1"


# --- the sliders --------------------------------------------------------------------------------
def test_batch_slider_rewrites_dim_0_of_data_and_labels_only():
    w = ShapeExplorer(mlp(), data=(4, 7), softmax_label=(4,))
    w.add_argument = "fc1_weight"
    w.batch = 16
    assert w.shapes == {"data": "16, 7", "softmax_label": "16", "fc1_weight": "10, 7"}
    assert row(w, "softmax")["out"]["output"] == "(16, 3)"
    assert w.error == ""


def test_image_slider_sets_height_and_width():
    w = ShapeExplorer(small_cnn(), data=(2, 3, 8, 8))
    w.image_size = 16
    assert w.shapes == {"data": "2, 3, 16, 16"} and w.batch == 2
    assert row(w, "pool1")["out"]["output"] == "(2, 4, 8, 8)"
    assert row(w, "fc1")["in"]["weight"] == "(5, 256)"


def test_batch_zero_is_watched_as_partial_inference():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.batch = 0
    assert w.shapes["data"] == "0, 7"
    assert row(w, "fc1")["out"]["output"] == "(?, 10)"
    assert row(w, "fc1")["in"]["weight"] == "(10, 7)"
    assert row(w, "fc1")["status"] == "partial"
    assert w.error == "" and w.failed_node == ""
    assert "still have unknown shapes (?)" in w.summary


def test_moving_the_batch_slider_over_a_bad_field_keeps_its_error():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.shapes = {"data": "4, x"}
    w.batch = 9
    assert w.shapes == {"data": "4, x"} and w.bad_field == "data"
    assert "Shape field 'data'" in w.error


# --- bad text -----------------------------------------------------------------------------------
def test_bad_text_is_an_inline_error_naming_the_field_and_the_widget_stays_usable():
    w = ShapeExplorer(small_cnn(), data=(1, 3, 8, 8))
    before = w.rows
    w.shapes = {"data": "1, 3, x"}
    assert w.bad_field == "data"
    assert "Shape field 'data': '1, 3, x' is not a shape" in w.error
    assert w.rows == before  # the last shapes that parsed stay on screen, said so
    assert w.summary.startswith("Showing the shapes of the last fields that parsed.")
    w.shapes = {"data": "1, 3, 4, 4"}
    assert w.error == "" and w.bad_field == ""
    assert row(w, "pool1")["out"]["output"] == "(1, 4, 2, 2)"


def test_bad_text_from_the_start_still_shows_the_graph():
    w = ShapeExplorer(mlp(), data="4, seven")
    assert w.bad_field == "data" and "'seven' is not a whole number" in w.error
    assert row(w, "fc1")["out"]["output"] == "?"


def test_an_empty_field_leaves_that_input_unknown():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.shapes = {"data": ""}
    assert w.error == ""
    assert row(w, "fc1")["out"]["output"] == "?"
    assert (
        w.summary == "4 of 4 operators still have unknown shapes (?): give more of the "
        "input shapes."
    )
    w.shapes = {}
    assert w.summary.endswith("give an input shape.")


# --- a conflict, then the fix --------------------------------------------------------------------
def test_conflict_marks_the_failing_node_with_infer_shapes_message_then_the_fix_clears_it():
    sym = mlp()
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_shape(data=(4, 7), fc1_weight=(10, 6))
    w = ShapeExplorer(sym, data=(4, 7))
    w.add_argument = "fc1_weight"
    assert w.shapes["fc1_weight"] == "10, 7"  # prefilled with what inference knows
    assert w.add_argument == ""
    w.shapes = {**w.shapes, "fc1_weight": "10, 6"}
    assert w.failed_node == "fc1"
    assert w.error == str(info.value)
    assert row(w, "fc1")["status"] == "failed"
    assert row(w, "fc1")["out"]["output"] == "?"
    assert [row(w, n)["status"] for n in ("relu1", "fc2", "softmax")] == ["unreached"] * 3
    assert (
        w.summary == "Inference stopped at 'fc1' (FullyConnected); 3 operators after it "
        "not reached."
    )
    w.shapes = {**w.shapes, "fc1_weight": "10, 7"}
    assert w.failed_node == "" and w.error == ""
    assert row(w, "softmax")["status"] == "ok"


def test_jump_to_the_failing_node_clears_a_filter_that_hides_it():
    w = ShapeExplorer(mlp(), data=(4, 7), fc1_weight=(10, 6))
    w.filter = "relu"
    assert names(w) == ["relu1"]
    w.focus = w.failed_node  # the "jump to fc1" button
    assert w.filter == "" and "fc1" in names(w)
    assert w.error.startswith("Error in operator fc1")  # still shown


def test_custom_prop_that_raises_is_marked_and_the_widget_stays_usable():
    @mx.operator.register("tse_rgb_only")
    class RgbOnlyProp(mx.operator.CustomOpProp):
        def infer_shape(self, in_shape):
            if in_shape[0][1] != 3:
                raise ValueError(f"expected 3 channels, got {in_shape[0][1]}")
            return in_shape, in_shape

    data = mx.sym.Variable("data")
    sym = mx.sym.Activation(
        mx.sym.Custom(data, op_type="tse_rgb_only", name="rgb"), act_type="relu", name="after"
    )
    w = ShapeExplorer(sym, data=(1, 4, 8, 8))
    assert w.failed_node == "rgb"
    assert "expected 3 channels, got 4" in w.error
    assert "RgbOnlyProp.infer_shape of Custom 'rgb'" in w.error
    assert row(w, "after")["status"] == "unreached"
    w.shapes = {"data": "1, 3, 8, 8"}
    assert w.failed_node == "" and w.error == ""
    assert row(w, "after")["out"]["output"] == "(1, 3, 8, 8)"


# --- adding and removing fields -----------------------------------------------------------------
def test_adding_an_unknown_argument_suggests_names_and_changes_nothing():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.add_argument = "fc1_wieght"
    assert "'fc1_wieght' is not an argument" in w.error
    assert "did you mean 'fc1_weight'" in w.error
    assert w.shapes == {"data": "4, 7"} and w.add_argument == ""
    w.batch = 5  # still usable; the error goes
    assert w.error == "" and row(w, "fc1")["out"]["output"] == "(5, 10)"


def test_adding_an_auxiliary_state_says_it_is_inferred():
    w = ShapeExplorer(small_cnn(), data=(1, 3, 8, 8))
    w.add_argument = "bn1_moving_mean"
    assert "auxiliary states are inferred, never given" in w.error
    assert list(w.shapes) == ["data"]


def test_an_unknown_name_in_the_fields_is_an_error_on_that_field():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.shapes = {"data": "4, 7", "dat": "1"}
    assert w.bad_field == "dat" and "'dat' is not an argument" in w.error


def test_adding_an_argument_already_shown_keeps_the_conflict_error():
    w = ShapeExplorer(mlp(), data=(4, 7), fc1_weight=(10, 6))
    w.add_argument = "fc1_weight"
    assert w.shapes["fc1_weight"] == "10, 6"
    assert w.error.startswith("Error in operator fc1")


# --- the table: filter, variables, focus ---------------------------------------------------------
def test_filter_by_name_or_op_and_unfold_variables():
    w = ShapeExplorer(small_cnn(), data=(1, 3, 8, 8))
    w.filter = "Conv"
    assert names(w) == ["conv1"]
    assert w.counts.startswith("1 of ")
    w.filter = "pooling"
    assert names(w) == ["pool1"]
    w.filter = ""
    w.show_variables = True
    assert names(w)[:2] == ["data", "conv1_weight"]
    assert row(w, "data")["status"] == "given"
    assert row(w, "conv1_weight")["out"]["conv1_weight"] == "(4, 3, 3, 3)"
    assert row(w, "bn1")["aux"] == {"moving_mean": "(4,)", "moving_var": "(4,)"}


def test_focus_on_a_folded_variable_unfolds_variables():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.focus = "fc1_weight"
    assert w.show_variables and "fc1_weight" in names(w)


def test_focus_on_an_unknown_node_is_an_error_then_the_next_step_clears_it():
    w = ShapeExplorer(mlp(), data=(4, 7))
    w.focus = "fc9"
    assert "no node named 'fc9'" in w.error
    w.focus = "fc1"
    assert w.error == ""


# --- other targets -------------------------------------------------------------------------------
def test_a_bound_module_gives_its_data_and_label_shapes():
    mod = mx.mod.Module(mlp(), data_names=["data"], label_names=["softmax_label"])
    mod.bind(data_shapes=[("data", (6, 7))], label_shapes=[("softmax_label", (6,))])
    w = ShapeExplorer(mod)
    assert w.shapes == {"data": "6, 7", "softmax_label": "6"}
    assert row(w, "softmax")["out"]["output"] == "(6, 3)"


def test_an_executor_gives_its_data_shape_and_is_left_alone():
    ex = mlp().simple_bind(mx.cpu(), data=(2, 7))
    weight = ex.arg_dict["fc1_weight"].asnumpy().copy()
    w = ShapeExplorer(ex)
    assert w.shapes == {"data": "2, 7", "softmax_label": "2"}
    w.batch = 3
    assert ex.arg_dict["data"].shape == (2, 7)
    np.testing.assert_array_equal(ex.arg_dict["fc1_weight"].asnumpy(), weight)


def test_anything_else_is_a_type_error_shown_inline():
    widget = ShapeExplorer("fc1")  # as every widget: a mistake is shown, never raised
    assert widget.error.startswith(
        "TypeError: ShapeExplorer shows a Symbol, an Executor or a Module; got str"
    )
    assert widget.rows == [] and "error: TypeError" in widget.text()


# --- fallbacks -----------------------------------------------------------------------------------
def test_text_and_html_are_deterministic_and_show_the_failure():
    make = lambda: ShapeExplorer(mlp(), data=(4, 7), fc1_weight=(10, 6))
    a, b = make(), make()
    assert a.text() == b.text() == repr(a)
    assert a.html() == b.html()
    assert "fc1_weight = (10, 6)" in a.text()
    assert "[failed]" in a.text() and "[unreached]" in a.text()
    assert "msw-shape-explorer-failed" in a.html()
    assert not re.search(r"0x[0-9a-f]{6,}|/tmp/", a.text() + a.html())


def test_text_of_a_big_table_is_a_window_around_the_failure():
    w = ShapeExplorer(resnet(50), data=(1, 3, 224, 224), fc1_weight=(10, 1000))
    assert w.failed_node == "fc1"
    body = [line for line in w.text().splitlines() if line.startswith("  ")]
    assert len(body) <= 20
    assert any(line.strip().startswith("fc1 ") and "[failed]" in line for line in body)


# --- ResNet-50: what the browser test opens ------------------------------------------------------
def test_resnet50_messages_stay_small_through_every_interaction():
    w = ShapeExplorer(resnet(50), data=(1, 3, 224, 224))
    assert w.error == "" and len(w.rows) > 150
    w.shapes = {"data": "2, 3, 224, 224"}
    assert row(w, "conv0")["out"]["output"] == "(2, 64, 112, 112)"
    w.image_size = 64
    assert row(w, "pool1")["in"]["data"] == "(2, 2048, 2, 2)"
    w.show_variables = True
    w.filter = "stage3"
    assert names(w) and all("stage3" in n for n in names(w))
    w.filter = ""
    w.add_argument = "conv0_weight"
    w.shapes = {**w.shapes, "conv0_weight": "64, 4, 7, 7"}
    assert w.failed_node == "conv0"
    w.focus = "conv0"
    w.batch = 0
    assert w.failed_node == "conv0"
    w.shapes = {"data": "1, 3, 224, 224"}
    assert w.error == "" and w.failed_node == ""
    assert w.largest_message < MAX_MESSAGE_BYTES
    assert len(w.html()) < 20_000


def test_composes_with_the_index_map_of_the_clicked_row():
    pytest.importorskip("minisym_widgets.index_map")
    w = ShapeExplorer(mlp(), data=(4, 7))
    box = w.with_index_map()
    assert box.children[0] is w
    for name in ("fc1", "fc1_weight", "fc9"):  # an operator, a variable, a typo: none raise
        w.focus = name
    w.shapes = {"data": "4, x"}
    im = w.index_map("fc1")  # the shapes of the last fields that parsed
    assert im.node == "fc1" and im.error == ""
    assert "(4, 10)" in im.text()
