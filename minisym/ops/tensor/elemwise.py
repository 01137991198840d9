"""Elementwise operators: Symbol (x) Symbol with equal shapes, broadcast_*, Symbol (x) scalar,
comparisons, and the unary math functions.

One module for what MXNet registers in several sources, because one table row serves
elemwise_*, broadcast_* (and often a scalar form) alike: src/operator/tensor/
elemwise_binary_op_basic.cc, elemwise_binary_op_extended.cc, elemwise_binary_op_logic.cc,
elemwise_binary_broadcast_op_basic.cc, _extended.cc, _logic.cc,
elemwise_binary_scalar_op_basic.cc, _extended.cc (smooth_l1 included), _logic.cc, and the
math functions of elemwise_unary_op_basic.cc, _trig.cc, _logexp.cc and _pow.cc.

Every operator here is generated from a table row holding its value function and its
derivative, so "what is the gradient of _rdiv_scalar" is answered by one row of
``_SCALAR_OPS``. A derivative of ``None`` means the input gets a zero gradient (comparisons).
"""

import numpy as np
import scipy.special

from ...assign import assign
from ...base import MXNetValueError
from ...operand_errors import shape_difference
from ..operator_base import Operator, add_function, register
from ..params import Param, boolean
from ..rules import ShapeConflict, fmt, merge_shape, same_shape

__all__ = []


def _floor_mod(a, b):
    """a mod b with the sign of b (Python's %), and 0 where b == 0 (as MXNet does)."""
    return np.where(np.equal(b, 0), 0, np.mod(a, b))


def _minus_floor_quotient(a, b):
    """-floor(a / b), mod's rhs derivative; integers stay integers, with 0 where b == 0 (a
    float inf cast back would be -2147483648, even times a zero head gradient)."""
    if not np.issubdtype(np.result_type(a, b), np.integer):
        return -np.floor(a / b)
    return np.where(np.equal(b, 0), 0, -np.floor_divide(a, np.where(np.equal(b, 0), 1, b)))


def _divide(a, b):
    """a / b; integers divide as MXNet's integer kernels do, toward zero (7 / -2 is -3), with 0
    where b == 0 (where NumPy's quotient, cast back, would be -2147483648)."""
    if not np.issubdtype(np.result_type(a, b), np.integer):
        return np.divide(a, b)
    quotient = np.trunc(np.true_divide(a, np.where(np.equal(b, 0), 1, b)))
    return np.where(np.equal(b, 0), 0, quotient).astype(np.result_type(a, b))


def _as(scalar, data):
    """The scalar in data's dtype, as MXNet casts it (an integer array divides by an integer)."""
    return np.asarray(scalar, dtype=data.dtype)


def _head_times(grad, derivative, *args):
    """grad * derivative(*args): the chain rule for one input; zeros when derivative is None."""
    if derivative is None:
        return np.zeros_like(grad)
    return grad * derivative(*args)


def _sum_to_shape(grad, shape):
    """Sum ``grad`` over the axes that broadcasting added or stretched, giving ``shape``."""
    lead = grad.ndim - len(shape)
    stretched = tuple(lead + i for i, d in enumerate(shape) if d == 1 and grad.shape[lead + i] != 1)
    return np.sum(grad, axis=tuple(range(lead)) + stretched, keepdims=True).reshape(shape)


# --- Symbol (x) Symbol --------------------------------------------------------------------------
# One row per math function, shared by elemwise_* (equal shapes) and broadcast_*:
# name: (value f(lhs, rhs), df/dlhs(lhs, rhs), df/drhs(lhs, rhs)).
_BINARY_MATH = {
    "add": (np.add, lambda l, r: 1, lambda l, r: 1),
    "sub": (np.subtract, lambda l, r: 1, lambda l, r: -1),
    "mul": (np.multiply, lambda l, r: r, lambda l, r: l),
    "div": (_divide, lambda l, r: 1 / r, lambda l, r: -l / (r * r)),
    "power": (np.power, lambda l, r: r * l ** (r - 1), lambda l, r: l**r * np.log(l)),
    # MXNet: d(l mod r)/dr = -floor(l / r) (inf/nan where r == 0), d/dl = 1 everywhere.
    "mod": (_floor_mod, lambda l, r: 1, lambda l, r: _minus_floor_quotient(l, r)),
    "hypot": (np.hypot, lambda l, r: l / np.hypot(l, r), lambda l, r: r / np.hypot(l, r)),
    # On ties the lhs gets the gradient, the rhs none (observed in MXNet).
    "maximum": (np.maximum, lambda l, r: l >= r, lambda l, r: l < r),
    "minimum": (np.minimum, lambda l, r: l <= r, lambda l, r: l > r),
    "equal": (np.equal, None, None),
    "not_equal": (np.not_equal, None, None),
    "greater": (np.greater, None, None),
    "greater_equal": (np.greater_equal, None, None),
    "lesser": (np.less, None, None),
    "lesser_equal": (np.less_equal, None, None),
    "logical_and": (np.logical_and, None, None),
    "logical_or": (np.logical_or, None, None),
    "logical_xor": (np.logical_xor, None, None),
}


