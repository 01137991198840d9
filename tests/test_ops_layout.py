"""SwapAxis, reshape_like, broadcast_axis / broadcast_to, tile, repeat, reverse, stack, squeeze
(minisym/ops/swapaxis.py, ops/tensor/matrix_op.py, broadcast_reduce_op_value.py,
elemwise_unary_op_basic.py): shape rules with MXNet's partial inference, values, float64 gradients,
req, the backward dependency, and the errors."""

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from opcheck import (
    case_tests,
    make_op,
    run_backward,
    run_forward,
)

# (op name, params, input shapes, expected output shapes)
CASES = [
    ("SwapAxis", {"dim1": 0, "dim2": 2}, [(2, 3, 4)], [(4, 3, 2)]),
    ("SwapAxis", {"dim1": -1, "dim2": 1}, [(2, 3, 4)], [(2, 4, 3)]),
    ("SwapAxis", {}, [(2, 3)], [(2, 3)]),
    ("reshape_like", {}, [(2, 6), (3, 4)], [(3, 4)]),
    (
        "reshape_like",
        {"lhs_begin": 1, "lhs_end": 2, "rhs_begin": 0, "rhs_end": 2},
        [(5, 6, 7), (2, 3, 9)],
        [(5, 2, 3, 7)],
    ),
    ("reshape_like", {"lhs_begin": -2, "rhs_end": -1}, [(5, 6, 7), (42, 2)], [(5, 42)]),
    ("broadcast_axis", {"axis": (0, 2), "size": (3, 5)}, [(1, 4, 1)], [(3, 4, 5)]),
    ("broadcast_axis", {"axis": 1, "size": 3}, [(2, 1)], [(2, 3)]),
    ("broadcast_to", {"shape": (3, 4)}, [(1, 4)], [(3, 4)]),
    ("broadcast_to", {"shape": (2, 0, 3)}, [(1, 4, 1)], [(2, 4, 3)]),
    ("tile", {"reps": (2, 3)}, [(2, 3)], [(4, 9)]),
    ("tile", {"reps": (2, 1, 3)}, [(2, 3)], [(2, 2, 9)]),
    ("tile", {"reps": (3,)}, [(2, 3, 4)], [(2, 3, 12)]),
    ("tile", {"reps": ()}, [(2, 3)], [(2, 3)]),
    ("repeat", {"repeats": 2}, [(2, 3)], [(12,)]),
    ("repeat", {"repeats": 2, "axis": 1}, [(2, 3)], [(2, 6)]),
    ("repeat", {"repeats": 3, "axis": -2}, [(2, 3)], [(6, 3)]),
    ("reverse", {"axis": 1}, [(2, 3)], [(2, 3)]),
    ("reverse", {"axis": (0, 2)}, [(2, 3, 4)], [(2, 3, 4)]),
    ("stack", {"num_args": 2}, [(2, 3), (2, 3)], [(2, 2, 3)]),
    ("stack", {"num_args": 3, "axis": -1}, [(2, 3)] * 3, [(2, 3, 3)]),
    ("stack", {"num_args": 2, "axis": 1}, [(4,), (4,)], [(4, 2)]),
    ("squeeze", {}, [(1, 3, 1)], [(3,)]),
    ("squeeze", {"axis": 2}, [(1, 3, 1)], [(1, 3)]),
    ("squeeze", {"axis": (0, -1)}, [(1, 3, 1)], [(3,)]),
    ("squeeze", {}, [(1, 1)], [(1,)]),
    ("broadcast_like", {}, [(1, 3), (4, 3)], [(4, 3)]),
    ("broadcast_like", {"lhs_axes": (0,), "rhs_axes": (2,)}, [(1, 3), (2, 2, 5)], [(5, 3)]),
    ("slice_like", {}, [(4, 5, 6), (2, 3, 6)], [(2, 3, 6)]),
    ("slice_like", {"axes": (0, -1)}, [(4, 5, 6), (2, 3, 3)], [(2, 5, 3)]),
]
IDS = [
    f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}-{shapes}"
    for name, params, shapes, _ in CASES
]


