"""MXNet's call conventions for mx.sym.<op> and mx.nd.<op> (minisym/symbol/signature.py):
parameters by position after the inputs, None for an absent input, NumPy values inside
parameters, the stride / pad forms Pooling accepts, and the errors for the mistakes."""

import inspect
import re

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError

x, w, b, g = (mx.sym.Variable(n) for n in ("x", "w", "b", "g"))


def head(sym):
    return sym.outputs[0][0]


# --- parameters by position ---------------------------------------------------------------------
def test_parameters_follow_the_inputs_in_mxnets_order():
    assert mx.sym.Dropout(x, 0.5).list_attr() == {"p": "0.5"}
    conv = mx.sym.Convolution(x, None, None, (3, 3), (2, 2), num_filter=4, name="c")
    assert conv.list_attr() == {"kernel": "(3, 3)", "stride": "(2, 2)", "num_filter": "4"}
    assert conv.infer_shape(x=(1, 2, 7, 7))[1] == [(1, 4, 3, 3)]
    fc = mx.sym.FullyConnected(x, None, None, 10, True, name="fc")
    assert fc.list_attr() == {"num_hidden": "10", "no_bias": "True"}
    assert fc.list_arguments() == ["x", "fc_weight"]
    assert mx.sym.sum(x, 1, True).infer_shape(x=(2, 3))[1] == [(2, 1)]


def test_name_and_attr_come_after_the_parameters():
    act = mx.sym.Activation(x, "relu", "act", {"__mood__": "calm"})
    assert (act.name, act.attr("__mood__")) == ("act", "calm")
    assert mx.sym.Dropout(x, 0.25, "always", (), False, "drop").name == "drop"


def test_inputs_an_operator_can_take_come_first_even_when_unused():
    """Convolution(data, weight, bias, kernel, ...): bias keeps its place with no_bias=True."""
    conv = mx.sym.Convolution(x, w, None, kernel=(3, 3), num_filter=4, no_bias=True)
    assert conv.list_arguments() == ["x", "w"]
    prelu = mx.sym.LeakyReLU(x, None, "prelu", name="lr")  # LeakyReLU(data, gamma, act_type)
    assert prelu.list_arguments() == ["x", "lr_gamma"]
    assert mx.sym.softmax(x, None, 0).list_attr() == {"axis": "0"}  # softmax(data, length, axis)
    assert mx.sym.make_loss(x, grad_scale=2).list_attr() == {"grad_scale": "2"}


def test_none_leaves_an_input_to_be_created():
    fc = mx.sym.FullyConnected(None, w, b, 10, name="fc")
    assert fc.list_arguments() == ["fc_data", "w", "b"]
    assert mx.sym.elemwise_add(x, None, name="ea").list_arguments() == ["x", "ea_rhs"]


def test_node_given_records_the_position_in_the_call():
    fc = mx.sym.FullyConnected(x, None, b, 10, name="fc")
    assert head(fc).given == (("position", 0), ("implicit", None), ("position", 2))
    fc = mx.sym.FullyConnected(x, weight=w, num_hidden=3, name="fc2")
    assert head(fc).given == (("position", 0), ("keyword", "weight"), ("implicit", None))
    bn = mx.sym.BatchNorm(data=x, name="bn")
    assert head(bn).given[0] == ("keyword", "data") and head(bn).given[1][0] == "implicit"
    assert head(mx.sym.Concat(x, w, dim=0)).given == (("position", 0), ("position", 1))


# --- the signatures help() shows ----------------------------------------------------------------
def test_functions_have_mxnets_signatures():
    assert str(inspect.signature(mx.sym.Dropout)) == (
        "(data=None, p=_Null, mode=_Null, axes=_Null, cudnn_off=_Null, name=None, attr=None, "
        "out=None, **kwargs)"
    )
    assert str(inspect.signature(mx.nd.Activation)) == (
        "(data=None, act_type=_Null, out=None, name=None, **kwargs)"
    )
    assert str(inspect.signature(mx.sym.Concat)) == "(*data, **kwargs)"
    assert str(inspect.signature(mx.sym.make_loss)) == (
        "(data=None, name=None, attr=None, out=None, **kwargs)"
    )
    assert (
        "Positional arguments fill, in order: the inputs data, weight, bias, then the "
        "parameters num_hidden, no_bias, flatten, then name, attr, out."
        in mx.sym.FullyConnected.__doc__
    )


# --- mistakes -------------------------------------------------------------------------------------
def test_too_many_positional_arguments_name_the_order_and_what_was_left_over():
    with pytest.raises(TypeError) as info:
        mx.sym.Dropout(x, 0.5, "always", (), False, "nm", None, None, 9)
    text = str(info.value)
    assert text.startswith("Dropout() takes from 0 to 8 positional arguments but 9 were given.")
    assert (
        "mx.sym.Dropout takes, in this order: the input data, then the parameters p, mode, "
        "axes, cudnn_off, then name, attr, out." in text
    )
    assert "p=0.5, mode='always'" in text and "and 9 is left over" in text
    assert "Give the parameters by keyword, e.g. mx.sym.Dropout(data, p=..., mode=...)" in text
    assert mx.sym.Dropout(x, p=0.5, mode="always").list_attr() == {"p": "0.5", "mode": "always"}


