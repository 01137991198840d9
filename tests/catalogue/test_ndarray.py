"""Catalogue, NDArray: mistakes a learner makes creating, reshaping, filling and computing with
``mx.nd`` arrays.

Each test is one mistake as a beginner types it; it asserts MXNet's exception type (MXNet raises
MXNetError for some and a Python type for others: minisym's error is both where they differ
between calls), the parts of the message that teach, and that the arrays involved are unchanged.
"""

import pickle

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


@pytest.fixture
def x():
    return mx.nd.array(np.arange(12).reshape(2, 6))


def test_zeros_with_a_negative_size():
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "shape dim size must be >= -1"
        mx.nd.zeros((-3, 2))
    message = str(info.value)
    assert "mx.nd.zeros: shape (-3, 2): dimension 0 is -3, but a size cannot be negative" in message
    assert "Fix: give shape=(3, 2)" in message
    with pytest.raises(OverflowError, match=r"mx\.nd\.empty: shape \(2, -1\): dimension 1 is -1"):
        mx.nd.empty((2, -1))  # MXNet: OverflowError here, MXNetError for zeros / ones
    with pytest.raises(mx.base.MXNetError, match=r"mx\.nd\.ones: shape \(-2,\)"):
        mx.nd.ones(-2)


def test_ones_and_full_with_a_fractional_size():
    with pytest.raises(
        TypeError,
        match=r"mx\.nd\.ones: shape \(2, 1\.5\): dimension 1 is 1\.5 "
        r"\(float\), but a size must be an int\. Fix: give "
        r"shape=\(2, 1\)",
    ):
        mx.nd.ones((2, 1.5))
    with pytest.raises(TypeError, match=r"mx\.nd\.full: shape \(2\.0, 2\): dimension 0 is 2\.0"):
        mx.nd.full((2.0, 2), 7)  # even a whole float: MXNet refuses it too
    with pytest.raises(
        TypeError,
        match=r"mx\.nd\.zeros: shape='2x3' is not a shape; give a "
        r"tuple of sizes, e\.g\. shape=\(2, 3\)",
    ):
        mx.nd.zeros("2x3")


def test_full_with_a_text_value():
    with pytest.raises(
        TypeError,
        match=r"mx\.nd\.full: val='a' \(str\) is not a number; give "
        r"the value every element gets",
    ):
        mx.nd.full((2, 3), "a")


def test_an_unsupported_dtype():
    with pytest.raises(
        TypeError,
        match=r"dtype='complex64' is not a data type MXNet has; use "
        r"one of 'float32'",
    ):
        mx.nd.zeros((2,), dtype="complex64")  # minisym used to make a complex array
    with pytest.raises(TypeError, match=r"dtype='float33' is not a data type MXNet has"):
        mx.nd.array([1, 2], dtype="float33")


def test_array_from_a_ragged_list():
    with pytest.raises(
        TypeError,
        match=r"source_array must be array like object \(.*"
        r"inhomogeneous",
    ):
        mx.nd.array([[1, 2], [3]])


def test_reshape_to_a_size_that_does_not_match(x):
    before = snapshot(x)
    with pytest.raises(
        ValueError,
        match=r"cannot reshape array of shape \(2, 6\) \(12 values\) "
        r"into \(5, 2\)",
    ):
        x.reshape((5, 2))
    with pytest.raises(
        TypeError,
        match=r"NDArray\.reshape: shape=\(1\.5, 8\): dimension 0 is "
        r"1\.5 \(float\), but a size must be an int",
    ):
        x.reshape((1.5, 8))
    with pytest.raises(mx.base.MXNetError, match=r"shape code -5 is not one of 0, -1"):
        x.reshape((-5, 2))
    assert_unchanged(before, x)


def test_assigning_a_value_of_the_wrong_shape(x):
    before = snapshot(x)
    with pytest.raises(ValueError) as info:
        x[:] = mx.nd.ones((3, 6))
    message = str(info.value)
    assert "x[:] = value: value has shape (3, 6) but x[:] has shape (2, 6)" in message
    assert "Nothing was written" in message
    with pytest.raises(
        ValueError,
        match=r"x\[0\] = value: value has shape \(4,\) but x\[0\] "
        r"has shape \(6,\)",
    ):
        x[0] = np.ones(4)
    assert_unchanged(before, x)


