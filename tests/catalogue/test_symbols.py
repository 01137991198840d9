"""Catalogue, symbols: mistakes a learner makes while building a graph.

Each test is one mistake as a beginner types it; it asserts MXNet's exception type (minisym's
MXNetError where MXNet raises MXNetError), the parts of the message that teach, and that the
symbols already built are unchanged afterwards.
"""

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


@pytest.fixture
def data():
    return mx.sym.Variable("data")


@pytest.fixture
def fc(data):
    return mx.sym.FullyConnected(data, num_hidden=4, name="fc")


def test_variable_with_a_negative_shape(data):
    before = snapshot(data)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet fails later, in infer_shape
        mx.sym.Variable("v", shape=(-3, 2))
    message = str(info.value)
    assert "mx.sym.Variable: 'v' has shape (-3, 2): dimension 0 is -3" in message
    assert "0 or -1 means 'unknown'" in message and "Fix: give shape=(3, 2)" in message
    assert_unchanged(before, data)


def test_variable_with_a_fractional_shape():
    with pytest.raises(
        TypeError,
        match=r"mx\.sym\.Variable: 'v' has shape \(2, 2\.5\): "
        r"dimension 1 is 2\.5 \(float\).*shape=\(2, 2\)",
    ):
        mx.sym.Variable("v", shape=(2, 2.5))
    # -1 and 0 stay "unknown", as in MXNet
    v = mx.sym.Variable("v", shape=(-1, 2))
    assert v.infer_shape_partial()[0] == [(0, 2)]


def test_variable_with_a_misspelled_dtype():
    with pytest.raises(
        TypeError,
        match=r"mx\.sym\.Variable\('v'\): dtype='float33' is not a "
        r"data type MXNet has; use one of 'float32'",
    ):
        mx.sym.Variable("v", dtype="float33")


def test_variable_named_with_a_number():
    with pytest.raises(
        TypeError,
        match=r"Expect a string for variable `name`; got int 123 — "
        r"write mx\.sym\.Variable\('123'\)",
    ):
        mx.sym.Variable(123)


def test_layer_without_its_required_parameter(data):
    before = snapshot(data)
    with pytest.raises(
        mx.base.MXNetError,
        match=r"FullyConnected 'fc2': required parameter "
        r"'num_hidden' \(int\) is missing; pass "
        r"num_hidden=\.\.\.",
    ):
        mx.sym.FullyConnected(data, name="fc2")
    assert_unchanged(before, data)


def test_misspelled_parameter_gets_a_suggestion(data):
    with pytest.raises(
        mx.base.MXNetError,
        match=r"FullyConnected 'fc3': unknown parameter "
        r"'num_hiden'\. Did you mean 'num_hidden'\?",
    ):
        mx.sym.FullyConnected(data, num_hiden=3, name="fc3")


def test_parameter_value_not_among_the_choices(data):
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Activation 'act': act_type='relu6' is not "
        r"allowed; choose one of 'relu', 'sigmoid'",
    ):
        mx.sym.Activation(data, act_type="relu6", name="act")


def test_parameter_value_out_of_range(data):
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Dropout 'drop': p=2\.0 is invalid: must be "
        r"between 0 and 1",
    ):
        mx.sym.Dropout(data, p=2.0, name="drop")


def test_convolution_with_a_zero_or_negative_window(data):
    before = snapshot(data)
    # MXNet: "incorrect kernel size: [0,0]" at inference; before, minisym accepted it
    with pytest.raises(mx.base.MXNetError) as info:
        mx.sym.Convolution(data, kernel=(0, 0), num_filter=2, name="conv")
    message = str(info.value)
    assert "Convolution 'conv': incorrect kernel size: kernel=(0, 0) has 0" in message
    assert "must be at least 1; e.g. kernel=(1, 1)" in message
    # a stride of 0 used to end in a ZeroDivisionError, a negative kernel in a wrong shape
    with pytest.raises(mx.base.MXNetError, match=r"incorrect stride size: stride=\(0, 0\)"):
        mx.sym.Convolution(data, kernel=(3, 3), stride=(0, 0), num_filter=2, name="conv")
    with pytest.raises(mx.base.MXNetError, match=r"incorrect pad size: pad=\(-1, -1\) has -1"):
        mx.sym.Pooling(data, kernel=(2, 2), pad=(-1, -1), name="pool")
    assert_unchanged(before, data)


def test_reshape_with_an_unknown_code_or_a_fraction(data):
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Reshape 'r1': shape code -7 is not one of 0, "
        r"-1, -2, -3, -4 or a positive size",
    ):
        mx.sym.Reshape(data, shape=(-7, 2), name="r1").infer_shape(data=(4, 2))
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Reshape 'r2': parameter shape='\(2\.5, 2\)' "
        r"cannot be read as Shape\(tuple\)",
    ):
        mx.sym.Reshape(data, shape=(2.5, 2), name="r2")


def test_adding_text_to_a_symbol(data):
    before = snapshot(data)
    with pytest.raises(
        TypeError,
        match=r"Symbol 'data' \+ str 'x'\. A Symbol combines with "
        r"another Symbol or a Python number",
    ):
        data + "x"
    assert_unchanged(before, data)


def test_adding_a_numpy_array_to_a_symbol(data):
    with pytest.raises(TypeError) as info:
        data + np.ones(3)
    message = str(info.value)
    assert "Symbol 'data' + numpy.ndarray (3,)" in message
    assert "a Symbol holds no values until it is bound" in message
    assert "c = mx.sym.Variable('c')" in message


def test_giving_an_ndarray_where_a_symbol_belongs():
    with pytest.raises(AssertionError) as info:  # MXNet's type: AssertionError
        mx.sym.FullyConnected(mx.nd.ones((2, 3)), num_hidden=3)
    message = str(info.value)
    assert "Argument data must be Symbol instances, but got <NDArray 2x3>" in message
    assert "mx.sym.Variable('data')" in message and "mx.nd.FullyConne" in message


def test_output_index_out_of_range(fc):
    before = snapshot(fc)
    with pytest.raises(
        IndexError,
        match=r"output index 3 is out of range: this symbol has 1 "
        r"output\(s\) \['fc_output'\]",
    ):
        fc[3]
    assert_unchanged(before, fc)


def test_internal_output_without_its_suffix(fc):
    internals = fc.get_internals()
    before = snapshot(internals)
    with pytest.raises(
        ValueError,
        match=r"Cannot find output that matches name \"fc\"; the "
        r"outputs are \['data', 'fc_weight', 'fc_bias', "
        r"'fc_output'\]",
    ):
        internals["fc"]
    assert_unchanged(before, internals)


def test_group_of_something_that_is_not_a_symbol(fc):
    with pytest.raises(TypeError, match=r"Expected a list of symbols as input .*got Symbol, int"):
        mx.sym.Group([fc, 1])


def test_composing_with_an_unknown_input_name(fc):
    before = snapshot(fc)
    with pytest.raises(
        mx.base.MXNetError,
        match=r"compose: 'dat' is not a variable of this "
        r"symbol; its variables are \['data'",
    ):
        fc(dat=mx.sym.Variable("x"))
    assert_unchanged(before, fc)
