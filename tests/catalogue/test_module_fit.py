"""Catalogue, Module and fit: mistakes a learner makes while training with mx.mod.Module.

Each test is one mistake as a beginner types it; it asserts MXNet's exception type (minisym's
MXNetError where MXNet raises MXNetError), the parts of the message that teach, and that the
module is what it was: its parameters, auxiliary states, executor arrays and optimizer state
(``state.snapshot``), or, for a module not trained yet, that it is still not bound.
"""

import io
import sys

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

X = np.random.RandomState(0).rand(40, 4).astype(np.float32)
Y = (np.arange(40) % 3).astype(np.float32)


def mlp():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


def batches(batch_size=4):
    return mx.io.NDArrayIter(X, Y, batch_size=batch_size)


@pytest.fixture
def trained():
    """A module after one epoch of SGD with momentum: parameters and optimizer state exist."""
    mod = mx.mod.Module(mlp())
    mod.fit(
        batches(),
        num_epoch=1,
        optimizer_params={"learning_rate": 0.1, "momentum": 0.9},
        progress_bar=False,
    )
    return mod


def untouched(mod):
    """A module that a failed call must leave as new: not bound, nothing initialized."""
    return not (mod.binded or mod.params_initialized or mod.optimizer_initialized)


# --- fit ------------------------------------------------------------------------------------------
def test_fit_on_numpy_arrays_instead_of_an_iterator():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        AttributeError,
        match=r"fit: train_data must be a data iterator such as "
        r"mx\.io\.NDArrayIter, got ndarray.*NDArrayIter\(X, "
        r"y, batch_size=32\)",
    ):
        mod.fit(X, num_epoch=1)
    assert untouched(mod)


def test_fit_with_a_misspelled_metric(trained):
    before = snapshot(trained)
    with pytest.raises(AssertionError, match=r"accuracyy is not registered.*'acc', 'accuracy'"):
        trained.fit(batches(), eval_metric="accuracyy", num_epoch=2, progress_bar=False)
    assert_unchanged(before, trained)
    fresh = mx.mod.Module(mlp())
    with pytest.raises(AssertionError, match="accuracyy"):
        fresh.fit(batches(), eval_metric="accuracyy", num_epoch=1)
    assert untouched(fresh)  # checked before bind, init_params and init_optimizer


def test_fit_with_lr_instead_of_learning_rate():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        TypeError,
        match=r"optimizer_params has 'lr', which the SGD optimizer "
        r"does not take\. Did you mean 'learning_rate'\? It "
        r"takes: .*learning_rate.*momentum",
    ):
        mod.fit(batches(), optimizer_params={"lr": 0.1}, num_epoch=1)
    assert untouched(mod)


def test_fit_with_a_learning_rate_that_is_a_string():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        TypeError,
        match=r"optimizer_params learning_rate='0\.1' must be a "
        r"number, e\.g\. \('learning_rate', 0\.1\)",
    ):
        mod.fit(batches(), optimizer_params=(("learning_rate", "0.1"),), num_epoch=1)
    assert untouched(mod)


def test_fit_with_an_optimizer_that_does_not_exist():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        ValueError,
        match=r"Cannot find optimizer sgdd \(registered: adadelta, "
        r"adagrad, adam, .*\bsgd\b.*\)\. Did you mean 'sgd'\?",
    ):
        mod.fit(batches(), optimizer="sgdd", num_epoch=1)
    assert untouched(mod)


def test_fit_for_a_fractional_number_of_epochs():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        TypeError,
        match=r"num_epoch is how many epochs to train, a whole number "
        r"such as num_epoch=10; got 2\.5",
    ):
        mod.fit(batches(), num_epoch=2.5)
    assert untouched(mod)


# --- forward, backward, update --------------------------------------------------------------------
def test_forward_with_a_batch_of_another_feature_size(trained):
    """MXNet: "Shape of unspecified arg: fc1_weight changed"; before the fix minisym silently
    replaced the trained weight by zeros of the new shape."""
    before = snapshot(trained)
    wide = mx.io.DataBatch([mx.nd.ones((4, 5))], [mx.nd.zeros((4,))])
    with pytest.raises(mx.base.MXNetError) as info:
        trained.forward(wide)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert (
        "Module.forward: the data has shape 'data' (4, 5), but the module was bound for "
        "'data' (4, 4)" in message
    )
    assert "'fc1_weight' would need the shape (3, 5) instead of its (3, 4)" in message
    assert "Only the batch size may change" in message and "The module is unchanged" in message
    assert_unchanged(before, trained)
    assert trained.data_shapes[0].shape == (4, 4)
    # a new batch size is fine, labels or not
    trained.forward(mx.io.DataBatch([mx.nd.ones((2, 4))]), is_train=False)
    assert trained.get_outputs()[0].shape == (2, 3)


def test_forward_with_an_ndarray_instead_of_a_databatch(trained):
    before = snapshot(trained)
    with pytest.raises(
        AttributeError,
        match=r"Module\.forward takes a DataBatch, got NDArray: "
        r"wrap the arrays in one, mod\.forward\(mx\.io\."
        r"DataBatch\(data=\[x\], label=\[y\]\)\)",
    ):
        trained.forward(mx.nd.ones((4, 4)))
    assert_unchanged(before, trained)


def test_forward_before_bind():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        AssertionError,
        match=r"Module\.forward: call bind first: mod\.bind\("
        r"data_shapes=\.\.\., label_shapes=\.\.\.\); then "
        r"mod\.init_params\(\)",
    ):
        mod.forward(mx.io.DataBatch([mx.nd.ones((4, 4))]))
    assert untouched(mod)


