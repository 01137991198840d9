"""Messages and warnings of custom operators: the mistakes a beginner makes in a CustomOp, what
the engine says about each, and that doing what the message says gives the right gradient.

- backward writes into out_grad (the gradient from above) instead of in_grad;
- backward leaves an in_grad unwritten: it becomes zero (never another array's values), warned
  once per node and executor;
- forward / backward return their result instead of calling self.assign;
- a keyword of mx.sym.Custom is used as a number while still a string;
- a custom loss keeps need_top_grad=True and backward() asks for a head gradient.
"""

import warnings

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError, MXNetValueError
from minisym.operator import CustomOpWarning

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
W = np.array([[0.5, -1.0, 2.0], [1.5, 3.0, -2.0]], np.float32)
HEAD = np.array([[1.0, 2.0, 0.5], [-1.0, 3.0, 2.0]], np.float32)
OLD = 7.0  # what the gradient arrays hold before backward


# --- y = data * weight, written right and written wrong -------------------------------------
class Multiply(mx.operator.CustomOp):
    """y = data * weight, elementwise: the right way."""

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[1])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[1])
        self.assign(in_grad[1], req[1], out_grad[0] * in_data[0])


class ForgetsWeight(Multiply):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[1])  # no gradient for weight


class HalfWeight(Multiply):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[1])
        in_grad[1][0] = (out_grad[0] * in_data[0])[0]  # only the first row


class ReplacesEntries(Multiply):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        in_grad[0] = out_grad[0] * in_data[1]
        in_grad[1] = out_grad[0] * in_data[0]


class ReturnsOutput(Multiply):
    def forward(self, is_train, req, in_data, out_data, aux):
        return in_data[0] * in_data[1]


class ReplacesOutput(Multiply):
    def forward(self, is_train, req, in_data, out_data, aux):
        out_data[0] = in_data[0] * in_data[1]


class ReturnsGradients(Multiply):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        return [out_grad[0] * in_data[1], out_grad[0] * in_data[0]]


class WritesOutGrad(Multiply):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(out_grad[0], req[0], out_grad[0] * in_data[1])


VERSIONS = {
    cls.__name__: cls
    for cls in (
        Multiply,
        ForgetsWeight,
        HalfWeight,
        ReplacesEntries,
        ReturnsOutput,
        ReplacesOutput,
        ReturnsGradients,
        WritesOutGrad,
    )
}


@mx.operator.register("tmc_multiply")
class MultiplyProp(mx.operator.CustomOpProp):
    def __init__(self, version="Multiply"):
        super().__init__(need_top_grad=True)
        self.version = version

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape):
        return [in_shape[0], in_shape[0]], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return VERSIONS[self.version]()


def multiply(version, weight=None, name="mul"):
    data = mx.sym.Variable("x")
    weight = mx.sym.Variable("w") if weight is None else weight
    return mx.sym.Custom(data, weight, op_type="tmc_multiply", version=version, name=name)


def bind(net, grad_req="write", dtype=np.float32):
    """``net`` bound on X and W, its gradient arrays holding OLD."""
    ex = net.simple_bind(
        mx.cpu(), x=X.shape, w=W.shape, grad_req=grad_req, type_dict={"x": dtype, "w": dtype}
    )
    ex.arg_dict["x"][:] = X
    ex.arg_dict["w"][:] = W
    for grad in ex.grad_dict.values():
        if grad is not None:
            grad[:] = OLD
    return ex


def step(ex, head=HEAD):
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(head))
    return {k: None if g is None else g.asnumpy() for k, g in ex.grad_dict.items()}


def custom_warnings(record):
    return [w for w in record if issubclass(w.category, CustomOpWarning)]


