"""Messages of four mistakes (issue 11): a non-number in NDArray / Symbol arithmetic, two
elementwise branches whose shapes differ, a keyword that is not an argument name, and what
is_train changes. Each test makes the mistake, checks MXNet's exception type and the key parts of
the message, then follows the advice and checks that it gives the right result."""

import decimal
import operator

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from minisym.graph.infer import infer_report
from minisym.ops import get_op
from minisym_widgets import Stepper


def values(symbol, **arrays):
    """Forward ``symbol`` on NumPy arrays given by argument name; the first output."""
    ex = symbol.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in arrays.items()})
    return ex.forward()[0].asnumpy()


A = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)


# --- a non-number in NDArray arithmetic --------------------------------------------------------
def test_ndarray_times_text_names_both_operands_and_float_fixes_it():
    a = mx.nd.array(A)
    with pytest.raises(TypeError) as info:
        a * "3"
    message = str(info.value)
    assert "type <class 'str'> not supported" in message  # MXNet's own words come first
    assert "NDArray (2, 3) * str '3'" in message
    assert "float('3')" in message
    np.testing.assert_array_equal((a * float("3")).asnumpy(), 3 * A)


# the operator a learner types -> the Python function behind it
PYTHON = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "%": operator.mod,
    "**": operator.pow,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


@pytest.mark.parametrize("symbol", list(PYTHON))
def test_ndarray_message_shows_the_operator_typed(symbol):
    with pytest.raises(TypeError) as info:
        PYTHON[symbol](mx.nd.array(A), "3")
    assert f"NDArray (2, 3) {symbol} str '3'" in str(info.value)


@pytest.mark.parametrize("symbol", ["-", "/", "**"])
def test_text_on_the_left_of_minus_divide_power_is_mxnets_assertion(symbol):
    with pytest.raises(AssertionError) as info:
        PYTHON[symbol]("3", mx.nd.array(A))
    assert "Argument lhs must have NDArray type" in str(info.value)
    assert f"str '3' {symbol} NDArray (2, 3)" in str(info.value)
    fixed = PYTHON[symbol](float("3"), mx.nd.array(A))
    np.testing.assert_allclose(fixed.asnumpy(), PYTHON[symbol](3.0, A), rtol=1e-6)


@pytest.mark.parametrize("symbol", ["+", "*"])
def test_text_on_the_left_of_plus_and_times_is_a_type_error(symbol):
    with pytest.raises(TypeError, match=f"str '3' [{symbol}] NDArray"):
        PYTHON[symbol]("3", mx.nd.array(A))


def test_none_on_the_left_of_minus_is_mxnet_error_saying_none():
    a = mx.nd.array(A)
    with pytest.raises(MXNetError) as info:
        None - a
    assert isinstance(info.value, TypeError)
    assert "None - NDArray (2, 3)" in str(info.value) and "None" in str(info.value)


def test_numpy_array_operand_is_refused_as_in_mxnet_and_wrapping_it_works():
    a, b = mx.nd.array(A), np.array([1.0, 0.5, 2.0], dtype=np.float32)
    for left, right in ((a, b), (b, a)):
        for symbol in ("*", "+", "=="):
            with pytest.raises(TypeError) as info:
                PYTHON[symbol](left, right)
            assert "numpy.ndarray (3,)" in str(info.value)
            assert "mx.nd.array(value)" in str(info.value)
    with pytest.raises(AssertionError, match="numpy.ndarray \\(3,\\) - NDArray"):
        b - a
    np.testing.assert_array_equal((a * mx.nd.array(b)).asnumpy(), A * b)


def test_list_none_complex_and_decimal_operands_say_what_to_write():
    a = mx.nd.array(A)
    cases = {
        "list [1.0, 2.0]": ([1.0, 2.0], "mx.nd.array(value)"),
        "None": (None, "None"),
        "complex 1j": (1j, "real number"),
        "Decimal Decimal('2')": (decimal.Decimal(2), "float(value)"),
    }
    for shown, (operand, advice) in cases.items():
        with pytest.raises(TypeError) as info:
            a * operand
        assert f"NDArray (2, 3) * {shown}" in str(info.value) and advice in str(info.value)


def test_numpy_scalars_and_bools_are_numbers_for_an_ndarray():
    a = mx.nd.array(A)
    np.testing.assert_array_equal((a * np.float32(2)).asnumpy(), 2 * A)
    np.testing.assert_array_equal((a + np.int64(1)).asnumpy(), A + 1)
    np.testing.assert_array_equal((a * np.bool_(True)).asnumpy(), A)
    np.testing.assert_array_equal((a * True).asnumpy(), A)