def test_update_before_init_optimizer():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 4))], label_shapes=[("softmax_label", (4,))])
    mod.init_params()
    mod.forward_backward(mx.io.DataBatch([mx.nd.ones((4, 4))], [mx.nd.zeros((4,))]))
    before = snapshot(mod)
    with pytest.raises(
        AssertionError,
        match=r"Module\.update: call init_optimizer first: "
        r"mod\.init_optimizer\(optimizer='sgd'",
    ):
        mod.update()
    assert_unchanged(before, mod)


# --- parameters and the optimizer -----------------------------------------------------------------
def test_set_params_with_a_weight_of_the_wrong_shape(trained):
    """MXNet: a bare 'Incompatible attr ... expected [3,5], got [3,4]'. The bias given is right
    and comes first alphabetically: nothing of it may be copied before the weight fails."""
    before = snapshot(trained)
    args, auxs = trained.get_params()
    given = {"fc1_bias": mx.nd.ones((3,)) * 7, "fc1_weight": mx.nd.ones((3, 5))}
    with pytest.raises(mx.base.MXNetError) as info:
        trained.set_params(given, auxs)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert (
        "Module.set_params: arg_params['fc1_weight'] has shape (3, 5), but the module's "
        "'fc1_weight' has shape (3, 4) (bound for data 'data' (4, 4))" in message
    )
    assert "nothing was changed" in message
    assert_unchanged(before, trained)


def test_init_params_with_an_initializer_name_instead_of_an_initializer():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 4))], label_shapes=[("softmax_label", (4,))])
    before = snapshot(mod)
    with pytest.raises(
        TypeError,
        match=r"initializer must be an mx\.init\.Initializer such as "
        r"mx\.init\.Xavier\(\), got the str 'xavier' \(write "
        r"initializer=mx\.init\.create\('xavier'\)\)",
    ):
        mod.init_params(initializer="xavier")
    assert_unchanged(before, mod)
    assert not mod.params_initialized


def test_init_params_with_a_mixed_initializer_that_misses_a_name(trained):
    """The Mixed patterns cover the weight, not the bias: the weight, filled first, is put back."""
    before = snapshot(trained)
    partial = mx.init.Mixed(["weight"], [mx.init.One()])
    with pytest.raises(ValueError, match="fc1_bias"):
        trained.init_params(initializer=partial, force_init=True)
    assert_unchanged(before, trained)


def test_init_optimizer_with_a_misspelled_name():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 4))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Xavier())
    before = snapshot(mod)
    with pytest.raises(
        ValueError,
        match=r"Cannot find optimizer adamm \(registered: adadelta, "
        r"adagrad, adam, .*\)\. Did you mean 'adam'\?",
    ):
        mod.init_optimizer(optimizer="adamm")
    assert_unchanged(before, mod)
    assert not mod.optimizer_initialized


# --- bind -----------------------------------------------------------------------------------------
def test_bind_with_one_pair_instead_of_a_list_of_pairs():
    mod = mx.mod.Module(mlp())
    with pytest.raises(
        TypeError,
        match=r"data_shapes is a list of \(name, shape\) pairs, e\.g\. "
        r"data_shapes=\[\('data', \(32, 784\)\)\].*got \('data', "
        r"\(4, 4\)\)",
    ):
        mod.bind(data_shapes=("data", (4, 4)))
    assert untouched(mod)


def test_rebind_with_a_negative_size_keeps_the_bound_module(trained):
    """force_rebind with a shape that cannot bind: the module keeps its executor and values."""
    before = snapshot(trained)
    with pytest.raises(OverflowError) as info:  # MXNet's type in simple_bind
        trained.bind(
            data_shapes=[("data", (4, -4))],
            label_shapes=[("softmax_label", (4,))],
            force_rebind=True,
        )
    assert "'data' has shape (4, -4): dimension 1 is -4" in str(info.value)
    assert "Fix: give data=(4, 4)" in str(info.value)
    assert_unchanged(before, trained)
    assert trained.binded and trained.data_shapes[0].shape == (4, 4)


# --- KeyboardInterrupt ----------------------------------------------------------------------------
def test_interrupting_fit_leaves_the_module_usable(monkeypatch):
    """A KeyboardInterrupt (the stop button) in a batch: it reaches the learner, the progress
    line is ended, the data is rewound, and fit / score work again."""
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    mod, data = mx.mod.Module(mlp()), batches()

    def stop_after_three(params):
        if params.nbatch == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mod.fit(
            data,
            num_epoch=3,
            batch_end_callback=stop_after_three,
            optimizer_params={"learning_rate": 0.1},
            progress_bar="stable",
        )
    shown = stderr.getvalue()
    assert shown.endswith("\n") and "batch 2/10" in shown  # the line is ended, not left open
    assert data.cursor == -data.batch_size  # rewound: the next fit starts a whole epoch
    values, _ = mod.get_params()
    assert all(np.isfinite(v.asnumpy()).all() for v in values.values())

    seen = []
    with pytest.warns(UserWarning, match="already initialized"):  # MXNet's warning, kept
        mod.fit(
            data,
            num_epoch=1,
            batch_end_callback=lambda p: seen.append(p.nbatch),
            progress_bar=False,
        )
    assert seen == list(range(10))
    ((name, accuracy),) = mod.score(batches(), "acc")
    assert name == "accuracy" and 0 <= accuracy <= 1
