"""Forward/backward of the value operators (minisym/ops/tensor/init_op.py,
elemwise_unary_op_basic.py, matrix_op.py, control_flow_op.py, elemwise_sum.py): identity
(_copy), Cast, clip, where, add_n (ElementWiseSum), zeros_like / ones_like, and _zeros /
_ones (mx.sym.zeros / ones, which have no inputs), plus the mx.sym.maximum / minimum / pow /
zeros / ones functions that pick an operator from their operands
(minisym/symbol/dispatch.py). Values marked "MXNet 1.9.1" were observed with the oracle
(differential programs p600-p605)."""

import inspect
import json

import numpy as np
import pytest

import minisym as mx
from opcheck import (
    check_backward_dependency,
    check_gradients,
    check_req,
    make_op,
    output_shapes,
    run_backward,
    run_forward,
)

# (op name, params, input shapes, expected output shapes)
CASES = [
    ("_copy", {}, [(2, 3)], [(2, 3)]),
    ("_copy", {}, [(4,)], [(4,)]),
    ("Cast", {"dtype": "float64"}, [(2, 3)], [(2, 3)]),
    ("clip", {"a_min": -0.5, "a_max": 0.7}, [(3, 4)], [(3, 4)]),
    ("clip", {"a_min": 0.3, "a_max": -0.3}, [(2, 3)], [(2, 3)]),  # a_min > a_max: MXNet's order
    ("where", {}, [(2, 3), (2, 3), (2, 3)], [(2, 3)]),
    ("where", {}, [(3,), (3, 2, 2), (3, 2, 2)], [(3, 2, 2)]),
    ("add_n", {"num_args": 1}, [(2, 3)], [(2, 3)]),
    ("add_n", {"num_args": 3}, [(2, 3)] * 3, [(2, 3)]),
    ("zeros_like", {}, [(2, 3)], [(2, 3)]),
    ("ones_like", {}, [(3, 1, 2)], [(3, 1, 2)]),
    ("_identity_with_attr_like_rhs", {}, [(2, 3), (2, 3)], [(2, 3)]),
    ("_contrib_arange_like", {}, [(2, 3)], [(2, 3)]),
    ("_contrib_arange_like", {"axis": -1, "start": 1, "step": 2}, [(2, 3)], [(3,)]),
]
IDS = [f"{name}-{i}" for i, (name, _, _, _) in enumerate(CASES)]

