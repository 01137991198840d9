"""bind / simple_bind / Executor semantics: arrays in place, grad_req, fan-out, head
gradients, the dict views, reshape, the monitor, and the trace the widgets read."""

import warnings

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError

x = mx.sym.Variable("x")


def test_bind_uses_your_arrays_in_place():
    a = mx.nd.array([1.0, 2.0])
    ex = (x * 3).bind(mx.cpu(), {"x": a})
    assert ex.forward()[0].asnumpy().tolist() == [3.0, 6.0]
    a[:] = 10
    ex.forward()
    assert ex.outputs[0].asnumpy().tolist() == [30.0, 30.0]
    assert ex.arg_dict["x"] is a


def test_grad_req_add_accumulates_and_is_never_zeroed():
    grad = mx.nd.ones(1)
    ex = (x * 2).bind(mx.cpu(), {"x": mx.nd.ones(1)}, args_grad={"x": grad}, grad_req="add")
    for _ in range(3):
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones(1))
    assert grad.asnumpy().tolist() == [7.0]


@pytest.mark.parametrize("req, expected", [("write", 2.0), ("add", 5.0), ("null", 1.0)])
def test_grad_req_per_argument(req, expected):
    grad = mx.nd.ones(1)
    ex = (x * 2).bind(mx.cpu(), {"x": mx.nd.ones(1)}, args_grad={"x": grad}, grad_req=req)
    ex.forward(is_train=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", mx.MistakeWarning)
        ex.backward(mx.nd.ones(1))
        ex.backward(mx.nd.ones(1))
    assert grad.asnumpy()[0] == expected
    assert not caught  # 'null' chosen for every argument is no mistake: backward stays silent


def test_fan_out_is_summed_whatever_the_req():
    y = x * x + x * 3
    ex = y.simple_bind(mx.cpu(), x=(2,), grad_req="write")
    ex.arg_dict["x"][:] = np.array([1.0, 2.0])
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones(2))
    assert ex.grad_dict["x"].asnumpy().tolist() == [5.0, 7.0]  # 2x + 3


def test_dict_grad_req_leaves_other_arguments_null():
    w = mx.sym.Variable("w")
    ex = (x * w).simple_bind(mx.cpu(), x=(2,), w=(2,), grad_req={"w": "write"})
    assert ex.grad_dict["x"] is None and ex.grad_dict["w"].shape == (2,)


def test_head_gradient_required_for_a_non_loss_output():
    ex = (x * 2).simple_bind(mx.cpu(), x=(2,))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="head_gradient is required") as caught:
        ex.backward()
    assert "mx.nd.ones((2,))" in str(caught.value)


def test_loss_head_ignores_a_given_head_gradient():
    net = mx.sym.MakeLoss(x * 2, name="loss")
    ex = net.simple_bind(mx.cpu(), x=(2,))
    ex.forward(is_train=True)
    ex.backward(mx.nd.array([100.0, 100.0]))
    assert ex.grad_dict["x"].asnumpy().tolist() == [2.0, 2.0]


def test_forward_keyword_arrays_are_checked():
    ex = (x + 1).simple_bind(mx.cpu(), x=(2, 3))
    assert ex.forward(x=np.ones((2, 3)))[0].asnumpy().sum() == 12
    with pytest.raises(TypeError, match="Unknown argument y"):
        ex.forward(y=np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"need: \(2, 3\), received: \(3, 3\)"):
        ex.forward(x=np.ones((3, 3)))
    with pytest.raises(ValueError, match="only accept keyword argument"):
        ex.forward(x=[1, 2])


@pytest.mark.parametrize(
    "call, error, text",
    [
        (lambda s: s.bind(mx.cpu(), [mx.nd.ones(2)] * 2), ValueError, "Length of args"),
        (lambda s: s.bind(mx.cpu(), {}), ValueError, "key `x` is missing in `args`"),
        (lambda s: s.bind(mx.cpu(), {"x": np.ones(2)}), TypeError, "mx.nd.array"),
        (lambda s: s.bind("cpu", {"x": mx.nd.ones(2)}), TypeError, "Context type error"),
        (
            lambda s: s.bind(mx.cpu(), {"x": mx.nd.ones(2)}, grad_req="sum"),
            ValueError,
            "grad_req must be in",
        ),
        (lambda s: s.simple_bind(mx.cpu()), RuntimeError, "cannot decide shapes"),
    ],
)
def test_bind_mistakes(call, error, text):
    with pytest.raises(error, match=text):
        call(x + 1)