# --- following the advice: the right operator, and no warning --------------------------------
def test_the_right_operator_gives_the_analytic_gradient_without_a_warning():
    ex = bind(multiply("Multiply"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CustomOpWarning)
        grads = step(ex)
    np.testing.assert_array_equal(ex.outputs[0].asnumpy(), X * W)
    np.testing.assert_array_equal(grads["x"], HEAD * W)
    np.testing.assert_array_equal(grads["w"], HEAD * X)


def test_the_right_operator_matches_finite_differences():
    """d/dw sum(head * y), central differences in float64 through the bound executor."""
    ex = bind(multiply("Multiply"), dtype=np.float64)
    analytic = step(ex)["w"]
    assert analytic.dtype == np.float64
    eps, numeric = 1e-6, np.zeros_like(analytic)
    for index in np.ndindex(W.shape):
        values = []
        for sign in (1, -1):
            w = W.astype(np.float64).copy()
            w[index] += sign * eps
            ex.arg_dict["w"][:] = w
            values.append(float((ex.forward()[0].asnumpy() * HEAD).sum()))
        numeric[index] = (values[0] - values[1]) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-4, atol=1e-6)


# --- an in_grad that backward never writes -----------------------------------------------------
def test_an_unwritten_in_grad_is_zero_and_warned():
    ex = bind(multiply("ForgetsWeight"))
    with pytest.warns(
        CustomOpWarning, match=r"backward did not write in_grad\[1\] \('weight'\)"
    ) as record:
        grads = step(ex)
    np.testing.assert_array_equal(grads["w"], np.zeros_like(W))  # MXNet keeps OLD here
    np.testing.assert_array_equal(grads["x"], HEAD * W)
    [warning] = custom_warnings(record)
    message = str(warning.message)
    assert message.startswith("Custom 'mul' (op_type='tmc_multiply'): ")
    assert "although req[1] is 'write', so 'weight' got a zero gradient" in message
    assert "self.assign(in_grad[1], req[1], grad)" in message
    assert "in_grad[0] is 'data', in_grad[1] is 'weight'" in message
    assert "grad_req='null'" in message
    assert warning.filename == __file__  # it points at the line that called backward
    assert "0x" not in message


@pytest.mark.parametrize("plan", ["1", "0"])
@pytest.mark.parametrize("grad_req", ["write", "add"])
def test_an_unwritten_in_grad_never_holds_another_arrays_values(monkeypatch, plan, grad_req):
    """The weight's gradient passes through a temporary buffer (the weight is also added to the
    output), which backward never writes: that part must count as zero, with or without the
    memory plan, so the gradient is exactly what the addition gives."""
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", plan)
    weight = mx.sym.Variable("w")
    net = mx.sym.exp(multiply("ForgetsWeight", weight * 2)) + weight
    ex = bind(net, grad_req)
    with pytest.warns(CustomOpWarning, match=r"in_grad\[1\] \('weight'\)"):
        grads = step(ex)
    expected = HEAD + (OLD if grad_req == "add" else 0)
    np.testing.assert_array_equal(grads["w"], expected)


def test_a_partly_written_in_grad_is_zero_where_it_was_not_written():
    weight = mx.sym.Variable("w")
    ex = bind(multiply("HalfWeight", weight * 1) + weight)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CustomOpWarning)  # it was written, if only in part
        grads = step(ex)
    expected = HEAD.copy()
    expected[0] += (HEAD * X)[0]
    np.testing.assert_array_equal(grads["w"], expected)


def test_an_unwritten_in_grad_under_add_adds_nothing():
    ex = bind(multiply("ForgetsWeight"), grad_req="add")
    with pytest.warns(CustomOpWarning, match="so 'weight' got nothing added to its gradient"):
        grads = step(ex)
    np.testing.assert_array_equal(grads["w"], np.full_like(W, OLD))  # as in MXNet
    np.testing.assert_array_equal(grads["x"], OLD + HEAD * W)