def test_assigning_text(x):
    before = snapshot(x)
    with pytest.raises(
        TypeError,
        match=r"NDArray does not support assignment with non-array-"
        r"like object 'a' of type <class 'str'>",
    ):
        x[:] = "a"  # MXNet's type; minisym used to raise numpy's ValueError
    assert_unchanged(before, x)


def test_adding_arrays_whose_shapes_do_not_broadcast(x):
    y = mx.nd.ones((3, 6))
    before = snapshot([x, y])
    with pytest.raises(
        mx.base.MXNetError,
        match=r"NDArray \(2, 6\) \+ NDArray \(3, 6\): the "
        r"shapes cannot be broadcast together: axis 0 "
        r"differs \(2 vs 3\)",
    ):
        x + y
    with pytest.raises(mx.base.MXNetError, match=r"\+=.*the result must keep the left's shape"):
        x += mx.nd.ones((6, 1))  # (2, 6) + (6, 1) would broadcast to (6, 6)
    assert_unchanged(before, [x, y])


def test_dot_of_arrays_that_do_not_fit(x):
    before = snapshot(x)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "dot shape error: [2,6] X [2,6]"
        mx.nd.dot(x, x)
    message = str(info.value)
    assert "mx.nd.dot: dot shape error: lhs (2, 6) x rhs (2, 6)" in message
    assert "last axis of lhs (6) must equal the first axis of rhs (2)" in message
    assert "transpose_b=True" in message
    assert mx.nd.dot(x, x, transpose_b=True).shape == (2, 2)
    assert_unchanged(before, x)


def test_copyto_an_array_of_another_shape(x):
    target = mx.nd.zeros((3, 3))
    before = snapshot([x, target])
    with pytest.raises(
        mx.base.MXNetError,
        match=r"copyto: shape mismatch, \(2, 6\) into "
        r"\(3, 3\)",
    ):
        x.copyto(target)
    assert_unchanged(before, [x, target])


def test_indexing_with_a_float(x):
    with pytest.raises(
        ValueError,
        match=r"NDArray does not support slicing with key 1\.5 .*an "
        r"index is an int \(x\[1\]\)",
    ):
        x[1.5]  # MXNet's ValueError (numpy would say IndexError)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 2"):
        x[5]


def test_asscalar_of_a_whole_array(x):
    with pytest.raises(
        ValueError,
        match=r"The current array is not a scalar: shape \(2, 6\); "
        r"index it first, e.g\. x\[0\]\.asscalar\(\)",
    ):
        x.asscalar()


def test_an_operator_on_an_empty_array():
    empty = mx.nd.array(np.zeros((0, 3)))
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: "inferring shapes failed"
        mx.nd.max(empty, axis=0)
    message = str(info.value)
    assert "mx.nd.max: input 'data' is an empty array (shape (0, 3))" in message
    assert "read a 0 size as 'unknown'" in message and "if x.size == 0" in message
    with pytest.raises(mx.base.MXNetError, match=r"mx\.nd\.softmax: input 'data' is an empty"):
        empty.softmax()


def test_an_operator_missing_an_input():
    with pytest.raises(
        TypeError,
        match=r"mx\.nd\.FullyConnected: give every input as an "
        r"NDArray; missing 'weight', 'bias'",
    ):
        mx.nd.FullyConnected(mx.nd.ones((2, 3)), num_hidden=4)


def test_arange_with_a_zero_step():
    with pytest.raises(
        mx.base.MXNetError,
        match=r"mx\.nd\.arange: step=0 never reaches "
        r"stop=5",
    ):
        mx.nd.arange(0, 5, 0)  # was a ZeroDivisionError


