"""Forward/backward of the elementwise operators (minisym/ops/tensor/elemwise.py)."""

import math
import operator
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest

from opcheck import (
    check_backward_dependency,
    check_gradients,
    check_req,
    make_op,
    output_shapes,
    run_backward,
    run_forward,
)


def _python_mod(a, b):
    """MXNet's mod: the sign of the divisor, and 0 when dividing by 0."""
    return 0.0 if b == 0 else math.fmod(a, b) + (b if math.fmod(a, b) * b < 0 else 0.0)


# Per-element references written with Python's scalar maths (independent of NumPy).
BINARY = {  # op name: (python reference, domain of lhs, domain of rhs)
    "add": (operator.add, "any", "any"),
    "sub": (operator.sub, "any", "any"),
    "mul": (operator.mul, "any", "any"),
    "div": (operator.truediv, "any", "nonzero"),
    "power": (math.pow, "positive", "any"),
    "mod": (_python_mod, "any", "nonzero"),
    "maximum": (max, "any", "any"),
    "minimum": (min, "any", "any"),
    "hypot": (math.hypot, "nonzero", "nonzero"),
    "equal": (lambda a, b: float(a == b), "any", "any"),
    "not_equal": (lambda a, b: float(a != b), "any", "any"),
    "greater": (lambda a, b: float(a > b), "any", "any"),
    "greater_equal": (lambda a, b: float(a >= b), "any", "any"),
    "lesser": (lambda a, b: float(a < b), "any", "any"),
    "lesser_equal": (lambda a, b: float(a <= b), "any", "any"),
    "logical_and": (lambda a, b: float(bool(a) and bool(b)), "any", "any"),
    "logical_or": (lambda a, b: float(bool(a) or bool(b)), "any", "any"),
    "logical_xor": (lambda a, b: float(bool(a) != bool(b)), "any", "any"),
}
ELEMWISE = {
    "elemwise_add": "add",
    "elemwise_sub": "sub",
    "elemwise_mul": "mul",
    "elemwise_div": "div",
    "_power": "power",
    "_mod": "mod",
    "_equal": "equal",
    "_not_equal": "not_equal",
    "_greater": "greater",
    "_greater_equal": "greater_equal",
    "_lesser": "lesser",
    "_lesser_equal": "lesser_equal",
    "_maximum": "maximum",
    "_minimum": "minimum",
    "_hypot": "hypot",
}
BROADCAST = {
    f"broadcast_{m}": m
    for m in (
        "add",
        "sub",
        "mul",
        "div",
        "power",
        "mod",
        "maximum",
        "minimum",
        "hypot",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "lesser",
        "lesser_equal",
        "logical_and",
        "logical_or",
        "logical_xor",
    )
}
SCALAR = {  # op name: (python reference f(x, s), domain of x, scalars to try)
    "_plus_scalar": (lambda x, s: x + s, "any", [2.5, -1.0]),
    "_minus_scalar": (lambda x, s: x - s, "any", [2.5]),
    "_rminus_scalar": (lambda x, s: s - x, "any", [2.5]),
    "_mul_scalar": (lambda x, s: x * s, "any", [-1.5]),
    "_div_scalar": (lambda x, s: x / s, "any", [-4.0]),
    "_rdiv_scalar": (lambda x, s: s / x, "nonzero", [3.0]),
    "_power_scalar": (lambda x, s: x**s, "positive", [2.0, 0.5, -1.5]),
    "_rpower_scalar": (lambda x, s: s**x, "any", [2.0, 0.3]),
    "_mod_scalar": (_python_mod, "any", [1.5, -0.7]),
    "_rmod_scalar": (lambda x, s: _python_mod(s, x), "nonzero", [5.5, -2.0]),
    "_maximum_scalar": (max, "any", [0.2]),
    "_minimum_scalar": (min, "any", [0.2]),
    "_hypot_scalar": (math.hypot, "nonzero", [1.5, -0.5]),
    "_equal_scalar": (lambda x, s: float(x == s), "any", [1.0]),
    "_not_equal_scalar": (lambda x, s: float(x != s), "any", [1.0]),
    "_greater_scalar": (lambda x, s: float(x > s), "any", [0.1]),
    "_greater_equal_scalar": (lambda x, s: float(x >= s), "any", [0.1]),
    "_lesser_scalar": (lambda x, s: float(x < s), "any", [0.1]),
    "_lesser_equal_scalar": (lambda x, s: float(x <= s), "any", [0.1]),
    "_logical_and_scalar": (lambda x, s: float(bool(x) and bool(s)), "any", [0.0, 1.5]),
    "_logical_or_scalar": (lambda x, s: float(bool(x) or bool(s)), "any", [0.0, 1.5]),
    "_logical_xor_scalar": (lambda x, s: float(bool(x) != bool(s)), "any", [0.0, 1.5]),
    "smooth_l1": (lambda x, s: _smooth_l1(x, s), "any", [1.0, 2.0, 0.8]),
}
UNARY = {  # op name: (python reference, domain)
    "exp": (math.exp, "any"),
    "log": (math.log, "positive"),
    "sqrt": (math.sqrt, "positive"),
    "square": (lambda x: x * x, "any"),
    "abs": (abs, "any"),
    "negative": (lambda x: -x, "any"),
    "relu": (lambda x: max(x, 0.0), "any"),
    "sigmoid": (lambda x: 1 / (1 + math.exp(-x)), "any"),
    "tanh": (math.tanh, "any"),
    "sign": (lambda x: float((x > 0) - (x < 0)), "any"),
    "round": (lambda x: float(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP)), "any"),
    "trunc": (lambda x: float(math.trunc(x)), "any"),
    "logical_not": (lambda x: float(x == 0), "any"),
    "rsqrt": (lambda x: 1 / math.sqrt(x), "positive"),
    "sin": (math.sin, "any"),
    "cos": (math.cos, "any"),
    "softsign": (lambda x: x / (1 + abs(x)), "any"),
    "reciprocal": (lambda x: 1 / x, "nonzero"),
    "ceil": (lambda x: float(math.ceil(x)), "any"),
    "floor": (lambda x: float(math.floor(x)), "any"),
    "fix": (lambda x: float(math.trunc(x)), "any"),
    "tan": (math.tan, "unit"),
    "arcsin": (math.asin, "unit"),
    "arccos": (math.acos, "unit"),
    "arctan": (math.atan, "any"),
    "sinh": (math.sinh, "any"),
    "cosh": (math.cosh, "any"),
    "arcsinh": (math.asinh, "any"),
    "arccosh": (math.acosh, "above_one"),
    "arctanh": (math.atanh, "unit"),
    "degrees": (math.degrees, "any"),
    "radians": (math.radians, "any"),
    "log2": (math.log2, "positive"),
    "log10": (math.log10, "positive"),
    "log1p": (math.log1p, "positive"),
    "expm1": (math.expm1, "any"),
    "cbrt": (lambda x: math.copysign(abs(x) ** (1 / 3), x), "nonzero"),
    "rcbrt": (lambda x: 1 / math.copysign(abs(x) ** (1 / 3), x), "nonzero"),
    "gamma": (math.gamma, "positive"),
    "gammaln": (math.lgamma, "positive"),
    "erf": (math.erf, "any"),
}
ROUNDING = ("round", "trunc", "ceil", "floor", "fix")  # zero gradient, no head gradient needed