# (op name, params, input shapes, output shape given) -> (inferred inputs, inferred outputs):
# 0 is an unknown size, None an unknown shape (observed in MXNet 1.9.1, p601)
PARTIAL = [
    ("_copy", {}, [(0, 3)], [None], [(0, 3)], [(0, 3)]),
    ("_copy", {}, [None], [(2, 3)], [(2, 3)], [(2, 3)]),  # the output gives data's shape
    # rhs lends its shape to lhs and the output, sizes from both sides (p833)
    ("_identity_with_attr_like_rhs", {}, [(2, 0), (0, 3)], [None], [(2, 3), (2, 3)], [(2, 3)]),
    ("_identity_with_attr_like_rhs", {}, [None, None], [(4,)], [(4,), (4,)], [(4,)]),
    ("Cast", {"dtype": "int32"}, [None], [(4,)], [(4,)], [(4,)]),
    ("clip", {"a_min": 0, "a_max": 1}, [(0, 5)], [(2, 0)], [(2, 5)], [(2, 5)]),
    ("zeros_like", {}, [None], [(2, 2)], [(2, 2)], [(2, 2)]),
    ("add_n", {"num_args": 3}, [(0, 3), (2, 0), None], [None], [(2, 3)] * 3, [(2, 3)]),
    ("add_n", {"num_args": 2}, [None, None], [(5,)], [(5,), (5,)], [(5,)]),
    # where: nothing until the condition's shape is wholly known
    ("where", {}, [None, (2, 3), None], [None], [None, (2, 3), None], [None]),
    ("where", {}, [(0, 3), (2, 3), None], [None], [(0, 3), (2, 3), None], [None]),
    ("where", {}, [(2, 3), None, (2, 3)], [None], [(2, 3)] * 3, [(2, 3)]),
    ("where", {}, [(2, 3), None, None], [(2, 3)], [(2, 3)] * 3, [(2, 3)]),
    ("where", {}, [(2,), (2, 0), None], [None], [(2,), (2, 0), (2, 0)], [(2, 0)]),
    # MXNet's WhereOpShape never copies sizes from the condition into x, y or the output
    ("where", {}, [(2, 3), (2, 0), None], [None], [(2, 3), (2, 0), (2, 0)], [(2, 0)]),
    ("_zeros", {"shape": (0, 3)}, [], [None], [], [(0, 3)]),
    ("_zeros", {"shape": (0, 3)}, [], [(2, 3)], [], [(2, 3)]),  # the size from its consumer
    ("_ones", {}, [], [(4,)], [], [(4,)]),  # no shape at all: all of it from the consumer
    ("_ones", {"shape": (2, 2)}, [], [None], [], [(2, 2)]),
    ("_ones", {"shape": (2, -1)}, [], [(2, 3)], [], [(2, 3)]),  # -1 is unknown too (MXNet)
    ("_ones", {"shape": (-1, -1)}, [], [None], [], [(0, 0)]),
    ("_eye", {"N": 3, "M": 4, "k": 1}, [], [None], [], [(3, 4)]),
    ("_eye", {"N": 2}, [], [None], [], [(2, 2)]),  # M = 0 means M = N
    ("_linspace", {"start": 0, "stop": 1, "num": 5}, [], [None], [], [(5,)]),
    ("_arange", {"start": 5, "stop": 100, "step": 4, "repeat": 2}, [], [None], [], [(48,)]),
    ("_arange", {"start": 10}, [], [None], [], [(10,)]),  # stop None: 0 up to start
    ("_arange", {"start": 0, "infer_range": True}, [], [(5,)], [], [(5,)]),
    ("_arange", {"start": 0, "infer_range": True}, [], [None], [], [None]),
]