def test_nan_and_inf_values_compute_without_crashing():
    values = mx.nd.array([np.nan, np.inf, -np.inf, 1.0])
    assert np.isnan(mx.nd.sum(values).asnumpy()).all()
    assert np.isnan(mx.nd.max(values).asnumpy()).all()  # MXNet: nan
    np.testing.assert_array_equal(mx.nd.relu(values).asnumpy(), [np.nan, np.inf, 0, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = mx.nd.log(mx.nd.array([-1.0, 0.0])).asnumpy()
    assert np.isnan(logs[0]) and np.isneginf(logs[1])  # as MXNet
    assert np.isnan(mx.nd.softmax(values).asnumpy()[:2]).all()


# --- what mx.nd.load returns, used as an array ----------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    """(path of a list file, path of a dict file) written by mx.nd.save."""
    as_list, as_dict = str(tmp_path / "list.params"), str(tmp_path / "dict.params")
    mx.nd.save(as_list, [mx.nd.ones((2, 3)), mx.nd.zeros((4,))])
    mx.nd.save(as_dict, {"arg:fc1_weight": mx.nd.ones((2, 3)), "arg:fc1_bias": mx.nd.ones(2)})
    return as_list, as_dict


def test_reading_a_loaded_list_as_an_array(saved):
    loaded = mx.nd.load(saved[0])
    before = snapshot(list(loaded))
    with pytest.raises(AttributeError) as info:  # MXNet: AttributeError from the plain list
        loaded.asnumpy()
    assert str(info.value) == (
        f"index the list mx.nd.load({saved[0]!r}) returned first: loaded[0].asnumpy() (it holds "
        "2 NDArray(s), loaded[0] to loaded[1]; it is a list, not an NDArray) ('list' object has "
        "no attribute 'asnumpy')"
    )
    assert_unchanged(before, list(loaded))
    assert loaded[0].shape == (2, 3) and type(loaded).__name__ == "list"  # the fix works


def test_reading_a_loaded_dict_as_an_array(saved):
    loaded = mx.nd.load(saved[1])
    before = snapshot(list(loaded.values()))
    with pytest.raises(AttributeError) as info:
        _ = loaded.shape
    assert str(info.value) == (
        f"index the dict mx.nd.load({saved[1]!r}) returned by name first: "
        "loaded['arg:fc1_weight'].shape (it holds 2 NDArray(s) named 'arg:fc1_weight', "
        "'arg:fc1_bias'; it is a dict, not an NDArray) ('dict' object has no attribute 'shape')"
    )
    assert_unchanged(before, list(loaded.values()))


def test_arithmetic_on_what_mx_nd_load_returned(saved):
    as_list, as_dict = mx.nd.load(saved[0]), mx.nd.load(saved[1])
    with pytest.raises(
        TypeError,
        match=r"^index the list mx\.nd\.load\(.*\) returned first: "
        r"loaded\[0\] \+ \.\.\. .*\(can only concatenate list "
        r"\(not \"int\"\) to list\)$",
    ):
        as_list + 1
    with pytest.raises(
        TypeError,
        match=r"^index the dict .* by name first: "
        r"loaded\['arg:fc1_weight'\] \* \.\.\. .*unsupported "
        r"operand type\(s\) for \*: 'dict' and 'float'\)$",
    ):
        as_dict * 0.5
    with pytest.raises(TypeError, match=r"loaded\[0\] - \.\.\..*'int' and 'list'"):
        1 - as_list


def test_what_mx_nd_load_returns_stays_a_plain_list_and_dict(saved):
    as_list, as_dict = mx.nd.load(saved[0]), mx.nd.load(saved[1])
    assert isinstance(as_list, list) and isinstance(as_dict, dict)
    assert len(as_list + [mx.nd.ones(1)]) == 3 and len(as_list * 2) == 4  # list behaviour kept
    assert sorted(as_dict) == ["arg:fc1_bias", "arg:fc1_weight"]
    with pytest.raises(AttributeError, match=r"^'list' object has no attribute 'weights'$"):
        _ = as_list.weights  # not an NDArray attribute: Python's own message
    assert pickle.loads(pickle.dumps(as_list))[0].shape == (2, 3)
