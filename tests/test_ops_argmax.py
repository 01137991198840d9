"""argmax / argmin (minisym/ops/tensor/broadcast_reduce_op_index.py): indices in the data's
dtype, the first one on ties, a zero gradient that needs no head gradient, and what MXNet
1.9.1 does at the edges."""

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from opcheck import check_gradients, check_req, make_op, output_shapes, run_forward

# (op name, params, input shape, expected output shape)
CASES = [
    ("argmax", {"axis": 1}, (2, 3), (2,)),
    ("argmax", {"axis": 0, "keepdims": True}, (2, 3), (1, 3)),
    ("argmax", {}, (2, 3, 4), (1,)),
    ("argmax", {"keepdims": True}, (2, 3), (1, 1)),
    ("argmax", {"axis": -1}, (4,), (1,)),
    ("argmin", {"axis": 1}, (3, 4), (3,)),
    ("argmin", {"axis": -2, "keepdims": True}, (2, 3, 4), (2, 1, 4)),
    ("argmin", {}, (5,), (1,)),
]
IDS = [f"{name}-{params}-{shape}" for name, params, shape, _ in CASES]


def _data(shape, seed=0):
    """Distinct values (no ties), so finite differences never move an index."""
    values = np.random.default_rng(seed).permutation(int(np.prod(shape))).astype(np.float64)
    return values.reshape(shape)


@pytest.mark.parametrize("name, params, shape, out_shape", CASES, ids=IDS)
def test_shape_rule(name, params, shape, out_shape):
    op = make_op(name, **params)
    assert output_shapes(op, [shape])[0] == [out_shape]
    (out,) = run_forward(op, [_data(shape)])
    assert out.shape == out_shape


@pytest.mark.parametrize("name, params, shape, out_shape", CASES, ids=IDS)
def test_gradient_is_zero_as_finite_differences_say(name, params, shape, out_shape):
    grads = check_gradients(make_op(name, **params), [_data(shape)])
    assert not grads[0].any()


@pytest.mark.parametrize("name, params, shape, out_shape", CASES, ids=IDS)
def test_req(name, params, shape, out_shape):
    check_req(make_op(name, **params), [_data(shape)])


@pytest.mark.parametrize("name, search", [("argmax", np.argmax), ("argmin", np.argmin)])
def test_values_by_loop_first_index_on_ties(name, search):
    data = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 1.0, 2.0], [0.0, 5.0, 5.0, 5.0]])
    (out,) = run_forward(make_op(name, axis=1), [data])
    pick = max if name == "argmax" else min
    expected = [row.tolist().index(pick(row)) for row in data]  # list.index: the first one
    assert out.tolist() == expected
    (flat,) = run_forward(make_op(name), [data])
    assert flat.tolist() == [float(search(data.reshape(-1)))]


def test_indices_keep_the_data_dtype_as_in_mxnet():
    x = mx.nd.array([[1, 5, 3], [4, 2, 6]], dtype="int32")
    assert x.argmax(axis=1).dtype == np.int32
    assert mx.nd.argmax(x.astype("float32"), axis=1).dtype == np.float32
    assert mx.nd.argmax(x.astype("float32"), axis=1).asnumpy().tolist() == [1.0, 2.0]


def test_axis_out_of_range_is_a_teaching_error():
    with pytest.raises(MXNetError, match=r"axis=2 is out of range .* \[-2, 1\]"):
        mx.nd.argmax(mx.nd.ones((2, 3)), axis=2)


def test_as_a_head_backward_needs_no_head_gradient():
    """Observed in MXNet 1.9.1: backward() through argmax without out_grads gives zeros."""
    x = mx.sym.Variable("x")
    ex = x.argmax(axis=1).simple_bind(mx.cpu(), x=(2, 3))
    ex.arg_dict["x"][:] = np.array([[1.0, 5, 3], [4, 2, 6]])
    ex.forward(is_train=True)
    ex.backward()
    assert ex.grad_dict["x"].asnumpy().tolist() == [[0.0] * 3] * 2


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
