"""slice, pick, take, one_hot (minisym/ops/tensor/matrix_op.py,
broadcast_reduce_op_index.py, indexing_op.py): shape rules with MXNet's partial
inference, values by loop, float64 gradients, req, the backward dependency, and the errors."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minisym as mx
from minisym.base import MXNetError
from opcheck import (
    check_backward_dependency,
    check_gradients,
    check_req,
    make_op,
    output_shapes,
    run_backward,
    run_forward,
)

# MXNet logs it at every shape inference; the cases here know
pytestmark = pytest.mark.filterwarnings("ignore:batch_take is deprecated:FutureWarning")


def _data(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _ids(shape, low, high, seed=1):
    """Integer-valued float indices in [low, high)."""
    return np.random.default_rng(seed).integers(low, high, shape).astype(np.float64)


# (op name, params, inputs, expected output shapes); inputs are real arrays, indices included
CASES = [
    ("slice", {"begin": (0, 1), "end": (2, None)}, [_data((3, 4))], [(2, 3)]),
    (
        "slice",
        {"begin": (None, -3), "end": (None, None), "step": (None, -1)},
        [_data((3, 4))],
        [(3, 2)],
    ),
    ("slice", {"begin": (0, 1), "end": (5, 4), "step": (2, 2)}, [_data((5, 4))], [(3, 2)]),
    ("slice", {"begin": (-2,), "end": (None,)}, [_data((5, 4, 2))], [(2, 4, 2)]),
    ("slice", {"begin": (4,), "end": (None,), "step": (-2,)}, [_data((5, 2))], [(3, 2)]),
    ("slice", {"begin": (1,), "end": (100,)}, [_data((5, 2))], [(4, 2)]),
    ("pick", {}, [_data((3, 4)), _ids((3,), 0, 4)], [(3,)]),
    ("pick", {"axis": 0, "keepdims": True}, [_data((3, 4)), _ids((4,), 0, 3)], [(1, 4)]),
    ("pick", {"axis": 1, "mode": "wrap"}, [_data((2, 3, 4)), _ids((2, 4), -4, 7)], [(2, 4)]),
    ("pick", {"axis": 1}, [_data((2, 3)), _ids((2, 1), -2, 5)], [(2,)]),
    ("take", {}, [_data((3, 4)), _ids((2, 5), 0, 3)], [(2, 5, 4)]),
    ("take", {"axis": 1}, [_data((3, 4)), _ids((2,), -2, 6)], [(3, 2)]),
    ("take", {"axis": -1, "mode": "wrap"}, [_data((2, 3, 4)), _ids((5,), -6, 9)], [(2, 3, 5)]),
    ("take", {"mode": "raise"}, [_data((4, 2)), np.array([3.0, 0.0, 3.0, 1.0])], [(4, 2)]),
    ("_slice_assign", {"begin": (0, 1), "end": (2, 3)}, [_data((3, 4)), _data((2, 2))], [(3, 4)]),
    (
        "_slice_assign",
        {"begin": (None, None), "end": (None, None), "step": (2, -1)},
        [_data((3, 4)), _data((2, 4))],
        [(3, 4)],
    ),
    ("_slice_assign", {"begin": (2,), "end": (1,)}, [_data((3, 2)), _data((0, 2))], [(3, 2)]),
    (
        "_slice_assign_scalar",
        {"begin": (1,), "end": (None,), "scalar": 2.5},
        [_data((3, 4))],
        [(3, 4)],
    ),
    (
        "_slice_assign_scalar",
        {"begin": (None, -1), "end": (None, None), "step": (None, -2)},
        [_data((2, 5))],
        [(2, 5)],
    ),
    ("batch_take", {}, [_data((3, 4)), _ids((3,), -2, 6)], [(3,)]),
    ("batch_take", {}, [_data((4, 2)), _ids((4, 1), 0, 2)], [(4, 1)]),
    ("one_hot", {"depth": 4}, [_ids((2, 3), -1, 5)], [(2, 3, 4)]),
    ("one_hot", {"depth": 3, "on_value": 2.5, "off_value": -1}, [_ids((5,), 0, 3)], [(5, 3)]),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params, _, _ in CASES]
# MXNet 1.9.1 registers no gradient (FGradient) for these: backward refuses (tested below)
REFUSES_BACKWARD = ("_slice_assign", "_slice_assign_scalar", "batch_take")
NO_GRADIENT = {
    "one_hot": "its only input holds indices; MXNet gives them a zero gradient",
    **{
        op: "MXNet 1.9.1 gives it no gradient: its backward refuses, as MXNet's does"
        for op in REFUSES_BACKWARD
    },
}
WITH_BACKWARD = [c for c in CASES if c[0] not in REFUSES_BACKWARD]
WITH_BACKWARD_IDS = [i for i, c in zip(IDS, CASES) if c[0] not in REFUSES_BACKWARD]


@pytest.mark.parametrize("name, params, ins, out_shapes", CASES, ids=IDS)
def test_shape_rule(name, params, ins, out_shapes):
    op = make_op(name, **params)
    assert output_shapes(op, [x.shape for x in ins])[0] == out_shapes
    assert [o.shape for o in run_forward(op, ins)] == out_shapes


@pytest.mark.parametrize(
    "name, params, ins, out_shapes",
    [c for c in CASES if c[0] not in NO_GRADIENT],
    ids=[i for i, c in zip(IDS, CASES) if c[0] not in NO_GRADIENT],
)
def test_gradients(name, params, ins, out_shapes):
    check_gradients(make_op(name, **params), ins)


@pytest.mark.parametrize("name, params, ins, out_shapes", WITH_BACKWARD, ids=WITH_BACKWARD_IDS)
def test_req(name, params, ins, out_shapes):
    check_req(make_op(name, **params), ins)


@pytest.mark.parametrize("name, params, ins, out_shapes", WITH_BACKWARD, ids=WITH_BACKWARD_IDS)
def test_backward_dependency(name, params, ins, out_shapes):
    check_backward_dependency(make_op(name, **params), ins)


REFUSING = [c for c in CASES if c[0] in REFUSES_BACKWARD]
REFUSING_IDS = [i for i, c in zip(IDS, CASES) if c[0] in REFUSES_BACKWARD]


@pytest.mark.parametrize("name, params, ins, out_shapes", REFUSING, ids=REFUSING_IDS)
def test_forward_req_of_operators_without_gradient(name, params, ins, out_shapes):
    """null leaves the output, write overwrites it, add accumulates into it."""
    op = make_op(name, **params)
    (want,) = run_forward(op, ins)
    for req, expect in (("null", np.full_like(want, 7.0)), ("write", want), ("add", want + 7)):
        (got,) = run_forward(op, ins, req=req, outs=[np.full_like(want, 7.0)])
        np.testing.assert_allclose(got, expect, err_msg=f"{op.where}: forward req={req}")


@pytest.mark.parametrize("name, params, ins, out_shapes", REFUSING, ids=REFUSING_IDS)
def test_backward_refuses_as_mxnet_does(name, params, ins, out_shapes):
    """MXNet: 'Operator ... is non-differentiable because it didn't register FGradient'; a zero
    head gradient (below a BlockGrad) passes as zeros, req 'null' everywhere does nothing."""
    op = make_op(name, **params)
    outs = run_forward(op, ins)
    with pytest.raises(MXNetError, match=rf"Operator {name} is non-differentiable"):
        run_backward(op, ins, outs, [np.ones_like(o) for o in outs], req="write")
    grads = [np.full_like(x, 7.0) for x in ins]
    run_backward(op, ins, outs, [np.zeros_like(o) for o in outs], req="write", in_grads=grads)
    assert all(
        (g == (7 if n in op.no_gradient_inputs else 0)).all()
        for g, n in zip(grads, op.list_arguments())
    )
    grads = [np.full_like(x, 7.0) for x in ins]
    run_backward(
        op, ins, outs, [np.ones_like(o) for o in outs], req=["null"] * len(ins), in_grads=grads
    )
    assert all((g == 7).all() for g in grads)


# --- values against independent loops ----------------------------------------------------------


def test_slice_matches_python_slicing():
    data = np.arange(60.0).reshape(5, 4, 3)
    for begin, end, step in [
        ((1, None), (4, -1), (2, None)),
        ((None, 3), (None, 0), (None, -1)),
        ((-1,), (-6,), (-2,)),
        ((0, 0, 2), (5, 4, 0), (1, 1, -1)),
    ]:
        (out,) = run_forward(make_op("slice", begin=begin, end=end, step=step), [data])
        index = tuple(slice(b, e, s) for b, e, s in zip(begin, end, step))
        np.testing.assert_array_equal(out, data[index])


def test_pick_by_loop_clip_and_wrap():
    """Observed in MXNet: on [[1, 2, 3], [4, 5, 6]], index [-1, 5] picks [1, 6] (clip) and
    [3, 6] (wrap); a fractional index is truncated ([0.7, 1.6] picks [1, 5])."""
    data = np.array([[1.0, 2, 3], [4, 5, 6]])
    for index, mode, want in [
        ([-1, 5], "clip", [1, 6]),
        ([-1, 5], "wrap", [3, 6]),
        ([0.7, 1.6], "clip", [1, 5]),
    ]:
        (out,) = run_forward(make_op("pick", axis=1, mode=mode), [data, np.array(index)])
        assert out.tolist() == want
    data = np.random.default_rng(4).standard_normal((2, 3, 4))
    index = _ids((2, 4), 0, 3)
    (out,) = run_forward(make_op("pick", axis=1), [data, index])
    for i, k in itertools.product(range(2), range(4)):
        assert out[i, k] == data[i, int(index[i, k]), k]


def test_take_by_loop_and_gradient_accumulates_duplicates():
    """Observed in MXNet: take(a (3, 4), [-1, 5, 1, 1]) takes rows 0, 2, 1, 1 (clip), rows
    2, 2, 1, 1 (wrap), and row 1's gradient is the sum of both head rows that took it."""
    a = np.arange(12.0).reshape(3, 4)
    indices = np.array([-1.0, 5, 1, 1])
    head = np.arange(16.0).reshape(4, 4)
    for mode, rows in [("clip", [0, 2, 1, 1]), ("wrap", [2, 2, 1, 1])]:
        op = make_op("take", mode=mode)
        (out,) = run_forward(op, [a, indices])
        np.testing.assert_array_equal(out, a[rows])
        grad_a, grad_i = run_backward(op, [a, indices], [out], [head], req=["write", "write"])
        want = np.zeros_like(a)
        for position, row in enumerate(rows):
            want[row] += head[position]
        np.testing.assert_array_equal(grad_a, want)
        assert not grad_i.any()  # indices get zeros under 'write', as in MXNet


