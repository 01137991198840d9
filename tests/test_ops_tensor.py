"""Forward/backward of the shape-changing operators and reductions (minisym/ops/tensor/matrix_op.py,
nn/concat.py, slice_channel.py, tensor/broadcast_reduce_*.py)."""

import itertools

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from opcheck import check_gradients, check_req, make_op, output_shapes, run_backward, run_forward

# (op name, params, input shapes, expected output shapes)
CASES = [
    ("Flatten", {}, [(2, 3, 4)], [(2, 12)]),
    ("Flatten", {}, [(3, 5)], [(3, 5)]),
    ("Reshape", {"shape": (0, -1)}, [(2, 3, 4, 5)], [(2, 60)]),
    ("Reshape", {"shape": (-3, -2)}, [(2, 3, 4, 5)], [(6, 4, 5)]),
    ("Reshape", {"shape": (-4, -1, 2, -2)}, [(2, 3, 4, 5)], [(1, 2, 3, 4, 5)]),
    ("Reshape", {"shape": (4, 0, -1)}, [(2, 3, 4, 5)], [(4, 3, 10)]),
    ("Reshape", {"shape": (-1, 0), "reverse": True}, [(10, 5, 4)], [(50, 4)]),
    ("Reshape", {"target_shape": (0, 6)}, [(2, 3, 4)], [(4, 6)]),
    # keep_highest replaces target_shape's first size by data's (MXNet 1.9.1: (2, 12))
    ("Reshape", {"target_shape": (4, 0), "keep_highest": True}, [(2, 3, 4)], [(2, 12)]),
    ("Concat", {"num_args": 2}, [(2, 3), (2, 4)], [(2, 7)]),
    ("Concat", {"num_args": 3, "dim": 0}, [(1, 3), (2, 3), (3, 3)], [(6, 3)]),
    ("Concat", {"num_args": 2, "dim": -1}, [(2, 3, 1), (2, 3, 2)], [(2, 3, 3)]),
    ("transpose", {}, [(2, 3, 4)], [(4, 3, 2)]),
    ("transpose", {"axes": (1, 2, 0)}, [(2, 3, 4)], [(3, 4, 2)]),
    ("transpose", {"axes": (0, -1, 1)}, [(2, 3, 4)], [(2, 4, 3)]),
    ("expand_dims", {"axis": 1}, [(2, 3)], [(2, 1, 3)]),
    ("expand_dims", {"axis": -1}, [(2, 3)], [(2, 3, 1)]),
    ("slice_axis", {"axis": 1, "begin": 1, "end": 3}, [(2, 5)], [(2, 2)]),
    ("slice_axis", {"axis": -1, "begin": -3, "end": None}, [(2, 3, 5)], [(2, 3, 3)]),
    ("slice_axis", {"axis": 0, "begin": 0, "end": -1}, [(4, 3)], [(3, 3)]),
    ("SliceChannel", {"num_outputs": 3}, [(2, 6, 2)], [(2, 2, 2)] * 3),
    ("SliceChannel", {"num_outputs": 2, "axis": 0}, [(4, 3)], [(2, 3)] * 2),
    ("SliceChannel", {"num_outputs": 3, "axis": -1, "squeeze_axis": True}, [(2, 3)], [(2,)] * 3),
    # _split_v2: unequal sections (7 in 3 is 3, 2, 2), split points, squeeze_axis (p830)
    ("_split_v2", {"indices": (), "sections": 3}, [(2, 7, 2)], [(2, 3, 2), (2, 2, 2), (2, 2, 2)]),
    ("_split_v2", {"indices": (0, 2, 5), "axis": 1}, [(3, 7)], [(3, 2), (3, 3), (3, 2)]),
    ("_split_v2", {"indices": (0, 1), "axis": 0}, [(3, 2)], [(1, 2), (2, 2)]),
    (
        "_split_v2",
        {"indices": (), "sections": 3, "axis": -1, "squeeze_axis": True},
        [(2, 3)],
        [(2,)] * 3,
    ),
    ("sum", {}, [(2, 3, 4)], [(1,)]),
    ("sum", {"axis": 1}, [(2, 3, 4)], [(2, 4)]),
    ("sum", {"axis": (0, 2), "keepdims": True}, [(2, 3, 4)], [(1, 3, 1)]),
    ("sum", {"axis": 1, "exclude": True}, [(2, 3, 4)], [(3,)]),
    ("mean", {"axis": -1}, [(2, 3, 4)], [(2, 3)]),
    ("mean", {"axis": 1, "exclude": True, "keepdims": True}, [(2, 3, 4)], [(1, 3, 1)]),
    ("mean", {}, [(3, 5)], [(1,)]),
    ("max", {"axis": 1}, [(2, 3, 4)], [(2, 4)]),
    ("max", {"axis": (0, 2), "keepdims": True}, [(2, 3, 4)], [(1, 3, 1)]),
    ("max", {}, [(3, 4)], [(1,)]),
    ("min", {"axis": 0}, [(3, 4)], [(4,)]),
    ("min", {"axis": 2, "exclude": True}, [(2, 3, 4)], [(4,)]),
    ("norm", {}, [(2, 3)], [(1,)]),
    ("norm", {"ord": 1, "axis": 1}, [(2, 3, 4)], [(2, 4)]),
    ("norm", {"axis": (0, 2), "keepdims": True}, [(2, 3, 4)], [(1, 3, 1)]),
    ("norm", {"ord": 2, "axis": -1}, [(3, 5)], [(3,)]),
    ("norm", {"keepdims": True}, [(2, 3)], [(1, 1)]),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params, _, _ in CASES]