def _inputs(name, shapes, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    ins = [rng.standard_normal(s).astype(dtype) for s in shapes]
    if name == "where":  # a condition with zeros and non-zeros (and a negative: also true)
        ins[0] = rng.integers(-1, 2, shapes[0]).astype(dtype)
    return ins


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_shape_rule(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    assert output_shapes(op, in_shapes)[0] == out_shapes
    outs = run_forward(op, _inputs(name, in_shapes))
    assert [o.shape for o in outs] == out_shapes


@pytest.mark.parametrize(
    "name, params, ins, outs, want_ins, want_outs",
    PARTIAL,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(PARTIAL)],
)
def test_partial_inference(name, params, ins, outs, want_ins, want_outs):
    op = make_op(name, **params)
    got_ins, got_outs, aux = op.infer_shape(list(ins), list(outs))
    assert (list(got_ins), list(got_outs), aux) == (want_ins, want_outs, [])


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_gradients(name, params, in_shapes, out_shapes):
    check_gradients(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_req(name, params, in_shapes, out_shapes):
    check_req(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_backward_dependency_is_truthful(name, params, in_shapes, out_shapes):
    check_backward_dependency(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize(
    "name, reads",
    [
        # what MXNet's backward nodes take: _backward_copy / _backward_cast the head gradient,
        # _backward_where the head gradient and the condition, _backward_clip also the data
        ("_copy", {"out_grad": [True], "in_data": [False], "out_data": [False]}),
        ("Cast", {"out_grad": [True], "in_data": [False], "out_data": [False]}),
        ("clip", {"out_grad": [True], "in_data": [True], "out_data": [False]}),
        ("where", {"out_grad": [True], "in_data": [True, False, False], "out_data": [False]}),
        ("add_n", {"out_grad": [True], "in_data": [False, False], "out_data": [False]}),
        ("zeros_like", {"out_grad": [False], "in_data": [False], "out_data": [False]}),
        # _backward_copy for lhs; rhs's zeros_like reads no values
        (
            "_identity_with_attr_like_rhs",
            {"out_grad": [True], "in_data": [False, False], "out_data": [False]},
        ),
        ("_zeros", {"out_grad": [False], "in_data": [], "out_data": [False]}),
        ("_contrib_arange_like", {"out_grad": [False], "in_data": [False], "out_data": [False]}),
    ],
)
def test_backward_reads_what_mxnet_reads(name, reads):
    params = {
        "Cast": {"dtype": "int32"},
        "clip": {"a_min": 0, "a_max": 1},
        "add_n": {"num_args": 2},
    }.get(name, {})
    assert make_op(name, **params).backward_reads() == reads


@pytest.mark.parametrize("name, fill", [("_zeros", 0), ("_ones", 1)])
def test_fill_req(name, fill):
    """_zeros / _ones have no inputs: null leaves the output, write fills, add adds."""
    op = make_op(name, shape=(2, 3))
    for req, expect in (("null", 7.0), ("write", fill), ("add", 7.0 + fill)):
        out = np.full((2, 3), 7.0)
        op.forward(True, [req], [], [out], [])
        np.testing.assert_array_equal(out, np.full((2, 3), expect))
    op.backward([], [np.ones((2, 3))], [], [out], [], [])  # nothing to write, nothing fails


@pytest.mark.parametrize(
    "name, params, expect",
    [
        ("_eye", {"N": 2, "M": 3, "k": -1}, [[0, 0, 0], [1, 0, 0]]),
        ("_linspace", {"start": 1, "stop": 2, "num": 3}, [1, 1.5, 2]),
        ("_linspace", {"start": 0, "stop": 1, "num": 4, "endpoint": False}, [0, 0.25, 0.5, 0.75]),
        (
            "_arange",
            {"start": 50, "stop": 40, "step": -3, "repeat": 2},
            [50, 50, 47, 47, 44, 44, 41, 41],
        ),
    ],
)
def test_generated_values_and_req(name, params, expect):
    """_eye / _linspace have no inputs: their values from the parameters; null / write / add."""
    op = make_op(name, **params)
    expect = np.array(expect, np.float64)
    for req, want in (("null", 7.0), ("write", expect), ("add", 7.0 + expect)):
        out = np.full(expect.shape, 7.0)
        op.forward(True, [req], [], [out], [])
        np.testing.assert_array_equal(out, np.broadcast_to(want, expect.shape))


# --- values against independent computations ---------------------------------------------------


def _forward(name, ins, outs=None, **params):
    op = make_op(name, **params)
    return run_forward(op, [np.asarray(x) for x in ins], outs=outs)


def test_clip_values_and_gradient_include_the_bounds():
    """MXNet 1.9.1 (p602): values at a_min / a_max keep their gradient."""
    data = np.array([[-2.5, -1.0, -0.5, 0.0], [0.5, 1.0, 1.5, 2.5]])
    op = make_op("clip", a_min=-1, a_max=1.5)
    (out,) = run_forward(op, [data])
    np.testing.assert_array_equal(out, [[-1, -1, -0.5, 0], [0.5, 1, 1.5, 1.5]])
    head = np.arange(1.0, 9.0).reshape(2, 4)
    (grad,) = run_backward(op, [data], [out], [head])
    np.testing.assert_array_equal(grad, [[0, 2, 3, 4], [5, 6, 7, 0]])


def test_clip_with_a_min_above_a_max_follows_mxnet():
    """MXNet tests > a_max first, then < a_min: every value becomes a bound, no gradient."""
    data = np.array([-2.5, -1.0, 0.0, 2.5])
    op = make_op("clip", a_min=1, a_max=-1)
    (out,) = run_forward(op, [data])
    np.testing.assert_array_equal(out, [1, 1, -1, -1])
    np.testing.assert_array_equal(run_backward(op, [data], [out], [np.ones(4)])[0], 0)


def test_clip_int_data_truncates_the_bounds():
    """MXNet 1.9.1: int32 [-3, 0, 5] clipped to (-1.5, 2.7) is [-1, 0, 2]."""
    (out,) = _forward("clip", [np.array([-3, 0, 5], np.int32)], a_min=-1.5, a_max=2.7)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [-1, 0, 2])


def test_where_same_shape_and_rows():
    cond = np.array([[1.0, 0, -1, 0], [0, 0, 2, 1]])
    x, y = np.arange(8.0).reshape(2, 4), -np.arange(8.0).reshape(2, 4)
    op = make_op("where")
    (out,) = run_forward(op, [cond, x, y])
    for i, j in np.ndindex(2, 4):
        assert out[i, j] == (x[i, j] if cond[i, j] != 0 else y[i, j])
    head = np.arange(1.0, 9.0).reshape(2, 4)
    g_cond, g_x, g_y = run_backward(op, [cond, x, y], [out], [head])
    np.testing.assert_array_equal(g_cond, 0)
    np.testing.assert_array_equal(g_x + g_y, head)
    np.testing.assert_array_equal(g_x, np.where(cond != 0, head, 0))
    rows = np.array([0.0, 3.0])
    (out,) = run_forward(op, [rows, x, y])
    np.testing.assert_array_equal(out, [y[0], x[1]])
    _, g_x, g_y = run_backward(op, [rows, x, y], [out], [head])
    np.testing.assert_array_equal(g_x, [[0] * 4, head[1]])
    np.testing.assert_array_equal(g_y, [head[0], [0] * 4])


@pytest.mark.parametrize(
    "cond, x, y, words",
    [
        ((2, 4), (2, 3), None, ["condition (2, 4)", "x's shape (2, 3)", "1-D with 2 entries"]),
        ((3,), (2, 3), None, ["one entry per row", "(2,)", "(3,)"]),
        ((2, 3, 1), (2, 3), None, ["3 dimensions", "x (2, 3) has 2"]),
        ((2, 3), (2, 3), (3, 2), ["x (2, 3) and y (3, 2)", "one shape"]),
    ],
)
def test_where_shape_errors_teach(cond, x, y, words):
    """MXNet 1.9.1 accepts the first and third and leaves the fourth unknown (a warning);
    minisym says what shapes where needs."""
    op = make_op("where", node_name="pick")
    with pytest.raises(mx.base.MXNetError) as info:
        op.infer_shape([cond, x, y], [None])
    text = str(info.value)
    assert text.startswith("where 'pick': ")
    for word in words:
        assert word in text


def test_where_type_rule_and_its_error():
    f16, f32, i32 = np.dtype("float16"), np.dtype("float32"), np.dtype("int32")
    op = make_op("where", node_name="pick")
    assert op.infer_type([i32, None, f16], [None]) == ([i32, f16, f16], [f16], [])
    assert op.infer_type([None, None, None], [f32]) == ([None, f32, f32], [f32], [])
    with pytest.raises(
        ValueError,
        match=r"where 'pick': dtype inconsistent: input 2 'y' is "
        r"float32 but input 1 'x' is float16",
    ):
        op.infer_type([f32, f16, f32], [None])


def test_add_n_values():
    a, b = np.arange(6.0).reshape(2, 3), np.full((2, 3), 0.5)
    op = make_op("add_n", num_args=3)
    (out,) = run_forward(op, [a, b, a])
    np.testing.assert_array_equal(out, 2 * a + 0.5)
    head = np.arange(6.0).reshape(2, 3) - 2
    for grad in run_backward(op, [a, b, a], [out], [head]):
        np.testing.assert_array_equal(grad, head)
    assert a[0, 0] == 0.0  # the first input is not summed into in place


def test_add_n_shape_conflict_names_the_inputs():
    op = make_op("add_n", node_name="total", num_args=2)
    with pytest.raises(
        ValueError,
        match=r"add_n 'total': shape inconsistent: input 1 'arg1' is "
        r"\(3, 2\) but input 0 'arg0' is \(2, 3\)",
    ):
        op.infer_shape([(2, 3), (3, 2)], [None])


def test_cast_converts_like_c():
    """MXNet 1.9.1: cast([-2.5, -1, -0.5, 0, 0.5, 1, 1.5, 2.5], int32) truncates toward 0."""
    data = np.array([-2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.5], np.float32)
    out = np.zeros(8, np.int32)
    op = make_op("Cast", dtype="int32")
    op.forward(True, ["write"], [data], [out], [])
    np.testing.assert_array_equal(out, [-2, -1, 0, 0, 0, 1, 1, 2])
    grad = np.zeros(8, np.float32)
    op.backward(["write"], [np.arange(8, dtype=np.int32)], [data], [out], [grad], [])
    assert grad.dtype == np.float32
    np.testing.assert_array_equal(grad, np.arange(8))


def test_cast_type_rule():
    op = make_op("Cast", dtype="float16")
    assert op.infer_type([np.dtype("float32")], [None]) == (
        [np.dtype("float32")],
        [np.dtype("float16")],
        [],
    )
    # the input's dtype is not inferred from the output (MXNet's CastType)
    assert op.infer_type([None], [np.dtype("float16")]) == ([None], [np.dtype("float16")], [])


def test_cast_dtype_errors_teach():
    with pytest.raises(mx.base.MXNetError, match="required parameter 'dtype' is missing"):
        mx.sym.cast(mx.sym.Variable("x"), name="c")
    with pytest.raises(
        TypeError,
        match=r"Cast 'c': dtype='float33' is not a data type MXNet "
        r"has; use one of 'float32', 'float64'",
    ):
        mx.sym.cast(mx.sym.Variable("x"), dtype="float33", name="c")


def test_zeros_ones_graph_without_variables_binds_and_runs():
    net = mx.sym.zeros((2, 3)) + mx.sym.ones((2, 3), dtype="float32") * 2
    assert net.list_arguments() == []
    assert net.infer_shape() == ([], [(2, 3)], [])
    ex = net.bind(mx.cpu(), {})
    np.testing.assert_array_equal(ex.forward()[0].asnumpy(), np.full((2, 3), 2.0))
    ex = net.simple_bind(mx.cpu())
    np.testing.assert_array_equal(ex.forward(is_train=True)[0].asnumpy(), np.full((2, 3), 2.0))
    ex.backward([mx.nd.ones((2, 3))])  # no arguments: nothing to differentiate, nothing fails
    (out,) = mx.sym.ones((3,), dtype="int32").eval()
    assert out.dtype == np.int32 and out.asnumpy().tolist() == [1, 1, 1]


def test_zeros_json_and_names_as_mxnet():
    """MXNet 1.9.1 (p600): op _zeros, auto-name _zeros0, dtype and shape stored as text."""
    z = mx.sym.zeros(3)
    node = json.loads(z.tojson())["nodes"][0]
    assert node == {
        "op": "_zeros",
        "name": "_zeros0",
        "attrs": {"dtype": "float32", "shape": "3"},
        "inputs": [],
    }
    o = mx.sym.ones([2, 3], dtype=np.float64)
    assert json.loads(o.tojson())["nodes"][0]["attrs"] == {"dtype": "float64", "shape": "[2, 3]"}
    assert o.name == "_ones0" and o.infer_shape()[1] == [(2, 3)]
    assert o.infer_type()[1] == [np.float64]


def test_zeros_shape_from_its_consumer_and_conflict():
    x = mx.sym.Variable("x")
    assert (mx.sym.zeros((0, 3)) + x).infer_shape(x=(2, 3))[1] == [(2, 3)]
    op = make_op("_zeros", node_name="z", shape=(2, 3))
    with pytest.raises(
        mx.base.MXNetError,
        match=r"_zeros 'z': it makes an array of shape "
        r"\(2, 3\), but the operator that reads it "
        r"needs \(3, 3\); change shape=\.\.\. to",
    ):
        op.infer_shape([], [(3, 3)])


def test_imperative_functions():
    a = mx.nd.array([[-2.5, 1.0], [0.5, 3.0]])
    np.testing.assert_array_equal(mx.nd.identity(a).asnumpy(), a.asnumpy())
    assert mx.nd.cast(a, dtype="int32").asnumpy().tolist() == [[-2, 1], [0, 3]]
    assert mx.nd.clip(a, 0, 1).asnumpy().tolist() == [[0, 1], [0.5, 1]]
    np.testing.assert_array_equal(
        mx.nd.where(mx.nd.array([1, 0]), a, -a).asnumpy(), [[-2.5, 1], [-0.5, -3]]
    )
    np.testing.assert_array_equal(mx.nd.add_n(a, a, a).asnumpy(), 3 * a.asnumpy())
    np.testing.assert_array_equal(mx.nd.ElementWiseSum(a, a).asnumpy(), 2 * a.asnumpy())
    ones = mx.nd.ones_like(mx.nd.array([1, 2], dtype="int32"))
    assert ones.dtype == np.int32 and ones.asnumpy().tolist() == [1, 1]


# --- the functions that pick the operator from their operands ------------------------------------


def _ops(symbol):
    return [
        (n["op"], n["name"], n.get("attrs"))
        for n in json.loads(symbol.tojson())["nodes"]
        if n["op"] != "null"
    ]


@pytest.mark.parametrize(
    "make, nodes",
    [
        # MXNet 1.9.1 (p600): Symbol-Symbol has no broadcasting; a number on either side is a scalar
        (lambda x, y: mx.sym.maximum(x, y), [("_maximum", "_maximum0", None)]),
        (
            lambda x, y: mx.sym.maximum(x, 2),
            [("_maximum_scalar", "_maximumscalar0", {"scalar": "2"})],
        ),
        (
            lambda x, y: mx.sym.maximum(2, x),
            [("_maximum_scalar", "_maximumscalar0", {"scalar": "2"})],
        ),
        (
            lambda x, y: mx.sym.minimum(-1, x),
            [("_minimum_scalar", "_minimumscalar0", {"scalar": "-1"})],
        ),
        (lambda x, y: mx.sym.minimum(x, y), [("_minimum", "_minimum0", None)]),
        (lambda x, y: mx.sym.pow(x, y), [("_power", "_power0", None)]),
        (lambda x, y: mx.sym.pow(x, 2), [("_power_scalar", "_powerscalar0", {"scalar": "2"})]),
        (lambda x, y: mx.sym.power(2, x), [("_rpower_scalar", "_rpowerscalar0", {"scalar": "2"})]),
        (lambda x, y: mx.sym.identity(x), [("_copy", "identity0", None)]),
        (
            lambda x, y: mx.sym.ElementWiseSum(x, y),
            [("add_n", "elementwisesum0", {"num_args": "2"})],
        ),
        (lambda x, y: mx.sym.cast(x, dtype=np.int32), [("Cast", "cast0", {"dtype": "int32"})]),
    ],
)
def test_functions_make_mxnets_nodes(make, nodes):
    with mx.name.NameManager():
        assert _ops(make(mx.sym.Variable("x"), mx.sym.Variable("y"))) == nodes


def test_functions_on_numbers_and_wrong_types():
    assert mx.sym.maximum(2, 3.5) == 3.5 and mx.sym.minimum(2, 3.5) == 2
    assert mx.sym.pow(2, 3) == 8 and mx.sym.power(2.0, 0.5) == 2**0.5
    with pytest.raises(
        TypeError,
        match=r"types \(Symbol, str\) not supported: mx.sym.maximum"
        r"\(<Symbol x>, .a.\) takes two Symbols, a Symbol",
    ):
        mx.sym.maximum(mx.sym.Variable("x"), "a")
    assert not hasattr(mx.nd, "pow")  # MXNet 1.9.1 has mx.nd.power only


def test_add_n_with_too_many_inputs_for_num_args():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Incorrect number of arguments, requires 1, "
        r"provided 2: num_args=1",
    ):
        mx.sym.add_n(x, y, num_args=1)
    assert mx.sym.add_n(x, y, num_args=3, name="s").list_arguments() == ["x", "y", "s_arg2"]


@pytest.mark.parametrize(
    "make", [lambda x, y: mx.sym.clip(x, -1, 1.5), lambda x, y: mx.sym.SVMOutput(x, y)]
)
def test_grad_req_add_accumulates_where_mxnet_overwrites(make):
    """A deliberate difference (README): MXNet 1.9.1's clip and SVMOutput ignore
    grad_req='add' and overwrite (p605 records the operators that do add); minisym adds."""
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    net = make(x, y)
    shapes = {"x": (2, 4), "y": (2,)}
    args = net.list_arguments()
    ex = net.simple_bind(
        mx.cpu(),
        grad_req={n: "add" if n == "x" else "null" for n in args},
        **{n: shapes[n] for n in args},
    )
    ex.arg_dict["x"][:] = np.array([[-2.5, -1.0, -0.5, 0.0], [0.5, 1.0, 1.5, 2.5]])
    if "y" in args:
        ex.arg_dict["y"][:] = np.array([1.0, 3.0])
    head = mx.nd.array(np.arange(1.0, 9.0).reshape(2, 4))
    ex.forward(is_train=True)
    ex.backward([head])
    once = ex.grad_dict["x"].asnumpy().copy()
    assert np.abs(once).sum() > 0
    ex.forward(is_train=True)
    ex.backward([head])
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), 2 * once)


