"""MemoryPlanView at trait level: a small network whose sharing is worked out by hand, every
kind of target, the inference plan beside the training one, mistakes shown inline, and
ResNet-50 at batch 1 staying small and quick."""

import time

import pytest

import minisym as mx
from minisym_widgets import MemoryPlanView
from minisym_widgets._base import MAX_MESSAGE_BYTES, message_size
from nets import resnet


def mlp():
    """fc1 -> relu1 -> fc2 -> relu2 -> fc3; with x=(2, 6) every output is (2, 8) float32, 64 B."""
    h = mx.sym.Variable("x")
    for i in (1, 2):
        h = mx.sym.Activation(
            mx.sym.FullyConnected(h, num_hidden=8, name=f"fc{i}"), act_type="relu", name=f"relu{i}"
        )
    return mx.sym.FullyConnected(h, num_hidden=8, name="fc3")


def stored(view):
    """[[output names] per row], rows in the order drawn."""
    return [[bar[4] for bar in row["bars"]] for row in view.rows]


def test_training_keeps_the_relu_outputs_and_shares_the_fc_outputs():
    view = MemoryPlanView(mlp(), x=(2, 6))
    assert view.error == ""
    # fc1's output dies when relu1 has read it (relu's backward reads only its own output),
    # so fc2's output reuses its buffer; relu1 and relu2 are read again by backward.
    assert stored(view) == [
        ["fc1_output", "fc2_output"],
        ["relu1_output"],
        ["relu2_output"],
        ["fc3_output"],
    ]
    assert [r["kind"] for r in view.rows] == ["shared", "alone", "alone", "head"]
    assert view.caption == (
        "MemoryPlanView: 5 outputs of 5 operators in 4 buffers (1 shared); 320 B without "
        "sharing, 256 B with (0.80x); backward keeps 2 outputs alive (128 B)"
    )
    assert view.rows[1]["bars"] == [
        [
            1,
            2,
            8,
            "relu1_output (2, 8) float32, 64 B: forward relu1 → backward relu1",
            "relu1_output",
        ]
    ]
    assert view.num_forward == 5 and len(view.steps) == 10
    assert view.steps[5] == ["backward", "fc3", "FullyConnected", True]
    assert view.live == [64, 128, 128, 192, 192, 192, 192, 128, 128, 64]
    assert view.totals[1] == ["with sharing", "256 B", "0.80x · 4 buffers"]
    assert view.variants == ["bound", "inference"]


def test_selecting_a_buffer_lists_its_outputs_and_why():
    view = MemoryPlanView(mlp(), x=(2, 6))
    view.selected = view.rows[0]["buffer"]
    assert view.detail == [
        ["buffer 0 · 64 B", "shared by 2 outputs, one after the other: saves 64 B"]
    ]
    assert view.detail_rows == [
        ["fc1_output", "(2, 8) float32", "64 B", "forward fc1 → forward relu1", ""],
        ["fc2_output", "(2, 8) float32", "64 B", "forward fc2 → forward relu2", ""],
    ]
    view.selected = view.rows[1]["buffer"]
    assert view.detail[0][1] == (
        "holds one output: kept until backward, so no other output can use it before"
    )
    assert view.detail_rows[0][4] == "relu1 (out_data[0]), fc2 (in_data[0])"
    view.selected = view.rows[3]["buffer"]
    assert "an output of the symbol" in view.detail[0][1]


def test_clicking_a_bar_picks_its_output_and_selects_its_buffer():
    view = MemoryPlanView(mlp(), x=(2, 6))
    view.entry = "fc2_output"
    shared = view.rows[0]["buffer"]
    assert (view.selected, view.error) == (shared, "")
    assert [r[0] for r in view.detail_rows] == ["fc1_output", "fc2_output"]
    view.entry = "fc1_output"  # the same buffer: still selected, the pick moves
    assert (view.selected, view.entry) == (shared, "fc1_output")
    view.selected = view.rows[1]["buffer"]  # another buffer: the pick goes
    assert view.entry == ""
    view.entry = "fc9_output"
    assert "no operator output named 'fc9_output'" in view.error
    assert view.selected == view.rows[1]["buffer"]


def test_the_inference_plan_shares_the_relu_outputs_too():
    view = MemoryPlanView(mlp(), x=(2, 6))
    view.selected = 0
    view.variant = "inference"
    assert stored(view) == [
        ["fc1_output", "fc2_output"],
        ["relu1_output", "relu2_output"],
        ["fc3_output"],
    ]
    assert view.selected == -1 and view.detail == []
    assert len(view.steps) == 5  # no backward columns
    assert view.caption.endswith("192 B with (0.60x); no backward runs, so nothing is kept for it")
    assert view.text().splitlines()[1] == (
        "bound for inference (grad_req='null'): 192 B in 3 buffers (0.60x)"
    )
    view.variant = "bound"
    assert len(view.rows) == 4