def test_simple_bind_zero_fills_and_honours_type_dict():
    net = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    ex = net.simple_bind(mx.cpu(), x=(2, 4), type_dict={"x": "float64"})
    assert ex.arg_dict["fc_weight"].dtype is np.float64
    assert ex.outputs[0].shape == (2, 3) and ex.arg_dict["fc_weight"].asnumpy().sum() == 0


def test_the_dicts_are_made_once_per_executor_as_in_mxnet():
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(x, num_hidden=3, name="fc"), name="bn")
    ex = net.simple_bind(mx.cpu(), x=(2, 4))
    assert ex.arg_dict is ex.arg_dict and ex.grad_dict is ex.grad_dict
    assert ex.aux_dict is ex.aux_dict and isinstance(ex.arg_dict, dict)
    assert all(ex.arg_dict[n] is a for n, a in zip(net.list_arguments(), ex.arg_arrays))
    with warnings.catch_warnings():
        warnings.simplefilter("error", mx.MistakeWarning)
        ex.arg_dict["fc_weight"][:] = 1  # writing into the arrays is silent
        mx.nd.ones((3,)).copyto(ex.aux_dict["bn_moving_var"])
        ex.grad_dict["fc_bias"][:] = 0
        ex.forward(is_train=True, x=mx.nd.ones((2, 4)))
    assert ex.arg_arrays[1].asnumpy().sum() == 12


def test_copy_params_from_and_its_error():
    net = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    ex = net.simple_bind(mx.cpu(), x=(2, 4))
    ex.copy_params_from({"fc_bias": mx.nd.ones(3)})
    assert ex.arg_dict["fc_bias"].asnumpy().tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match='Find name "extra"'):
        ex.copy_params_from({"extra": mx.nd.ones(3)})


def test_reshape_shares_parameters():
    net = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    ex = net.simple_bind(mx.cpu(), x=(4, 5))
    small = ex.reshape(x=(2, 5))
    assert small.arg_dict["fc_weight"] is ex.arg_dict["fc_weight"]
    assert small.outputs[0].shape == (2, 3)
    with pytest.raises(MXNetError, match="allow_up_sizing"):  # MXNet raises MXNetError here
        ex.reshape(x=(8, 5))


def test_monitor_sees_every_output():
    net = mx.sym.Activation(
        mx.sym.FullyConnected(x, num_hidden=2, name="fc"), act_type="relu", name="act"
    )
    ex = net.simple_bind(mx.cpu(), x=(1, 3))
    seen = []
    ex.set_monitor_callback(lambda name, arr: seen.append((name, arr.shape)))
    ex.forward()
    assert seen == [("fc_output", (1, 2)), ("act_output", (1, 2))]
    mon = mx.mon.Monitor(1, pattern="act.*")
    mon.install(ex)
    mon.tic()
    ex.forward()
    assert [name for _, name, _ in mon.toc()] == ["act_output"]


def test_monitor_sees_every_gradient_of_backward():
    """MXNet's monitor also sees its backward nodes: in_grad[i] of node n is
    'n_backward_output{i}' (no index for one input), a gradient summed from two consumers is
    'sum_grad_output', and elemwise_add (which passes its head gradient on) shows nothing."""
    relu = mx.sym.Activation(x, act_type="relu", name="r")
    fc = mx.sym.FullyConnected(relu, num_hidden=2, no_bias=True, name="fc")
    net = mx.sym.MakeLoss(mx.sym.sum(fc) + mx.sym.sum(relu))
    ex = net.simple_bind(mx.cpu(), x=(1, 3))
    ex.arg_dict["x"][:] = [[1.0, -2.0, 3.0]]
    ex.arg_dict["fc_weight"][:] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    seen = {}
    ex.set_monitor_callback(lambda name, arr: seen.setdefault(name, arr.asnumpy().copy()))
    ex.forward(is_train=True)
    ex.backward()
    assert "_plus0_backward_output" not in seen and "_plus0_backward_output0" not in seen
    assert [
        "fc_backward_output0",
        "fc_backward_output1",
        "sum_grad_output",
        "r_backward_output",
    ] == [n for n in seen if n.startswith(("fc_b", "sum_", "r_b"))]
    assert seen["fc_backward_output0"].tolist() == [[5.0, 7.0, 9.0]]  # ones @ fc_weight
    assert seen["sum_grad_output"].tolist() == [[6.0, 8.0, 10.0]]  # + 1 from the other sum
    assert seen["r_backward_output"].tolist() == [[6.0, 0.0, 10.0]]  # relu's mask
    np.testing.assert_array_equal(seen["r_backward_output"], ex.grad_dict["x"].asnumpy())


