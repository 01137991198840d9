"""Catalogue, bind and executor: mistakes a learner makes binding a symbol and running it.

Each test is one mistake as a beginner types it; it asserts MXNet's exception type, the parts of
the message that teach, and that the symbol, the arrays handed in, and the executor's argument,
gradient, auxiliary and output arrays are what they were before the failed call.
"""

import signal
import time

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


def _fc():
    return mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=4, name="fc")


def _args(data_shape=(2, 3), weight_shape=(4, 3), dtype="float32"):
    return {
        "data": mx.nd.array(
            np.arange(6).reshape(data_shape) if data_shape == (2, 3) else np.ones(data_shape),
            dtype=dtype,
        ),
        "fc_weight": mx.nd.ones(weight_shape),
        "fc_bias": mx.nd.ones((4,)),
    }


@pytest.fixture
def ex():
    """A bound, run executor with values in every array (so a change would show)."""
    executor = _fc().bind(
        mx.cpu(),
        _args(),
        args_grad={
            n: mx.nd.zeros(s)
            for n, s in (("data", (2, 3)), ("fc_weight", (4, 3)), ("fc_bias", (4,)))
        },
    )
    executor.forward(is_train=True)
    executor.backward(mx.nd.ones((2, 4)))
    return executor


# --- bind and simple_bind ----------------------------------------------------------------------
def test_simple_bind_with_a_negative_size():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(OverflowError) as info:  # MXNet: OverflowError from ctypes
        net.simple_bind(mx.cpu(), data=(-3, 5))
    message = str(info.value)
    assert "simple_bind: 'data' has shape (-3, 5): dimension 0 is -3" in message
    assert "Fix: give data=(3, 5)" in message
    assert_unchanged(before, net)


def test_simple_bind_with_a_fractional_size():
    net = _fc()
    with pytest.raises(
        TypeError,
        match=r"simple_bind: 'data' has shape \(2\.5, 5\): dimension "
        r"0 is 2\.5 \(float\), but a size must be an int\. Fix: "
        r"give data=\(2, 5\)",
    ):
        net.simple_bind(mx.cpu(), data=(2.5, 5))  # minisym used to bind (2, 5) silently


def test_simple_bind_with_an_empty_batch():
    with pytest.raises(RuntimeError) as info:  # MXNet: "cannot decide shapes ... [-1,5]"
        _fc().simple_bind(mx.cpu(), data=(0, 5))
    message = str(info.value)
    assert "InferShape pass cannot decide shapes" in message
    assert "You gave data=(0, 5): a 0 size means 'unknown'" in message
    assert "at least 1" in message


def test_simple_bind_with_a_misspelled_input():
    with pytest.raises(RuntimeError) as info:
        _fc().simple_bind(mx.cpu(), dat=(2, 5))
    message = str(info.value)
    assert message.startswith("simple_bind error. Arguments:\ndat: (2, 5)")
    assert "'dat' (did you mean 'data'?)" in message


def test_simple_bind_with_grad_req_inplace():
    with pytest.raises(RuntimeError, match=r"grad_req must be in \{.*\}, got 'inplace'"):
        _fc().simple_bind(mx.cpu(), data=(2, 3), grad_req="inplace")


def test_simple_bind_with_a_misspelled_dtype():
    with pytest.raises(
        TypeError,
        match=r"simple_bind: type_dict\['data'\] is 'float33', which "
        r"is not a data type.*type_dict=\{'data': 'float32'\}",
    ):
        _fc().simple_bind(mx.cpu(), data=(2, 3), type_dict={"data": "float33"})


def test_bind_with_a_numpy_array():
    args = _args()
    args["data"] = np.ones((2, 3))
    with pytest.raises(
        TypeError,
        match=r"args 'data' is ndarray; wrap it with "
        r"mx\.nd\.array\(\.\.\.\)",
    ):
        _fc().bind(mx.cpu(), args)


def test_bind_with_a_missing_weight():
    args = _args()
    del args["fc_weight"]
    before = snapshot(list(args.values()))
    with pytest.raises(
        ValueError,
        match=r"key `fc_weight` is missing in `args`; it needs "
        r"\['data', 'fc_weight', 'fc_bias'\]",
    ):
        _fc().bind(mx.cpu(), args)
    assert_unchanged(before, list(args.values()))


def test_bind_with_a_wrong_weight_shape():
    args = _args(weight_shape=(4, 5))
    before = snapshot(list(args.values()))
    with pytest.raises(mx.base.MXNetError) as info:
        _fc().bind(mx.cpu(), args)
    message = str(info.value)
    assert "FullyConnected 'fc': input 1 'weight' (node 'fc_weight') is (4, 5)" in message
    assert "needs (4, 3)" in message and "Fix: give 'fc_weight' the shape (4, 3)" in message
    assert_unchanged(before, list(args.values()))


