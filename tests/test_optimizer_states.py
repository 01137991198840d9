"""Optimizer states that save and load: Module.save_checkpoint(save_optimizer_states=True),
Module.load(load_optimizer_states=True) + init_optimizer, save/load_optimizer_states, minisym's
own states format, MXNet's pickled .states read by parsing (never unpickled), and the errors
and warnings when the states do not fit."""

import os
import pickle
import warnings

import numpy as np
import pytest

import minisym as mx

HERE = os.path.dirname(os.path.abspath(__file__))
MXNET_STATES = os.path.join(HERE, "fixtures", "mxnet_states")


def network():
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    net = mx.sym.Activation(net, act_type="tanh", name="act1")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def batches():
    rs = np.random.RandomState(0)
    return [
        mx.io.DataBatch([mx.nd.array(rs.randn(5, 6))], [mx.nd.array(rs.randint(0, 3, 5))])
        for _ in range(4)
    ]


def start_params():
    rs = np.random.RandomState(1)
    shapes = {"fc1_weight": (4, 6), "fc1_bias": (4,), "fc2_weight": (3, 4), "fc2_bias": (3,)}
    return {k: mx.nd.array(rs.randn(*s) * 0.5) for k, s in shapes.items()}


def bound(mod):
    mod.bind(data_shapes=[("data", (5, 6))], label_shapes=[("softmax_label", (5,))])
    return mod


def fresh(optimizer="sgd", params=(("learning_rate", 0.5), ("momentum", 0.9))):
    mod = bound(mx.mod.Module(network()))
    mod.init_params(arg_params=start_params())
    mod.init_optimizer(optimizer=optimizer, optimizer_params=params)
    return mod


def train(mod, data):
    for batch in data:
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()


def values(mod):
    return {k: v.asnumpy() for k, v in mod.get_params()[0].items()}


@pytest.mark.parametrize(
    "optimizer, params",
    [
        ("sgd", (("learning_rate", 0.5), ("momentum", 0.9), ("wd", 0.01))),
        ("nag", (("learning_rate", 0.2), ("momentum", 0.8))),
        ("rmsprop", (("learning_rate", 0.01), ("centered", True))),
        ("adagrad", (("learning_rate", 0.05),)),
    ],
)
def test_resumed_training_equals_the_uninterrupted_run(tmp_path, optimizer, params):
    data = batches()
    straight = fresh(optimizer, params)
    train(straight, data)
    first = fresh(optimizer, params)
    train(first, data[:2])
    prefix = str(tmp_path / "net")
    first.save_checkpoint(prefix, 2, save_optimizer_states=True)
    assert sorted(os.listdir(tmp_path)) == ["net-0002.params", "net-0002.states", "net-symbol.json"]
    second = bound(mx.mod.Module.load(prefix, 2, load_optimizer_states=True))
    second.init_optimizer(optimizer=optimizer, optimizer_params=params)
    train(second, data[2:])
    want, got = values(straight), values(second)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6)
    # without the states, the momentum (or moving average) starts again and the result differs
    third = bound(mx.mod.Module.load(prefix, 2))
    third.init_optimizer(optimizer=optimizer, optimizer_params=params)
    assert third._updater.states == {}
    train(third, data[2:])
    assert not np.allclose(values(third)["fc1_weight"], want["fc1_weight"], rtol=1e-5)


def test_adam_restarts_its_bias_correction_as_mxnet_does(tmp_path):
    # the states file holds the moments but not the update counts (MXNet saves no optimizer)
    data, params = batches(), (("learning_rate", 0.05),)
    first = fresh("adam", params)
    train(first, data[:2])
    first.save_optimizer_states(str(tmp_path / "adam.states"))
    second = fresh("adam", params)
    second.set_params(*first.get_params())
    second.load_optimizer_states(str(tmp_path / "adam.states"))
    for index, (mean, var) in first._updater.states.items():
        np.testing.assert_array_equal(second._updater.states[index][0].asnumpy(), mean.asnumpy())
        np.testing.assert_array_equal(second._updater.states[index][1].asnumpy(), var.asnumpy())
    train(second, data[2:3])
    assert second._optimizer._index_update_count == {i: 1 for i in range(4)}


