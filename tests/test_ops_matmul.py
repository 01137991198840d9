"""dot and batch_dot (minisym/ops/tensor/dot.py): MXNet's N-D rule (last axis of lhs against the
first of rhs), transposes, partial inference as MXNet 1.9.1 does it, gradients, req."""

import itertools

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from opcheck import (
    case_tests,
    make_op,
    run_forward,
)

# (op name, params, input shapes, expected output shapes)
CASES = [
    ("dot", {}, [(2, 3), (3, 4)], [(2, 4)]),
    ("dot", {"transpose_a": True}, [(3, 2), (3, 4)], [(2, 4)]),
    ("dot", {"transpose_b": True}, [(2, 3), (4, 3)], [(2, 4)]),
    ("dot", {"transpose_a": True, "transpose_b": True}, [(3, 2), (4, 3)], [(2, 4)]),
    ("dot", {}, [(3,), (3,)], [(1,)]),
    ("dot", {}, [(3,), (3, 4)], [(4,)]),
    ("dot", {"transpose_b": True}, [(2, 3), (3,)], [(2,)]),
    ("dot", {"transpose_a": True}, [(3,), (3, 4)], [(4,)]),
    ("dot", {}, [(2, 3, 4), (4, 5, 2)], [(2, 3, 5, 2)]),
    ("dot", {"transpose_a": True}, [(4, 2, 3), (4, 5)], [(2, 3, 5)]),
    ("dot", {"transpose_b": True}, [(2, 3, 4), (5, 2, 4)], [(2, 3, 5, 2)]),
    ("batch_dot", {}, [(2, 3, 4), (2, 4, 5)], [(2, 3, 5)]),
    ("batch_dot", {"transpose_a": True}, [(2, 4, 3), (2, 4, 5)], [(2, 3, 5)]),
    ("batch_dot", {"transpose_b": True}, [(2, 3, 4), (2, 5, 4)], [(2, 3, 5)]),
    ("batch_dot", {"transpose_a": True, "transpose_b": True}, [(2, 4, 3), (2, 5, 4)], [(2, 3, 5)]),
    ("batch_dot", {}, [(2, 2, 3, 4), (2, 2, 4, 1)], [(2, 2, 3, 1)]),
]
IDS = [f"{name}-{params}-{shapes}" for name, params, shapes, _ in CASES]