def test_bind_with_integer_data_and_float_weights():
    args = _args(dtype="int32")
    with pytest.raises(
        mx.base.MXNetError,
        match=r"FullyConnected 'fc': dtype inconsistent: "
        r"input 1 'weight' is float32 but input 0 "
        r"'data' is int32.*mx\.sym\.cast",
    ):
        _fc().bind(mx.cpu(), args)


def test_bind_with_an_empty_array():
    args = _args(data_shape=(0, 3))
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "Shape dim size cannot be ... -1"
        _fc().bind(mx.cpu(), args)
    message = str(info.value)
    assert "cannot decide the shape of variable 'data'" in message
    assert "The arrays given have data=(0, 3): a 0 size means 'unknown'" in message


def test_bind_with_a_misspelled_grad_req():
    with pytest.raises(ValueError, match=r"grad_req must be in \{.*\}, got 'writ'"):
        _fc().bind(mx.cpu(), _args(), args_grad={"data": mx.nd.zeros((2, 3))}, grad_req="writ")
    with pytest.raises(KeyError, match=r"got 'sum'"):  # MXNet looks dict entries up: KeyError
        _fc().bind(
            mx.cpu(), _args(), args_grad={"data": mx.nd.zeros((2, 3))}, grad_req={"data": "sum"}
        )


def test_bind_with_a_gradient_array_of_the_wrong_shape():
    grads = {"data": mx.nd.ones((3, 3))}
    before = snapshot(list(grads.values()))
    with pytest.raises(
        mx.base.MXNetError,
        match=r"bind: gradient array of 'data' has shape "
        r"\(3, 3\) but the argument has \(2, 3\)",
    ):
        _fc().bind(mx.cpu(), _args(), args_grad=grads)
    assert_unchanged(before, list(grads.values()))


# --- the executor ------------------------------------------------------------------------------
def test_forward_with_another_batch_size(ex):
    before = snapshot(ex)
    with pytest.raises(
        ValueError,
        match=r"Shape not match! Argument data, need: \(2, 3\), "
        r"received: \(3, 3\) \(for another batch size use "
        r"ex\.reshape\(data=\(3, 3\)\)\)",
    ):
        ex.forward(data=mx.nd.ones((3, 3)))
    assert_unchanged(before, ex)


def test_forward_with_a_misspelled_input(ex):
    before = snapshot(ex)
    with pytest.raises(
        TypeError,
        match=r"Unknown argument dat; the arguments are \['data', "
        r"'fc_weight', 'fc_bias'\]",
    ):
        ex.forward(dat=mx.nd.ones((2, 3)))
    assert_unchanged(before, ex)


def test_forward_with_a_python_list(ex):
    before = snapshot(ex)
    with pytest.raises(
        ValueError,
        match=r"only accept keyword argument of NDArrays and "
        r"numpy\.ndarray; data is list",
    ):
        ex.forward(data=[[1, 2, 3], [4, 5, 6]])
    assert_unchanged(before, ex)


def test_forward_with_one_good_and_one_bad_input_copies_neither(ex):
    before = snapshot(ex)
    with pytest.raises(ValueError, match=r"Argument fc_bias, need: \(4,\), received: \(5,\)"):
        ex.forward(data=mx.nd.ones((2, 3)) * 7, fc_bias=mx.nd.ones((5,)))
    assert_unchanged(before, ex)  # data was not copied in before fc_bias was found wrong


def test_forward_with_is_train_as_a_string(ex):
    before = snapshot(ex)
    with pytest.raises(
        ValueError,
        match=r"forward: is_train='False' is not a bool: write "
        r"is_train=False \(without quotes\)",
    ):
        ex.forward(is_train="False")  # bool('False') is True: it would train silently
    assert_unchanged(before, ex)


def test_backward_without_a_head_gradient(ex):
    before = snapshot(ex)
    with pytest.raises(mx.base.MXNetError) as info:
        ex.backward()
    message = str(info.value)
    assert "head_gradient is required when calling backward" in message
    assert "Output 0 'fc_output' of FullyConnected 'fc' needs a head gradient" in message
    assert "backward(out_grads=mx.nd.ones((2, 4)))" in message
    assert_unchanged(before, ex)