_ARITHMETIC_UFUNCS = {
    np.add,
    np.subtract,
    np.multiply,
    np.divide,
    np.power,
    np.maximum,
    np.minimum,
}  # these may write straight into the output (same dtype)


class _Binary(Operator):
    """lhs (x) rhs with identical shapes; ``math`` names its row of ``_BINARY_MATH``."""

    math = None
    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape, out_shape):
        """lhs, rhs and the output share one shape; lhs and rhs that differ name both sides."""
        try:
            merge_shape(in_shape[0], in_shape[1])
        except ShapeConflict:
            raise ElemwiseShapeError(self, in_shape[0], in_shape[1]) from None
        return same_shape(
            self, in_shape, out_shape, fix="Check the operator that reads this output."
        )

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs, rhs (same or broadcastable shapes) -> f(lhs, rhs) (1.0/0.0 for comparisons)."""
        lhs, rhs = in_data
        value = _BINARY_MATH[self.math][0]
        with np.errstate(all="ignore"):  # MXNet returns inf / nan silently
            if req[0] == "write" and value in _ARITHMETIC_UFUNCS:
                value(lhs, rhs, out=out_data[0])  # one pass, no temporary (residual additions)
            else:
                assign(out_data[0], req[0], value(lhs, rhs))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """grad_lhs = out_grad * df/dlhs, grad_rhs = out_grad * df/drhs (summed to each shape)."""
        lhs, rhs = in_data
        _, d_lhs, d_rhs = _BINARY_MATH[self.math]
        with np.errstate(all="ignore"):
            for i, (x, derivative) in enumerate(((lhs, d_lhs), (rhs, d_rhs))):
                if req[i] != "null":
                    grad = _head_times(out_grad[0], derivative, lhs, rhs)
                    assign(in_grad[i], req[i], _sum_to_shape(grad, x.shape))


_PYTHON_OPERATOR = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "power": "**",
    "mod": "%",
    "equal": "==",
    "not_equal": "!=",
    "greater": ">",
    "greater_equal": ">=",
    "lesser": "<",
    "lesser_equal": "<=",
}


class ElemwiseShapeError(MXNetValueError):
    """lhs and rhs of an equal-shape operator differ. Inference, which knows the node, calls
    ``name_inputs`` so that the message says which nodes produced each side."""

    def __init__(self, op, lhs, rhs):
        self.op, self.shapes = op, (lhs, rhs)
        super().__init__(self._text(("lhs", "rhs"), ()))

    def name_inputs(self, node):
        """Name the node behind each side: ``fc1 output (8, 10)``, ``variable 'b' (1, 10)``."""
        sides = [_producer(src, idx) for src, idx in node.inputs[:2]]
        self.args = (self._text(sides, [src for src, _ in node.inputs[:2]]),)

    def _text(self, sides, sources):
        op, (lhs, rhs) = self.op, self.shapes
        math = op.math
        difference, broadcast = shape_difference(lhs, rhs)
        written = (
            f"lhs {_PYTHON_OPERATOR[math]} rhs" if math in _PYTHON_OPERATOR else f"{math}(lhs, rhs)"
        )
        head = (
            f"{op.where} ({written}) needs equal shapes, but "
            f"left: {sides[0]} {fmt(lhs)}, right: {sides[1]} {fmt(rhs)}; {difference}."
        )
        if broadcast is not None:
            return (
                f"{head} These shapes broadcast to {fmt(broadcast)}: write "
                f"mx.sym.broadcast_{math}(lhs, rhs) to stretch the axes of size 1."
            )
        layers = [f"'{s.name}'" for s in sources if not s.is_variable]
        given = [f"'{s.name}'" for s in sources if s.is_variable]
        check = " and ".join(
            filter(
                None,
                [
                    f"the layers that produce {' and '.join(layers)}" if layers else "",
                    f"the {'shapes' if len(given) > 1 else 'shape'} given for {' and '.join(given)}"
                    if given
                    else "",
                ],
            )
        )
        return (
            f"{head} broadcast_{math} would not help either: on each axis that differs, one "
            f"side must be 1. Make both sides the same shape"
            + (f": check {check}." if check else ".")
        )


def _producer(src, index):
    """How the message names the entry ``(src, index)``: a variable, or an operator's output."""
    if src.is_variable:
        return f"variable '{src.name}'"
    if src.num_visible_outputs == 1:
        return f"{src.name} output"
    return f"{src.name} output {index}"


