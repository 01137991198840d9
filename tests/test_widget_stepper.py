"""Stepper at trait level: every interaction sets traits as a click in the page would (cursor,
jump, inspect) and the call shown, the phase, the pictures, the summed gradients and the inline
error follow; bad input never escapes, and the learner's executor never changes."""

import base64
import io

import numpy as np
import pytest
from PIL import Image

import minisym as mx
from minisym_widgets import Stepper
from minisym_widgets._base import MAX_MESSAGE_BYTES
from minisym_widgets._images import picture
from minisym_widgets.stepper import KEEP_BYTES
from nets import resnet


def small_resnet(grad_req="write"):
    return resnet(18, num_classes=5, small_input=True).simple_bind(
        mx.cpu(), data=(2, 3, 16, 16), grad_req=grad_req
    )  # BatchNorm needs > 1 value in stage 4


@pytest.fixture(scope="module")
def shared():
    """One Stepper on the small ResNet for the tests that only move around in it."""
    with mx.name.NameManager():
        return Stepper(small_resnet())


@pytest.fixture
def stepper(shared):
    """The shared Stepper, back on call 0 with nothing selected and no error."""
    shared.cursor = 0
    shared._show(0)
    return shared


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=6, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(x, num_hidden=3, name="fc2"), name="softmax")


def slot(widget, label):
    """The view of slot ``label`` in the call under the cursor."""
    for group in ("receives", "writes"):
        for view in widget.current[group]:
            if view["label"] == label:
                return view
    raise AssertionError(f"no slot {label} at call {widget.cursor}")


def decoded(picture):
    """The PIL image behind a picture's data URL."""
    prefix = "data:image/png;base64,"
    assert picture["src"].startswith(prefix)
    return Image.open(io.BytesIO(base64.b64decode(picture["src"][len(prefix) :])))


def test_starts_on_call_0_forward_with_every_call_listed():
    ex = small_resnet()
    w = Stepper(ex)
    assert w.error == ""
    assert (w.cursor, w.phase) == (0, "forward")
    assert w.current["node"] == "bn_data" and w.current["op"] == "BatchNorm"
    operators = len(ex._ops)
    assert len(w.calls) == 2 * operators and w.first_backward == operators
    assert w.calls[0] == {"step": 0, "phase": "forward", "node": "bn_data", "op": "BatchNorm"}
    assert w.calls[-1]["node"] == "bn_data" and w.calls[-1]["phase"] == "backward"
    assert [v["label"] for v in w.current["receives"]][:1] == ["in_data[0]"]
    assert w.largest_message < MAX_MESSAGE_BYTES


def test_next_and_back_move_the_cursor_within_the_calls(stepper):
    w = stepper
    w.cursor += 1
    assert w.cursor == 1 and w.current["node"] == w.calls[1]["node"] == "conv0"
    w.cursor -= 1
    w.cursor -= 1  # back at call 0 stays there
    assert w.cursor == 0 and w.current["node"] == "bn_data"
    w.cursor = len(w.calls) + 5  # past the end: the last call
    assert w.cursor == len(w.calls) - 1 and w.current["phase"] == "backward"
    w.cursor = -3
    assert w.cursor == 0


def test_the_phase_changes_at_the_first_backward_call(stepper):
    w = stepper
    w.cursor = w.first_backward - 1
    assert w.phase == "forward" and w.current["node"] == "softmax"
    w.cursor += 1
    assert w.phase == "backward" and w.current["node"] == "softmax"
    assert [v["label"] for v in w.current["writes"]] == ["in_grad[0]", "in_grad[1]"]


def test_jump_puts_the_cursor_on_the_forward_call_of_a_node(stepper):
    w = stepper
    w.jump = "stage2_unit1_conv1"
    assert w.error == "" and w.jump == ""
    assert w.calls[w.cursor] == {
        "step": w.cursor,
        "phase": "forward",
        "node": "stage2_unit1_conv1",
        "op": "Convolution",
    }


def test_an_unknown_node_is_an_inline_error_and_the_stepper_stays_usable(stepper):
    w = stepper
    w.cursor = 4
    w.jump = "stage2_unit1_conv9"
    assert "no operator node named 'stage2_unit1_conv9'" in w.error
    assert "stage2_unit1_conv1" in w.error  # the close match
    assert w.cursor == 4 and w.jump == ""
    w.cursor += 1
    assert w.error == "" and w.cursor == 5