def test_replacing_the_list_entry_is_named_as_the_mistake():
    ex = bind(multiply("ReplacesEntries"))
    with pytest.warns(CustomOpWarning) as record:
        grads = step(ex)
    messages = [str(w.message) for w in custom_warnings(record)]
    assert len(messages) == 2
    for i, name in enumerate(["data", "weight"]):
        assert f"backward did not write in_grad[{i}] ('{name}')" in messages[i]
        assert f"(in_grad[{i}] = ... replaced the entry of the list" in messages[i]
    assert not grads["x"].any() and not grads["w"].any()


def test_the_warning_comes_once_per_node_and_executor():
    data, weight = mx.sym.Variable("x"), mx.sym.Variable("w")
    net = mx.sym.Group(
        [
            mx.sym.Custom(data, weight, op_type="tmc_multiply", version="ForgetsWeight", name=name)
            for name in ("a", "b")
        ]
    )
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ex = bind(net)
        for _ in range(3):
            ex.forward(is_train=True)
            ex.backward([mx.nd.array(HEAD), mx.nd.array(HEAD)])
        first = [str(w.message) for w in custom_warnings(record)]
        copy = ex.copy()  # what the widgets run on: it says nothing new
        copy.forward(is_train=True)
        copy.backward([mx.nd.array(HEAD), mx.nd.array(HEAD)])
        after_copy = len(custom_warnings(record))
        other = bind(net)  # another executor: its own warnings
        other.forward(is_train=True)
        other.backward([mx.nd.array(HEAD), mx.nd.array(HEAD)])
    assert sorted(m.split(":")[0] for m in first) == [
        "Custom 'a' (op_type='tmc_multiply')",
        "Custom 'b' (op_type='tmc_multiply')",
    ]
    assert after_copy == 2
    assert len(custom_warnings(record)) == 4
    assert not copy.grad_dict["w"].asnumpy().any()  # the copy's gradient is zero all the same


def test_a_widget_running_copies_of_the_executor_warns_no_more():
    from minisym_widgets import GradReqPlayground

    ex = bind(multiply("ForgetsWeight"))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        step(ex)
        playground = GradReqPlayground(ex, argument="w", runs=3)  # 3 copies, 3 runs each
    assert playground.error == ""
    assert len(custom_warnings(record)) == 1


def test_the_trace_shows_the_zeroed_in_grad():
    ex = bind(multiply("ForgetsWeight"))
    trace = ex.enable_trace(preview_size=6)
    with pytest.warns(CustomOpWarning):
        step(ex)
    [call] = trace.find("mul", "backward")
    assert call.slot("in_grad[1]").name == "weight"
    assert np.asarray(call.slot("in_grad[1]").preview).tolist() == [0.0] * 6


# --- forward / backward that return their result ------------------------------------------------
def test_a_forward_that_returns_its_result_is_warned():
    ex = bind(multiply("ReturnsOutput"))
    log = mx.lifecycle.record("tmc_multiply")
    with pytest.warns(CustomOpWarning, match=r"forward returned an NDArray \(2, 3\)") as record:
        ex.forward(is_train=True)
        ex.forward(is_train=True)
    log.stop()
    [warning] = custom_warnings(record)  # once, not once per call
    message = str(warning.message)
    assert message.startswith("Custom 'mul' (op_type='tmc_multiply'): ")
    assert "the engine ignores what forward returns" in message
    assert "So out_data[0] ('output') holds zeros, not your result." in message
    assert "self.assign(out_data[0], req[0], result)" in message
    assert "out_data[0] is 'output'" in message
    assert warning.filename == __file__
    assert not ex.outputs[0].asnumpy().any()
    assert log.find("forward")[0].outcome() == (
        "returned a value (NDArray), which the engine ignores"
    )


def test_a_forward_that_replaces_the_list_entry_is_warned():
    ex = bind(multiply("ReplacesOutput"))
    with pytest.warns(
        CustomOpWarning,
        match=r"forward did not write out_data\[0\] \('output'\) "
        r"although req\[0\] is 'write', so minisym set it to zero",
    ) as record:
        ex.forward(is_train=True)
    assert "(out_data[0] = ... replaced the entry of the list" in str(record[0].message)
    assert not ex.outputs[0].asnumpy().any()


