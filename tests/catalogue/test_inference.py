"""Catalogue, inference: mistakes a learner makes with infer_shape / infer_type.

Each test is one mistake as a beginner types it; it asserts MXNet's exception type, the parts of
the message that teach (operator, node, argument, expected vs given, the fix), and that the
symbol is unchanged afterwards.
"""

import warnings

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


def _fc():
    return mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=4, name="fc")


def _sum():
    return mx.sym.Variable("a") + mx.sym.Variable("b")


def test_negative_dimension_is_refused_naming_the_argument_and_dimension():
    net = _sum()
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "shape dim size must be >= -1"
        net.infer_shape(a=(-3, 2))
    message = str(info.value)
    assert "infer_shape: 'a' has shape (-3, 2)" in message
    assert "dimension 0 is -3" in message and "cannot be negative" in message
    assert "Fix: give a=(3, 2)" in message
    assert isinstance(info.value, ValueError)
    assert_unchanged(before, net)


def test_non_integer_dimension_is_a_type_error():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(
        TypeError,
        match=r"'data' has shape \(2\.5, 5\): dimension 0 is 2\.5 "
        r"\(float\), but a size must be an int",
    ) as info:
        net.infer_shape(data=(2.5, 5))  # minisym used to truncate it to 2 silently
    assert "data=(2, 5)" in str(info.value)
    with pytest.raises(TypeError, match=r"dimension 1 is '5' \(str\)"):
        net.infer_shape(data=(2, "5"))
    assert_unchanged(before, net)


def test_minus_one_as_the_batch_size():
    net = _fc()
    before = snapshot(net)
    with pytest.warns(mx.MistakeWarning) as caught:  # a UserWarning too, as MXNet's is
        assert net.infer_shape(data=(-1, 5)) == (None, None, None)
    message = str(caught[0].message)
    assert message == (
        "infer_shape: give a real batch size instead of -1, e.g. data=(32, 5): -1 is not a "
        "batch size. MXNet writes an unknown dimension as 0 in legacy shapes, so the -1 in "
        "data=(-1, 5) is read as 0, 'unknown' (shown as 0 below), and no shape that depends on "
        "it can be decided.\n"
        "Cannot decide shape for the following arguments (0s in shape means unknown "
        "dimensions). Consider providing them as input:\n\tdata: (0, 5)"
    )  # MXNet's text last
    assert issubclass(caught[0].category, UserWarning)
    assert caught[0].filename == __file__
    assert_unchanged(before, net)


def test_minus_one_means_unknown_as_in_mxnet():
    net = _fc()
    before = snapshot(net)
    with warnings.catch_warnings():
        warnings.simplefilter("error", mx.MistakeWarning)  # partial inference: no mistake
        args, outs, _ = net.infer_shape_partial(data=(-1, 5))
    assert args == [(0, 5), (4, 5), (4,)] and outs == [(0, 4)]  # what MXNet 1.9.1 returns
    assert_unchanged(before, net)


def test_an_unknown_size_without_minus_one_keeps_mxnet_s_warning_alone():
    net = _fc()
    with pytest.warns(UserWarning) as caught:
        net.infer_shape(data=(0, 5))
    assert caught[0].category is UserWarning
    assert str(caught[0].message).startswith("Cannot decide shape for the following arguments")


def test_asking_a_symbol_for_its_shape():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(AttributeError) as info:  # MXNet: AttributeError, the same last words
        _ = net.shape
    assert str(info.value) == (
        "Symbol 'fc': use infer_shape to get shapes, a Symbol has no .shape: arg_shapes, "
        "out_shapes, aux_shapes = sym.infer_shape(data=(32, 784)) (your input's shape); then "
        "out_shapes[0] is the shape of 'fc_output' (dict(zip(sym.list_outputs(), out_shapes)) "
        "names every output). A Symbol describes a computation and has no shape until "
        "inference gives it one. ('Symbol' object has no attribute 'shape')"
    )
    assert not hasattr(net, "shape")  # code that tells arrays from symbols by .shape still can
    assert_unchanged(before, net)


def test_a_list_instead_of_a_tuple():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(
        TypeError,
        match=r"Arguments need to be shapes \(tuple\), but 'data' is "
        r"<class 'list'>\. Write it as a tuple, e.g\. \(2, 5\)",
    ):
        net.infer_shape(data=[2, 5])
    assert_unchanged(before, net)


def test_unknown_argument_name_suggests_the_right_one():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:
        net.infer_shape(dat=(2, 5))
    message = str(info.value)
    assert "Keyword argument name dat not found" in message
    assert "[0]data" in message and "Did you mean 'data'?" in message
    assert_unchanged(before, net)


def test_shapes_that_conflict_name_the_operator_node_and_both_shapes():
    net = _sum()
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:
        net.infer_shape(a=(2, 3), b=(3, 2))
    message = str(info.value)
    assert "elemwise_add '_plus0'" in message
    assert "variable 'a' (2, 3)" in message and "variable 'b' (3, 2)" in message
    assert "broadcast_add would not help" in message
    assert_unchanged(before, net)


def test_a_wrong_weight_shape_names_the_weight_and_the_shape_it_needs():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:
        net.infer_shape(data=(2, 3), fc_weight=(4, 5))
    message = str(info.value)
    assert "Error in operator fc: FullyConnected shape inconsistent" in message
    assert "input 1 'weight' (node 'fc_weight') is (4, 5)" in message
    assert "needs (4, 3)" in message
    assert "Fix: give 'fc_weight' the shape (4, 3), or leave it out" in message
    assert_unchanged(before, net)


def test_a_misspelled_dtype():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(
        TypeError,
        match=r"infer_type: 'data' is 'float33', which is not a data "
        r"type; .*data=np\.float32 or data='float32'",
    ):
        net.infer_type(data="float33")
    assert_unchanged(before, net)


def test_mixed_dtypes_name_both_inputs_and_the_cast():
    net = _sum()
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:
        net.infer_type(a=np.float32, b=np.float64)
    message = str(info.value)
    assert "elemwise_add '_plus0': dtype inconsistent" in message
    assert "input 1 'rhs' is float64 but input 0 'lhs' is float32" in message
    assert "mx.sym.cast(x, dtype=...)" in message
    assert_unchanged(before, net)


def test_too_many_positional_shapes():
    net = _fc()
    before = snapshot(net)
    with pytest.raises(
        mx.base.MXNetError,
        match=r"infer_shape: 4 positional values given but "
        r"the symbol has 3 arguments \['data', "
        r"'fc_weight', 'fc_bias'\]",
    ):
        net.infer_shape((2, 3), (4, 3), (4,), (1,))  # MXNet: basic_string::_S_construct null
    with pytest.raises(ValueError, match="either by positional or kwargs way, not both"):
        net.infer_shape((2, 3), fc_bias=(4,))
    assert_unchanged(before, net)


def test_a_reshape_whose_sizes_do_not_match():
    net = mx.sym.Reshape(mx.sym.Variable("data"), shape=(5, 2), name="r")
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet accepts it symbolically
        net.infer_shape(data=(2, 6))
    message = str(info.value)
    assert "Reshape 'r'" in message and "(2, 6) (12 values) to (5, 2) (10 values)" in message
    assert_unchanged(before, net)


def test_an_axis_out_of_range():
    net = mx.sym.sum(mx.sym.Variable("data"), axis=3, name="total")
    before = snapshot(net)
    with pytest.raises(
        mx.base.MXNetError, match=r"sum 'total': axis 3 is out of range for data with 2 dimensions"
    ):
        net.infer_shape(data=(2, 6))
    assert_unchanged(before, net)
