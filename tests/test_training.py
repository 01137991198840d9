"""Module.fit trains a small residual network on a 3-class spiral (not linearly separable)."""

import logging

import numpy as np
import pytest

import minisym as mx

EPOCHS = 40


def spiral(points_per_class=100, classes=3, seed=0):
    """(data (N, 2) float32, labels (N,)) for interleaved spiral arms."""
    rng = np.random.default_rng(seed)
    data, labels = [], []
    for k in range(classes):
        radius = np.linspace(0.0, 1.0, points_per_class)
        angle = (
            np.linspace(k * 4.0, (k + 1) * 4.0, points_per_class)
            + rng.standard_normal(points_per_class) * 0.2
        )
        data.append(np.c_[radius * np.sin(angle), radius * np.cos(angle)])
        labels.append(np.full(points_per_class, k))
    return np.concatenate(data).astype(np.float32), np.concatenate(labels).astype(np.float32)


def residual_mlp(hidden=64, blocks=2, classes=3):
    """FC stem, then blocks of x + FC(relu(BN(FC(x)))), then a softmax head."""
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=hidden, name="stem")
    for i in range(blocks):
        h = mx.sym.BatchNorm(x, fix_gamma=False, name=f"block{i}_bn")
        h = mx.sym.Activation(h, act_type="relu", name=f"block{i}_relu")
        h = mx.sym.FullyConnected(h, num_hidden=hidden, name=f"block{i}_fc")
        x = x + h
    x = mx.sym.Activation(x, act_type="relu", name="head_relu")
    x = mx.sym.FullyConnected(x, num_hidden=classes, name="head")
    return mx.sym.SoftmaxOutput(x, name="softmax")


@pytest.mark.slow
def test_fit_learns_the_spiral():
    mx.random.seed(0)
    data, labels = spiral()
    train = mx.io.NDArrayIter(data, labels, batch_size=30, shuffle=True)
    mod = mx.mod.Module(residual_mlp(), logger=logging.getLogger("spiral"))
    seen = []
    mod.fit(
        train,
        num_epoch=EPOCHS,
        optimizer="sgd",
        optimizer_params={"learning_rate": 0.1, "momentum": 0.9},
        initializer=mx.init.Xavier(magnitude=2.0),
        eval_metric="acc",
        epoch_end_callback=lambda epoch, *_: seen.append(epoch),
        progress_bar=False,
    )
    assert seen == list(range(EPOCHS))
    accuracy = dict(mod.score(mx.io.NDArrayIter(data, labels, batch_size=30), "acc"))["accuracy"]
    assert accuracy >= 0.9, f"training accuracy {accuracy:.3f} after {EPOCHS} epochs"
    predicted = mod.predict(mx.io.NDArrayIter(data, labels, batch_size=30)).asnumpy()
    assert predicted.shape == (300, 3)
    assert abs((predicted.argmax(axis=1) == labels).mean() - accuracy) < 1e-6