def test_a_backward_that_returns_its_gradients_is_warned():
    ex = bind(multiply("ReturnsGradients"))
    with pytest.warns(CustomOpWarning, match="backward returned a list of 2 items") as record:
        grads = step(ex)
    [warning] = custom_warnings(record)  # one warning, not one more per unwritten in_grad
    message = str(warning.message)
    assert "the engine ignores what backward returns" in message
    assert "in_grad[0] ('data') and in_grad[1] ('weight') got none of your gradient" in message
    assert "self.assign(in_grad[0], req[0], grad)" in message
    assert "in_grad[0] is 'data', in_grad[1] is 'weight'" in message
    assert not grads["x"].any() and not grads["w"].any()


# --- backward that writes into out_grad ---------------------------------------------------------
class SquareLossWritesOutGrad(mx.operator.CustomOp):
    """0.5 * (data - label)**2, whose backward writes its gradient into out_grad."""

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], 0.5 * (in_data[0] - in_data[1]) ** 2)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(out_grad[0], req[0], in_data[0] - in_data[1])


class SquareLossAddsToOutGrad(SquareLossWritesOutGrad):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        out_grad[0] += in_data[0] - in_data[1]


class SquareLoss(SquareLossWritesOutGrad):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], in_data[0] - in_data[1])


LOSSES = {
    cls.__name__: cls for cls in (SquareLossWritesOutGrad, SquareLossAddsToOutGrad, SquareLoss)
}


@mx.operator.register("tmc_square_loss")
class SquareLossProp(mx.operator.CustomOpProp):
    def __init__(self, version="SquareLoss", need_top_grad="False"):
        super().__init__(need_top_grad=need_top_grad == "True")
        self.version = version

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return [in_shape[0], in_shape[0]], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return LOSSES[self.version]()


def square_loss(version, **kwargs):
    return mx.sym.Custom(
        mx.sym.Variable("x"),
        mx.sym.Variable("w"),
        op_type="tmc_square_loss",
        version=version,
        name="loss",
        **kwargs,
    )


def loss_executor(net):
    return bind(net, grad_req={"x": "write", "w": "null"})


@pytest.mark.parametrize("version", ["SquareLossWritesOutGrad", "SquareLossAddsToOutGrad"])
def test_a_loss_writing_into_out_grad_is_told_where_gradients_go(version):
    ex = loss_executor(square_loss(version))
    ex.forward(is_train=True)
    with pytest.raises(
        MXNetValueError, match=r"Backward wrote into out_grad\[0\] \('output'\)"
    ) as info:
        ex.backward()
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert message.startswith(
        "Custom 'loss' (op_type='tmc_square_loss'): write backward's "
        "results into in_grad, not into out_grad[0] ('output'): "
        "self.assign(in_grad[0], req[0], grad), one in_grad[i] per "
        "list_arguments() name (in_grad[0] is 'data', in_grad[1] is "
        "'label')."
    )
    assert "out_grad: it is the gradient arriving from above" in message
    assert "need_top_grad=False leaves out every out_grad" in message
    assert "Declare it there to receive it" not in message  # it was written, not read
    assert (
        "(raised in backward of Custom 'loss' (op_type='tmc_square_loss'))" in info.value.__notes__
    )
    fixed = loss_executor(square_loss("SquareLoss"))
    fixed.forward(is_train=True)
    fixed.backward()
    np.testing.assert_array_equal(fixed.grad_dict["x"].asnumpy(), X - W)


def test_reading_out_grad_in_a_loss_says_a_loss_makes_its_own_gradient_first():
    class ReadsOutGrad(SquareLoss):
        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * (in_data[0] - in_data[1]))

    LOSSES["ReadsOutGrad"] = ReadsOutGrad
    ex = loss_executor(square_loss("ReadsOutGrad"))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError) as info:
        ex.backward()
    message = str(info.value)
    assert message.startswith(
        "Custom 'loss' (op_type='tmc_square_loss'): compute backward's gradient without "
        "out_grad: SquareLossProp passes need_top_grad=False, so it is a loss that makes its own "
        "gradient and does not read out_grad"
    )
    assert message.index("need_top_grad=False") < message.index("declare_backward_dependency")
    assert "list out_grad[0] in SquareLossProp.declare_backward_dependency (lesson 6)" in message