def test_backward_with_a_head_gradient_of_the_wrong_shape(ex):
    before = snapshot(ex)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "operands shape mismatch"
        ex.backward(mx.nd.ones((4,)))  # used to fail inside FullyConnected, or broadcast
    message = str(info.value)
    assert "out_grads[0], the head gradient of output 0 'fc_output'" in message
    assert "has shape (4,) but that output has (2, 4)" in message
    assert "mx.nd.ones((2, 4))" in message and "Nothing was changed" in message
    assert_unchanged(before, ex)


def test_copy_params_from_with_a_wrong_shape(ex):
    before = snapshot(ex)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "Incompatible attr"
        ex.copy_params_from({"fc_bias": mx.nd.zeros((4,)), "fc_weight": mx.nd.ones((3,))})
    message = str(info.value)
    assert "copy_params_from: 'fc_weight' has shape (3,)" in message
    assert "but (4, 3) in this executor; nothing was copied" in message
    assert_unchanged(before, ex)  # fc_bias, checked first, was not copied either


def test_reshape_with_bad_sizes_or_names(ex):
    before = snapshot(ex)
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Executor\.reshape: 'data' has shape \(-3, 3\):"
        r" dimension 0 is -3",
    ):
        ex.reshape(data=(-3, 3))
    with pytest.raises(TypeError, match=r"Executor\.reshape: 'data' has shape \(1\.5, 3\)"):
        ex.reshape(data=(1.5, 3))  # used to reshape to (1, 3) silently
    with pytest.raises(
        mx.base.MXNetError,
        match=r"'dat' \(did you mean 'data'\?\).*Its "
        r"arguments are \['data', 'fc_weight'",
    ):
        ex.reshape(dat=(1, 3))
    with pytest.raises(
        mx.base.MXNetError,
        match=r"larger than its current \(2, 3\).*set "
        r"allow_up_sizing=True",
    ):
        ex.reshape(data=(5, 3))
    assert_unchanged(before, ex)


def test_assigning_a_wrong_shape_into_an_argument(ex):
    before = snapshot(ex)
    with pytest.raises(ValueError) as info:
        ex.arg_dict["data"][:] = mx.nd.ones((3, 3))
    message = str(info.value)
    assert "x[:] = value: value has shape (3, 3) but x[:] has shape (2, 3)" in message
    assert "Nothing was written" in message
    assert_unchanged(before, ex)


def test_replacing_an_argument_array_instead_of_writing_into_it(ex):
    before = snapshot(ex)
    bound = ex.arg_arrays[1]
    with pytest.warns(mx.MistakeWarning) as caught:
        ex.arg_dict["fc_weight"] = mx.nd.zeros((4, 3))
    message = str(caught[0].message)
    assert message.startswith(
        "ex.arg_dict['fc_weight'] = ...: write into the array instead: "
        "ex.arg_dict['fc_weight'][:] = value (or "
        "value.copyto(ex.arg_dict['fc_weight']))."
    )
    assert "forward and backward ignore the new one" in message
    assert caught[0].filename == __file__  # the learner's line, not the engine's
    # as in MXNet the dict keeps the new entry; the executor keeps the array it was bound with
    assert ex.arg_dict["fc_weight"].asnumpy().sum() == 0
    assert ex.arg_arrays[1] is bound
    ex.forward()
    assert_unchanged(before, ex, ignore=("arg_dict['fc_weight']",))


@pytest.mark.parametrize(
    "which, name, role",
    [
        ("grad_dict", "fc_bias", "never receives it"),
        ("aux_dict", "bn_moving_mean", "the new one is ignored"),
    ],
)
def test_replacing_a_gradient_or_an_aux_array(which, name, role):
    net = mx.sym.BatchNorm(_fc(), name="bn")
    ex = net.simple_bind(mx.cpu(), data=(2, 3))
    before = snapshot(ex)
    bound = getattr(ex, which)[name]
    with pytest.warns(
        mx.MistakeWarning,
        match=rf"ex\.{which}\['{name}'\] = \.\.\.: write into "
        rf"the array instead.*{role}",
    ):
        getattr(ex, which)[name] = mx.nd.ones(bound.shape)
    assert_unchanged(before, ex, ignore=(f"{which}[{name!r}]",))
    arrays = ex.grad_arrays if which == "grad_dict" else ex.aux_arrays
    assert any(a is bound for a in arrays)  # what the executor writes is still the bound one


def test_replacing_arrays_with_dict_update(ex):
    before = snapshot(ex)
    with pytest.warns(mx.MistakeWarning, match=r"ex\.arg_dict\['data'\] = \.\.\.: write"):
        ex.arg_dict.update(data=mx.nd.zeros((2, 3)))
    assert_unchanged(before, ex, ignore=("arg_dict['data']",))