def _binary(op_name, math, doc, needs=("out_grad", "in_data"), **facts):
    """Register the equal-shape operator ``op_name`` computing row ``math`` of _BINARY_MATH
    (``facts``: Operator attributes it declares otherwise, e.g. gradient_is_cloned)."""
    cls = type(
        op_name, (_Binary,), {"__doc__": doc, "math": math, "backward_needs": needs, **facts}
    )
    return register(op_name)(cls)


# MXNet's CloneGradient: no backward node, the head gradient is passed on to both inputs
_binary("elemwise_add", "add", "lhs + rhs (equal shapes).", ("out_grad",), gradient_is_cloned=True)


_binary("elemwise_sub", "sub", "lhs - rhs (equal shapes).", ("out_grad",))


_binary("elemwise_mul", "mul", "lhs * rhs (equal shapes).")


_binary("elemwise_div", "div", "lhs / rhs (equal shapes).")


_binary("_power", "power", "lhs ** rhs (equal shapes).")


_binary("_mod", "mod", "lhs % rhs (equal shapes).")


_binary("_hypot", "hypot", "sqrt(lhs**2 + rhs**2) (equal shapes).")


_binary("_maximum", "maximum", "max(lhs, rhs) (equal shapes); on ties lhs gets the gradient.")


_binary("_minimum", "minimum", "min(lhs, rhs) (equal shapes); on ties lhs gets the gradient.")


for _cmp in ("_equal", "_not_equal", "_greater", "_greater_equal", "_lesser", "_lesser_equal"):
    _binary(
        _cmp, _cmp[1:], f"1 where {_cmp[1:].replace('_', ' ')} holds, else 0 (equal shapes).", ()
    )


for _fn, _op in (
    ("_Plus", "elemwise_add"),
    ("_plus", "elemwise_add"),
    ("_add", "elemwise_add"),
    ("_Minus", "elemwise_sub"),
    ("_minus", "elemwise_sub"),
    ("_sub", "elemwise_sub"),
    ("_Mul", "elemwise_mul"),
    ("_mul", "elemwise_mul"),
    ("_Div", "elemwise_div"),
    ("_div", "elemwise_div"),
    ("_Power", "_power"),
    ("_Mod", "_mod"),
    ("_Maximum", "_maximum"),
    ("_Minimum", "_minimum"),
    ("_Hypot", "_hypot"),
):
    add_function(_fn, _op)


def broadcast_shape(op, lhs, rhs):
    """numpy-style broadcasting of two shapes (left-padded with 1s); 0 is an unknown size, and
    an axis where either side is unknown stays unknown (as in MXNet)."""
    if lhs is None or rhs is None:
        return None
    ndim = max(len(lhs), len(rhs))
    lhs, rhs = (1,) * (ndim - len(lhs)) + lhs, (1,) * (ndim - len(rhs)) + rhs
    out = []
    for i, (a, b) in enumerate(zip(lhs, rhs)):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        elif a == 0 or b == 0:  # MXNet leaves the axis unknown while either side is
            out.append(0)
        else:
            raise MXNetValueError(
                f"{op.where}: shapes {fmt(lhs)} and {fmt(rhs)} cannot be broadcast: axis {i} "
                f"has sizes {a} and {b}; each axis needs equal sizes or a 1"
            )
    return tuple(out)


class _Broadcast(_Binary):
    """lhs (x) rhs with numpy broadcasting; each gradient is summed back to its input's shape."""

    def infer_shape(self, in_shape, out_shape):
        out = broadcast_shape(self, in_shape[0], in_shape[1])
        return list(in_shape), [out if out is not None else out_shape[0]], []


_COMPARISONS = ("equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal")


_COMPARISONS += ("logical_and", "logical_or", "logical_xor")  # 1 / 0 too, no gradient either


