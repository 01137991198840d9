"""The seed-style ResNet-50 runs forward and backward on one 3x224x224 image (timing lives in
benchmarks/resnet.py; this only checks that it runs and gives sane numbers)."""

import numpy as np
import pytest

import minisym as mx
from nets import resnet


@pytest.mark.slow
def test_resnet50_forward_and_backward_on_224():
    net = resnet(50, num_classes=1000)
    ex = net.simple_bind(mx.cpu(), data=(1, 3, 224, 224))
    rng = np.random.default_rng(0)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape).astype(np.float32) * 0.05
    ex.arg_dict["softmax_label"][:] = 3
    for name, arr in ex.aux_dict.items():
        arr[:] = 1.0 if name.endswith("var") else 0.0
    probabilities = ex.forward(is_train=True)[0].asnumpy()
    ex.backward()
    assert probabilities.shape == (1, 1000)
    assert np.isclose(probabilities.sum(), 1.0, atol=1e-4)
    grads = {k: v.asnumpy() for k, v in ex.grad_dict.items() if v is not None}
    assert grads["data"].shape == (1, 3, 224, 224)
    assert all(np.isfinite(g).all() for g in grads.values())
    assert np.abs(grads["conv0_weight"]).sum() > 0 and np.abs(grads["fc1_weight"]).sum() > 0
    moving = ex.aux_dict["bn0_moving_mean"].asnumpy()
    assert np.abs(moving).sum() > 0  # updated in backward, as MXNet's CPU path does