def test_take_along_another_axis_by_loop():
    a = np.random.default_rng(5).standard_normal((2, 3, 4))
    indices = np.array([[3.0, 0.0], [7.0, -2.0]])
    (out,) = run_forward(make_op("take", axis=2, mode="wrap"), [a, indices])
    assert out.shape == (2, 3, 2, 2)
    for i, j, p, q in itertools.product(range(2), range(3), range(2), range(2)):
        assert out[i, j, p, q] == a[i, j, int(indices[p, q]) % 4]


def test_one_hot_values():
    """Observed in MXNet: indices [0, 2, -1, 4, 1.7] with depth 4: -1 and 4 give rows of
    off_value, 1.7 is read as 1; dtype='int32' gives an int32 array."""
    out = mx.nd.one_hot(mx.nd.array([0, 2, -1, 4, 1.7]), 4, on_value=3, off_value=-2, dtype="int32")
    assert out.dtype == np.int32
    assert out.asnumpy().tolist() == [
        [3, -2, -2, -2],
        [-2, -2, 3, -2],
        [-2] * 4,
        [-2] * 4,
        [-2, 3, -2, -2],
    ]


_BOUND = st.one_of(st.none(), st.integers(-7, 7))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3), data=st.data())
def test_slice_is_python_slicing_for_any_begin_end_step(shape, data):
    """MXNet's clamping rules (GetIndexRange) agree with Python's slice.indices everywhere."""
    n = data.draw(st.integers(1, len(shape)))
    begin = tuple(data.draw(_BOUND) for _ in range(n))
    end = tuple(data.draw(_BOUND) for _ in range(n))
    step = tuple(
        data.draw(st.one_of(st.none(), st.sampled_from([-3, -2, -1, 1, 2, 3]))) for _ in range(n)
    )
    x = np.arange(float(np.prod(shape))).reshape(shape)
    want = x[tuple(slice(b, e, s) for b, e, s in zip(begin, end, step))]
    op = make_op("slice", begin=begin, end=end, step=step)
    assert output_shapes(op, [x.shape])[0] == [want.shape]
    if want.size:
        (out,) = run_forward(op, [x])
        np.testing.assert_array_equal(out, want)
        (grad,) = run_backward(op, [x], [out], [np.ones_like(out)])
        assert grad.sum() == want.size and set(np.unique(grad)) <= {0.0, 1.0}


