"""The memory plan shares buffers without changing any result, and saves memory."""

import numpy as np
import pytest

import minisym as mx
from nets import resnet


def _run(monkeypatch, plan, train):
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", "1" if plan else "0")
    net = mx.sym.Group(
        [resnet(18, num_classes=5, small_input=True), mx.sym.Variable("aux_head") * 2]
    )
    req = "write" if train else "null"
    ex = net.simple_bind(mx.cpu(), data=(2, 3, 8, 8), aux_head=(3,), grad_req=req)
    rng = np.random.default_rng(0)
    for name, arr in ex.arg_dict.items():
        arr[:] = rng.standard_normal(arr.shape) * (0.1 if name != "softmax_label" else 0)
    for name, arr in ex.aux_dict.items():
        arr[:] = 1.0 if name.endswith("var") else 0.0
    outs = [o.asnumpy() for o in ex.forward(is_train=train)]
    if train:
        ex.backward([None, mx.nd.ones(3)])
    grads = {k: v.asnumpy() for k, v in ex.grad_dict.items() if v is not None}
    return outs, grads, ex.memory_stats


@pytest.mark.parametrize(
    "train", [False, pytest.param(True, marks=pytest.mark.slow)]
)  # backward: ~7 s with NUMBA_DISABLE_JIT=1
def test_plan_changes_no_result(monkeypatch, train):
    outs_a, grads_a, stats = _run(monkeypatch, True, train)
    outs_b, grads_b, unplanned = _run(monkeypatch, False, train)
    for a, b in zip(outs_a, outs_b):
        np.testing.assert_array_equal(a, b)
    assert grads_a.keys() == grads_b.keys()
    for name in grads_a:
        np.testing.assert_array_equal(grads_a[name], grads_b[name], err_msg=name)
    assert stats.planned_bytes < stats.unplanned_bytes
    assert unplanned.planned_bytes == unplanned.unplanned_bytes
    if not train:  # inference keeps only a few maps alive at once
        assert stats.planned_bytes < stats.unplanned_bytes / 3


@pytest.mark.parametrize("train", [False, True])
def test_batchnorm_relu_fusion_changes_no_result(train):
    """BatchNorm + ReLU run as one pass unless tracing; both ways give the same numbers."""
    net = resnet(18, num_classes=5, small_input=True)
    ex = net.simple_bind(mx.cpu(), data=(2, 3, 8, 8))
    assert len(ex._fused) == 17  # one per pre-activation unit and the final BatchNorm
    rng = np.random.default_rng(1)
    for name, arr in ex.arg_dict.items():
        arr[:] = rng.standard_normal(arr.shape) * (0.1 if name != "softmax_label" else 0)
    fused = ex.forward(is_train=train)[0].asnumpy()
    ex.enable_trace(preview_size=0)
    traced = ex.forward(is_train=train)[0].asnumpy()
    np.testing.assert_allclose(fused, traced, rtol=1e-6, atol=1e-7)
    assert len(ex.trace.find(phase="forward")) == len(ex._ops)  # every call shows when traced


def _relu6_net():
    """Two Convolution -> BatchNorm -> clip(0, 6) units (MobileNetV2's ReLU6), then a clip
    whose bounds are crossed (a_min > a_max: the order of Clip's tests decides; never fused)."""
    x = mx.sym.Variable("data")
    for i in range(2):
        x = mx.sym.Convolution(x, num_filter=4, kernel=(3, 3), pad=(1, 1), name=f"c{i}")
        x = mx.sym.clip(mx.sym.BatchNorm(x, fix_gamma=False, name=f"bn{i}"), 0, 6)
    return mx.sym.clip(mx.sym.BatchNorm(x, name="bn2"), 6, 0)


def test_batchnorm_relu6_fusion_in_inference_changes_no_value():
    """Without gradients a BatchNorm and the clip after it run as one pass; the values are
    the same to the bit, NaN and infinities included."""
    ex = _relu6_net().simple_bind(mx.cpu(), data=(2, 3, 5, 5), grad_req="null")
    assert len(ex._fused_clips) == 2
    rng = np.random.default_rng(3)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape) * 3
    ex.aux_dict["bn1_moving_var"][:] = 0.01  # most values land beyond 6 or below 0
    data = ex.arg_dict["data"].asnumpy()
    data[0, 0, 0, :3] = [np.nan, np.inf, -np.inf]
    ex.arg_dict["data"][:] = data
    outputs = {}
    for train in (False, True):  # in training the NaN reaches the batch statistics: all NaN
        fused = ex.forward(is_train=train)[0].asnumpy()
        ex.enable_trace(preview_size=0)  # tracing shows every call: no fusion
        plain = ex.forward(is_train=train)[0].asnumpy()
        ex.disable_trace()
        np.testing.assert_array_equal(fused, plain)
        outputs[train] = fused
    inference = outputs[False]
    assert np.isnan(inference).any() and (inference == 6).any() and (inference == 0).any()