def test_backward_on_an_executor_bound_without_gradient_arrays():
    executor = _fc().bind(mx.cpu(), _args())  # no args_grad: every grad_req becomes 'null'
    executor.forward(is_train=True)
    before = snapshot(executor.arg_arrays + executor.outputs)
    with pytest.warns(mx.MistakeWarning) as caught:
        executor.backward(mx.nd.ones((2, 4)))
    message = str(caught[0].message)
    assert message == (
        "Executor.backward: bind with gradient arrays to get gradients: "
        "sym.bind(ctx, args, args_grad={name: mx.nd.zeros(shape), ...}) or "
        "sym.simple_bind(ctx, grad_req='write', data=...). This executor was bound without "
        "args_grad, so it has no gradient arrays (every argument, 'data', 'fc_weight', "
        "'fc_bias', has grad_req 'null') and backward computes nothing."
    )
    assert caught[0].filename == __file__
    assert_unchanged(before, executor.arg_arrays + executor.outputs)
    with pytest.raises(TypeError) as info:  # MXNet: the same TypeError, from zip()
        _ = executor.grad_dict
    assert str(info.value) == (
        "Executor.grad_dict: bind with gradient arrays to get gradients: sym.bind(ctx, args, "
        "args_grad={name: mx.nd.zeros(shape), ...}) or sym.simple_bind(ctx, grad_req='write', "
        "data=...); this executor was bound without args_grad, so it has no grad_dict. "
        "('NoneType' object is not iterable)"
    )


def test_two_layers_given_the_same_name():
    first = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    net = mx.sym.FullyConnected(first, num_hidden=2, name="fc")
    before = snapshot(net)
    with pytest.raises(RuntimeError) as info:  # MXNet: RuntimeError, "... un-allocated"
        net.simple_bind(mx.cpu(), data=(2, 4))
    message = str(info.value)
    assert (
        "Two layers are both named 'fc': rename one, e.g. name='fc2' for the FullyConnected "
        "that reads 'fc_output'. FullyConnected 'fc' (reading 'data') and FullyConnected "
        "'fc' (reading 'fc_output') each make their weights from their name, so both have "
        "a 'fc_weight', and the executor finds arrays by name."
    ) in message
    assert message.endswith("Input argument NDArray cannot be un-allocated")  # MXNet's text
    assert "Variable('a1')" not in message  # the learner named layers, not Variables
    assert_unchanged(before, net)


def test_two_layers_given_the_same_name_at_bind():
    first = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    net = mx.sym.FullyConnected(first, num_hidden=2, name="fc")
    arrays = [mx.nd.ones(s) for s in ((2, 4), (3, 4), (3,), (2, 3), (2,))]
    before = snapshot(arrays)
    with pytest.raises(mx.base.MXNetError) as info:
        net.bind(mx.cpu(), arrays)
    message = str(info.value)
    assert message.startswith("Two layers are both named 'fc': rename one, e.g. name='fc2'")
    assert message.endswith("Check failed: arg_names.size() == in_args_map.size() (5 vs. 3) :")
    assert_unchanged(before, arrays)


def test_two_variables_given_the_same_name():
    net = mx.sym.Variable("x") + mx.sym.Variable("x")
    with pytest.raises(
        RuntimeError,
        match=r"Two different variables are both named 'x': give "
        r"them different names",
    ):
        net.simple_bind(mx.cpu(), x=(2,))


def test_output_dict_by_layer_name(ex):
    with pytest.raises(KeyError, match="'fc'"):  # it is 'fc_output', as in MXNet
        ex.output_dict["fc"]
    assert list(ex.output_dict) == ["fc_output"]


def test_nan_and_inf_in_the_data_give_nan_without_crashing():
    net = mx.sym.SoftmaxOutput(_fc(), name="sm")
    ex = net.simple_bind(mx.cpu(), data=(2, 3))
    ex.arg_dict["fc_weight"][:] = 1
    ex.forward(is_train=True, data=mx.nd.array([[np.nan, 1, np.inf], [1, 2, 3]]))
    out = ex.outputs[0].asnumpy()
    assert np.isnan(out[0]).all()  # MXNet 1.9.1 gives NaN there too
    np.testing.assert_allclose(out[1], np.full(4, 0.25), rtol=1e-6)
    ex.backward()
    grad = ex.grad_dict["fc_weight"].asnumpy()
    assert np.isnan(grad).all()  # the NaN row reaches every weight, as in MXNet


