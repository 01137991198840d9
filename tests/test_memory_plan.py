"""The memory plan shares buffers without changing any result, and saves memory."""
import numpy as np
import pytest

import minisym as mx
from nets import resnet


def _run(monkeypatch, plan, train):
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", "1" if plan else "0")
    net = mx.sym.Group([resnet(18, num_classes=5, small_input=True),
                        mx.sym.Variable("aux_head") * 2])
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


@pytest.mark.parametrize("train", [
    False, pytest.param(True, marks=pytest.mark.slow)])  # backward: ~7 s with NUMBA_DISABLE_JIT=1
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
        np.testing.assert_allclose(grads[0][name], grads[1][name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