def test_executor_and_module_show_the_plan_they_were_bound_with():
    executor = mlp().simple_bind(mx.cpu(), x=(2, 6), grad_req="null")
    view = MemoryPlanView(executor)
    assert view.plan is executor.memory_stats.plan  # read, not planned again
    assert view.variants == ["bound"]  # no backward: nothing to compare with
    assert len(view.rows) == 3
    module = mx.mod.Module(mlp(), data_names=["x"], label_names=[], context=mx.cpu())
    module.bind(data_shapes=[("x", (2, 6))])
    from_module = MemoryPlanView(module)
    assert from_module.plan is module.executor.memory_stats.plan
    assert from_module.caption == MemoryPlanView(mlp(), x=(2, 6)).caption


def test_sharing_turned_off_is_said(monkeypatch):
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", "0")
    view = MemoryPlanView(mlp(), x=(2, 6))
    assert view.notes[0].startswith("sharing is off (MINISYM_MEMORY_PLAN=0)")
    assert [r["kind"] for r in view.rows] == ["own"] * 4 + ["head"]
    assert "320 B with (1.00x)" in view.caption
    assert "no buffer is shared" in view.text()


@pytest.mark.parametrize(
    "target, kwargs, message",
    [
        (mlp(), {}, "give the input shapes to plan a Symbol"),
        ("mlp", {}, "got str"),
        (mx.mod.Module(mlp(), data_names=["x"], label_names=[]), {}, "bind the Module first"),
        (mlp(), {"x": (2, 6), "fc1_weight": (8, 5)}, "fc1"),
    ],
)
def test_a_target_that_cannot_be_planned_is_an_inline_error(target, kwargs, message):
    view = MemoryPlanView(target, **kwargs)
    assert message in view.error
    assert view.rows == [] and view.plan is None
    assert view.text().startswith("MemoryPlanView: ")


def test_a_bad_selection_or_variant_is_shown_inline_and_the_view_stays_usable():
    view = MemoryPlanView(mlp(), x=(2, 6))
    view.selected = 9
    assert "pick a buffer from 0 to 3; got 9" in view.error and view.detail == []
    view.selected = 1
    assert view.error == "" and view.detail[0][0] == "buffer 1 · 64 B"
    view.variant = "training"
    assert view.variant == "bound" and "variant must be one of" in view.error


@pytest.fixture(scope="module")
def resnet50_view():
    net = resnet(50, num_classes=1000)
    start = time.perf_counter()
    view = MemoryPlanView(net, data=(1, 3, 224, 224))
    return view, time.perf_counter() - start


def test_resnet50_at_batch_1_builds_quickly_and_stays_small(resnet50_view):
    view, seconds = resnet50_view
    assert seconds < 10, seconds  # a sanity bound; benchmarks/memory_plan_view.py measures it
    assert view.error == ""
    assert view.caption == (
        "MemoryPlanView: 277 outputs of 175 operators in 257 buffers (20 shared); 139.8 MiB "
        "without sharing, 118.8 MiB with (0.85x); backward keeps 257 outputs alive (113.0 MiB)"
    )
    assert len(view.rows) == 257 and len(view.steps) == 350
    assert sum(r["small"] for r in view.rows) == 102  # BatchNorm statistics, the classifier
    assert view.notes == ["102 small buffers (under 31.4 KiB each, 186.8 KiB in all)"]
    assert message_size(view.get_state()) < MAX_MESSAGE_BYTES / 5
    view.variant = "inference"
    assert message_size(view.get_state()) < MAX_MESSAGE_BYTES / 5
    assert len(view.rows) == 9
    view.variant = "bound"


def test_resnet50_fallbacks_are_deterministic_and_informative(resnet50_view):
    view, _ = resnet50_view
    again = MemoryPlanView(resnet(50, num_classes=1000), data=(1, 3, 224, 224))
    assert (view.text(), view.html()) == (again.text(), again.html())
    lines = view.text().splitlines()
    assert lines[1] == "bound for inference (grad_req='null'): 10.5 MiB in 9 buffers (0.08x)"
    assert lines[3].split() == [
        "buffer",
        "23",
        "3.1",
        "MiB",
        "stage1_unit1_conv3_output,",
        "stage1_unit2_bn1_output",
    ]
    bundle = view._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == view.text()
    assert data["text/html"].startswith("<div class='msw msw-memory-plan'>")
    assert "<td>stage1_unit1_conv3_output, stage1_unit2_bn1_output</td>" in data["text/html"]


def test_every_word_the_page_shows_comes_from_python():
    import re
    from pathlib import Path

    import minisym_widgets
    from minisym_widgets.memory_plan_view import LABELS

    script = (Path(minisym_widgets.__file__).parent / "memory_plan_view.js").read_text()
    used = set(re.findall(r"labels\.(\w+)", script))
    assert used and used <= set(LABELS), used - set(LABELS)
    assert MemoryPlanView(mlp(), x=(2, 6)).labels == LABELS