def _inputs(shapes, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_shape_rule(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    assert output_shapes(op, in_shapes)[0] == out_shapes
    outs = run_forward(op, _inputs(in_shapes))
    assert [o.shape for o in outs] == out_shapes


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_gradients(name, params, in_shapes, out_shapes):
    check_gradients(make_op(name, **params), _inputs(in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_req(name, params, in_shapes, out_shapes):
    check_req(make_op(name, **params), _inputs(in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_float32(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    ins64 = _inputs(in_shapes)
    ins32 = [x.astype(np.float32) for x in ins64]
    outs32, outs64 = run_forward(op, ins32), run_forward(op, ins64)
    heads = [np.linspace(-1, 1, o.size).reshape(o.shape) for o in outs64]
    grads32 = run_backward(op, ins32, outs32, [h.astype(np.float32) for h in heads])
    grads64 = run_backward(op, ins64, outs64, heads)
    for got, want in zip(outs32 + grads32, outs64 + grads64):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


# --- values against independent computations ---------------------------------------------------


def _forward(name, ins, **params):
    return run_forward(make_op(name, **params), [np.asarray(x, np.float64) for x in ins])


def test_reshape_keeps_row_major_order():
    data = np.arange(120.0).reshape(2, 3, 4, 5)
    for shape in [(0, -1), (-3, -2), (-4, 1, 2, -2), (0, 0, -1)]:
        (out,) = _forward("Reshape", [data], shape=shape)
        assert list(out.ravel()) == list(range(120))
    (out,) = _forward("Reshape", [np.arange(200.0).reshape(10, 5, 4)], shape=(-1, 0), reverse=True)
    assert out.shape == (50, 4) and out[1, 0] == 4.0 and out[49, 3] == 199.0


def test_flatten_and_expand_dims_values():
    data = np.arange(24.0).reshape(2, 3, 4)
    (out,) = _forward("Flatten", [data])
    assert out[1, 0] == 12.0 and out[0, 11] == 11.0
    (out,) = _forward("expand_dims", [data], axis=2)
    assert out.shape == (2, 3, 1, 4) and out[1, 2, 0, 3] == 23.0


def test_concat_values_by_hand():
    a, b, c = np.array([[1.0], [2.0]]), np.array([[3.0, 4.0], [5.0, 6.0]]), np.array([[7.0], [8.0]])
    (out,) = _forward("Concat", [a, b, c], num_args=3, dim=1)
    np.testing.assert_array_equal(out, [[1, 3, 4, 7], [2, 5, 6, 8]])
    grads = run_backward(
        make_op("Concat", num_args=3, dim=1),
        [a, b, c],
        [out],
        [np.array([[1.0, 2, 3, 4], [5, 6, 7, 8]])],
    )
    np.testing.assert_array_equal(grads[0], [[1], [5]])
    np.testing.assert_array_equal(grads[1], [[2, 3], [6, 7]])
    np.testing.assert_array_equal(grads[2], [[4], [8]])


def test_transpose_values_by_loop():
    data = np.arange(24.0).reshape(2, 3, 4)
    (out,) = _forward("transpose", [data], axes=(2, 0, 1))
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert out[k, i, j] == data[i, j, k]
    (out,) = _forward("transpose", [data])
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert out[k, j, i] == data[i, j, k]


def test_slice_axis_values_and_gradient():
    """Observed in MXNet: on (2, 4), begin=-3, end=None keeps columns 1..3; begin=1, end=-1
    keeps 1..2."""
    data = np.arange(8.0).reshape(2, 4)
    (out,) = _forward("slice_axis", [data], axis=1, begin=-3, end=None)
    np.testing.assert_array_equal(out, [[1, 2, 3], [5, 6, 7]])
    op = make_op("slice_axis", axis=1, begin=1, end=-1)
    (out,) = run_forward(op, [data])
    np.testing.assert_array_equal(out, [[1, 2], [5, 6]])
    (grad,) = run_backward(op, [data], [out], [np.ones((2, 2))])
    np.testing.assert_array_equal(grad, [[0, 1, 1, 0], [0, 1, 1, 0]])


def test_split_values_and_gradient():
    data = np.arange(6.0).reshape(2, 3)
    op = make_op("SliceChannel", num_outputs=3, axis=1, squeeze_axis=True)
    outs = run_forward(op, [data])
    for j in range(3):
        np.testing.assert_array_equal(outs[j], [j, 3 + j])
    (grad,) = run_backward(op, [data], outs, [np.full(2, 1.0), np.full(2, 2.0), np.full(2, 3.0)])
    np.testing.assert_array_equal(grad, [[1, 2, 3], [1, 2, 3]])


def _naive_reduce(data, axes, combine):
    """Reduce by visiting every element: {kept index: combined value}."""
    result = {}
    for index in itertools.product(*map(range, data.shape)):
        key = tuple(i for a, i in enumerate(index) if a not in axes)
        value = data[index]
        result[key] = value if key not in result else combine(result[key], value)
    return result


@pytest.mark.parametrize(
    "name, combine",
    [("sum", lambda a, b: a + b), ("max", max), ("min", min), ("mean", lambda a, b: a + b)],
)
@pytest.mark.parametrize(
    "params, axes",
    [
        ({"axis": 1}, (1,)),
        ({"axis": (0, 2)}, (0, 2)),
        ({"axis": 1, "exclude": True}, (0, 2)),
        ({"axis": -1, "keepdims": True}, (2,)),
    ],
)
def test_reductions_by_loop(name, combine, params, axes):
    data = np.random.default_rng(3).standard_normal((2, 3, 4))
    (out,) = _forward(name, [data], **params)
    expected = _naive_reduce(data, axes, combine)
    count = np.prod([data.shape[a] for a in axes])
    kept = out.reshape(-1)
    for position, key in enumerate(sorted(expected)):
        want = expected[key] / count if name == "mean" else expected[key]
        assert kept[position] == pytest.approx(want, rel=1e-12)


def test_reduce_over_everything():
    data = np.arange(6.0).reshape(2, 3)
    assert _forward("sum", [data])[0].tolist() == [15.0]
    # Observed in MXNet: axis=() with exclude=True also reduces every axis.
    assert _forward("sum", [data], axis=(), exclude=True)[0].tolist() == [15.0]
    assert _forward("mean", [data])[0].tolist() == [2.5]


def test_mean_gradient_divides_by_count():
    """Observed in MXNet: mean(axis=1, exclude=True) on (2,3,4) gives 0.125 everywhere."""
    op = make_op("mean", axis=1, exclude=True, keepdims=True)
    data = np.arange(24.0).reshape(2, 3, 4)
    (out,) = run_forward(op, [data])
    np.testing.assert_allclose(out.ravel(), [7.5, 11.5, 15.5])
    (grad,) = run_backward(op, [data], [out], [np.ones((1, 3, 1))])
    np.testing.assert_array_equal(grad, np.full((2, 3, 4), 0.125))


@pytest.mark.parametrize(
    "name, data, params, expected",
    [
        # Observed in MXNet 1.9.1: every tied extremum receives the whole head gradient.
        ("max", [[1.0, 3, 3], [2, 2, 0]], {"axis": 1}, [[0, 1, 1], [1, 1, 0]]),
        ("max", [[1.0, 3, 3], [2, 2, 0]], {}, [[0, 1, 1], [0, 0, 0]]),
        ("min", [[1.0, 3, 3], [2, 2, 0]], {"axis": 1}, [[1, 0, 0], [0, 0, 1]]),
        ("min", [[1.0, 1, 1], [0, 5, 0]], {"axis": 1}, [[1, 1, 1], [1, 0, 1]]),
    ],
)
def test_max_min_ties_send_gradient_to_every_extremum(name, data, params, expected):
    op = make_op(name, **params)
    data = np.array(data)
    outs = run_forward(op, [data])
    (grad,) = run_backward(op, [data], outs, [np.ones_like(outs[0])])
    np.testing.assert_array_equal(grad, expected)


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_backward_declares_it_reads_the_head_gradient(name, params, in_shapes, out_shapes):
    """Observed in MXNet: transpose, slice_axis, sum... as heads all need a head gradient."""
    op = make_op(name, **params)
    n_out, n_in = len(op.list_outputs()), len(op.list_arguments())
    deps = op.declare_backward_dependency(
        list(range(n_out)),
        list(range(n_out, n_out + n_in)),
        list(range(n_out + n_in, 2 * n_out + n_in)),
    )
    assert set(range(n_out)) <= set(deps)


def test_norm_values_and_mxnet_gradient_at_zero():
    """Observed in MXNet 1.9.1 on [[3, -4, 0], [0, 0, 0]] with head gradient 2: ord=1 gives
    2 * sign(x) (0 at 0); ord=2 along axis 1 gives 2 * x / norm, NaN for the all-zero row."""
    data = np.array([[3.0, -4.0, 0.0], [0.0, 0.0, 0.0]])
    for ord_, axis, out_want, grad_want in [
        (1, None, [7.0], [[2, -2, 0], [0, 0, 0]]),
        (1, 1, [7.0, 0.0], [[2, -2, 0], [0, 0, 0]]),
        (2, None, [5.0], [[1.2, -1.6, 0], [0, 0, 0]]),
        (2, 1, [5.0, 0.0], [[1.2, -1.6, 0], [np.nan] * 3]),
    ]:
        op = make_op("norm", ord=ord_, axis=axis)
        (out,) = run_forward(op, [data])
        np.testing.assert_allclose(out, out_want)
        (grad,) = run_backward(op, [data], [out], [np.full_like(out, 2.0)])
        np.testing.assert_allclose(grad, grad_want)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"ord": 3}, r"ord=3 is invalid: norm supports only ord=1 .* and ord=2"),
        ({"out_dtype": "uint8"}, r"out_dtype='uint8' cannot be read"),
    ],
)
def test_norm_parameter_errors(params, message):
    with pytest.raises(MXNetError, match=message):
        make_op("norm", **params)


def test_norm_shape_needs_whole_data_and_out_dtype_needs_data_dtype():
    """Observed in MXNet: norm(axis=1) of (0, 3) infers nothing; out_dtype with an unknown
    data dtype fails; out_dtype='float64' of float32 data is float64."""
    op = make_op("norm", "n", axis=1)
    assert op.infer_shape([(0, 3)], [None])[1] == [None]
    x = mx.sym.Variable("x")
    with pytest.raises(MXNetError, match=r"out_dtype=float64 is given, so the data's dtype"):
        mx.sym.norm(x, out_dtype="float64").infer_type()
    types = mx.sym.norm(x, out_dtype="float64").infer_type(x="float32")
    assert [np.dtype(t).name for t in types[0] + types[1]] == ["float32", "float64"]
    assert mx.nd.array([[3, 4]]).norm().asnumpy().tolist() == [5.0]


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
def test_split_v2_partial_inference_and_errors():
    """Observed in MXNet (p830): data comes back from the outputs (its axis as their sum, the
    rest from output 0); an unknown axis, a point past the end or decreasing points raise."""
    op = make_op("_split_v2", "sp", indices=(0, 2), axis=1)
    assert op.infer_shape([(0, 5, 0)], [(3, 2, 4), None]) == (
        [(3, 5, 4)],
        [(3, 2, 4), (0, 3, 0)],
        [],
    )
    assert op.infer_shape([None], [(3, 2), None]) == ([None], [None, None], [])
    for shape, message in [
        ((3, 0), r"axis 1 of data \(3, \?\) is unknown"),
        ((3, 1), r"split point 2 is past the end"),
    ]:
        with pytest.raises(MXNetError, match=message):
            op.infer_shape([shape], [None, None])
    with pytest.raises(MXNetError, match=r"part 2 would be empty"):  # MXNet: a (2, 0) part
        make_op("_split_v2", indices=(0, 2, 5)).infer_shape([(2, 5)], [None] * 3)
    with pytest.raises(MXNetError, match=r"must not decrease"):
        make_op("_split_v2", indices=(0, 3, 1)).infer_shape([(2, 4)], [None] * 3)
    with pytest.raises(MXNetError, match=r"make no part"):
        make_op("_split_v2", indices=())
    with pytest.raises(MXNetError, match=r"'First input must have specified type'"):
        op.infer_type([None], [None, None])


def test_split_v2_python_functions():
    x = mx.sym.Variable("x")
    assert mx.sym.split_v2(x, (2, 5), axis=1).list_attr()["indices"] == "[0, 2, 5]"
    assert x.split_v2(3).list_attr() == {
        "axis": "0",
        "indices": "[]",
        "sections": "3",
        "squeeze_axis": "False",
    }
    with pytest.raises(ValueError, match="indices_or_sections must either int or tuple"):
        mx.sym.split_v2(x, [1, 2])
    a = mx.nd.array(np.arange(12).reshape(3, 4))
    assert [p.shape for p in mx.nd.split_v2(a, (1, 3), axis=1)] == [(3, 1), (3, 2), (3, 1)]
    assert [p.shape for p in a.split_v2(2, axis=1)] == [(3, 2), (3, 2)]
    with pytest.raises(ValueError, match="equal division"):
        mx.nd.split_v2(a, 2)


# test_shape_rule, test_gradients and test_req are each parametrized over every case of CASES.
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