def test_minisym_states_files_are_mxnet_format_and_round_trip(tmp_path):
    mod = fresh("rmsprop", (("centered", True),))
    train(mod, batches()[:1])
    path = str(tmp_path / "s.states")
    mod.save_optimizer_states(path)
    with open(path, "rb") as fin:
        payload = fin.read()
    assert payload[:2] == b"\x80\x04"  # MXNet's format: pickle protocol 4, written by hand
    other = fresh("rmsprop", (("centered", True),))
    other.load_optimizer_states(path)
    for index, state in mod._updater.states.items():
        assert len(other._updater.states[index]) == 3
        for a, b in zip(state, other._updater.states[index]):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


@pytest.mark.parametrize(
    "tag, optimizer, params",
    [
        ("sgd", "sgd", (("learning_rate", 0.5), ("momentum", 0.9), ("wd", 0.01))),
        ("adam", "adam", (("learning_rate", 0.05),)),
        ("rms", "rmsprop", (("learning_rate", 0.01), ("centered", True))),
    ],
)
def test_mxnet_written_states_are_read_by_parsing(tag, optimizer, params):
    mod = bound(mx.mod.Module.load(os.path.join(MXNET_STATES, tag), 2, load_optimizer_states=True))
    mod.init_optimizer(optimizer=optimizer, optimizer_params=params)
    states = mod._updater.states
    assert sorted(states) == [0, 1, 2, 3]
    first = states[0] if optimizer == "sgd" else states[0][0]
    assert first.shape == (4, 6) and first.dtype == np.float32
    assert np.abs(first.asnumpy()).sum() > 0


def test_raw_mxnet_pickles_of_protocol_2_and_5():
    for name in ("protocol2.states", "protocol5.states"):
        updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
        with open(os.path.join(MXNET_STATES, name), "rb") as fin:
            updater.set_states(fin.read())
        states = updater.states
        assert sorted(states, key=str) == [0, 1, 2, "fc_weight"]
        assert isinstance(states[0], tuple) and states[1] is None
        np.testing.assert_array_equal(states[0][0].asnumpy(), [1.5, -2.0])
        assert states[0][1].dtype == np.float64 and states[0][1].shape == (2, 1)
        assert states["fc_weight"].dtype == np.float16
        assert isinstance(states[2], list) and states[2][1][1] is None
        np.testing.assert_array_equal(states[2][1][0].asnumpy(), [8.0])


def refused(fn, *parts):
    with pytest.raises(mx.base.MXNetError) as info:
        fn()
    assert isinstance(info.value, ValueError)
    for part in parts:
        assert part in str(info.value)
    return info.value


def test_an_optimizer_saved_in_the_states_is_refused_by_name():
    with open(os.path.join(MXNET_STATES, "dump_optimizer.states"), "rb") as fin:
        payload = fin.read()
    updater = mx.optimizer.get_updater(mx.optimizer.SGD())
    refused(
        lambda: updater.set_states(payload),
        "Updater.set_states",
        "mxnet.optimizer.optimizer.SGD",
        "dump_optimizer=True",
        "updater.get_states()",
    )
    assert updater.states == {}


class _Evil:
    def __reduce__(self):
        return (os.remove, (self.path,))


def test_a_hostile_pickle_never_runs(tmp_path):
    victim = tmp_path / "keep.txt"
    victim.write_text("still here")
    evil = _Evil()
    evil.path = str(victim)
    payload = pickle.dumps({0: evil})
    path = tmp_path / "evil.states"
    path.write_bytes(payload)
    mod = fresh()
    refused(
        lambda: mod.load_optimizer_states(str(path)),
        "Module.load_optimizer_states",
        "remove",
        "minisym never builds the objects a file names",
    )
    assert victim.read_text() == "still here"
    assert mod._updater.states == {}


@pytest.mark.parametrize("cut", [3, 60, 150])
def test_a_truncated_mxnet_states_file_is_refused(tmp_path, cut):
    with open(os.path.join(MXNET_STATES, "sgd-0002.states"), "rb") as fin:
        payload = fin.read()[:cut]
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
    refused(
        lambda: updater.set_states(payload),
        "Updater.set_states",
        "these states are a Python pickle",
        "it cannot read them",
    )


def test_states_of_another_optimizer_say_which_to_initialize():
    mod = bound(
        mx.mod.Module.load(os.path.join(MXNET_STATES, "sgd"), 2, load_optimizer_states=True)
    )
    error = refused(
        lambda: mod.init_optimizer(optimizer="adam"),
        "sgd-0002.states",
        "parameter 0 ('fc1_weight')",
        "one array of shape (4, 6)",
        "Adam keeps 2 parts",
        "load_optimizer_states=False",
    )
    assert "Initialize the optimizer the states were saved with" in str(error)