def test_batchnorm_relu6_is_not_fused_where_the_clip_has_a_backward():
    ex = _relu6_net().simple_bind(mx.cpu(), data=(2, 3, 5, 5), grad_req="write")
    assert ex._fused_clips == {}


@pytest.mark.slow  # two ResNet-18 backward passes: ~10 s with NUMBA_DISABLE_JIT=1
def test_fused_backward_gives_the_same_gradients():
    net = resnet(18, num_classes=5, small_input=True)
    ex = net.simple_bind(mx.cpu(), data=(2, 3, 8, 8), grad_req="write")
    rng = np.random.default_rng(2)
    for name, arr in ex.arg_dict.items():
        arr[:] = rng.standard_normal(arr.shape) * (0.1 if name != "softmax_label" else 0)
    grads = []
    for traced in (False, True):  # tracing turns fusion off: every operator runs on its own
        if traced:
            ex.enable_trace(preview_size=0)
        ex.forward(is_train=True)
        ex.backward()
        grads.append({k: v.asnumpy().copy() for k, v in ex.grad_dict.items()})
    for name in grads[0]:
        np.testing.assert_allclose(
            grads[0][name], grads[1][name], rtol=1e-5, atol=1e-6, err_msg=name
        )


def _mlp():
    """fc1 -> relu1 -> fc2 -> relu2 -> fc3, every output (2, 8) float32: 64 bytes."""
    h = mx.sym.Variable("x")
    for i in (1, 2):
        h = mx.sym.Activation(
            mx.sym.FullyConnected(h, num_hidden=8, name=f"fc{i}"), act_type="relu", name=f"relu{i}"
        )
    return mx.sym.FullyConnected(h, num_hidden=8, name="fc3")


def _groups(plan):
    return [[plan.entries[e].name for e in b.entries] for b in plan.buffers]


def test_inference_plan_shares_what_dies_before_the_next_output_is_made():
    plan = _mlp().simple_bind(mx.cpu(), x=(2, 6), grad_req="null").memory_stats.plan
    assert _groups(plan) == [
        ["fc1_output", "fc2_output"],
        ["relu1_output", "relu2_output"],
        ["fc3_output"],
    ]
    assert [b.own for b in plan.buffers] == [False, False, True]  # the head has its own array
    assert (plan.planned_bytes, plan.unplanned_bytes) == (3 * 64, 5 * 64)
    assert [s.phase for s in plan.steps] == ["forward"] * 5  # no backward runs
    assert plan.kept_for_backward() == []
    assert plan.live_bytes() == [64, 128, 128, 128, 128]


def test_training_plan_keeps_what_backward_reads():
    ex = _mlp().simple_bind(mx.cpu(), x=(2, 6), grad_req="write")
    plan = ex.memory_stats.plan
    # relu's backward reads its output, and the next FullyConnected's backward its input:
    # relu1 and relu2 stay alive into backward; fc1 and fc2 die at once and still share.
    assert _groups(plan) == [
        ["fc1_output", "fc2_output"],
        ["relu1_output"],
        ["relu2_output"],
        ["fc3_output"],
    ]
    relu1 = plan.entry("relu1_output")
    assert (relu1.first, relu1.last_forward, relu1.last) == (1, 2, 8)
    assert relu1.backward_readers == (("relu1", "out_data[0]"), ("fc2", "in_data[0]"))
    assert [e.name for e in plan.kept_for_backward()] == ["relu1_output", "relu2_output"]
    assert [(s.phase, s.node) for s in plan.steps[4:6]] == [("forward", "fc3"), ("backward", "fc3")]
    assert plan.planned_bytes == ex.memory_stats.planned_bytes == 4 * 64
    assert _groups(plan.for_inference())[0] == ["fc1_output", "fc2_output"]
    assert plan.for_inference().planned_bytes == 3 * 64