def _inputs(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


test_shape_rule, test_gradients, test_req, test_backward_dependency = case_tests(
    CASES, IDS, _inputs
)


# --- values against NumPy written independently -------------------------------------------------


@pytest.mark.parametrize(
    "name, params, shapes, numpy_fn",
    [
        ("SwapAxis", {"dim1": 0, "dim2": 2}, [(2, 3, 4)], lambda x: x.transpose(2, 1, 0)),
        ("broadcast_to", {"shape": (3, 0)}, [(1, 4)], lambda x: np.vstack([x] * 3)),
        (
            "tile",
            {"reps": (2, 1, 3)},
            [(2, 3)],
            lambda x: np.concatenate([np.hstack([x] * 3)[None]] * 2),
        ),
        ("repeat", {"repeats": 2, "axis": 0}, [(2, 3)], lambda x: x[[0, 0, 1, 1]]),
        ("repeat", {"repeats": 2}, [(2, 2)], lambda x: x.ravel()[[0, 0, 1, 1, 2, 2, 3, 3]]),
        ("reverse", {"axis": (0, 1)}, [(2, 3)], lambda x: x[::-1, ::-1]),
        ("reverse", {"axis": (1, 1)}, [(2, 3)], lambda x: x),  # twice is none (as in MXNet)
        ("squeeze", {"axis": 0}, [(1, 3, 1)], lambda x: x[0]),
        ("broadcast_like", {}, [(1, 3), (2, 3)], lambda x, like: np.vstack([x, x])),
        ("slice_like", {"axes": (1,)}, [(3, 4), (1, 2)], lambda x, like: x[:, :2]),
    ],
)
def test_values(name, params, shapes, numpy_fn):
    ins = _inputs(shapes)
    (out,) = run_forward(make_op(name, **params), ins)
    np.testing.assert_array_equal(out, numpy_fn(*ins))


def test_stack_values_and_gradient_slices():
    a, b = np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(2, 3)
    op = make_op("stack", num_args=2, axis=1)
    (out,) = run_forward(op, [a, b])
    np.testing.assert_array_equal(out[:, 0], a)
    np.testing.assert_array_equal(out[:, 1], b)
    head = np.arange(12.0).reshape(2, 2, 3)
    ga, gb = run_backward(op, [a, b], [out], [head])
    np.testing.assert_array_equal(ga, head[:, 0])
    np.testing.assert_array_equal(gb, head[:, 1])


def test_broadcast_and_tile_gradients_sum_the_copies():
    op = make_op("broadcast_axis", axis=0, size=3)
    (grad,) = run_backward(op, [np.ones((1, 2))], [np.ones((3, 2))], [np.arange(6.0).reshape(3, 2)])
    np.testing.assert_array_equal(grad, [[6, 9]])
    op = make_op("tile", reps=(2,))
    (grad,) = run_backward(op, [np.ones(3)], [np.ones(6)], [np.arange(6.0)])
    np.testing.assert_array_equal(grad, [3, 5, 7])


def test_reshape_like_gives_rhs_zeros():
    """Observed in MXNet: rhs's gradient is written as zeros (it only lends its shape)."""
    op = make_op("reshape_like")
    lhs, rhs = np.arange(6.0).reshape(2, 3), np.full((3, 2), 5.0)
    (out,) = run_forward(op, [lhs, rhs])
    np.testing.assert_array_equal(out, np.arange(6.0).reshape(3, 2))
    grads = run_backward(
        op,
        [lhs, rhs],
        [out],
        [np.ones((3, 2))],
        req=["write", "write"],
        in_grads=[np.full((2, 3), 9.0), np.full((3, 2), 9.0)],
    )
    np.testing.assert_array_equal(grads[0], np.ones((2, 3)))
    np.testing.assert_array_equal(grads[1], np.zeros((3, 2)))


PARTIAL = [  # (op, params, given input shapes, inferred inputs, inferred outputs): MXNet 1.9.1
    ("SwapAxis", {"dim1": 0, "dim2": 1}, [(0, 3, 4)], [(0, 3, 4)], [(3, 0, 4)]),
    ("broadcast_axis", {"axis": 0, "size": 3}, [(1, 0)], [(1, 0)], [None]),
    ("broadcast_to", {"shape": (3, 0)}, [(1, 0)], [(1, 0)], [(3, 0)]),
    ("tile", {"reps": (2, 2)}, [(0, 3)], [(0, 3)], [None]),
    ("repeat", {"repeats": 2, "axis": 1}, [(0, 3)], [(0, 3)], [(0, 6)]),
    ("repeat", {"repeats": 0, "axis": 1}, [(2, 3)], [(2, 3)], [(0,)]),
    ("reverse", {"axis": 0}, [(0, 3)], [(0, 3)], [(0, 3)]),
    ("stack", {"num_args": 2}, [(2, 0), (0, 3)], [(2, 0), (0, 3)], [(2, 2, 3)]),
    ("stack", {"num_args": 2}, [(2, 0), None], [(2, 0), None], [None]),
    ("stack", {"num_args": 2, "axis": 1}, [(2, 3), None], [(2, 3), None], [(2, 2, 3)]),
    ("squeeze", {}, [(1, 0, 1)], [(1, 0, 1)], [None]),
]


@pytest.mark.parametrize("name, params, given, ins, outs", PARTIAL)
def test_partial_inference(name, params, given, ins, outs):
    got_in, got_out, _ = make_op(name, **params).infer_shape(list(given), [None])
    assert [got_in, got_out] == [ins, outs]


def test_reverse_infers_its_input_from_the_output():
    """Observed in MXNet: reverse(x) + z with z (4, 3) gives x (4, 3); the others do not."""
    x, z = mx.sym.Variable("x"), mx.sym.Variable("z")
    assert (mx.sym.reverse(x, axis=0) + z).infer_shape_partial(z=(4, 3))[0] == [(4, 3), (4, 3)]
    assert (mx.sym.tile(x, reps=(2, 2)) + z).infer_shape_partial(z=(4, 6))[0] == [(), (4, 6)]


ERRORS = [  # (op, params, input shapes, what the message says)
    ("SwapAxis", {"dim1": 3}, [(2, 3, 4)], r"dim1=3 is out of range .* \[-3, 2\]"),
    ("reshape_like", {}, [None, (3, 4)], r"input 0 'lhs' is unknown; reshape_like needs both"),
    ("reshape_like", {}, [(2, 6), (0, 4)], r"input 1 'rhs' is \(\?, 4\)"),
    (
        "reshape_like",
        {},
        [(2, 6), (3, 5)],
        r"cannot reshape lhs \(2, 6\) \(12 values\) to "
        r"\(3, 5\) \(15 values\)",
    ),
    (
        "reshape_like",
        {"lhs_begin": 2, "lhs_end": 1},
        [(2, 6), (3, 4)],
        r"lhs_begin=2, lhs_end=1 is not a non-empty range",
    ),
    (
        "broadcast_axis",
        {"axis": -1, "size": 3},
        [(2, 1)],
        r"refuses negative axes here: write "
        r"axis=1",
    ),
    (
        "broadcast_axis",
        {"axis": 0, "size": 3},
        [(2, 1)],
        r"axis 0 of data \(2, 1\) has size 2; "
        r"only an axis of size 1",
    ),
    ("broadcast_to", {"shape": (3, 5)}, [(2, 4)], r"axis 0 has size 2; only axes of size 1"),
    ("broadcast_to", {"shape": (2, 3, 4)}, [(3, 4)], r"they have 2 and 3 dimensions"),
    ("broadcast_to", {"shape": (3, 0)}, [(0, 4)], r"axis 0 is unknown \(0\)"),
    ("repeat", {"repeats": 2, "axis": 2}, [(2, 3)], r"axis=2 is out of range"),
    ("repeat", {"repeats": 2}, [(0, 3)], r"data \(\?, 3\) is unknown \(0\)"),
    ("reverse", {"axis": -1}, [(2, 3)], r"axis=-1 is out of range for data \(2, 3\)"),
    (
        "stack",
        {"num_args": 2},
        [(2, 3), (3, 3)],
        r"input 1 'arg1' has shape \(3, 3\) but input "
        r"0 'arg0' has \(2, 3\)",
    ),
    ("stack", {"num_args": 2, "axis": 3}, [(2, 3), (2, 3)], r"axis=3 is out of range"),
    ("squeeze", {"axis": 1}, [(1, 3, 1)], r"axis 1 of data \(1, 3, 1\) has size 3"),
    ("squeeze", {"axis": (0, 0)}, [(1, 3, 1)], r"names axis 0 twice"),
]


@pytest.mark.parametrize("name, params, shapes, message", ERRORS)
def test_shape_errors_teach(name, params, shapes, message):
    with pytest.raises(MXNetError, match=message) as info:
        make_op(name, "node", **params).infer_shape(list(shapes), [None] * 1)
    assert f"{name} 'node'" in str(info.value)


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("broadcast_axis", {"axis": (0, 1), "size": (3,)}, r"need one size per axis"),
        ("tile", {"reps": (-1, 2)}, r"every entry of reps must be >= 0"),
        ("repeat", {"repeats": -1}, r"repeats=-1 is invalid: must be >= 0"),
    ],
)
def test_parameter_errors_when_created(name, params, message):
    with pytest.raises(MXNetError, match=message):
        make_op(name, **params)