for _name, _alias in (
    ("broadcast_add", "broadcast_plus"),
    ("broadcast_sub", "broadcast_minus"),
    ("broadcast_mul", None),
    ("broadcast_div", None),
    ("broadcast_power", None),
    ("broadcast_mod", None),
    ("broadcast_maximum", None),
    ("broadcast_minimum", None),
    ("broadcast_hypot", None),
    *((f"broadcast_{c}", None) for c in _COMPARISONS),
):
    _math = _name.split("_", 1)[1]
    _cls = type(
        _name,
        (_Broadcast,),
        {
            "__doc__": f"{_name}: lhs, rhs broadcast together.",
            "math": _math,
            # a comparison reads nothing in backward, so as a head it needs no head gradient
            "backward_needs": () if _math in _COMPARISONS else _Binary.backward_needs,
        },
    )
    register(_name, *([_alias] if _alias else []))(_cls)


# --- Symbol (x) scalar --------------------------------------------------------------------------
def _smooth_l1(x, sigma):
    """MXNet's smooth_l1_loss: quadratic inside |x| <= 1 / sigma**2 (the bounds included)."""
    square = sigma * sigma
    inverse = 1 / square
    return np.where(
        x > inverse,
        x - 0.5 * inverse,
        np.where(x < -inverse, -x - 0.5 * inverse, 0.5 * x * x * square),
    )


def _smooth_l1_grad(x, sigma):
    """sign(x) outside |x| <= 1 / sigma**2, sigma**2 * x inside (the bounds included)."""
    square = sigma * sigma
    inverse = 1 / square
    return np.where(x > inverse, 1, np.where(x < -inverse, -1, square * x))


# name: (Python function alias, doc, value f(x, s), derivative df/dx(x, s)); s is self.scalar.
_SCALAR_OPS = {
    "_plus_scalar": ("_PlusScalar", "data + scalar", lambda x, s: x + s, lambda x, s: 1),
    "_minus_scalar": ("_MinusScalar", "data - scalar", lambda x, s: x - s, lambda x, s: 1),
    "_rminus_scalar": ("_RMinusScalar", "scalar - data", lambda x, s: s - x, lambda x, s: -1),
    "_mul_scalar": ("_MulScalar", "data * scalar", lambda x, s: x * s, lambda x, s: s),
    "_div_scalar": (
        "_DivScalar",
        "data / scalar",
        lambda x, s: _divide(x, _as(s, x)),
        lambda x, s: 1 / s,
    ),
    "_rdiv_scalar": (
        "_RDivScalar",
        "scalar / data",
        lambda x, s: _divide(_as(s, x), x),
        lambda x, s: -s / (x * x),
    ),
    "_power_scalar": (
        "_PowerScalar",
        "data ** scalar",
        lambda x, s: x**s,
        lambda x, s: s * x ** (s - 1),
    ),
    "_rpower_scalar": (
        "_RPowerScalar",
        "scalar ** data",
        lambda x, s: s**x,
        lambda x, s: s**x * np.log(s),
    ),
    "_mod_scalar": ("_ModScalar", "data % scalar", lambda x, s: _floor_mod(x, s), lambda x, s: 1),
    "_rmod_scalar": (
        "_RModScalar",
        "scalar % data",
        lambda x, s: _floor_mod(s, x),
        lambda x, s: -np.floor(s / x),
    ),
    # On ties (data == scalar) the data gets the gradient (observed in MXNet).
    "_hypot_scalar": (
        "_HypotScalar",
        "sqrt(data**2 + scalar**2)",
        np.hypot,
        lambda x, s: x / np.hypot(x, s),
    ),
    "_maximum_scalar": ("_MaximumScalar", "max(data, scalar)", np.maximum, lambda x, s: x >= s),
    "_minimum_scalar": ("_MinimumScalar", "min(data, scalar)", np.minimum, lambda x, s: x <= s),
    # sigma = scalar: 0.5 * (sigma * x)**2 where |x| < 1 / sigma**2, else |x| - 0.5 / sigma**2
    "smooth_l1": (
        None,
        "the smooth L1 (Huber) loss of data, sigma = scalar",
        _smooth_l1,
        _smooth_l1_grad,
    ),
    "_equal_scalar": (None, "data == scalar", np.equal, None),
    "_not_equal_scalar": (None, "data != scalar", np.not_equal, None),
    "_greater_scalar": (None, "data > scalar", np.greater, None),
    "_greater_equal_scalar": (None, "data >= scalar", np.greater_equal, None),
    "_lesser_scalar": (None, "data < scalar", np.less, None),
    "_lesser_equal_scalar": (None, "data <= scalar", np.less_equal, None),
    "_logical_and_scalar": (None, "data and scalar", np.logical_and, None),
    "_logical_or_scalar": (None, "data or scalar", np.logical_or, None),
    "_logical_xor_scalar": (None, "data xor scalar", np.logical_xor, None),
}