@settings(max_examples=50, deadline=None, derandomize=True)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data())
def test_take_is_numpy_take_with_clip_or_wrap(shape, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    mode = data.draw(st.sampled_from(["clip", "wrap"]))
    indices = np.array(data.draw(st.lists(st.integers(-6, 6), min_size=1, max_size=5)), float)
    a = np.random.default_rng(0).standard_normal(shape)
    (out,) = run_forward(make_op("take", axis=axis, mode=mode), [a, indices])
    np.testing.assert_array_equal(out, np.take(a, indices.astype(int), axis=axis, mode=mode))


# --- partial inference, as observed in MXNet 1.9.1 ---------------------------------------------

PARTIAL = [  # (op, params, given input shapes, inferred inputs, inferred outputs)
    ("slice", {"begin": (0, 1), "end": (2, 3)}, [(0, 4)], [(0, 4)], [(0, 2)]),
    ("slice", {"begin": (0,), "end": (2,)}, [None], [None], [None]),
    ("pick", {}, [(3, 4), None], [(3, 4), (3,)], [(3,)]),
    ("pick", {"axis": 1}, [(0, 4), None], [(0, 4), (0,)], [(0,)]),
    ("pick", {"axis": 1}, [None, (3,)], [None, (3,)], [None]),
    ("pick", {"axis": 1}, [(3, 4), (3, 1)], [(3, 4), (3, 1)], [(3,)]),
    ("take", {}, [(0, 4), (2,)], [(0, 4), (2,)], [(2, 4)]),
    ("take", {}, [(3, 0), (2,)], [(3, 0), (2,)], [(2, 0)]),
    ("take", {}, [(3, 4), None], [(3, 4), None], [None]),
    ("one_hot", {"depth": 4}, [(0, 3)], [(0, 3)], [None]),
]


@pytest.mark.parametrize("name, params, given, ins, outs", PARTIAL)
def test_partial_inference(name, params, given, ins, outs):
    op = make_op(name, **params)
    got_in, got_out, _ = op.infer_shape(list(given), [None])
    assert [got_in, got_out] == [ins, outs]


def test_pick_index_of_the_wrong_shape_is_refused_by_inference():
    x, i = mx.sym.Variable("x"), mx.sym.Variable("i")
    with pytest.raises(
        MXNetError,
        match=r"input 1 'index' .* is \(4,\) but the operator "
        r"needs \(3,\)",
    ):
        mx.sym.pick(x, i, axis=1, name="p").infer_shape(x=(3, 4), i=(4,))


ERRORS = [  # (op, params, input shapes, what the message says)
    ("slice", {"begin": (0, 0, 0), "end": (1, 1, 1)}, [(5, 4)], r"slices 3 axes but data"),
    ("pick", {"axis": 2}, [(3, 4), None], r"axis=2 is out of range .* \[-2, 1\]"),
    ("take", {"axis": 2}, [(3, 4), (2,)], r"axis=2 is out of range"),
    ("take", {}, [None, (2,)], r"shape of input 0 'a' is unknown while indices \(2,\)"),
]


@pytest.mark.parametrize("name, params, shapes, message", ERRORS)
def test_shape_errors_teach(name, params, shapes, message):
    op = make_op(name, "node", **params)
    with pytest.raises(MXNetError, match=message) as info:
        op.infer_shape(list(shapes), [None])
    assert f"{name} 'node'" in str(info.value)


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("slice", {"begin": (0, 0), "end": (1,)}, r"must have the same length"),
        ("slice", {"begin": (0,), "end": (1,), "step": (0,)}, r"a step cannot be 0"),
        ("slice", {"begin": (0, 0), "end": (1, 1), "step": (1,)}, r"one entry per entry of begin"),
        ("pick", {"axis": None}, r"axis=None is not supported by pick"),
        ("pick", {"mode": "raise"}, r"choose one of 'clip', 'wrap'"),
        ("one_hot", {"depth": -1}, r"depth must be >= 0"),
    ],
)
def test_parameter_errors_when_created(name, params, message):
    with pytest.raises(MXNetError, match=message):
        make_op(name, **params)