def _smooth_l1(x, sigma):
    """Huber's loss with delta 1 / sigma**2, scaled by sigma**2 (Faster R-CNN's smooth L1)."""
    delta = 1 / sigma**2
    return 0.5 * sigma**2 * x * x if abs(x) <= delta else abs(x) - 0.5 * delta


def _draw(shape, domain, seed, dtype=np.float64):
    """Random values for a domain, away from kinks and poles."""
    x = np.random.default_rng(seed).uniform(-2, 2, shape)
    if domain == "positive":
        x = np.abs(x) + 0.3
    elif domain == "nonzero":
        x = np.sign(x) * (np.abs(x) + 0.3)
    elif domain == "unit":  # inside (-1, 1), away from its ends (asin, atanh; tan's poles)
        x = x * 0.4
    elif domain == "above_one":
        x = np.abs(x) + 1.3
    return x.astype(dtype)


def _case_inputs(name, shapes, dtype=np.float64):
    if name in SCALAR:
        return [_draw(shapes[0], SCALAR[name][1], 1, dtype)]
    if name in UNARY:
        return [_draw(shapes[0], UNARY[name][1], 1, dtype)]
    _, lhs_domain, rhs_domain = BINARY[ELEMWISE.get(name) or BROADCAST[name]]
    return [_draw(shapes[0], lhs_domain, 1, dtype), _draw(shapes[1], rhs_domain, 2, dtype)]