def _inputs(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


test_shape_rule, test_gradients, test_req, test_backward_dependency = case_tests(
    CASES, IDS, _inputs
)


def test_nd_dot_sums_last_axis_of_lhs_against_first_of_rhs():
    """Observed in MXNet: (2, 3, 4) x (4, 5, 6) is (2, 3, 5, 6), unlike numpy.dot."""
    lhs, rhs = _inputs([(2, 3, 4), (4, 5, 6)])
    (out,) = run_forward(make_op("dot"), [lhs, rhs])
    for i, j, k, m in itertools.product(range(2), range(3), range(5), range(6)):
        assert out[i, j, k, m] == pytest.approx(
            sum(lhs[i, j, c] * rhs[c, k, m] for c in range(4)), rel=1e-12
        )
    # transpose_a sums over lhs's FIRST axis and keeps the others in order
    lhs = _inputs([(4, 2, 3)])[0]
    (out,) = run_forward(make_op("dot", transpose_a=True), [lhs, rhs])
    assert out.shape == (2, 3, 5, 6)
    assert out[1, 2, 3, 4] == pytest.approx(sum(lhs[c, 1, 2] * rhs[c, 3, 4] for c in range(4)))


def test_batch_dot_by_loop():
    lhs, rhs = _inputs([(3, 2, 4), (3, 5, 4)])
    (out,) = run_forward(make_op("batch_dot", transpose_b=True), [lhs, rhs])
    for b in range(3):
        np.testing.assert_allclose(out[b], lhs[b] @ rhs[b].T, rtol=1e-12)


PARTIAL = [  # (op, params, given, inferred output) -- as observed in MXNet 1.9.1
    ("dot", {}, [(0, 3), (3, 4)], (0, 4)),
    ("dot", {}, [(2, 3), (3, 0)], (2, 0)),
    ("dot", {}, [(2, 3), None], None),
    ("batch_dot", {}, [(2, 0, 4), (2, 4, 0)], (2, 0, 0)),
    ("batch_dot", {}, [(2, 3, 0), (2, 4, 5)], None),
    ("batch_dot", {"transpose_a": True}, [(2, 4, 0), (2, 4, 5)], None),
    ("batch_dot", {}, [(2, 3, 4), None], None),
]


@pytest.mark.parametrize("name, params, given, out", PARTIAL)
def test_partial_inference_gives_nothing_back_to_the_inputs(name, params, given, out):
    ins, outs, _ = make_op(name, **params).infer_shape(list(given), [None])
    assert ins == given and outs == [out]


ERRORS = [
    (
        "dot",
        {},
        [(2, 3), (4, 5)],
        r"dot shape error: lhs \(2, 3\) x rhs \(4, 5\): dot sums lhs "
        r"axis 1 \(size 3\) against rhs axis 0 \(size 4\)",
    ),
    ("dot", {}, [(2, 3), (4, 3)], r"transpose_b=True multiplies by rhs transposed"),
    ("dot", {"transpose_a": True}, [(3,), (3,)], r"are vectors, which cannot be transposed"),
    ("dot", {}, [(2, 0), (3, 4)], r"the size dot sums over is unknown \(lhs \(2, \?\) axis 1"),
    ("batch_dot", {}, [(3, 4), (4, 5)], r"same number \(>= 3\) of dimensions.*mx.sym.dot"),
    ("batch_dot", {}, [(2, 3, 4), (3, 4, 5)], r"leading \(batch\) sizes .* \(2,\) vs \(3,\)"),
    ("batch_dot", {}, [(0, 3, 4), (2, 4, 5)], r"leading \(batch\) sizes"),
    (
        "batch_dot",
        {"transpose_b": True},
        [(2, 3, 4), (2, 4, 5)],
        r"\(transpose_b=True\): each product sums over 4 columns of lhs but 5 rows of rhs",
    ),
]


@pytest.mark.parametrize("name, params, shapes, message", ERRORS)
def test_shape_errors_teach(name, params, shapes, message):
    with pytest.raises(MXNetError, match=message) as info:
        make_op(name, "d", **params).infer_shape(list(shapes), [None])
    assert f"{name} 'd'" in str(info.value)


def test_sparse_forward_stype_is_refused_and_default_accepted():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    with pytest.raises(MXNetError, match=r"forward_stype='csr' asks for a sparse result"):
        mx.sym.dot(x, y, forward_stype="csr")
    s = mx.sym.dot(x, y, forward_stype="default", transpose_a=True)
    assert s.list_attr() == {"forward_stype": "default", "transpose_a": "True"}


def test_nd_dot_follows_mxnet_not_numpy_for_nd_arrays():
    lhs, rhs = _inputs([(4, 2, 3), (4, 5, 2)])
    out = mx.nd.dot(mx.nd.array(lhs), mx.nd.array(rhs), transpose_a=True)
    assert out.shape == (2, 3, 5, 2)
    np.testing.assert_allclose(out.asnumpy(), np.tensordot(lhs, rhs, axes=(0, 0)), rtol=1e-5)


def test_symbol_and_ndarray_functions():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    s = mx.sym.batch_dot(x, y, name="bd")
    assert s.list_arguments() == ["x", "y"] and s.list_outputs() == ["bd_output"]
    out = mx.nd.batch_dot(mx.nd.ones((2, 3, 4)), mx.nd.ones((2, 4, 5)))
    assert out.shape == (2, 3, 5) and out.asnumpy().max() == 4


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)


def test_dot_and_batch_dot_in_an_executor_match_finite_differences():
    x, w, v = mx.sym.Variable("x"), mx.sym.Variable("w"), mx.sym.Variable("v")
    scores = mx.sym.dot(x, w, transpose_b=True)  # (2, 3, 4)
    net = mx.sym.batch_dot(scores, v, transpose_a=True)  # (2, 4, 5)
    rng = np.random.default_rng(8)
    location = {
        "x": rng.standard_normal((2, 3, 6)),
        "w": rng.standard_normal((4, 6)),
        "v": rng.standard_normal((2, 3, 5)),
    }
    mx.test_utils.check_numeric_gradient(
        net, location, dtype=np.float64, numeric_eps=1e-6, rtol=1e-5, atol=1e-7
    )