def test_writing_into_a_declared_out_grad_is_named_in_the_warning():
    """With need_top_grad=True the write goes through (as in MXNet) into a copy: the head
    gradient you passed is unchanged, and the gradient that was never written is named."""
    ex = bind(multiply("WritesOutGrad"))
    head = mx.nd.array(HEAD)
    ex.forward(is_train=True)
    with pytest.warns(CustomOpWarning) as record:
        ex.backward(head)
    messages = [str(w.message) for w in custom_warnings(record)]
    assert len(messages) == 2  # in_grad[0] and in_grad[1]
    assert messages[0].startswith(
        "Custom 'mul' (op_type='tmc_multiply'): write the gradient "
        "of 'data' with self.assign(in_grad[0], req[0], grad)"
    )
    assert "backward did not write in_grad[0] ('data')" in messages[0]
    assert (
        "It wrote into out_grad[0] ('output') instead: out_grad is the gradient arriving from above"
    ) in messages[0]
    np.testing.assert_array_equal(head.asnumpy(), HEAD)  # as in MXNet


# --- keyword arguments still strings ---------------------------------------------------------
class ScaleOp(mx.operator.CustomOp):
    def __init__(self, scale):
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * self.scale)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * self.scale)


@mx.operator.register("tmc_scale_unconverted")
class UnconvertedScaleProp(mx.operator.CustomOpProp):
    def __init__(self, scale=1.0):
        super().__init__(need_top_grad=True)
        self.scale = scale  # the mistake: scale arrives as the string '3'

    def create_operator(self, ctx, shapes, dtypes):
        return ScaleOp(self.scale)


@mx.operator.register("tmc_scale")
class ScaleProp(UnconvertedScaleProp):
    def __init__(self, scale=1.0):
        super().__init__(scale)
        self.scale = float(scale)  # what the note says to write


def test_a_string_keyword_used_as_a_number_gets_a_note_naming_it():
    net = mx.sym.Custom(mx.sym.Variable("x"), op_type="tmc_scale_unconverted", scale=3, name="s")
    ex = net.simple_bind(mx.cpu(), x=X.shape)
    with pytest.raises(TypeError, match=r"str '3'") as info:
        ex.forward()
    notes = info.value.__notes__
    assert notes[0] == (
        "(In Custom 's' (op_type='tmc_scale_unconverted'): every keyword argument of "
        "mx.sym.Custom reaches UnconvertedScaleProp.__init__ as a string, and scale='3' is "
        "still the string '3' in UnconvertedScaleProp.scale. Convert it in "
        "UnconvertedScaleProp.__init__: self.scale = float(scale).)"
    )
    assert "(raised in forward of Custom 's' (op_type='tmc_scale_unconverted'))" in notes
    fixed = mx.sym.Custom(mx.sym.Variable("x"), op_type="tmc_scale", scale=3, name="s")
    ex = fixed.simple_bind(mx.cpu(), x=X.shape)
    ex.arg_dict["x"][:] = X
    np.testing.assert_array_equal(ex.forward(is_train=True)[0].asnumpy(), 3 * X)
    ex.backward(mx.nd.array(HEAD))
    np.testing.assert_array_equal(ex.grad_dict["x"].asnumpy(), 3 * HEAD)


@mx.operator.register("tmc_pad_columns")
class PadColumnsProp(mx.operator.CustomOpProp):
    def __init__(self, pad=0):
        super().__init__(need_top_grad=True)
        self.pad = pad

    def infer_shape(self, in_shape):
        batch, width = in_shape[0]
        return [in_shape[0]], [(batch, width + self.pad)], []