def test_the_described_plan_is_the_storage_the_executor_uses(monkeypatch):
    ex = resnet(18, num_classes=5, small_input=True).simple_bind(mx.cpu(), data=(2, 3, 8, 8))
    plan = ex.memory_stats.plan
    assert (plan.planned_bytes, plan.unplanned_bytes) == (
        ex.memory_stats.planned_bytes,
        ex.memory_stats.unplanned_bytes,
    )
    arrays = {n.entry_name(j): ex._data[(id(n), j)] for n in ex._ops for j in range(n.num_outputs)}
    assert len(arrays) == len(plan.entries)
    for buffer in plan.buffers:
        names = [plan.entries[e].name for e in buffer.entries]
        assert all(np.shares_memory(arrays[names[0]], arrays[n]) for n in names), names
        spans = sorted((plan.entries[e].first, plan.entries[e].last) for e in buffer.entries)
        assert all(a[1] < b[0] for a, b in zip(spans, spans[1:])), names  # never live together
    firsts = [arrays[plan.entries[b.entries[0]].name] for b in plan.buffers]
    assert not any(np.shares_memory(a, b) for i, a in enumerate(firsts) for b in firsts[i + 1 :])
    assert max(plan.live_bytes()) <= plan.planned_bytes
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", "0")
    alone = resnet(18, num_classes=5, small_input=True).simple_bind(mx.cpu(), data=(2, 3, 8, 8))
    assert not alone.memory_stats.plan.shared
    assert all(len(b.entries) == 1 for b in alone.memory_stats.plan.buffers)


def test_an_unknown_entry_name_lists_the_outputs():
    plan = _mlp().simple_bind(mx.cpu(), x=(2, 6)).memory_stats.plan
    with pytest.raises(KeyError, match="no operator output named 'fc9_output'.*fc1_output"):
        plan.entry("fc9_output")


def _folding_net():
    """Convolution -> BatchNorm three times: with a bias and a ReLU after, strided with a ReLU6
    Clip after, and with nothing fused after (a scalar add reads the BatchNorm)."""
    x = mx.sym.Variable("data")
    x = mx.sym.Convolution(x, num_filter=6, kernel=(3, 3), pad=(1, 1), name="c0")
    x = mx.sym.Activation(mx.sym.BatchNorm(x, fix_gamma=False, name="b0"), act_type="relu")
    x = mx.sym.Convolution(x, num_filter=5, kernel=(3, 3), stride=(2, 2), no_bias=True, name="c1")
    x = mx.sym.clip(mx.sym.BatchNorm(x, fix_gamma=False, name="b1"), 0, 6)
    x = mx.sym.Convolution(x, num_filter=4, kernel=(2, 2), dilate=(2, 1), no_bias=True, name="c2")
    return mx.sym.BatchNorm(x, name="b2") + 1


def _folding_executor(grad_req="null"):
    ex = _folding_net().simple_bind(mx.cpu(), data=(4, 3, 9, 9), grad_req=grad_req)
    rng = np.random.default_rng(7)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape)
    for name, arr in ex.aux_dict.items():
        arr[:] = (
            rng.uniform(0.5, 2.0, arr.shape)
            if name.endswith("var")
            else rng.normal(0, 1, arr.shape)
        )
    return ex


def _fused_and_plain(ex, is_train):
    fused = ex.forward(is_train=is_train)[0].asnumpy()
    ex.enable_trace(preview_size=0)  # tracing shows every call: nothing folded
    plain = ex.forward(is_train=is_train)[0].asnumpy()
    ex.disable_trace()
    return fused, plain


def test_convolution_folds_the_batchnorm_after_it_at_inference():
    """Without gradients each Convolution -> BatchNorm pair (with the ReLU or Clip fused after
    it) runs as one kernel on the moving statistics: the scale enters the weights, so the
    values differ from the plain operators' by float32 rounding only; weights written between
    forwards are seen; in training (batch statistics) nothing is folded, to the bit."""
    ex = _folding_executor()
    assert len(ex._folded) == 3
    fused, plain = _fused_and_plain(ex, False)
    np.testing.assert_allclose(fused, plain, rtol=2e-5, atol=2e-5 * np.abs(plain).max())
    assert not np.array_equal(fused, plain)  # the folded kernel ran (its rounding differs)
    ex.arg_dict["c1_weight"][:] = ex.arg_dict["c1_weight"].asnumpy() * -2
    ex.aux_dict["b2_moving_var"][:] = 9.0
    changed, plain = _fused_and_plain(ex, False)
    np.testing.assert_allclose(changed, plain, rtol=2e-5, atol=2e-5 * np.abs(plain).max())
    assert not np.allclose(changed, fused)
    np.testing.assert_array_equal(*_fused_and_plain(ex, True))