def test_in_place_with_text_names_the_in_place_operator():
    a = mx.nd.array(A)
    with pytest.raises(TypeError) as info:
        a += "3"
    assert "type <class 'str'> not supported" in str(info.value)
    assert "NDArray (2, 3) += str '3'" in str(info.value) and "float('3')" in str(info.value)
    a += float("3")
    np.testing.assert_array_equal(a.asnumpy(), A + 3)


def test_in_place_keeps_numpy_arrays_for_custom_op_assign():
    a = mx.nd.array(A)
    a += np.ones((2, 3), dtype=np.float32)  # CustomOp.assign(dst, 'add', numpy_src)
    np.testing.assert_array_equal(a.asnumpy(), A + 1)


def test_ndarrays_that_do_not_broadcast_name_both_shapes():
    with pytest.raises(MXNetError) as info:
        mx.nd.array(A) * mx.nd.ones((3, 2))
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "NDArray (2, 3) * NDArray (3, 2)" in message
    assert "axes 0 and 1 differ (2 vs 3, 3 vs 2)" in message
    with pytest.raises(MXNetError, match="must keep the left's shape \\(1, 3\\)"):
        mx.nd.ones((1, 3)).__iadd__(mx.nd.array(A))
    np.testing.assert_array_equal(
        (mx.nd.array(A) * mx.nd.array([[10.0], [1.0]])).asnumpy(), A * [[10.0], [1.0]]
    )


# --- a non-number in Symbol arithmetic ---------------------------------------------------------
def test_symbol_times_text_names_the_symbol_and_float_fixes_it():
    x = mx.sym.Variable("x")
    with pytest.raises(TypeError) as info:
        x * "3"
    message = str(info.value)
    assert "type <class 'str'> not supported" in message
    assert "Symbol 'x' * str '3'" in message and "float('3')" in message
    np.testing.assert_allclose(values(x * float("3"), x=A), 3 * A)


@pytest.mark.parametrize(
    "symbol, text_first",
    [("-", True), ("/", True), ("*", True), ("**", False), (">=", False), ("%", False)],
)
def test_symbol_message_shows_the_expression_as_written(symbol, text_first):
    x = mx.sym.Variable("x")
    with pytest.raises(TypeError) as info:
        PYTHON[symbol](*(("3", x) if text_first else (x, "3")))
    shown = f"str '3' {symbol} Symbol 'x'" if text_first else f"Symbol 'x' {symbol} str '3'"
    assert shown in str(info.value)


def test_symbol_times_an_array_says_make_it_a_variable_and_that_works():
    x = mx.sym.Variable("x")
    for operand, shown in (
        (mx.nd.ones((2, 3)), "NDArray (2, 3)"),
        (np.ones((2, 3)), "numpy.ndarray (2, 3)"),
    ):
        with pytest.raises(TypeError) as info:
            x * operand
        assert f"Symbol 'x' * {shown}" in str(info.value)
        assert "mx.sym.Variable('c')" in str(info.value)
    c = mx.sym.Variable("c")
    np.testing.assert_allclose(values(x * c, x=A, c=2 * np.ones((2, 3))), 2 * A)


def test_ndarray_times_a_symbol_says_bind_it():
    with pytest.raises(TypeError, match="bind it and run forward"):
        mx.nd.array(A) * mx.sym.Variable("x")


def test_symbol_scalars_follow_mxnet_arithmetic_numbers_comparisons_numeric_types():
    x = mx.sym.Variable("x")
    assert (x * decimal.Decimal(2)).list_attr() == {"scalar": "2"}
    with pytest.raises(TypeError, match="Symbol 'x' > Decimal"):
        _ = x > decimal.Decimal(2)
    with pytest.raises(TypeError, match="Symbol 'x' \\* bool"):
        x * np.bool_(True)
    with pytest.raises(MXNetError):  # a NumPy scalar reaches _greater_scalar's parser
        _ = x > np.bool_(True)
    assert (x > np.float32(2)).list_attr() == {"scalar": "2.0"}


# --- elementwise branches whose shapes differ ----------------------------------------------------
def branches():
    data = mx.sym.Variable("data")
    return (
        mx.sym.FullyConnected(data, num_hidden=10, name="fc1"),
        mx.sym.FullyConnected(data, num_hidden=5, name="fc2"),
    )