def test_functions_and_aliases():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    for fn, op in [
        ("swapaxes", "SwapAxis"),
        ("broadcast_axes", "broadcast_axis"),
        ("flip", "reverse"),
    ]:
        params = {"swapaxes": {}, "broadcast_axes": {"axis": 0, "size": 2}, "flip": {"axis": 0}}
        s = getattr(mx.sym, fn)(x, **params[fn])
        assert s.name.startswith(fn) and op in s.tojson()
    assert mx.sym.stack(x, y, name="st").list_arguments() == ["x", "y"]
    assert mx.sym.stack(x, num_args=2, name="st").list_arguments() == ["x", "st_arg1"]
    assert mx.nd.stack(mx.nd.ones((2,)), mx.nd.zeros((2,))).asnumpy().tolist() == [[1, 1], [0, 0]]
    assert mx.nd.ones((2, 1)).tile(reps=(1, 3)).shape == (2, 3)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)


def test_a_chain_of_layout_operators_in_an_executor_matches_finite_differences():
    """Through bind, the memory plan and backward in topological order (float64)."""
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    net = mx.sym.swapaxes(x, dim1=0, dim2=1)  # (3, 1, 2)
    net = mx.sym.tile(mx.sym.flip(net, axis=2), reps=(1, 2, 1))  # (3, 2, 2)
    net = mx.sym.broadcast_axis(mx.sym.expand_dims(net, axis=0), axis=0, size=2)
    first = mx.sym.squeeze(mx.sym.slice_axis(net, axis=0, begin=0, end=1), axis=0)
    like = mx.sym.reshape_like(mx.sym.repeat(y, repeats=2, axis=0), mx.sym.Variable("like"))
    net = mx.sym.norm(mx.sym.stack(first, like, axis=1), axis=(0, 2))  # (2,)
    rng = np.random.default_rng(7)
    location = {
        "x": rng.standard_normal((1, 3, 2)),
        "y": rng.standard_normal((6, 1, 1)),
        "like": np.zeros((3, 2, 2)),
    }
    mx.test_utils.check_numeric_gradient(
        net,
        location,
        grad_nodes=["x", "y"],
        dtype=np.float64,
        numeric_eps=1e-6,
        rtol=1e-5,
        atol=1e-7,
    )