def test_a_parameter_given_twice():
    with pytest.raises(
        TypeError,
        match=r"Dropout\(\) got multiple values for argument 'p': "
        r"0.5 by position \(the 2nd argument\) and 0.3 by "
        r"keyword.*Give p once",
    ):
        mx.sym.Dropout(x, 0.5, p=0.3)
    with pytest.raises(TypeError, match="multiple values for argument 'data'"):
        mx.sym.FullyConnected(None, data=x, num_hidden=2)


def test_a_parameter_in_an_input_slot_says_where_parameters_go():
    with pytest.raises(AssertionError) as info:  # MXNet's type; TypeError catches it too
        mx.sym.FullyConnected(x, 10)
    assert isinstance(info.value, TypeError)
    text = str(info.value)
    assert text.startswith("Argument weight must be Symbol instances, but got 10 (int).")
    assert "the 2nd positional argument is the input 'weight'" in text
    assert "Give parameters by keyword (e.g. num_hidden=10)" in text
    assert mx.sym.FullyConnected(x, num_hidden=10).infer_shape(x=(2, 3))[1] == [(2, 10)]


def test_a_numpy_array_as_an_input_points_to_variables():
    with pytest.raises(
        AssertionError,
        match=r"Argument data must be Symbol instances.*"
        r"mx\.sym\.Variable\('data'\).*mx\.nd\."
        r"FullyConnected",
    ):
        mx.sym.FullyConnected(np.ones((2, 3)), num_hidden=3)
    with pytest.raises(AssertionError, match="weight is an input of mx.sym.FullyConnected"):
        mx.sym.FullyConnected(x, weight=3, num_hidden=3)


@pytest.mark.parametrize(
    "make, unused, takes",
    [
        (
            lambda: mx.sym.Convolution(x, w, b, kernel=(3, 3), num_filter=4, no_bias=True),
            "bias",
            "['data', 'weight']",
        ),
        (lambda: mx.sym.LeakyReLU(x, g), "gamma", "['data']"),
        (lambda: mx.sym.softmax(x, g), "length", "['data']"),
    ],
)
def test_an_input_the_parameters_leave_unused(make, unused, takes):
    with pytest.raises(
        MXNetError,
        match=rf"has an input '{unused}', but with these parameters "
        rf"it takes only {re.escape(takes)}",
    ):
        make()


def test_variadic_operators_take_their_parameters_by_keyword():
    with pytest.raises(
        AssertionError,
        match=r"Positional arguments must be Symbol instances, "
        r"but got 0 \(int\) as the 3rd argument.*dim=0",
    ):
        mx.sym.Concat(x, w, 0)
    with pytest.raises(AssertionError, match="leave the None out"):
        mx.sym.Concat(x, None)


def test_name_and_attr_of_the_wrong_type():
    with pytest.raises(AttributeError) as info:  # MXNet's type (its C call reads name.encode)
        mx.sym.make_loss(x, 2)  # make_loss takes no parameter by position: 2 is its name
    assert isinstance(info.value, TypeError)
    assert "name must be a string, got 2 (int)" in str(info.value)
    assert "the input data, then name, attr, out" in str(info.value)
    with pytest.raises(TypeError, match=r"attr must be a dict of strings"):
        mx.sym.Activation(x, "relu", "nm", 7)


def test_a_symbol_given_as_a_parameter():
    with pytest.raises(MXNetError, match="parameter act_type got a Symbol"):
        mx.sym.Activation(x, g)


# --- NumPy values inside parameters ---------------------------------------------------------------
def test_numpy_integers_inside_tuples_are_stored_as_plain_numbers():
    axes = tuple(np.random.RandomState(0).permutation(3))  # (np.int64(2), np.int64(1), ...)
    t = mx.sym.transpose(x, axes=axes)
    assert t.list_attr() == {"axes": "(2, 1, 0)"}
    assert t.infer_shape(x=(2, 3, 4))[1] == [(4, 3, 2)]
    assert mx.sym.sum(x, axis=(np.int64(1), 2)).list_attr() == {"axis": "(1, 2)"}
    assert mx.sym.sum(x, axis=(np.int64(1),)).list_attr() == {"axis": "(1,)"}
    assert mx.sym.Convolution(x, kernel=(3, 3), num_filter=np.int64(2)).attr("num_filter") == "2"
    assert mx.sym.Dropout(x, p=np.float32(0.3)).attr("p") == "0.3"
    assert (
        mx.sym.Convolution(x, kernel=(3, 3), num_filter=2, no_bias=np.bool_(True)).attr("no_bias")
        == "True"
    )
    assert mx.sym.Activation(x, act_type=np.str_("relu")).attr("act_type") == "relu"
    assert mx.sym.transpose(x, axes=[2, 0, 1]).attr("axes") == "[2, 0, 1]"
    assert mx.sym.Dropout(x, p=np.array(0.5)).attr("p") == "0.5"  # a 0-d array is a number
    out = mx.nd.transpose(mx.nd.array(np.arange(6).reshape(1, 2, 3)), axes=axes)
    assert out.shape == (3, 2, 1)