# --- interrupting a long forward ----------------------------------------------------------------
class _Slow(mx.operator.CustomOp):
    """Twice its input, after ``delay`` seconds on the first call (long enough to interrupt)."""

    calls = 0
    raise_at_once = False

    def forward(self, is_train, req, in_data, out_data, aux):
        type(self).calls += 1
        if type(self).calls == 1:
            if self.raise_at_once:
                raise KeyboardInterrupt
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                time.sleep(0.005)
        self.assign(out_data[0], req[0], in_data[0] * 2)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * 2)


@mx.operator.register("cat_be_slow")
class _SlowProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _Slow()


def _slow_net():
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    return mx.sym.Custom(fc, op_type="cat_be_slow", name="slow")


def _interrupted(raise_at_once):
    _Slow.calls, _Slow.raise_at_once = 1, raise_at_once  # the next call is not the first
    ex = _slow_net().simple_bind(mx.cpu(), data=(2, 3))
    ex.arg_dict["fc_weight"][:] = 1
    ex.forward(data=mx.nd.ones((2, 3)))  # not interrupted: the right values are there
    _Slow.calls = 0  # the next forward is interrupted
    return ex


def _check_usable_after(ex, before):
    assert_unchanged(before, ex)  # the data given to the interrupted call was rolled back
    out = ex.forward(is_train=True, data=mx.nd.ones((2, 3)) * 2)[0].asnumpy()
    np.testing.assert_allclose(out, np.full((2, 3), 12.0))  # (2+2+2) * 2
    ex.backward(mx.nd.ones((2, 3)))
    np.testing.assert_allclose(ex.grad_dict["fc_weight"].asnumpy(), np.full((3, 3), 8.0))


def test_keyboard_interrupt_raised_inside_forward_leaves_the_executor_usable():
    ex = _interrupted(raise_at_once=True)
    before = snapshot(ex)
    with pytest.raises(KeyboardInterrupt):
        ex.forward(data=mx.nd.ones((2, 3)) * 5)
    _check_usable_after(ex, before)


def test_interrupting_a_long_forward_with_a_signal_leaves_the_executor_usable():
    ex = _interrupted(raise_at_once=False)
    before = snapshot(ex)

    def interrupt(signum, frame):
        raise KeyboardInterrupt  # what Ctrl-C / Jupyter's "interrupt kernel" does

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            ex.forward(data=mx.nd.ones((2, 3)) * 5)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - start < 1.5  # interrupted, not run to its end
    _check_usable_after(ex, before)


# --- a backward that fails midway ---------------------------------------------------------------
class _BrokenBackward(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise RuntimeError("backward of my layer is not written yet")


@mx.operator.register("cat_be_broken_backward")
class _BrokenBackwardProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _BrokenBackward()


def test_a_backward_failing_below_other_layers_names_what_they_changed():
    """Backward runs from the loss down: FullyConnected and BatchNorm have written their
    gradients (and BatchNorm its moving statistics) before the custom layer under them fails.
    That cannot be undone; the note names those arrays, and nothing else changed."""
    data = mx.sym.Custom(mx.sym.Variable("data"), op_type="cat_be_broken_backward", name="mine")
    bn = mx.sym.BatchNorm(data, name="bn")
    net = mx.sym.MakeLoss(mx.sym.sum(mx.sym.FullyConnected(bn, num_hidden=2, name="fc")))
    ex = net.simple_bind(mx.cpu(), data=(4, 3))
    ex.arg_dict["data"][:] = np.arange(12).reshape(4, 3)
    ex.arg_dict["fc_weight"][:] = 1
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(RuntimeError, match="backward of my layer") as info:
        ex.backward()
    note = info.value.__notes__[-1]
    changed = [
        "grad_dict['fc_weight']",
        "grad_dict['fc_bias']",
        "grad_dict['bn_gamma']",
        "grad_dict['bn_beta']",
        "aux_dict['bn_moving_mean']",
        "aux_dict['bn_moving_var']",
    ]
    assert note.startswith(
        "(backward stopped after it had already changed grad_dict['fc_weight']"
        " (overwritten, grad_req 'write')"
    )
    for name in changed:
        assert name in note
    assert "BatchNorm updates its moving statistics in backward" in note
    assert "grad_dict['data']" not in note
    assert "Every other gradient and auxiliary array is as it was" in note
    assert "The next backward overwrites those gradients" in note
    assert_unchanged(before, ex, ignore=changed)  # and so it is
    assert not np.array_equal(
        before["aux_dict['bn_moving_mean']"], ex.aux_dict["bn_moving_mean"].asnumpy()
    )  # what the note says