def test_jumping_to_a_variable_says_which_operators_read_it(stepper):
    w = stepper
    w.jump = "conv0_weight"
    assert "'conv0_weight' is a variable" in w.error and "conv0" in w.error
    assert w.cursor == 0


def test_a_4d_slot_gets_a_feature_map_grid_image(stepper):
    w = stepper
    w.jump = "conv0"
    out = slot(w, "out_data[0]")
    assert out["shape"] == "(2, 64, 16, 16)" and out["picture"]["kind"] == "image"
    assert out["picture"]["palette"] == "sequential"
    assert "channels 0–15 of 64" in out["picture"]["caption"]
    image = decoded(out["picture"])
    assert image.format == "PNG"
    assert image.size == (out["picture"]["width"], out["picture"]["height"])
    tile = 16  # 16 x 16 maps as they are; 4 x 4 tiles with 2-pixel gaps
    assert image.size == (4 * tile + 3 * 2, 4 * tile + 3 * 2)
    assert out["stats"].startswith("min ")
    w.jump = "stage1_unit1_conv1"
    w.cursor = next(c["step"] for c in w.calls if c["node"] == "conv0" and c["phase"] == "backward")
    grad = slot(w, "in_grad[1]")  # the weight's gradient, (64, 3, 3, 3)
    assert grad["picture"]["kind"] == "image" and grad["picture"]["palette"] == "diverging"
    assert float(grad["picture"]["low"]) == -float(grad["picture"]["high"])  # centred on 0


def test_other_arrays_get_heatmaps_histograms_or_values():
    w = Stepper(mlp().simple_bind(mx.cpu(), data=(4, 5)))
    w.jump = "fc1"
    assert slot(w, "in_data[1]")["picture"]["kind"] == "image"  # (6, 5) weight: a heatmap
    assert slot(w, "in_data[1]")["picture"]["caption"].startswith("6 × 5")
    assert slot(w, "in_data[2]")["picture"] == {
        "kind": "values",
        "values": ["0"] * 6,
        "caption": "all 6 values",
    }
    w.jump = "softmax"
    label = slot(w, "in_data[1]")
    assert label["picture"]["kind"] == "values" and label["shape"] == "(4,)"
    w.cursor = w.first_backward
    assert w.current["node"] == "softmax"
    assert slot(w, "out_grad[0]")["passed"] is False  # a loss reads no head gradient
    assert "not passed" in slot(w, "out_grad[0]")["note"]