def test_a_string_keyword_in_infer_shape_is_named_with_int():
    net = mx.sym.Custom(mx.sym.Variable("x"), op_type="tmc_pad_columns", pad=2, name="p")
    with pytest.raises(TypeError, match="unsupported operand") as info:
        net.infer_shape(x=(2, 3))
    assert (
        "pad='2' is still the string '2' in PadColumnsProp.pad. Convert it in "
        "PadColumnsProp.__init__: self.pad = int(pad).)"
    ) in info.value.__notes__[0]


class ScaleFromParams(ScaleOp):
    def __init__(self, params):
        super().__init__(None)
        self.params = params

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * self.params["scale"])


@mx.operator.register("tmc_scale_params")
class ScaleParamsProp(mx.operator.CustomOpProp):
    def __init__(self, **params):
        super().__init__(need_top_grad=True)
        self.params = params

    def create_operator(self, ctx, shapes, dtypes):
        return ScaleFromParams(self.params)


def test_a_string_keyword_is_named_from_the_value_the_error_shows():
    net = mx.sym.Custom(
        mx.sym.Variable("x"), op_type="tmc_scale_params", scale=0.5, offset=2, name="sp"
    )
    ex = net.simple_bind(mx.cpu(), x=X.shape)
    with pytest.raises(TypeError) as info:
        ex.forward()
    assert (
        "every keyword argument of mx.sym.Custom reaches ScaleParamsProp.__init__ as a "
        "string, and scale='0.5' arrived as the string '0.5'. Convert it in "
        "ScaleParamsProp.__init__: self.scale = float(scale).)"
    ) in info.value.__notes__[0]


def test_a_type_error_unrelated_to_keywords_gets_no_note():
    class Broken(ScaleOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], len(5))

    @mx.operator.register("tmc_broken")
    class BrokenProp(mx.operator.CustomOpProp):
        def __init__(self, mode="fast"):
            super().__init__(need_top_grad=True)

        def create_operator(self, ctx, shapes, dtypes):
            return Broken(1.0)

    net = mx.sym.Custom(mx.sym.Variable("x"), op_type="tmc_broken", mode="slow", name="b")
    ex = net.simple_bind(mx.cpu(), x=X.shape)
    with pytest.raises(TypeError, match="has no len") as info:
        ex.forward()
    notes = info.value.__notes__  # what each index held, where it was raised: no keyword note
    assert len(notes) == 2 and notes[0].startswith("(Check each index Broken.forward used")
    assert notes[1] == "(raised in forward of Custom 'b' (op_type='tmc_broken'))"


# --- a custom loss that keeps need_top_grad=True --------------------------------------------------
def test_a_custom_loss_with_need_top_grad_is_told_to_turn_it_off():
    ex = loss_executor(square_loss("SquareLoss", need_top_grad="True"))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="head_gradient is required") as info:
        ex.backward()
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert (
        "Output 0 'loss_output' of Custom 'loss' (op_type='tmc_square_loss') needs a head "
        "gradient: call backward(out_grads=mx.nd.ones((2, 3)))" in message
    )
    assert "SquareLossProp has need_top_grad=True (CustomOpProp's default)" in message
    assert (
        "If it is a loss that makes its own gradient, call "
        "super().__init__(need_top_grad=False) in SquareLossProp.__init__; then backward() "
        "needs no out_grads."
    ) in message
    fixed = loss_executor(square_loss("SquareLoss"))  # need_top_grad=False
    fixed.forward(is_train=True)
    fixed.backward()
    np.testing.assert_array_equal(fixed.grad_dict["x"].asnumpy(), X - W)


def test_a_built_in_head_says_nothing_about_need_top_grad():
    ex = (mx.sym.Variable("x") * 2).simple_bind(mx.cpu(), x=(2,))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="head_gradient is required") as info:
        ex.backward()
    assert "need_top_grad" not in str(info.value)