def test_a_numpy_array_parameter_is_refused_with_the_tuple_to_write():
    with pytest.raises(MXNetError) as info:
        mx.sym.transpose(x, axes=np.array([2, 0, 1]), name="t")
    assert isinstance(info.value, ValueError)
    assert "transpose 't': parameter axes is a NumPy array [2, 0, 1]" in str(info.value)
    assert "pass a tuple: axes=(2, 0, 1)" in str(info.value)
    assert mx.sym.transpose(x, axes=(2, 0, 1)).infer_shape(x=(2, 3, 4))[1] == [(4, 2, 3)]


def test_unreadable_parameter_text_shows_no_memory_address():
    with pytest.raises(MXNetError) as info:
        mx.sym.transpose(x, axes="(int(2),)", name="t")
    assert "cannot be read as Shape(tuple)" in str(info.value)
    assert "0x" not in str(info.value)


# --- the stride / pad forms MXNet accepts ---------------------------------------------------------
def test_pooling_reads_the_first_values_of_a_longer_pad_or_stride():
    data = mx.nd.array(np.arange(64.0).reshape(1, 1, 8, 8))
    longer = mx.nd.Pooling(data, kernel=(2, 2), pad=(1, 0, 7), stride=(2, 3, 9))
    exact = mx.nd.Pooling(data, kernel=(2, 2), pad=(1, 0), stride=(2, 3))
    assert longer.shape == exact.shape == (1, 1, 5, 3)
    np.testing.assert_array_equal(longer.asnumpy(), exact.asnumpy())
    pool = mx.sym.Pooling(x, kernel=(2, 2), pad=(0, 0, 0))
    assert pool.infer_shape(x=(1, 1, 8, 8))[1] == [(1, 1, 7, 7)]
    with pytest.raises(MXNetError, match=r"pad=\(0,\) has 1 values but kernel=\(2, 2\) has 2"):
        mx.sym.Pooling(x, kernel=(2, 2), pad=0)


def test_convolution_still_needs_one_value_per_kernel_dimension():
    with pytest.raises(MXNetError, match=r"pad=\(0, 0, 0\) has 3 values but kernel=\(3, 3\)"):
        mx.sym.Convolution(x, kernel=(3, 3), num_filter=2, pad=(0, 0, 0))


# --- mx.nd ----------------------------------------------------------------------------------------
def test_nd_takes_the_same_positions_then_out_and_name():
    data = mx.nd.array([[1.0, -2.0, 3.0]])
    weight, bias = mx.nd.ones((2, 3)), mx.nd.array([10.0, 20.0])
    assert mx.nd.FullyConnected(data, weight, bias, 2).asnumpy().tolist() == [[12.0, 22.0]]
    assert mx.nd.FullyConnected(data, weight, None, 2, True).asnumpy().tolist() == [[2.0, 2.0]]
    out = mx.nd.zeros((1, 3))
    assert mx.nd.Activation(data, "relu", out) is out
    assert out.asnumpy().tolist() == [[1.0, 0.0, 3.0]]
    assert mx.nd.Activation(data, "relu", None, "ignored").asnumpy().tolist() == [[1, 0, 3]]


def test_nd_mistakes():
    data = mx.nd.ones((1, 3))
    with pytest.raises(
        AssertionError,
        match=r"Argument weight must have NDArray type, but got "
        r"numpy.ndarray of shape \(2, 3\).*mx.nd.array",
    ):
        mx.nd.FullyConnected(data, np.ones((2, 3)), mx.nd.ones(2), 2)
    with pytest.raises(
        MXNetError,
        match=r"mx.nd.FullyConnected: give every input as an "
        r"NDArray; missing 'bias'",
    ):
        mx.nd.FullyConnected(data, mx.nd.ones((2, 3)), None, 2)
    with pytest.raises(
        TypeError,
        match=r"Activation\(\) takes from 0 to 4 positional "
        r"arguments but 5 were given.*then out, name",
    ):
        mx.nd.Activation(data, "relu", None, "nm", 5)
    with pytest.raises(AssertionError, match="the 2nd positional argument is the input 'rhs'"):
        mx.nd.elemwise_add(data, 1)