@pytest.mark.parametrize(
    "name, text",
    [
        # inspect.signature under MXNet 1.9.1
        ("identity", "(data=None, name=None, attr=None, out=None, **kwargs)"),
        ("clip", "(data=None, a_min=_Null, a_max=_Null, name=None, attr=None, out=None, **kwargs)"),
        ("where", "(condition=None, x=None, y=None, name=None, attr=None, out=None, **kwargs)"),
        ("Cast", "(data=None, dtype=_Null, name=None, attr=None, out=None, **kwargs)"),
        (
            "hard_sigmoid",
            "(data=None, alpha=_Null, beta=_Null, name=None, attr=None, out=None, **kwargs)",
        ),
        ("smooth_l1", "(data=None, scalar=_Null, name=None, attr=None, out=None, **kwargs)"),
        (
            "softmin",
            "(data=None, axis=_Null, temperature=_Null, dtype=_Null, use_length=_Null, "
            "name=None, attr=None, out=None, **kwargs)",
        ),
        (
            "softmax_cross_entropy",
            "(data=None, label=None, name=None, attr=None, out=None, **kwargs)",
        ),
        (
            "SVMOutput",
            "(data=None, label=None, margin=_Null, regularization_coefficient=_Null, "
            "use_linear=_Null, name=None, attr=None, out=None, **kwargs)",
        ),
        ("zeros_like", "(data=None, name=None, attr=None, out=None, **kwargs)"),
        ("maximum", "(left, right)"),
        ("pow", "(base, exp)"),
        ("power", "(base, exp)"),
        ("zeros", "(shape, dtype=None, **kwargs)"),
        ("ones", "(shape, dtype=None, **kwargs)"),
    ],
)
def test_signatures_are_mxnets(name, text):
    assert str(inspect.signature(getattr(mx.sym, name))) == text


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
# test_shape_rule, test_gradients and test_req are parametrized over every case of CASES;
# _zeros / _ones (no inputs) are covered by test_partial_inference and test_fill_req.
SHAPE_TESTED = frozenset(case[0] for case in CASES) | frozenset(case[0] for case in PARTIAL)
GRADIENT_TESTED = frozenset(case[0] for case in CASES)
REQ_TESTED = frozenset(case[0] for case in CASES) | {
    "_zeros",
    "_ones",
    "_eye",
    "_linspace",
    "_arange",
}
NO_GRADIENT = {op: "it has no inputs" for op in ("_zeros", "_ones", "_eye", "_linspace", "_arange")}