def test_states_from_another_network_are_refused(tmp_path):
    data = mx.sym.Variable("data")
    small = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(data, num_hidden=3, name="fc1"), name="softmax"
    )
    mod = bound(mx.mod.Module(small))
    mod.init_params()
    mod.init_optimizer(optimizer_params=(("momentum", 0.9),))
    refused(
        lambda: mod.load_optimizer_states(os.path.join(MXNET_STATES, "sgd-0002.states")),
        "parameter index 2",
        "this module has 2 parameters",
        "a different network",
    )


def test_momentum_states_loaded_without_momentum_warn_once_and_train_as_mxnet(tmp_path):
    mod = bound(
        mx.mod.Module.load(os.path.join(MXNET_STATES, "sgd"), 2, load_optimizer_states=True)
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod.init_optimizer(optimizer="sgd")
    assert len(caught) == 1
    text = str(caught[0].message)
    assert caught[0].filename == __file__
    assert "'fc1_weight', 'fc1_bias', 'fc2_weight' and 1 more are not used" in text
    assert "('momentum', 0.9)" in text
    plain = bound(mx.mod.Module.load(os.path.join(MXNET_STATES, "sgd"), 2))
    plain.init_optimizer(optimizer="sgd")
    train(mod, batches()[:1])
    train(plain, batches()[:1])
    for name, value in values(plain).items():
        np.testing.assert_allclose(values(mod)[name], value, rtol=1e-6)


def test_states_without_momentum_loaded_with_momentum_warn(tmp_path):
    mod = fresh("sgd", (("learning_rate", 0.1),))
    train(mod, batches()[:1])
    path = str(tmp_path / "plain.states")
    mod.save_optimizer_states(path)
    other = fresh("sgd", (("learning_rate", 0.1), ("momentum", 0.9)))
    with pytest.warns(UserWarning, match="had no saved state .saved without momentum") as rec:
        other.load_optimizer_states(path)
    assert "train without momentum" in str(rec[0].message)
    assert other._updater.states[0] is None


def test_a_missing_states_file_says_how_to_save_it(tmp_path):
    prefix = str(tmp_path / "net")
    mod = fresh()
    mod.save_checkpoint(prefix, 1)  # no save_optimizer_states
    loaded = bound(mx.mod.Module.load(prefix, 1, load_optimizer_states=True))
    with pytest.raises(OSError) as info:
        loaded.init_optimizer(optimizer_params=(("momentum", 0.9),))
    assert isinstance(info.value, mx.base.MXNetError)
    text = str(info.value)
    assert "net-0001.states" in text and "which does not exist" in text
    assert "save_optimizer_states=True" in text and "load_optimizer_states=False" in text
    assert loaded._preload_opt_states is None  # asked once; init_optimizer may be retried


def test_save_and_load_need_the_optimizer(tmp_path):
    mod = bound(mx.mod.Module(network()))
    mod.init_params()
    for call in (
        lambda: mod.save_optimizer_states(str(tmp_path / "x.states")),
        lambda: mod.load_optimizer_states(str(tmp_path / "x.states")),
    ):
        with pytest.raises(AssertionError, match="needs the optimizer: call mod.init_optimizer"):
            call()
    assert not os.path.exists(tmp_path / "x.states")


def test_a_file_that_is_not_states_is_refused(tmp_path):
    mod = fresh()
    params = str(tmp_path / "net-0001.params")
    mod.save_params(params)
    refused(
        lambda: mod.load_optimizer_states(params),
        "no optimizer states",
        "Module.save_optimizer_states",
    )
    missing = str(tmp_path / "none.states")
    with pytest.raises(OSError, match="cannot open"):
        mod.load_optimizer_states(missing)


def test_fit_resumes_from_loaded_states(tmp_path):
    rs = np.random.RandomState(2)
    x, y = rs.randn(20, 6).astype(np.float32), rs.randint(0, 3, 20).astype(np.float32)
    params = (("learning_rate", 0.1), ("momentum", 0.9))
    mod = mx.mod.Module(network())
    mod.fit(
        mx.io.NDArrayIter(x, y, batch_size=5),
        num_epoch=1,
        optimizer_params=params,
        arg_params=start_params(),
        progress_bar="off",
    )
    prefix = str(tmp_path / "fit")
    mod.save_checkpoint(prefix, 1, save_optimizer_states=True)
    again = mx.mod.Module.load(prefix, 1, load_optimizer_states=True)
    with pytest.warns(UserWarning, match="already initialized"):  # as in MXNet
        again.fit(
            mx.io.NDArrayIter(x, y, batch_size=5),
            num_epoch=2,
            begin_epoch=1,
            optimizer_params=params,
            progress_bar="off",
        )
    straight = mx.mod.Module(network())
    straight.fit(
        mx.io.NDArrayIter(x, y, batch_size=5),
        num_epoch=2,
        optimizer_params=params,
        arg_params=start_params(),
        progress_bar="off",
    )
    for name, value in values(straight).items():
        np.testing.assert_allclose(values(again)[name], value, rtol=1e-5, atol=1e-6)


def test_states_of_other_shapes_say_the_network_differs(tmp_path):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=5, name="fc1")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    mod = bound(mx.mod.Module(mx.sym.SoftmaxOutput(net, name="softmax")))
    mod.init_params()
    mod.init_optimizer(optimizer_params=(("momentum", 0.9),))
    refused(
        lambda: mod.load_optimizer_states(os.path.join(MXNET_STATES, "sgd-0002.states")),
        "parameter 0 ('fc1_weight') has a saved state of one array of shape (4, 6)",
        "its weight needs one array of shape (5, 6)",
        "a different network",
    )