def test_take_raise_mode_refuses_an_index_out_of_range():
    a = mx.nd.array(np.arange(12).reshape(3, 4))
    with pytest.raises(
        MXNetError,
        match=r"indices contain -1, outside \[0, 2\] .* "
        r"mode='raise' refuses it. Use mode='clip'",
    ):
        mx.nd.take(a, mx.nd.array([-1, 2]), mode="raise")
    assert mx.nd.take(a, mx.nd.array([2, 0]), mode="raise").asnumpy()[:, 0].tolist() == [8, 0]


@pytest.mark.parametrize(
    "make, given",
    [
        (lambda x, i: mx.sym.pick(x, i), {"x": "float32"}),
        (lambda x, i: mx.sym.take(x, i), {"x": "float32"}),
        (lambda x, i: mx.sym.one_hot(i, depth=3), {}),
    ],
)
def test_index_dtype_must_be_known(make, given):
    """Observed in MXNet: infer_type(x='float32') fails ('Index type must be set')."""
    x, i = mx.sym.Variable("x"), mx.sym.Variable("i")
    with pytest.raises(MXNetError, match=r"the dtype of input \d '(index|indices)' is unknown"):
        make(x, i).infer_type(**given)
    types = make(x, i).infer_type_partial(**dict(given, i="int32"))
    assert np.dtype(types[0][-1]) == np.int32