def test_shapes_that_do_not_broadcast_name_both_producers_and_do_not_suggest_broadcast():
    fc1, fc2 = branches()
    with pytest.raises(MXNetError) as info:
        (fc1 + fc2).infer_shape(data=(8, 3))
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "elemwise_add '_plus0'" in message
    assert "left: fc1 output (8, 10), right: fc2 output (8, 5)" in message
    assert "axis 1 differs (10 vs 5)" in message
    assert "broadcast_add would not help" in message and "mx.sym.broadcast_add(" not in message
    assert "'fc1' and 'fc2'" in message


def test_shapes_that_broadcast_suggest_broadcast_add_which_gives_mxnets_shape():
    fc1, _ = branches()
    b = mx.sym.Variable("b")
    with pytest.raises(MXNetError) as info:
        (fc1 + b).infer_shape(data=(8, 3), b=(1, 10))
    message = str(info.value)
    assert "left: fc1 output (8, 10), right: variable 'b' (1, 10)" in message
    assert "axis 0 differs (8 vs 1)" in message
    assert "broadcast to (8, 10)" in message and "mx.sym.broadcast_add(lhs, rhs)" in message
    fixed = mx.sym.broadcast_add(fc1, b)
    assert fixed.infer_shape(data=(8, 3), b=(1, 10))[1] == [(8, 10)]  # as MXNet (p511)
    out = values(mx.sym.broadcast_add(mx.sym.Variable("p"), b), p=A, b=[[10.0, 20.0, 30.0]])
    np.testing.assert_array_equal(out, A + [[10.0, 20.0, 30.0]])


def test_a_vector_against_a_matrix_says_the_ranks_differ():
    fc1, _ = branches()
    b = mx.sym.Variable("b")
    with pytest.raises(MXNetError) as info:
        (fc1 * b).infer_shape(data=(8, 3), b=(10,))
    assert "the left has 2 axes and the right 1" in str(info.value)
    assert "mx.sym.broadcast_mul(lhs, rhs)" in str(info.value)


OPERATORS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "**": "power",
    "%": "mod",
    "==": "equal",
    "!=": "not_equal",
    ">": "greater",
    ">=": "greater_equal",
    "<": "lesser",
    "<=": "lesser_equal",
}


@pytest.mark.parametrize("symbol", list(OPERATORS))
def test_every_elementwise_operator_suggests_its_own_broadcast_twin(symbol):
    fc1, _ = branches()
    b = mx.sym.Variable("b")
    with pytest.raises(MXNetError) as info:
        PYTHON[symbol](fc1, b).infer_shape(data=(8, 3), b=(1, 10))
    twin = f"broadcast_{OPERATORS[symbol]}"
    assert f"(lhs {symbol} rhs)" in str(info.value)
    assert f"mx.sym.{twin}(lhs, rhs)" in str(info.value)
    assert getattr(mx.sym, twin)(fc1, b).infer_shape(data=(8, 3), b=(1, 10))[1] == [(8, 10)]


@pytest.mark.parametrize(
    "name, twin",
    [
        ("elemwise_add", "broadcast_add"),
        ("elemwise_sub", "broadcast_sub"),
        ("elemwise_mul", "broadcast_mul"),
        ("elemwise_div", "broadcast_div"),
    ],
)
def test_elemwise_functions_suggest_the_matching_broadcast(name, twin):
    fc1, fc2 = branches()
    with pytest.raises(MXNetError) as info:
        getattr(mx.sym, name)(fc1, fc2).infer_shape(data=(8, 3))
    assert f"{name} '{name}0'" in str(info.value) and f"{twin} would not help" in str(info.value)


def test_simple_bind_and_the_shape_explorer_report_name_the_producers_too():
    fc1, fc2 = branches()
    with pytest.raises(RuntimeError, match="left: fc1 output \\(8, 10\\), right: fc2 output"):
        (fc1 + fc2).simple_bind(mx.cpu(), data=(8, 3))
    report = infer_report(fc1 - fc2, {"data": (8, 3)})
    assert report.failed_node == "_minus0"
    assert "left: fc1 output (8, 10), right: fc2 output (8, 5)" in report.error


def test_a_multi_output_producer_is_named_by_output_index():
    parts = mx.sym.split(mx.sym.Variable("data"), num_outputs=2, axis=1, name="sp")
    with pytest.raises(MXNetError, match="left: sp output 0 \\(4, 3\\), right: variable 'y'"):
        (parts[0] + mx.sym.Variable("y")).infer_shape(data=(4, 6), y=(3, 4))


