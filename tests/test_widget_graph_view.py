"""GraphView at trait level: the layered layout, collapsing and expanding groups, a click on a
node opening its index map, the node where inference fails drawn in vermillion, and ResNet-50
staying small and fast. Bad input never escapes."""

import re
import time

import ipywidgets
import numpy as np
import pytest

import minisym as mx
from minisym.visualization import is_hidden_weight, node_look
from minisym_widgets import GraphView, IndexMap
from minisym_widgets._base import MAX_MESSAGE_BYTES
from minisym_widgets._layout import layered_layout
from minisym_widgets.graph_view import FAILED, GROUP, residual_unit
from nets import resnet


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def rows(widget):
    """{name: node row} of what is drawn."""
    return {r[0]: r for r in widget.nodes}


def flagged(widget, flag):
    return sorted(r[0] for r in widget.nodes if r[8] & flag)


@pytest.fixture(scope="module")
def resnet50():
    with mx.name.NameManager():
        return resnet(50, num_classes=1000)


# --- the engine helpers it reads -----------------------------------------------------------------
def test_node_look_and_hidden_weights_follow_plot_network():
    assert node_look(
        {"op": "Convolution", "name": "c", "attrs": {"kernel": "(3, 3)", "num_filter": "8"}}
    ) == ("Convolution\n3x3/1, 8", 1)
    assert node_look({"op": "null", "name": "data", "attrs": {}}) == ("data", 0)
    assert node_look({"op": "BatchNorm", "name": "bn1", "attrs": {}}) == ("bn1", 3)
    assert is_hidden_weight({"op": "null", "name": "bn1_moving_var"})
    assert not is_hidden_weight({"op": "null", "name": "data"})
    assert not is_hidden_weight({"op": "FullyConnected", "name": "x_weight"})


# --- layout --------------------------------------------------------------------------------------
def diamond():
    boxes = [(k, 100, 40) for k in ("a", "b", "c", "d", "e")]
    return boxes, [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("a", "d"), ("d", "e")]


def test_layout_is_layered_every_edge_goes_down_and_boxes_do_not_overlap():
    boxes, edges = diamond()
    layout = layered_layout(boxes, edges)
    assert layout.layers == {"a": 0, "b": 1, "c": 1, "d": 2, "e": 3}
    for s, t in edges:
        route = layout.routes[(s, t)]
        assert route[0][1] < route[-1][1]
        assert all(y0 < y1 for (_, y0), (_, y1) in zip(route, route[1:])), route
    assert len(layout.routes[("a", "d")]) == 3  # routed through a point in layer 1
    (bx, by), (cx, cy) = layout.centres["b"], layout.centres["c"]
    assert by == cy and abs(bx - cx) >= 100
    assert all(0 < x < layout.width and 0 < y < layout.height for x, y in layout.centres.values())


def test_layout_is_deterministic():
    boxes, edges = diamond()
    assert layered_layout(boxes, edges) == layered_layout(boxes, edges)


def test_barycentre_ordering_removes_a_crossing():
    boxes = [(k, 80, 40) for k in ("a", "b", "c", "d")]
    layout = layered_layout(boxes, [("a", "d"), ("b", "c")])
    x = {k: layout.centres[k][0] for k in "abcd"}
    assert x["a"] < x["b"] and x["d"] < x["c"]  # c and d swapped: no crossing


def test_sources_sit_just_above_their_consumer():
    boxes = [(k, 80, 40) for k in ("x", "f", "g", "h", "label")]
    layout = layered_layout(boxes, [("x", "f"), ("f", "g"), ("g", "h"), ("label", "h")])
    assert layout.layers["label"] == layout.layers["h"] - 1


def test_layout_of_a_cycle_is_refused():
    with pytest.raises(ValueError, match="cycle"):
        layered_layout([("a", 10, 10), ("b", 10, 10)], [("a", "b"), ("b", "a")])


# --- what is drawn -------------------------------------------------------------------------------
def test_residual_unit_is_read_from_the_name():
    assert residual_unit("stage2_unit1_conv1") == "stage2_unit1"
    assert residual_unit("stage4_unit3_conv1_weight") == "stage4_unit3"
    assert residual_unit("_plus3") is None and residual_unit("conv0") is None
    assert residual_unit("stage1_unit1") is None