def test_pictures_are_png_in_the_palette_of_their_role():
    activation = picture(np.array([[0.0, 1.0], [2.0, 3.0]]), gradient=False)
    pixels = decoded(activation).convert("RGB")
    assert pixels.getpixel((0, 0)) == (68, 1, 84)  # the lowest value: viridis' first colour
    assert pixels.getpixel((pixels.width - 1, pixels.height - 1)) == (253, 231, 37)
    gradient = decoded(picture(np.array([[-1.0, 0.0, 1.0]] * 2), gradient=True)).convert("RGB")
    middle = gradient.getpixel((gradient.width // 2, 0))
    assert middle == (247, 247, 247)  # zero is white on the diverging scale


def test_a_long_vector_is_a_histogram():
    data = mx.sym.Variable("data")
    w = Stepper(
        mx.sym.Activation(data, act_type="tanh", name="t").simple_bind(mx.cpu(), data=(300,))
    )
    picture = slot(w, "out_data[0]")["picture"]
    assert picture["kind"] == "bars" and sum(picture["counts"]) == 300


def test_a_residual_shortcut_gradient_is_shown_as_the_sum_of_its_parts(stepper):
    w = stepper
    trace = w._trace
    total = next(s for s in trace.sums if s.entry == "grad of stage1_unit1_relu1_output")
    w.cursor = total.step
    assert w.current["node"] == "stage1_unit1_relu1" and w.phase == "backward"
    [shown] = w.current["sums"]
    assert shown["text"] == (
        "grad of stage1_unit1_relu1_output = part from stage1_unit1_sc "
        "+ part from stage1_unit1_conv1"
    )
    assert [p["source"] for p in shown["parts"]] == ["stage1_unit1_sc", "stage1_unit1_conv1"]
    assert all(p["picture"]["kind"] == "image" for p in shown["parts"])
    assert shown["check"].endswith("= 0")
    # the parts are the readers' in_grad; their sum is exactly the out_grad this call receives
    parts = [
        trace.find(p["source"], "backward")[0].slot("in_grad[0]").array for p in shown["parts"]
    ]
    received = trace.calls[total.step].slot("out_grad[0]").array
    assert not np.array_equal(parts[0], received)
    np.testing.assert_array_equal(parts[0] + parts[1], received)
    # each reader's call points to where its part is summed
    w.cursor = shown["parts"][1]["step"]
    assert w.current["node"] == "stage1_unit1_conv1"
    [gives] = w.current["sums"]
    assert gives["gives"] == "stage1_unit1_conv1" and gives["shown_at"] == total.step
    assert w.largest_message < MAX_MESSAGE_BYTES


def test_an_argument_read_twice_shows_its_sum_at_its_last_readers_call():
    x = mx.sym.Variable("x")
    net = mx.sym.Activation(x, act_type="tanh", name="act") + x
    ex = net.simple_bind(mx.cpu(), x=(2, 3))
    w = Stepper(ex)
    [total] = w._trace.sums
    assert total.into == "grad_dict['x']"
    w.cursor = len(w.calls) - 1
    [shown] = w.current["sums"]
    assert shown["into"] == "grad_dict['x']" and len(shown["parts"]) == 2
    np.testing.assert_allclose(total.total, w._executor.grad_dict["x"].asnumpy())


def test_the_learners_executor_is_unchanged():
    ex = small_resnet(grad_req="add")
    rng = np.random.default_rng(3)
    for arrays in (ex.arg_arrays, ex.grad_arrays, ex.aux_arrays):
        for arr in arrays:
            arr[:] = rng.standard_normal(arr.shape) * 0.1
    ex.arg_dict["softmax_label"][:] = 1
    before = [
        a.asnumpy().copy() for a in ex.arg_arrays + ex.grad_arrays + ex.aux_arrays + ex.outputs
    ]
    w = Stepper(ex, data=np.ones((2, 3, 16, 16)))
    w.cursor = w.first_backward + 3
    w.inspect = "in_data[0]"
    after = [a.asnumpy() for a in ex.arg_arrays + ex.grad_arrays + ex.aux_arrays + ex.outputs]
    assert all(np.array_equal(b, a) for b, a in zip(before, after))
    assert ex.trace is None
    assert w._executor is not ex and w.error == ""
    assert not any(n.startswith("Filled") for n in w.notes)  # nothing was zero
    np.testing.assert_array_equal(w._executor.arg_dict["data"].asnumpy(), 1.0)


def test_missing_inputs_are_filled_deterministically():
    first, second = Stepper(small_resnet()), Stepper(small_resnet())
    assert first.notes[0] == "Filled (all zero before): data with a smooth test pattern."
    for w in (first, second):
        w.jump = "conv0"
    assert slot(first, "out_data[0]")["picture"] == slot(second, "out_data[0]")["picture"]
    assert first.text() == second.text() and first.html() == second.html()
    assert "0x" not in first.text() and "/tmp" not in first.html()


def test_a_module_is_stepped_on_a_copy_of_its_executor():
    mod = mx.mod.Module(mlp(), data_names=["data"], label_names=["softmax_label"])
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Xavier())
    weight = mod.executor.arg_dict["fc1_weight"].asnumpy().copy()
    w = Stepper(mod, data=np.full((4, 5), 0.5), label=np.array([0, 1, 2, 0]))
    assert w.error == "" and w.first_backward == 4
    w.jump = "softmax"
    assert slot(w, "in_data[1]")["picture"]["values"] == ["0", "1", "2", "0"]
    np.testing.assert_array_equal(mod.executor.arg_dict["fc1_weight"].asnumpy(), weight)
    assert mod.executor.trace is None


def test_an_unbound_module_or_a_symbol_is_an_inline_error():
    mod = mx.mod.Module(mlp())
    w = Stepper(mod)
    assert "not bound yet" in w.error and w.calls == [] and w.current == {}
    w.cursor += 1
    w.jump = "fc1"
    assert w.cursor == 0 and "no operator node" in w.error
    assert "Executor" in Stepper(mlp()).error
    assert "Stepper" in Stepper(mlp()).text()


def test_data_of_the_wrong_shape_is_an_inline_error():
    w = Stepper(mlp().simple_bind(mx.cpu(), data=(4, 5)), data=np.ones((4, 7)))
    assert "Shape not match" in w.error and "data" in w.error
    assert w.calls == [] and w.current == {}
    w.inspect = "in_data[0]"
    assert "nothing was recorded" in w.error


class Failing(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ValueError("the custom forward went wrong")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass


@mx.operator.register("stepper_failing")
class FailingProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Failing()


def test_a_custom_operator_that_raises_keeps_the_calls_before_it():
    data = mx.sym.Variable("data")
    hidden = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    net = mx.sym.Custom(
        mx.sym.Activation(hidden, act_type="relu", name="relu1"),
        op_type="stepper_failing",
        name="broken",
    )
    w = Stepper(net.simple_bind(mx.cpu(), data=(2, 4)))
    assert "the custom forward went wrong" in w.error and "broken" in w.error
    assert [c["node"] for c in w.calls] == ["fc1", "relu1"]
    w.cursor += 1
    assert w.current["node"] == "relu1" and "went wrong" in w.error  # the run's error stays


def test_a_network_without_loss_runs_backward_with_ones_as_head_gradient():
    data = mx.sym.Variable("data")
    w = Stepper(
        mx.sym.FullyConnected(data, num_hidden=2, name="fc").simple_bind(mx.cpu(), data=(3, 4))
    )
    w.cursor = 1
    assert w.phase == "backward"
    assert slot(w, "out_grad[0]")["stats"] == "min 1 · mean 1 · max 1"


def test_no_gradient_asked_means_no_backward_calls_and_a_note_saying_why():
    w = Stepper(mlp().simple_bind(mx.cpu(), data=(4, 5), grad_req="null"))
    assert w.first_backward == -1 and {c["phase"] for c in w.calls} == {"forward"}
    assert any("No backward calls" in n for n in w.notes)


def test_arrays_past_the_cap_show_a_note_instead_of_a_picture():
    w = Stepper(small_resnet(), keep_bytes=4000)
    w.jump = "conv0"
    out = slot(w, "out_data[0]")
    assert out["picture"] is None and out["note"].startswith("not kept")
    assert "first values" in out["note"]
    assert any("past the cap" in n for n in w.notes)
    assert slot(w, "in_data[1]")["picture"]["kind"] == "image"  # its own weight: a view


def test_inspect_opens_the_index_map_of_the_node_and_it_follows_the_cursor(stepper):
    w = stepper
    w.jump = "conv0"
    w.inspect = "in_data[1]"
    assert w.error == "" and w.index_map is not None
    assert w.panel.children == (w.index_map,)
    assert w.index_map.node == "conv0" and w.index_map.selected == "in_data[1]"
    w.cursor += 1
    assert w.inspect == "" and w.index_map.node == w.current["node"]
    w.inspect = "in_data[7]"
    assert "has no slot in_data[7]" in w.error
    assert w.index_map.node == w.current["node"]


def test_the_display_puts_the_index_map_panel_under_the_stepper(stepper):
    w = stepper
    bundle = w._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"].startswith("Stepper: 136 operator calls on a copy")
    assert "msw-stepper" in data["text/html"]
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.composed.model_id
    assert w.composed.children == (w, w.panel)


@pytest.mark.slow  # a ResNet-50 forward and backward at 224 x 224, traced: ~10 s
def test_resnet50_messages_stay_small_and_every_array_fits_the_default_cap():
    ex = resnet(50, num_classes=1000).simple_bind(mx.cpu(), data=(1, 3, 224, 224))
    w = Stepper(ex)
    assert w.error == ""
    assert w._trace.skipped_bytes == 0 and w._trace.kept_bytes <= KEEP_BYTES
    w.jump = "conv0"
    assert slot(w, "out_data[0]")["picture"]["kind"] == "image"
    assert decoded(slot(w, "out_data[0]")["picture"]).size == (4 * 56 + 6, 4 * 56 + 6)
    for step in [1, 2, 3, w.first_backward, len(w.calls) - 2, len(w.calls) - 1]:
        w.cursor = step
        assert w.current["step"] == step
    for total in w._trace.sums[:3]:
        w.cursor = total.step
    w.cursor = next(c["step"] for c in w.calls if c["node"] == "conv0" and c["phase"] == "backward")
    w.inspect = "in_grad[1]"
    assert w.error == ""
    assert w.largest_message < MAX_MESSAGE_BYTES