def test_trace_names_every_index():
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(data, num_hidden=2, name="fc1"), name="bn")
    ex = net.simple_bind(mx.cpu(), data=(3, 4), grad_req={"fc1_weight": "add"})
    assert ex.trace is None
    trace = ex.enable_trace(preview_size=2)
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((3, 2)))
    fwd = trace.find("fc1", "forward")[0]
    assert [(s.label, s.name, s.entry) for s in fwd.slots if s.role == "in_data"] == [
        ("in_data[0]", "data", "data"),
        ("in_data[1]", "weight", "fc1_weight"),
        ("in_data[2]", "bias", "fc1_bias"),
    ]
    assert fwd.slot("out_data[0]").req == "write" and fwd.slot("out_data[0]").shape == (3, 2)
    bwd = trace.find("fc1", "backward")[0]
    assert [bwd.slot(f"in_grad[{i}]").req for i in range(3)] == ["null", "add", "null"]
    bn = trace.find("bn", "forward")[0]
    assert [(s.label, s.entry) for s in bn.slots if s.role == "aux"] == [
        ("aux[0]", "bn_moving_mean"),
        ("aux[1]", "bn_moving_var"),
    ]
    assert bn.slot("out_data[2]").name == "var"
    assert len(fwd.slot("in_data[0]").preview) == 2
    assert [c.phase for c in trace.calls] == ["forward", "forward", "backward", "backward"]


def test_exceptions_inside_operators_name_the_node():
    net = mx.sym.FullyConnected(x, num_hidden=2, name="fc1")
    ex = net.simple_bind(mx.cpu(), x=(1, 3))
    node = net.outputs[0][0]

    def broken_forward(*args):
        raise ZeroDivisionError("a bug inside the operator")

    node.op.forward = broken_forward  # an instance attribute shadows the class method
    with pytest.raises(ZeroDivisionError) as caught:
        ex.forward()
    assert any("FullyConnected 'fc1'" in note for note in getattr(caught.value, "__notes__", []))


def test_trace_shows_what_backward_did_not_declare_as_not_passed():
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(x, num_hidden=3, name="fc"), name="sm")
    ex = net.simple_bind(mx.cpu(), x=(2, 4))
    trace = ex.enable_trace()
    ex.forward(is_train=True)
    ex.backward()
    loss = trace.find("sm", "backward")[0]
    assert loss.slot("out_grad[0]").dtype == "none"  # a loss head reads no head gradient
    assert loss.slot("in_data[1]").shape == (2,) and loss.slot("out_data[0]").shape == (2, 3)
    fc = trace.find("fc", "backward")[0]
    assert fc.slot("out_data[0]").dtype == "none"  # FullyConnected's backward never reads it
    assert fc.slot("out_grad[0]").shape == (2, 3)


def test_monitored_arrays_are_never_overwritten_later():
    y = mx.sym.Activation(x * 2, act_type="relu", name="a")
    for _ in range(4):
        y = mx.sym.Activation(y + 1, act_type="relu")
    ex = y.simple_bind(mx.cpu(), x=(3,), grad_req="null")  # inference: buffers are shared
    kept = {}
    ex.set_monitor_callback(lambda name, arr: kept.setdefault(name, arr))
    ex.forward(x=np.array([1.0, 2.0, 3.0]))
    assert kept["a_output"].asnumpy().tolist() == [2.0, 4.0, 6.0]  # still what "a" wrote
    assert ex.outputs[0].asnumpy().tolist() == [6.0, 8.0, 10.0]


def test_nothing_behind_a_blockgrad_runs_backward_and_its_gradient_is_zero():
    """MXNet's zero propagation (its test_zero_prop): the memory plan of a chain behind
    stop_gradient is the inference one, and a 'write' gradient that nothing reaches is 0."""
    data = mx.sym.Variable("data")
    chain = data
    for _ in range(4):
        chain = chain * chain
    shape = (64, 64, 16)
    trained = chain.simple_bind(mx.cpu(), data=shape).memory_stats.planned_bytes
    inferred = chain.simple_bind(mx.cpu(), data=shape, grad_req="null").memory_stats.planned_bytes
    stopped = mx.sym.stop_gradient(chain).simple_bind(mx.cpu(), data=shape)
    assert trained > stopped.memory_stats.planned_bytes == inferred
    stopped.grad_dict["data"][:] = 5
    stopped.forward(is_train=True)
    stopped.backward()
    assert not stopped.grad_dict["data"].asnumpy().any()
