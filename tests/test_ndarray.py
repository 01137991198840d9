"""mx.nd: creation, MXNet's repr, views and in-place writes, arithmetic, random, contexts."""

import warnings

import numpy as np
import pytest

import minisym as mx


def test_repr_is_mxnets():
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    assert repr(x) == "\n[[1. 2. 3.]\n [4. 5. 6.]]\n<NDArray 2x3 @cpu(0)>"
    assert x.dtype is np.float32 and x.shape == (2, 3) and x.size == 6 and x.ndim == 2


def test_default_dtypes():
    assert mx.nd.array(np.zeros(3, np.float64)).dtype is np.float32
    assert mx.nd.array(mx.nd.zeros(2, dtype="float64")).dtype is np.float64
    assert mx.nd.zeros((2, 2)).dtype is np.float32
    assert mx.nd.arange(3).asnumpy().tolist() == [0.0, 1.0, 2.0]
    assert mx.nd.full((2,), 7).asnumpy().tolist() == [7, 7]


def test_slices_are_views_and_setitem_writes_through():
    x = mx.nd.zeros((3, 2))
    row = x[1]
    row[:] = 5
    x[2:] = np.array([[1, 2]])
    assert x.asnumpy().tolist() == [[0, 0], [5, 5], [1, 2]]
    x[:] = 3
    assert x.asnumpy().sum() == 18


def test_scalar_index_of_a_vector_keeps_one_dimension():
    x = mx.nd.array([1, 2, 3])
    assert x[1].shape == (1,) and x[1].asscalar() == 2


def test_asnumpy_copies():
    x = mx.nd.ones(2)
    values = x.asnumpy()
    values[:] = 9
    assert x.asnumpy().tolist() == [1, 1]


def test_arithmetic_keeps_dtype_and_in_place_operators_write_in_place():
    x = mx.nd.array([1, 2], dtype="int32")
    assert (x * 2.5).dtype is np.int32
    y = mx.nd.array([1.0, 2.0])
    alias = y
    y += 1
    y *= mx.nd.array([2.0, 3.0])
    assert alias is y and y.asnumpy().tolist() == [4.0, 9.0]
    assert (2 - y).asnumpy().tolist() == [-2.0, -7.0]
    assert (y > 5).asnumpy().tolist() == [0.0, 1.0]


def test_reshape_codes_and_errors():
    x = mx.nd.zeros((2, 3, 4))
    assert x.reshape((0, -1)).shape == (2, 12)
    assert x.reshape(-1).shape == (24,)
    with pytest.raises(ValueError, match="cannot reshape"):
        x.reshape((5, 5))


def test_asscalar_needs_one_value():
    with pytest.raises(ValueError, match="not a scalar"):
        mx.nd.ones(2).asscalar()
    with pytest.raises(ValueError, match=r"not a scalar: shape \(1, 2\)"):
        mx.nd.ones((1, 2)).asscalar()


def test_asscalar_of_any_one_value_array_as_mxnet():
    one = mx.nd.array([7.0]).asscalar()
    assert isinstance(one, np.float32) and one == 7.0  # shape (1,): asnumpy()[0]
    for shape in [(1, 1), (1, 1, 1)]:  # MXNet 1.9.1 returns asnumpy()[()]: the array itself
        value = mx.nd.full(shape, 7.0)
        got = value.asscalar()
        assert isinstance(got, np.ndarray) and got.shape == shape and got.item() == 7.0
        got[...] = 0  # a copy: the NDArray keeps its value
        assert value.asnumpy().item() == 7.0


def test_random_is_repeatable_under_a_seed():
    mx.random.seed(7)
    a = mx.nd.random.uniform(shape=(3,)).asnumpy()
    mx.random.seed(7)
    b = mx.nd.random.uniform(shape=(3,)).asnumpy()
    assert np.array_equal(a, b) and a.dtype == np.float32
    n = mx.nd.random.normal(2, 0.5, shape=(20000,)).asnumpy()
    assert abs(n.mean() - 2) < 0.02 and abs(n.std() - 0.5) < 0.02


def test_gpu_context_runs_on_the_cpu_and_warns_once(monkeypatch):
    from minisym import context

    monkeypatch.setattr(context, "_warned_gpu", type(context._warned_gpu)())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, second = mx.gpu(), mx.gpu(1)
    assert [str(first), str(second)] == ["gpu(0)", "gpu(1)"]
    assert len(caught) == 1 and "runs on the CPU" in str(caught[0].message)


def test_imperative_operator_calls_use_the_same_operator_classes():
    x = mx.nd.array([[1.0, -2.0]])
    assert mx.nd.relu(x).asnumpy().tolist() == [[1.0, 0.0]]
    out = mx.nd.FullyConnected(x, mx.nd.ones((3, 2)), mx.nd.zeros(3), num_hidden=3)
    assert out.asnumpy().tolist() == [[-1.0, -1.0, -1.0]]
    with pytest.raises(TypeError, match="mx.nd.array"):
        mx.nd.relu(np.ones(2))


def test_waitall_and_wait_to_read_are_no_ops():
    x = mx.nd.ones(1)
    assert x.wait_to_read() is None and mx.nd.waitall() is None