def test_no_batchnorm_is_folded_where_a_gradient_runs_through_it():
    assert _folding_executor(grad_req="write")._folded == {}
    data_only = {"data": "write"}  # the data's gradient goes back through every layer
    req = {name: data_only.get(name, "null") for name in _folding_net().list_arguments()}
    assert _folding_executor(grad_req=req)._folded == {}


def _activated_net():
    """Convolutions with a ReLU or ReLU6 Clip as their only reader and no BatchNorm: one
    image's GEMM with a bias, a batch of small images (by image), depthwise, and one whose
    output a second reader keeps (not fused)."""
    x = mx.sym.Variable("data")
    x = mx.sym.Activation(mx.sym.Convolution(x, num_filter=6, kernel=(3, 3), pad=(1, 1)), "relu")
    x = mx.sym.clip(mx.sym.Convolution(x, num_filter=6, kernel=(1, 1), no_bias=True), 0, 6)
    x = mx.sym.Convolution(x, num_filter=6, num_group=6, kernel=(3, 3), pad=(1, 1), name="dw")
    x = mx.sym.Activation(x, act_type="relu")
    kept = mx.sym.Convolution(x, num_filter=4, kernel=(3, 3), name="kept")
    return mx.sym.Activation(kept, act_type="relu") + kept


@pytest.mark.parametrize("batch", [1, 4])
def test_a_relu_or_clip_after_a_convolution_is_its_epilogue_at_inference(batch):
    """Without gradients a Convolution whose only reader is a ReLU or Clip writes the
    activation's output itself, the bias and the activation in one pass (scale 1, shift 0 of
    the folded BatchNorm's kernels): the same bits as the two operators run apart."""
    ex = _activated_net().simple_bind(mx.cpu(), data=(batch, 3, 8, 8), grad_req="null")
    rng = np.random.default_rng(5)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape)
    assert len(ex._activated) == 3  # not "kept": a second reader needs its output
    fused, plain = _fused_and_plain(ex, False)
    np.testing.assert_array_equal(fused, plain)
    ex.arg_dict["dw_weight"][:] = ex.arg_dict["dw_weight"].asnumpy() * -2
    changed, plain = _fused_and_plain(ex, False)
    np.testing.assert_array_equal(changed, plain)
    assert not np.array_equal(changed, fused)
    training = _activated_net().simple_bind(mx.cpu(), data=(batch, 3, 8, 8), grad_req="write")
    assert training._activated == {}


def test_no_epilogue_writes_into_a_buffer_its_convolution_still_reads():
    """The memory plan may give the ReLU after a Convolution the buffer of the convolution's
    input (dead once the convolution has run: GoogLeNet's 5x5 branches got it). Writing the
    ReLU's output from inside the convolution's kernel would overwrite images not read yet,
    so such a pair runs apart: the same values as the plain operators."""
    x = mx.sym.Variable("data")
    a = mx.sym.Activation(mx.sym.Convolution(x, num_filter=16, kernel=(1, 1)), "relu")
    c5 = mx.sym.Convolution(a, num_filter=48, kernel=(5, 5), pad=(2, 2), name="c5")
    ex = mx.sym.Activation(c5, act_type="relu", name="rb").simple_bind(
        mx.cpu(), data=(2, 16, 3, 3), grad_req="null"
    )
    rng = np.random.default_rng(2)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape)
    conv = next(n for n in ex._ops if n.name == "c5")
    relu = ex._activated[id(conv)]
    source, index = conv.inputs[0]
    shared = np.empty(2 * 48 * 9, np.float32)  # the plan's reuse, made certain here: the
    ex._data[(id(source), index)] = shared[: 2 * 16 * 9].reshape(2, 16, 3, 3)  # input at the
    ex._data[(id(relu), 0)] = shared.reshape(2, 48, 3, 3)  # start of the ReLU's buffer
    ex._buffers_changed()
    fused, plain = _fused_and_plain(ex, False)
    np.testing.assert_array_equal(fused, plain)