@pytest.mark.parametrize(
    "name",
    [
        "sgd",
        "nag",
        "signum",
        "adam",
        "adamax",
        "nadam",
        "lamb",
        "ftml",
        "adagrad",
        "rmsprop",
        "adadelta",
        "ftrl",
    ],
)
def test_updater_states_and_optimizer_round_trip_for_every_optimizer(name):
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=0.1)
    extra = {"momentum": 0.9} if name in ("sgd", "nag", "signum") else {}
    extra.update({"centered": True} if name == "rmsprop" else {})
    opt = mx.optimizer.create(name, lr_scheduler=sched, learning_rate=0.1, **extra)
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array([1.0, -2.0]), mx.nd.array([[0.5]])]
    for _ in range(2):
        updater([0, 1], [mx.nd.array([0.3, 0.1]), mx.nd.array([[-1.0]])], weights)
    restored = mx.optimizer.get_updater(mx.optimizer.SGD())
    restored.set_states(updater.get_states(dump_optimizer=True))
    assert type(restored.optimizer) is type(opt)
    assert vars(restored.optimizer).keys() == vars(opt).keys()
    assert restored.optimizer.num_update == 2
    assert restored.optimizer.lr_scheduler.base_lr == sched.base_lr
    twin = [w.copy() for w in weights]
    grads = [mx.nd.array([0.2, -0.4]), mx.nd.array([[2.0]])]
    updater([0, 1], grads, weights)
    restored([0, 1], [g.copy() for g in grads], twin)
    for a, b in zip(weights, twin):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_minisym_still_writes_the_bytes_mxnet_read():
    """tests/fixtures/minisym_states/ was written by make_minisym_states.py; program p775
    recorded what MXNet 1.9.1 read from it."""
    import sys

    sys.path.insert(0, os.path.join(HERE, "differential"))
    try:
        import make_minisym_states
    finally:
        sys.path.remove(os.path.join(HERE, "differential"))
    with open(os.path.join(HERE, "fixtures", "minisym_states", "fixed.states"), "rb") as fin:
        committed = fin.read()
    assert make_minisym_states.fixed_states(mx) == committed


def test_the_optimizer_with_its_states_uses_minisym_s_own_format():
    updater = mx.optimizer.get_updater(mx.optimizer.Adam())
    updater(0, mx.nd.ones((2,)), mx.nd.ones((2,)))
    payload = updater.get_states(dump_optimizer=True)
    assert payload[:8] == (0x112).to_bytes(8, "little")  # an MXNet .params list, no pickle
    restored = mx.optimizer.get_updater(mx.optimizer.SGD())
    restored.set_states(payload)
    assert isinstance(restored.optimizer, mx.optimizer.Adam)
    assert restored.optimizer._index_update_count == {0: 1}


def test_a_failed_states_save_keeps_the_previous_file(tmp_path, monkeypatch):
    mod = fresh()
    train(mod, batches()[:1])
    path = tmp_path / "net-0001.states"
    mod.save_optimizer_states(str(path))
    before = path.read_bytes()
    train(mod, batches()[1:2])

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="Module.save_optimizer_states"):
        mod.save_optimizer_states(str(path))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["net-0001.states"]  # no temporary file left
    with pytest.raises(OSError, match="Module.save_optimizer_states"):
        mod.save_optimizer_states(str(tmp_path / "missing" / "x.states"))