# (op name, params, input shapes, expected output shape)
CASES = (
    [(name, {}, [(2, 3), (2, 3)], (2, 3)) for name in ELEMWISE]
    + [
        (name, {}, shapes, out)
        for name in BROADCAST
        for shapes, out in [
            ([(2, 3), (1, 3)], (2, 3)),
            ([(2, 1, 4), (3, 1)], (2, 3, 4)),
            ([(3,), (2, 3)], (2, 3)),
        ]
    ]
    + [
        (name, {"scalar": s}, [(2, 3)], (2, 3))
        for name, (_, _, scalars) in SCALAR.items()
        for s in scalars
    ]
    + [(name, {}, [(3, 4)], (3, 4)) for name in UNARY]
)
IDS = [f"{name}-{params.get('scalar', '')}-{shapes}" for name, params, shapes, _ in CASES]


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_shape_rule(name, params, in_shapes, out_shape):
    op = make_op(name, **params)
    assert output_shapes(op, in_shapes)[0] == [out_shape]
    (out,) = run_forward(op, _case_inputs(name, in_shapes))
    assert out.shape == out_shape


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_gradients(name, params, in_shapes, out_shape):
    check_gradients(make_op(name, **params), _case_inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_req(name, params, in_shapes, out_shape):
    check_req(make_op(name, **params), _case_inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_float32(name, params, in_shapes, out_shape):
    op = make_op(name, **params)
    ins64 = _case_inputs(name, in_shapes)
    ins32 = [x.astype(np.float32) for x in ins64]
    outs32, outs64 = run_forward(op, ins32), run_forward(op, ins64)
    head = np.linspace(-1, 1, outs64[0].size).reshape(out_shape)
    grads32 = run_backward(op, ins32, outs32, [head.astype(np.float32)])
    grads64 = run_backward(op, ins64, outs64, [head])
    for got, want in zip(outs32 + grads32, outs64 + grads64):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_forward_against_python_scalars(name, params, in_shapes, out_shape):
    """Each output element equals Python's own maths on the (broadcast) input elements."""
    ins = _case_inputs(name, in_shapes)
    (out,) = run_forward(make_op(name, **params), ins)
    if name in SCALAR:
        want = [SCALAR[name][0](float(x), params["scalar"]) for x in ins[0].ravel()]
    elif name in UNARY:
        want = [UNARY[name][0](float(x)) for x in ins[0].ravel()]
    else:
        reference = BINARY[ELEMWISE.get(name) or BROADCAST[name]][0]
        lhs, rhs = np.broadcast_arrays(*ins)
        want = [reference(float(a), float(b)) for a, b in zip(lhs.ravel(), rhs.ravel())]
    np.testing.assert_allclose(out.ravel(), want, rtol=1e-12, atol=1e-12)


# --- hand examples observed in MXNet 1.9.1 -------------------------------------------------------


def _run(name, ins, head=None, **params):
    op = make_op(name, **params)
    ins = [np.array(x, np.float64) for x in ins]
    (out,) = run_forward(op, ins)
    grads = run_backward(op, ins, [out], [np.ones_like(out) if head is None else np.array(head)])
    return out, grads


def test_mod_values_and_gradients():
    """Python-style sign; d/dlhs = 1, d/drhs = -floor(lhs / rhs)."""
    out, (g_lhs, g_rhs) = _run("_mod", [[5.5, -5.5, 7, 3, -7], [2, 2, -3, 3, -2]])
    np.testing.assert_array_equal(out, [1.5, 0.5, -2, 0, -1])
    np.testing.assert_array_equal(g_lhs, [1, 1, 1, 1, 1])
    np.testing.assert_array_equal(g_rhs, [-2, 3, 3, -1, -3])


def test_mod_by_zero():
    out, (g_lhs, g_rhs) = _run("_mod", [[5.0, -5, 0], [0.0, 0, 0]])
    np.testing.assert_array_equal(out, [0, 0, 0])
    np.testing.assert_array_equal(g_lhs, [1, 1, 1])
    np.testing.assert_array_equal(g_rhs, [-np.inf, np.inf, np.nan])
    out, _ = _run("_mod_scalar", [[5.0, -5, 0]], scalar=0.0)
    np.testing.assert_array_equal(out, [0, 0, 0])
    out, (grad,) = _run("_rmod_scalar", [[0.0, 2]], scalar=3.0)
    np.testing.assert_array_equal(out, [0, 1])
    np.testing.assert_array_equal(grad, [-np.inf, -1])


def test_mod_scalar_and_rmod_scalar():
    out, (grad,) = _run("_mod_scalar", [[5.5, -5.5, 7, 3, -7]], scalar=-2.0)
    np.testing.assert_array_equal(out, [-0.5, -1.5, -1, -1, -1])
    np.testing.assert_array_equal(grad, [1, 1, 1, 1, 1])
    out, (grad,) = _run("_rmod_scalar", [[2.0, 2, -3, 3, -2]], scalar=5.5)
    np.testing.assert_array_equal(out, [1.5, 1.5, -0.5, 2.5, -0.5])
    np.testing.assert_array_equal(grad, [-2, -2, 2, -1, 3])


def test_abs_and_relu_gradient_at_zero_is_zero():
    _, (grad,) = _run("abs", [[-1.0, 0, 2]])
    np.testing.assert_array_equal(grad, [-1, 0, 1])
    out, (grad,) = _run("relu", [[-1.0, 0, 2]])
    np.testing.assert_array_equal(out, [0, 0, 2])
    np.testing.assert_array_equal(grad, [0, 0, 1])


def test_maximum_minimum_ties():
    """On a tie the data / lhs takes the gradient."""
    _, (grad,) = _run("_maximum_scalar", [[-1.0, 0, 2]], scalar=0.0)
    np.testing.assert_array_equal(grad, [0, 1, 1])
    _, (grad,) = _run("_minimum_scalar", [[-1.0, 0, 2]], scalar=0.0)
    np.testing.assert_array_equal(grad, [1, 1, 0])
    _, (g_lhs, g_rhs) = _run("broadcast_maximum", [[-1.0, 0, 2], [0.0, 0, 0]])
    np.testing.assert_array_equal(g_lhs, [0, 1, 1])
    np.testing.assert_array_equal(g_rhs, [1, 0, 0])
    _, (g_lhs, g_rhs) = _run("broadcast_minimum", [[-1.0, 0, 2], [0.0, 0, 0]])
    np.testing.assert_array_equal(g_lhs, [1, 1, 0])
    np.testing.assert_array_equal(g_rhs, [0, 0, 1])


def test_comparisons_output_ones_and_zeros_with_zero_gradient():
    out, grads = _run("_greater", [[-1.0, 0, 2], [0.0, 0, 0]], head=[5.0, 5, 5])
    np.testing.assert_array_equal(out, [0, 0, 1])
    for grad in grads:
        np.testing.assert_array_equal(grad, [0, 0, 0])
    op = make_op("_greater_equal_scalar", scalar=0.0)
    (out,) = run_forward(op, [np.array([-1.0, 0, 2], np.float32)])
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [0, 1, 1])


def test_power_gradients_edge_values():
    _, (g_lhs, g_rhs) = _run("_power", [[2.0, -2, 0, 3], [3.0, 2, 2, 0.5]])
    np.testing.assert_allclose(g_lhs, [12, -4, 0, 0.28867513], rtol=1e-7)
    np.testing.assert_allclose(g_rhs, [5.5451774, np.nan, np.nan, 1.9028523], rtol=1e-7)
    _, (grad,) = _run("_power_scalar", [[2.0, -2, 0]], scalar=0.0)
    np.testing.assert_array_equal(grad, [0, 0, np.nan])
    out, (grad,) = _run("_rpower_scalar", [[2.0, -2, 0]], scalar=2.0)
    np.testing.assert_allclose(out, [4, 0.25, 1])
    np.testing.assert_allclose(grad, [2.7725887, 0.1732868, 0.6931472], rtol=1e-7)


def test_division_gradients():
    _, (grad,) = _run("_rdiv_scalar", [[2.0, -2, 0.5]], scalar=2.0)
    np.testing.assert_array_equal(grad, [-0.5, -0.5, -8])
    out, (g_lhs, g_rhs) = _run("elemwise_div", [[5.0, -5, 0], [0.0, 0, 0]])
    np.testing.assert_array_equal(out, [np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(g_lhs, [np.inf, np.inf, np.inf])
    np.testing.assert_array_equal(g_rhs, [-np.inf, np.inf, np.nan])


def test_log_and_sqrt_at_the_edge():
    out, (grad,) = _run("log", [[2.0, 0, -1]])
    np.testing.assert_array_equal(out[1:], [-np.inf, np.nan])
    np.testing.assert_array_equal(grad, [0.5, np.inf, -1])
    _, (grad,) = _run("sqrt", [[0.0, 4]])
    np.testing.assert_array_equal(grad, [np.inf, 0.25])


def test_broadcast_gradients_sum_over_broadcast_axes():
    out, (g_lhs, g_rhs) = _run("broadcast_mul", [np.arange(6.0).reshape(2, 3), [[1.0], [2.0]]])
    np.testing.assert_array_equal(out, [[0, 1, 2], [6, 8, 10]])
    np.testing.assert_array_equal(g_lhs, [[1, 1, 1], [2, 2, 2]])
    np.testing.assert_array_equal(g_rhs, [[3], [12]])
    _, (g_lhs, g_rhs) = _run("broadcast_power", [np.arange(1, 7.0).reshape(2, 3), [2.0, 3, 0.5]])
    np.testing.assert_allclose(g_lhs, [[2, 12, 0.28867513], [8, 75, 0.20412415]], rtol=1e-7)
    np.testing.assert_allclose(g_rhs, [22.18071, 206.72493, 6.291749], rtol=1e-6)
    _, (g_lhs, g_rhs) = _run("broadcast_sub", [np.ones((2, 1, 4)), np.ones((3, 1))])
    np.testing.assert_array_equal(g_lhs, np.full((2, 1, 4), 3.0))
    np.testing.assert_array_equal(g_rhs, np.full((3, 1), -8.0))


def test_sigmoid_and_tanh_values():
    out, (grad,) = _run("sigmoid", [[0.0, 2]])
    np.testing.assert_allclose(out, [0.5, 0.8807970779778823])
    np.testing.assert_allclose(grad, [0.25, 0.8807970779778823 * 0.11920292202211769])
    _, (grad,) = _run("tanh", [[0.0]])
    np.testing.assert_array_equal(grad, [1.0])


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_only_comparisons_need_no_head_gradient(name, params, in_shapes, out_shape):
    """Observed in MXNet: `x > y` or `x > 0` as a head runs backward without a head gradient
    (zero gradient), and so do round, trunc and logical_not (MXNet's MakeZeroGradNodes); every
    other elementwise head needs one (sign too: its zero comes from a backward node)."""
    op = make_op(name, **params)
    deps = op.declare_backward_dependency([0], [1, 2][: len(in_shapes)], [3])
    comparison = any(word in name for word in ("equal", "greater", "lesser", "logical"))
    zero_gradient = name in ROUNDING
    assert (0 in deps) == (not (comparison or zero_gradient))


def test_round_halves_go_away_from_zero():
    """MXNet 1.9.1 (p603): round([-2.5, -1.5, -0.5, 0, 0.5, 1.5, 2.5, -0.49]) as C rounds;
    NumPy's np.round would give -2, -2, -0, 0, 0, 2, 2."""
    data = [-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, -0.49]
    for dtype in (np.float32, np.float64):
        (out,) = run_forward(make_op("round"), [np.array(data, dtype)])
        np.testing.assert_array_equal(out, [-3, -2, -1, 0, 1, 2, 3, 0])
    (out,) = run_forward(make_op("round"), [np.array([0.49999997, -0.49999997], np.float32)])
    np.testing.assert_array_equal(out, [0, 0])  # floor(x + 0.5) would give 1 in float32


@pytest.mark.parametrize("name", ["sign", *ROUNDING, "logical_not"])
def test_zero_gradient_unary(name):
    """MXNet 1.9.1 (p603, p605): these have a zero gradient everywhere (sign too at 0)."""
    _, (grad,) = _run(name, [[-2.5, -0.5, 0.0, 0.5, 3.0]], head=[1.0, 2, 3, 4, 5])
    np.testing.assert_array_equal(grad, 0)


def test_logical_not_and_sign_values():
    out, _ = _run("logical_not", [[-2.0, 0, 0.5]])
    np.testing.assert_array_equal(out, [0, 1, 0])
    (out,) = run_forward(make_op("sign"), [np.array([-3, 0, 2], np.int32)])
    assert out.dtype == np.int32 and out.tolist() == [-1, 0, 1]


def test_smooth_l1_bounds_belong_to_the_quadratic_part():
    """MXNet 1.9.1 (p603): sigma=2, |x| = 0.25 = 1/sigma**2 gives 0.125 and gradient 4x."""
    out, (grad,) = _run("smooth_l1", [[-0.25, 0.25, 1.0, -1.0, 0.1]], scalar=2.0)
    np.testing.assert_allclose(out, [0.125, 0.125, 0.875, 0.875, 0.02])
    np.testing.assert_allclose(grad, [-1, 1, 1, -1, 0.4])


def test_equal_shape_maximum_minimum_ties_go_to_lhs():
    _, (g_lhs, g_rhs) = _run("_maximum", [[-1.0, 0, 2], [0.0, 0, 0]])
    np.testing.assert_array_equal(g_lhs, [0, 1, 1])
    np.testing.assert_array_equal(g_rhs, [1, 0, 0])
    _, (g_lhs, g_rhs) = _run("_minimum", [[-1.0, 0, 2], [0.0, 0, 0]])
    np.testing.assert_array_equal(g_lhs, [1, 1, 0])
    np.testing.assert_array_equal(g_rhs, [0, 0, 1])


def test_equal_shape_maximum_refuses_broadcasting():
    op = make_op("_maximum", node_name="m")
    with pytest.raises(ValueError, match=r"_maximum 'm' .* needs equal shapes.*broadcast_maximum"):
        op.infer_shape([(2, 3), (1, 3)], [None])


# --- hard_sigmoid (ops/tensor/elemwise_unary_op_basic.py): max(0, min(1, alpha * x + beta)) ---
HARD_SIGMOID = [({}, (3, 4)), ({"alpha": 0.4, "beta": 0.2}, (2, 5)), ({"alpha": -1.0}, (6,))]


@pytest.mark.parametrize("params, shape", HARD_SIGMOID)
def test_hard_sigmoid(params, shape):
    op = make_op("hard_sigmoid", **params)
    assert output_shapes(op, [shape])[0] == [shape]
    assert op.infer_shape([None], [shape])[0] == [shape]  # and back from the output
    x = _draw(shape, "any", 5) * 4
    alpha, beta = params.get("alpha", 0.2), params.get("beta", 0.5)
    (out,) = run_forward(op, [x])
    want = [min(1.0, max(0.0, alpha * float(v) + beta)) for v in x.ravel()]
    np.testing.assert_allclose(out.ravel(), want, rtol=1e-12)
    check_gradients(op, [x])
    check_req(op, [x])
    check_backward_dependency(op, [x])


def test_hard_sigmoid_corners_have_no_gradient():
    """MXNet 1.9.1 (p603): alpha=beta=0.5 at x = -1 and x = 1 (output exactly 0 and 1)."""
    out, (grad,) = _run(
        "hard_sigmoid", [[-1.0, 1.0, 0.0, 2.0, -3.0]], head=[1.0] * 5, alpha=0.5, beta=0.5
    )
    np.testing.assert_array_equal(out, [0, 1, 0.5, 1, 0])
    np.testing.assert_array_equal(grad, [0, 0, 0.5, 0, 0])


@pytest.mark.parametrize("name, params, in_shapes, out_shape", CASES, ids=IDS)
def test_backward_reads_only_what_it_declares(name, params, in_shapes, out_shape):
    check_backward_dependency(make_op(name, **params), _case_inputs(name, in_shapes))


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
# test_shape_rule, test_gradients and test_req are each parametrized over every case of CASES;
# test_hard_sigmoid runs all three over HARD_SIGMOID.
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(
    [case[0] for case in CASES] + ["hard_sigmoid"]
)