# --- a keyword that is not an argument name ------------------------------------------------------
def mlp():
    x = mx.sym.Variable("data")  # the Python name is not the Variable's
    net = mx.sym.FullyConnected(x, num_hidden=4, name="fc1")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def test_infer_shape_keyword_message_has_separate_words_candidates_and_the_variable_name():
    with pytest.raises(MXNetError) as info:
        mlp().infer_shape(x=(2, 3))
    assert isinstance(info.value, TypeError)
    message = str(info.value)
    assert message.startswith("infer_shape: Keyword argument name x not found.")
    assert "InferShapeKeyword" not in message
    assert (
        "Candidate arguments:\n\t[0]data\n\t[1]fc1_weight\n\t[2]fc1_bias\n\t[3]softmax_label"
        in message
    )
    assert "Did you mean 'data'?" in message
    assert "after x = mx.sym.Variable('data') the argument is called 'data', not 'x'" in message
    args, outs, _ = mlp().infer_shape(data=(2, 3))
    assert args == [(2, 3), (4, 3), (4,), (2,)] and outs == [(2, 4)]


def test_infer_type_keyword_message_names_infer_type_and_the_close_spelling():
    with pytest.raises(MXNetError) as info:
        mlp().infer_type(dta="float32")
    assert str(info.value).startswith("infer_type: Keyword argument name dta not found.")
    assert "Did you mean 'data'?" in str(info.value)
    assert mlp().infer_type(data="float32")[1] == [np.float32]


def test_partial_inference_and_the_shape_explorer_give_the_same_message():
    with pytest.raises(MXNetError, match="infer_shape: Keyword argument name softmax_lable"):
        mlp().infer_shape_partial(softmax_lable=(2,))
    with pytest.raises(MXNetError, match="Did you mean 'softmax_label'"):
        infer_report(mlp(), {"softmax_lable": (2,)})


def test_an_output_or_auxiliary_name_says_what_it_is():
    with pytest.raises(MXNetError, match="'fc1_output' is an output: infer_shape takes only"):
        mlp().infer_shape(fc1_output=(2, 4))
    bn = mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn")
    with pytest.raises(MXNetError, match="'bn_moving_mean' is an auxiliary state"):
        bn.infer_shape(data=(2, 3), bn_moving_mean=(3,))


def test_simple_bind_with_only_an_unknown_name_says_which_and_the_right_one_binds():
    with pytest.raises(RuntimeError) as info:
        mlp().simple_bind(mx.cpu(), x=(2, 3))
    assert "InferShape pass cannot decide shapes" in str(info.value)
    assert "You gave shapes for 'x' (did you mean 'data'?)" in str(info.value)
    ex = mlp().simple_bind(mx.cpu(), data=(2, 3))
    assert ex.arg_dict["fc1_weight"].shape == (4, 3)


def test_simple_bind_ignores_an_extra_name_when_shapes_are_decided_as_mxnet_does():
    ex = mlp().simple_bind(mx.cpu(), data=(2, 3), x=(5, 5))
    assert sorted(ex.arg_dict) == ["data", "fc1_bias", "fc1_weight", "softmax_label"]


def test_simple_bind_type_dict_with_an_unknown_name_says_which():
    with pytest.raises(RuntimeError, match="type_dict names 'x' \\(did you mean 'data'\\?\\)"):
        mlp().simple_bind(mx.cpu(), data=(2, 3), type_dict={"x": "float32"})


def test_bind_with_a_misnamed_key_says_which_and_the_right_name_binds():
    arrays = {
        "x": mx.nd.ones((2, 3)),
        "fc1_weight": mx.nd.ones((4, 3)),
        "fc1_bias": mx.nd.ones((4,)),
        "softmax_label": mx.nd.ones((2,)),
    }
    with pytest.raises(ValueError) as info:
        mlp().bind(mx.cpu(), arrays)
    assert "key `data` is missing in `args`" in str(info.value)
    assert "`args` has 'x' (did you mean 'data'?)" in str(info.value)
    arrays["data"] = arrays.pop("x")
    out = mlp().bind(mx.cpu(), arrays).forward()[0].asnumpy()
    np.testing.assert_allclose(out, np.full((2, 4), 0.25), rtol=1e-6)


# --- what is_train changes ------------------------------------------------------------------------
def dropout_bn_net():
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    net = mx.sym.BatchNorm(net, name="bn1")
    return mx.sym.Dropout(net, p=0.5, name="drop1")