def test_mlp_is_drawn_like_plot_network_with_shapes_on_edges():
    view = GraphView(mlp(), data=(32, 784))
    assert view.error == "" and view.failed_node == ""
    assert list(rows(view)) == ["data", "fc1", "relu1", "fc2", "softmax_label", "softmax"]
    assert rows(view)["fc1"][2] == "FullyConnected 10"
    assert rows(view)["data"][2] == "32x784"  # a variable shows its full shape
    labels = sorted(label for _, label in view.edges)
    assert labels == ["10", "10", "3", "32", "784"]  # batch axis dropped, as plot_network does
    for points, _ in view.edges:
        assert points[1] < points[-1]


def test_show_weights_toggle_draws_weights_with_their_full_shape():
    view = GraphView(mlp(), data=(32, 784))
    assert "fc1_weight" not in rows(view)
    view.show_weights = True
    assert {"fc1_weight", "fc1_bias", "fc2_weight"} <= set(rows(view))
    assert "10x784" in [label for _, label in view.edges]
    view.show_weights = False
    assert "fc1_weight" not in rows(view)


def test_collapse_and_expand_change_the_node_count(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    assert len(view.groups) == 16
    assert flagged(view, GROUP) == sorted(view.groups)
    collapsed = len(view.nodes)
    view.expanded = ["stage1_unit1"]  # what a click on its dashed box sends
    assert len(view.nodes) == collapsed - 1 + 10
    assert "stage1_unit1_conv2" in rows(view) and "stage1_unit1" not in rows(view)
    assert [f[0] for f in view.frames] == ["stage1_unit1"]
    view.expanded = list(view.groups)
    assert flagged(view, GROUP) == [] and len(view.frames) == 16
    view.expanded = []  # "collapse all", or a click on each frame's title
    assert len(view.nodes) == collapsed and view.frames == []


def test_collapsed_unit_keeps_shapes_and_the_residual_add(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    assert "64x56x56" in [label for _, label in view.edges]
    assert "_plus0" in rows(view)
    unit, plus = rows(view)["stage1_unit2"], rows(view)["_plus1"]
    assert unit[5] < plus[5]


def test_group_by_none_draws_every_node(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224), group_by=None)
    assert view.groups == [] and "stage3_unit2_bn1" in rows(view)


# --- selecting a node ----------------------------------------------------------------------------
def test_selecting_a_node_opens_its_index_map_below_the_graph():
    view = GraphView(mlp(), data=(32, 784))
    assert isinstance(view.view, ipywidgets.VBox) and view.view.children[0] is view
    view.selected = "fc1"  # what a click on the fc1 box sends
    assert view.error == ""
    child = view.detail.children[0]
    assert isinstance(child, IndexMap) and child is view.index_map
    assert child.node == "fc1" and "(10, 784)" in child.text()
    view.selected = "fc2"
    assert view.detail.children[0] is child and child.node == "fc2"  # reused, bound once
    view.selected = ""
    assert view.detail.children == () and view.index_map is None


def test_selecting_a_variable_says_which_index_reads_it():
    view = GraphView(mlp(), data=(32, 784))
    view.selected = "fc1_weight"
    note = view.detail.children[0]
    assert isinstance(note, ipywidgets.HTML) and view.index_map is None
    assert "<code>in_data[1]</code> (<code>weight</code>) of <code>fc1</code>" in note.value


def test_selecting_a_node_inside_a_collapsed_unit_expands_it(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    view.selected = "stage2_unit3_conv2"
    assert view.expanded == ["stage2_unit3"] and "stage2_unit3_conv2" in rows(view)
    assert view.index_map.node == "stage2_unit3_conv2"
    assert "(1, 128, 28, 28)" in view.index_map.text()


def test_unknown_node_name_is_an_inline_error_and_the_view_stays_usable():
    view = GraphView(mlp(), data=(32, 784))
    view.selected = "fc3"
    assert "no node named 'fc3'" in view.error and "did you mean" in view.error
    assert view.detail.children == ()
    view.selected = "relu1"
    assert view.error == "" and view.index_map.node == "relu1"


def test_selecting_a_group_name_explains_what_to_do(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    view.selected = "stage1_unit1"
    assert "is a group of" in view.error and "stage1_unit1_bn1" in view.error
    assert view.expanded == []


def test_unknown_group_in_expanded_is_an_inline_error(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    view.expanded = ["stage1_unit1", "stage9_unit1"]
    assert "no group named 'stage9_unit1'" in view.error
    assert view.expanded == ["stage1_unit1"] and "stage1_unit1_bn1" in rows(view)


# --- inference failing ---------------------------------------------------------------------------
def test_failing_inference_colours_the_failing_node_with_the_teaching_error():
    view = GraphView(mlp(), data=(32, 784), fc1_weight=(10, 7))
    with pytest.raises(mx.base.MXNetError) as raised:
        mlp().infer_shape(data=(32, 784), fc1_weight=(10, 7))
    assert view.failed_node == "fc1"
    assert flagged(view, FAILED) == ["fc1"]
    assert str(raised.value) in view.error
    assert "fc1" in view.text() and "vermillion" in view.text()
    view.shapes = {"data": [32, 784]}  # the fix
    assert view.failed_node == "" and view.error == "" and flagged(view, FAILED) == []


def test_failure_inside_a_collapsed_unit_colours_its_box(resnet50):
    view = GraphView(resnet50, data=(1, 3, 224, 224), stage2_unit1_conv1_weight=(128, 99, 1, 1))
    assert view.failed_node == "stage2_unit1_conv1"
    assert flagged(view, FAILED) == ["stage2_unit1"]
    assert rows(view)["stage2_unit1"][2] == "fails at stage2_unit1_conv1"
    view.expanded = ["stage2_unit1"]
    assert flagged(view, FAILED) == ["stage2_unit1_conv1"]
    assert "stage2_unit1_conv1" in view.error  # still shown while other steps succeed


def test_bad_shapes_and_bad_targets_never_escape():
    view = GraphView(mlp(), data="32, 784")
    assert "the shape of 'data' must be a tuple" in view.error and view.nodes  # drawn anyway
    view.show_weights = True  # another step succeeding keeps the error on show
    assert "the shape of 'data'" in view.error
    view.shapes = {"dta": [32, 784]}
    assert "dta" in view.error
    view.shapes = {"data": [32, 784]}
    assert view.error == ""
    broken = GraphView("not a symbol")
    assert "Symbol" in broken.error and broken.nodes == []


def test_zoom_is_clamped():
    view = GraphView(mlp())
    view.zoom = 100
    assert view.zoom == 4.0
    view.zoom = 0
    assert view.zoom == 0.05


# --- other targets -------------------------------------------------------------------------------
def test_an_executor_gives_its_shapes_and_is_left_alone():
    ex = mlp().simple_bind(mx.cpu(), data=(4, 6))
    ex.arg_dict["fc1_weight"][:] = 0.5
    view = GraphView(ex)
    assert view.shapes["data"] == [4, 6] and rows(view)["data"][2] == "4x6"
    view.selected = "fc1"
    assert view.index_map.error == "" and "(10, 6)" in view.index_map.text()
    assert np.all(ex.arg_dict["fc1_weight"].asnumpy() == 0.5)


def test_a_bound_module_gives_its_executor_shapes():
    mod = mx.mod.Module(mlp(), data_names=["data"], label_names=["softmax_label"])
    mod.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    view = GraphView(mod)
    assert view.shapes["data"] == [2, 5] and rows(view)["softmax_label"][2] == "2"
    view.selected = "fc2"
    assert view.index_map.error == "" and "(3, 10)" in view.index_map.text()


def test_an_unbound_module_shows_its_symbol():
    mod = mx.mod.Module(mlp(), data_names=["data"], label_names=["softmax_label"])
    view = GraphView(mod, data=(2, 5))
    assert view.error == "" and "fc2" in rows(view)


# --- text, html, size and speed ------------------------------------------------------------------
def test_text_and_html_are_deterministic_and_informative():
    first, second = GraphView(mlp(), data=(32, 784)), GraphView(mlp(), data=(32, 784))
    assert first.text() == second.text() and first.html() == second.html()
    text = first.text()
    assert "fc1" in text and "FullyConnected 10" in text and "-> 10" in text
    assert not re.search(r"0x[0-9a-f]{6,}|/tmp/|\d+\.\d+ ?s\b", text + first.html())
    assert first.html().count("<rect") == len(first.nodes) and "<svg" in first.html()
    bundle = first._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    assert bundle["text/plain"] == text
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == first.view.model_id


def test_resnet50_is_laid_out_fast_and_every_message_is_small(resnet50):
    start = time.perf_counter()
    view = GraphView(resnet50, data=(1, 3, 224, 224))
    first = time.perf_counter() - start
    assert first < 1.5, f"first layout took {first:.2f} s"
    assert 30 < len(view.nodes) < 60
    view.selected = "fc1"
    view.expanded = list(view.groups)
    view.show_weights = True  # the largest drawing: every node of ResNet-50
    assert len(view.nodes) == len(resnet50.topo_order())
    assert view.size[0] < 3000
    view.selected = "stage4_unit3_conv3"
    assert view.error == ""
    assert 0 < view.largest_message < MAX_MESSAGE_BYTES
    assert view.index_map.largest_message < MAX_MESSAGE_BYTES