def test_slice_assign_and_batch_take_by_hand():
    """Observed in MXNet (p831, p832): the slice replaced, the rest copied; batch_take clips."""
    lhs, rhs = np.arange(12.0).reshape(3, 4), -np.ones((2, 2))
    (out,) = run_forward(make_op("_slice_assign", begin=(0, 1), end=(2, 3)), [lhs, rhs])
    want = lhs.copy()
    want[0:2, 1:3] = rhs
    np.testing.assert_array_equal(out, want)
    data = np.ones((3, 4), np.int32)
    (out,) = run_forward(make_op("_slice_assign_scalar", scalar=-2.7, begin=(0,), end=(1,)), [data])
    assert out.tolist() == [[-2] * 4, [1] * 4, [1] * 4]
    (out,) = run_forward(make_op("batch_take"), [lhs, np.array([-2, 5, 2], np.int32)])
    assert out.tolist() == [0.0, 7.0, 10.0]


def test_batch_take_needs_known_shapes_and_int32_indices():
    """Observed in MXNet (p831): no partial inference, indices of any other dtype refused."""
    op = make_op("batch_take", "bt")
    with pytest.warns(FutureWarning, match="batch_take is deprecated. Please use pick"):
        assert op.infer_shape([(3, 4), (3,)], [None]) == ([(3, 4), (3,)], [(3,)], [])
    for shapes, message in [
        ([None, (3,)], r"at least 2 dimensions"),
        ([(3, 4), None], r"must both be wholly known"),
        ([(3, 4), (2,)], r"has 2 elements but a \(3, 4\) has 3 rows"),
    ]:
        with pytest.warns(FutureWarning), pytest.raises(MXNetError, match=message):
            op.infer_shape(shapes, [None])
    assert op.infer_type([np.dtype("float64"), None], [None]) == (
        [np.dtype("float64"), np.dtype("int32")],
        [np.dtype("float64")],
        [],
    )
    with pytest.raises(MXNetError, match=r"reads int32 indices only"):
        op.infer_type([np.dtype("float32"), np.dtype("float32")], [None])
    with pytest.raises(MXNetError, match=r"computes 2-D a only"):
        run_forward(op, [np.zeros((2, 3, 4)), np.zeros(6, np.int32)])


def test_symbol_and_ndarray_functions():
    x, i = mx.sym.Variable("x"), mx.sym.Variable("i")
    assert mx.sym.take(x, i).list_arguments() == ["x", "i"]
    assert mx.sym.take(x, name="t").list_arguments() == ["x", "t_indices"]
    assert mx.sym.pick(x, name="p").list_arguments() == ["x", "p_index"]
    assert mx.sym.one_hot(i, depth=2).list_attr() == {"depth": "2"}
    assert mx.sym.slice(x, begin=1, end=3).infer_shape(x=(5, 4))[1] == [(2, 4)]
    out = mx.nd.slice(
        mx.nd.array(np.arange(20).reshape(5, 4)), begin=(None, 3), end=(None, 0), step=(2, -1)
    )
    assert out.asnumpy().tolist() == [[3, 2, 1], [11, 10, 9], [19, 18, 17]]
    assert mx.nd.array([[1, 2], [3, 4]]).pick(mx.nd.array([1, 0])).asnumpy().tolist() == [2, 3]


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
GRADIENT_TESTED = frozenset(case[0] for case in CASES if case[0] not in NO_GRADIENT)


def test_indexing_in_an_executor_matches_finite_differences():
    """take (rows taken twice), pick and slice through bind and backward; float64."""
    w, idx, x, col = (mx.sym.Variable(n) for n in ("w", "idx", "x", "col"))
    rows = mx.sym.take(w, idx)  # (4, 3)
    net = mx.sym.pick(mx.sym.slice(rows * x, begin=(None, 1), end=(None, None)), col, axis=1)
    rng = np.random.default_rng(9)
    location = {
        "w": rng.standard_normal((5, 3)),
        "idx": np.array([1.0, 4, 1, 0]),
        "x": rng.standard_normal((4, 3)),
        "col": np.array([0.0, 1, 1, 0]),
    }
    mx.test_utils.check_numeric_gradient(
        net,
        location,
        grad_nodes=["w", "x"],
        dtype=np.float64,
        numeric_eps=1e-6,
        rtol=1e-5,
        atol=1e-7,
    )