class _Scalar(Operator):
    """data (x) scalar, elementwise; its row of ``_SCALAR_OPS`` holds f and df/dx."""

    params = {"scalar": Param(float, 1.0), "is_int": Param(boolean, True)}
    backward_needs = ("out_grad", "in_data")

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> f(data, scalar), same shape."""
        (data,) = in_data
        value = _SCALAR_OPS[self.op_name][2]
        scalar = data.dtype.type(self.scalar)  # as MXNet: int32 data * 2.5 is data * 2
        with np.errstate(all="ignore"):  # MXNet returns inf / nan silently
            assign(out_data[0], req[0], value(data, scalar))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """grad_data = out_grad * df/dx(data, scalar)."""
        (data,) = in_data
        derivative = _SCALAR_OPS[self.op_name][3]
        with np.errstate(all="ignore"):
            assign(in_grad[0], req[0], _head_times(out_grad[0], derivative, data, self.scalar))


for _op, (_fn, _doc, _f, _df) in _SCALAR_OPS.items():
    # A comparison reads nothing in backward, so as a head it needs no head gradient (as MXNet).
    _needs = _Scalar.backward_needs if _df is not None else ()
    _body = {"__doc__": _doc + ", elementwise.", "backward_needs": _needs}
    if _op == "smooth_l1":  # MXNet documents only scalar: mx.sym.smooth_l1(data, scalar, ...)
        _body["call_params"] = ("scalar",)
    register(_op)(type(_op, (_Scalar,), _body))
    if _fn:
        add_function(_fn, _op)


# --- f(Symbol) ----------------------------------------------------------------------------------
_READS_X = ("out_grad", "in_data")


# name: (doc, value f(x), derivative df/dx(x, y), what backward reads), where x is the input and
# y = f(x) the output; each derivative reads only what its last column declares, because an
# executor may reuse the other buffer.
_UNARY_OPS = {
    "exp": ("e**x", np.exp, lambda x, y: y, ("out_grad", "out_data")),
    "log": ("ln x", np.log, lambda x, y: 1 / x, ("out_grad", "in_data")),
    "sqrt": ("sqrt(x)", np.sqrt, lambda x, y: 0.5 / y, ("out_grad", "out_data")),
    "square": ("x**2", np.square, lambda x, y: 2 * x, ("out_grad", "in_data")),
    # MXNet: the gradient of |x| at 0 is sign(0) = 0, of relu at 0 is 0 (observed).
    "abs": ("|x|", np.abs, lambda x, y: np.sign(x), ("out_grad", "in_data")),
    "negative": ("-x", np.negative, lambda x, y: -1, ("out_grad",)),
    "relu": ("max(x, 0)", lambda x: np.maximum(x, 0), lambda x, y: y > 0, ("out_grad", "out_data")),
    "sigmoid": (
        "1 / (1 + e**-x)",
        lambda x: 1 / (1 + np.exp(-x)),
        lambda x, y: y * (1 - y),
        ("out_grad", "out_data"),
    ),
    "tanh": ("tanh(x)", np.tanh, lambda x, y: 1 - y * y, ("out_grad", "out_data")),
    # MXNet's backward of sign reads the head gradient and x, and gives 0 (not a delta).
    "sign": ("-1, 0 or 1", np.sign, lambda x, y: 0, ("out_grad", "in_data")),
    # round, trunc and logical_not have a zero gradient and need no head gradient (MXNet).
    "round": ("x rounded half away from zero", lambda x: _round_half_away(x), None, ()),
    "trunc": ("x rounded toward zero", np.trunc, None, ()),
    "logical_not": ("1 where x == 0, else 0", lambda x: (x == 0).astype(x.dtype), None, ()),
    "rsqrt": (
        "1 / sqrt(x)",
        lambda x: 1 / np.sqrt(x),
        lambda x, y: -0.5 / (np.sqrt(x) * x),
        ("out_grad", "in_data"),
    ),
    "sin": ("sin(x)", np.sin, lambda x, y: np.cos(x), ("out_grad", "in_data")),
    "cos": ("cos(x)", np.cos, lambda x, y: -np.sin(x), ("out_grad", "in_data")),
    "softsign": (
        "x / (1 + |x|)",
        lambda x: x / (1 + np.abs(x)),
        lambda x, y: 1 / np.square(1 + np.abs(x)),
        ("out_grad", "in_data"),
    ),
    "reciprocal": ("1 / x", lambda x: 1 / x, lambda x, y: -1 / (x * x), ("out_grad", "in_data")),
    "ceil": ("x rounded up", np.ceil, None, ()),
    "floor": ("x rounded down", np.floor, None, ()),
    "fix": ("x rounded toward zero", np.fix, None, ()),
    "tan": ("tan(x)", np.tan, lambda x, y: 1 + y * y, ("out_grad", "out_data")),
    "arcsin": ("asin(x)", np.arcsin, lambda x, y: 1 / np.sqrt(1 - x * x), _READS_X),
    "arccos": ("acos(x)", np.arccos, lambda x, y: -1 / np.sqrt(1 - x * x), _READS_X),
    "arctan": ("atan(x)", np.arctan, lambda x, y: 1 / (1 + x * x), _READS_X),
    "sinh": ("sinh(x)", np.sinh, lambda x, y: np.cosh(x), _READS_X),
    "cosh": ("cosh(x)", np.cosh, lambda x, y: np.sinh(x), _READS_X),
    "arcsinh": ("asinh(x)", np.arcsinh, lambda x, y: 1 / np.sqrt(x * x + 1), _READS_X),
    "arccosh": ("acosh(x)", np.arccosh, lambda x, y: 1 / np.sqrt(x * x - 1), _READS_X),
    "arctanh": ("atanh(x)", np.arctanh, lambda x, y: 1 / (1 - x * x), _READS_X),
    "degrees": ("x in degrees", np.degrees, lambda x, y: 180 / np.pi, ("out_grad",)),
    "radians": ("x in radians", np.radians, lambda x, y: np.pi / 180, ("out_grad",)),
    "log2": ("log2 x", np.log2, lambda x, y: 1 / (x * np.log(2)), _READS_X),
    "log10": ("log10 x", np.log10, lambda x, y: 1 / (x * np.log(10)), _READS_X),
    "log1p": ("ln(1 + x)", np.log1p, lambda x, y: 1 / (1 + x), _READS_X),
    "expm1": ("e**x - 1", np.expm1, lambda x, y: np.exp(x), _READS_X),
    "cbrt": ("x**(1/3)", np.cbrt, lambda x, y: 1 / (3 * y * y), ("out_grad", "out_data")),
    "rcbrt": (
        "x**(-1/3)",
        lambda x: 1 / np.cbrt(x),
        lambda x, y: -1 / (3 * x * np.cbrt(x)),
        _READS_X,
    ),
    "gamma": (
        "Γ(x)",
        scipy.special.gamma,
        lambda x, y: scipy.special.gamma(x) * scipy.special.digamma(x),
        _READS_X,
    ),
    "gammaln": (
        "ln |Γ(x)|",
        scipy.special.gammaln,
        lambda x, y: scipy.special.digamma(x),
        _READS_X,
    ),
    "erf": (
        "erf(x)",
        scipy.special.erf,
        lambda x, y: 2 / np.sqrt(np.pi) * np.exp(-x * x),
        _READS_X,
    ),
}


def _round_half_away(x):
    """C's round: halves go away from zero (NumPy's np.round goes to even: 2.5 -> 2)."""
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0).astype(x.dtype)


class _Unary(Operator):
    """f(data), elementwise; its row of ``_UNARY_OPS`` holds f and df/dx."""

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> f(data), same shape."""
        (data,) = in_data
        value = _UNARY_OPS[self.op_name][1]
        with np.errstate(all="ignore"):  # MXNet returns inf / nan silently (log 0, sqrt -1)
            assign(out_data[0], req[0], value(data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """grad_data = out_grad * df/dx(data, output)."""
        (data,) = in_data
        derivative = _UNARY_OPS[self.op_name][2]
        with np.errstate(all="ignore"):
            assign(in_grad[0], req[0], _head_times(out_grad[0], derivative, data, out_data[0]))


for _op, (_doc, _f, _df, _needs) in _UNARY_OPS.items():
    register(_op)(
        type(_op, (_Unary,), {"__doc__": f"{_doc}, elementwise.", "backward_needs": _needs})
    )