def traced(is_train):
    ex = dropout_bn_net().simple_bind(mx.cpu(), data=(3, 5))
    ex.arg_dict["data"][:] = np.arange(15.0).reshape(3, 5)
    ex.arg_dict["fc1_weight"][:] = 0.1
    ex.aux_dict["bn1_moving_var"][:] = 1
    ex.enable_trace()
    ex.forward(is_train=is_train)
    ex.backward(mx.nd.ones((3, 4)))
    return ex


def test_a_test_mode_forward_of_dropout_passes_through_and_the_trace_says_so():
    ex = traced(False)
    (call,) = ex.trace.find("drop1", "forward")
    assert call.is_train is False
    assert call.note.startswith("is_train=False: Dropout passes data through unchanged")
    bn_out = ex.trace.find("bn1", "forward")[0].slot("out_data[0]").preview
    np.testing.assert_array_equal(ex.outputs[0].asnumpy().reshape(-1)[:6], bn_out)


def test_the_notes_come_from_the_operator_classes():
    ex = traced(False)
    dropout = get_op("Dropout")({"p": "0.5"}, "drop1")
    batchnorm = get_op("BatchNorm")({}, "bn1")
    assert ex.trace.find("drop1", "forward")[0].note == dropout.is_train_note(False, "forward")
    assert ex.trace.find("bn1", "forward")[0].note == batchnorm.is_train_note(False, "forward")
    assert ex.trace.find("bn1", "backward")[0].note == batchnorm.is_train_note(True, "backward")
    assert ex.trace.find("fc1", "forward")[0].note == ""  # is_train changes nothing there


def test_batchnorm_notes_say_which_statistics_each_mode_uses():
    assert traced(False).trace.find("bn1", "forward")[0].note == (
        "is_train=False: BatchNorm uses moving_mean / moving_var (aux), not the batch statistics"
    )
    train = traced(True).trace
    assert "this batch's own mean and variance" in train.find("bn1", "forward")[0].note
    assert "backward updates moving_mean / moving_var" in train.find("bn1", "backward")[0].note
    assert "0.9" in train.find("bn1", "backward")[0].note
    fixed = get_op("BatchNorm")({"use_global_stats": "True"}, "bn")
    assert fixed.is_train_note(True, "forward").startswith("use_global_stats=True")
    assert fixed.is_train_note(True, "backward") == ""


def test_dropout_notes_follow_p_and_mode():
    train = traced(True).trace.find("drop1", "forward")[0]
    assert (
        train.note.startswith("is_train=True: Dropout zeroes each value with probability p=0.5")
        and "= 2" in train.note
    )
    always = get_op("Dropout")({"p": "0.25", "mode": "always"}, "d")
    assert always.is_train_note(False, "forward").startswith("mode='always'")
    assert "whatever is_train is" in always.is_train_note(False, "forward")
    assert get_op("Dropout")({"p": "0"}, "d").is_train_note(True, "forward").startswith("p=0")
    assert get_op("Dropout")({"p": "0.5"}, "d").is_train_note(True, "backward") == ""


def test_the_test_mode_behaviour_itself_is_unchanged():
    ex = traced(False)
    before = ex.trace.find("drop1", "forward")[0].slot("in_data[0]").preview
    after = ex.trace.find("drop1", "forward")[0].slot("out_data[0]").preview
    np.testing.assert_array_equal(before, after)
    assert ex.trace.find("drop1", "forward")[0].slot("out_data[1]").preview.tolist() == [1.0] * 6


def test_the_stepper_shows_the_note_on_the_dropout_and_batchnorm_steps():
    ex = dropout_bn_net().simple_bind(mx.cpu(), data=(3, 5))
    w = Stepper(ex, is_train=False)
    steps = {c["node"] + ":" + c["phase"]: c["step"] for c in w.calls}
    w.cursor = steps["drop1:forward"]
    note = w.current["is_train_note"]
    assert note.startswith("is_train=False: Dropout passes data through unchanged")
    assert note in w.text() and "is_train=False: Dropout" in w.html()
    w.cursor = steps["bn1:forward"]
    assert w.current["is_train_note"].startswith("is_train=False: BatchNorm uses moving_mean")
    w.cursor = steps["fc1:forward"]
    assert w.current["is_train_note"] == "" and "is_train=" not in w.text().splitlines()[2]


def test_the_stepper_view_draws_the_note_python_sends():
    from pathlib import Path

    import minisym_widgets

    script = (Path(minisym_widgets.__file__).parent / "stepper.js").read_text()
    assert "call.is_train_note" in script
