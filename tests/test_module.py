"""mx.mod.Module: which arrays get gradients, the checks on names and order of calls,
reshaping to a new batch size, checkpoints, and the progress bar of fit."""

import logging

import numpy as np
import pytest

import minisym as mx


def mlp():
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=4, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def bound(inputs_need_grad=False, for_training=True, **kwargs):
    mod = mx.mod.Module(mlp(), logger=logging.getLogger("test"), **kwargs)
    mod.bind(
        data_shapes=[("data", (2, 5))],
        label_shapes=[("softmax_label", (2,))],
        for_training=for_training,
        inputs_need_grad=inputs_need_grad,
    )
    mod.init_params(mx.init.Xavier())
    return mod


def test_grad_req_parameters_only_unless_inputs_need_grad():
    grads = bound().executor.grad_dict
    assert grads["data"] is None and grads["softmax_label"] is None
    assert grads["fc1_weight"] is not None
    assert bound(inputs_need_grad=True).executor.grad_dict["data"] is not None
    fixed = bound(fixed_param_names=["fc1_weight"]).executor.grad_dict
    assert fixed["fc1_weight"] is None and fixed["fc2_weight"] is not None
    assert all(g is None for g in bound(for_training=False).executor.grad_dict.values())


def test_names_are_checked():
    with pytest.raises(ValueError, match="'image' is not found"):
        mx.mod.Module(mlp(), data_names=("image",))
    with pytest.warns(UserWarning, match="'label' is not found"):
        mx.mod.Module(mlp(), label_names=("label",))


def test_calls_out_of_order_are_refused_or_warned():
    mod = bound()
    with pytest.warns(UserWarning, match="already initialized"):
        mod.init_params()
    # MXNet's bare asserts (no message): the missing step is what makes them fail, as the
    # same calls after that step show
    with pytest.raises(AssertionError):
        mod.get_input_grads()  # bound without inputs_need_grad
    with pytest.raises(AssertionError):
        mod.update()  # no optimizer yet
    batch = mx.io.DataBatch([mx.nd.ones((2, 5))], [mx.nd.zeros(2)])
    mod.forward_backward(batch)
    mod.init_optimizer()
    mod.update()
    with_input_grads = bound(inputs_need_grad=True)
    with_input_grads.forward_backward(batch)
    assert with_input_grads.get_input_grads()[0].shape == (2, 5)


def test_forward_with_a_new_batch_size_rebinds_and_keeps_parameters():
    mod = bound()
    before = mod.get_params()[0]["fc1_weight"].asnumpy()
    mod.forward(mx.io.DataBatch([mx.nd.ones((5, 5))], [mx.nd.zeros(5)]), is_train=False)
    assert mod.get_outputs()[0].shape == (5, 3)
    assert mod.output_shapes == [("softmax_output", (5, 3))]
    np.testing.assert_array_equal(mod.get_params()[0]["fc1_weight"].asnumpy(), before)


def test_rescale_grad_is_one_over_the_batch_size():
    mod = bound()
    mod.init_optimizer(optimizer_params={"learning_rate": 0.1})
    assert mod._optimizer.rescale_grad == 0.5


def test_checkpoint_round_trip(tmp_path):
    mod = bound()
    prefix = str(tmp_path / "mlp")
    mod.save_checkpoint(prefix, 7)
    symbol, args, aux = mx.model.load_checkpoint(prefix, 7)
    assert symbol.tojson() == mlp().tojson()
    for name, value in mod.get_params()[0].items():
        np.testing.assert_array_equal(args[name].asnumpy(), value.asnumpy())
    again = mx.mod.Module.load(prefix, 7)
    again.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    batch = mx.io.DataBatch([mx.nd.ones((2, 5))], [mx.nd.zeros(2)])
    mod.forward(batch, is_train=False)
    again.forward(batch, is_train=False)
    np.testing.assert_array_equal(mod.get_outputs()[0].asnumpy(), again.get_outputs()[0].asnumpy())


def test_fit_shows_a_progress_bar_and_calls_back(capsys):
    data = np.random.default_rng(0).standard_normal((8, 5)).astype(np.float32)
    train = mx.io.NDArrayIter(data, np.zeros(8, np.float32), batch_size=4)
    batches = []
    mod = mx.mod.Module(mlp(), logger=logging.getLogger("test"))
    mod.fit(train, num_epoch=2, batch_end_callback=lambda p: batches.append((p.epoch, p.nbatch)))
    assert batches == [(0, 0), (0, 1), (1, 0), (1, 1)]
    err = capsys.readouterr().err
    assert "Epoch[0] [####################] batch 2/2  loss=" in err and "Epoch[1]" in err


def test_callbacks_checkpoint_and_log(tmp_path, caplog):
    data = np.random.default_rng(1).standard_normal((8, 5)).astype(np.float32)
    train = mx.io.NDArrayIter(data, np.zeros(8, np.float32), batch_size=2)
    mod = mx.mod.Module(mlp(), logger=logging.getLogger("test"))
    prefix = str(tmp_path / "run")
    with caplog.at_level(logging.INFO):
        mod.fit(
            train,
            num_epoch=2,
            progress_bar=False,
            batch_end_callback=mx.callback.Speedometer(2, frequent=2),
            epoch_end_callback=mx.callback.do_checkpoint(prefix, period=2),
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run-0002.params", "run-symbol.json"]
    speed_lines = [r.getMessage() for r in caplog.records if "samples/sec" in r.getMessage()]
    assert len(speed_lines) == 2 and speed_lines[0].startswith("Epoch[0] Batch [0-2]\tSpeed: ")
    assert "accuracy=" in speed_lines[0]
