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
``_BINARY_MATH`` (div, the scalar as lhs). A derivative of ``None`` means the input gets a
zero gradient (comparisons).
"""

import numpy as np
import scipy.special

from ...assign import assign
from ...base import MXNetValueError
from ...operand_errors import shape_difference
from ..common import ElemwiseValues, sum_to_shape
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


def _head_times(grad, derivative, *args):
    """grad * derivative(*args): the chain rule for one input; zeros when derivative is None."""
    if derivative is None:
        return np.zeros_like(grad)
    return grad * derivative(*args)


def _passes_through(derivative, lhs, rhs, x, head, target):
    """Whether the gradient of input ``x`` is the head gradient itself: a derivative of 1 (add,
    sub's lhs), x of the head's shape, and a gradient buffer apart from the head's."""
    if derivative is None or x.shape != head.shape or np.may_share_memory(target, head):
        return False
    value = derivative(lhs, rhs)
    return isinstance(value, int) and value == 1


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
        head = out_grad[0]
        with np.errstate(all="ignore"):
            for i, (x, derivative) in enumerate(((lhs, d_lhs), (rhs, d_rhs))):
                if req[i] == "null":
                    continue
                if _passes_through(derivative, lhs, rhs, x, head, in_grad[i]):
                    assign(in_grad[i], req[i], head)  # one copy, not a product and a sum
                    continue
                grad = _head_times(head, derivative, lhs, rhs)
                assign(in_grad[i], req[i], sum_to_shape(grad, x.shape))


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
        checks = []
        if layers:
            checks.append(f"the layers that produce {' and '.join(layers)}")
        if given:
            checks.append(
                f"the {'shapes' if len(given) > 1 else 'shape'} given for {' and '.join(given)}"
            )
        check = " and ".join(checks)
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


def _binary(op_name, math, doc, needs=("out_grad", "in_data"), base=None, aliases=(), **facts):
    """Register the operator ``op_name`` (equal shapes, or ``base``'s) computing row ``math`` of
    _BINARY_MATH (``facts``: Operator attributes it declares otherwise, e.g. gradient_is_cloned)."""
    body = {"__doc__": doc, "math": math, "backward_needs": needs, **facts}
    return register(op_name, *aliases)(type(op_name, (base or _Binary,), body))


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


_COMPARISONS = ("equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal")


for _math in _COMPARISONS:
    _binary(
        f"_{_math}", _math, f"1 where {_math.replace('_', ' ')} holds, else 0 (equal shapes).", ()
    )


for _op, _fns in {
    "elemwise_add": ("_Plus", "_plus", "_add"),
    "elemwise_sub": ("_Minus", "_minus", "_sub"),
    "elemwise_mul": ("_Mul", "_mul"),
    "elemwise_div": ("_Div", "_div"),
    "_power": ("_Power",),
    "_mod": ("_Mod",),
    "_maximum": ("_Maximum",),
    "_minimum": ("_Minimum",),
    "_hypot": ("_Hypot",),
}.items():
    for _fn in _fns:
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


_COMPARISONS += ("logical_and", "logical_or", "logical_xor")  # 1 / 0 too, no gradient either


_ARITHMETIC = ("add", "sub", "mul", "div", "power", "mod", "maximum", "minimum", "hypot")


for _math in _ARITHMETIC + _COMPARISONS:
    _name = f"broadcast_{_math}"
    # a comparison reads nothing in backward, so as a head it needs no head gradient
    _needs = () if _math in _COMPARISONS else _Binary.backward_needs
    _aliases = {"add": ("broadcast_plus",), "sub": ("broadcast_minus",)}.get(_math, ())
    _binary(_name, _math, f"{_name}: lhs, rhs broadcast together.", _needs, _Broadcast, _aliases)


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


def _with_scalar(math, data_is_rhs=False):
    """f(x, s) and df/dx(x, s) of row ``math`` of _BINARY_MATH, the scalar s as rhs (or lhs)."""
    value, d_lhs, d_rhs = _BINARY_MATH[math]
    if not data_is_rhs:
        return value, d_lhs
    return (lambda x, s: value(s, x)), (d_rhs and (lambda x, s: d_rhs(s, x)))


# name: (Python function alias, doc, value f(x, s), derivative df/dx(x, s)); s is self.scalar.
_SCALAR_OPS = {
    "_plus_scalar": ("_PlusScalar", "data + scalar", *_with_scalar("add")),
    "_minus_scalar": ("_MinusScalar", "data - scalar", *_with_scalar("sub")),
    "_rminus_scalar": ("_RMinusScalar", "scalar - data", *_with_scalar("sub", True)),
    "_mul_scalar": ("_MulScalar", "data * scalar", *_with_scalar("mul")),
    "_div_scalar": ("_DivScalar", "data / scalar", *_with_scalar("div")),
    "_rdiv_scalar": ("_RDivScalar", "scalar / data", *_with_scalar("div", True)),
    "_power_scalar": ("_PowerScalar", "data ** scalar", *_with_scalar("power")),
    "_rpower_scalar": ("_RPowerScalar", "scalar ** data", *_with_scalar("power", True)),
    "_mod_scalar": ("_ModScalar", "data % scalar", *_with_scalar("mod")),
    "_rmod_scalar": ("_RModScalar", "scalar % data", *_with_scalar("mod", True)),
    # On ties (data == scalar) the data gets the gradient (observed in MXNet).
    "_hypot_scalar": ("_HypotScalar", "sqrt(data**2 + scalar**2)", *_with_scalar("hypot")),
    "_maximum_scalar": ("_MaximumScalar", "max(data, scalar)", *_with_scalar("maximum")),
    "_minimum_scalar": ("_MinimumScalar", "min(data, scalar)", *_with_scalar("minimum")),
    # sigma = scalar: 0.5 * (sigma * x)**2 where |x| < 1 / sigma**2, else |x| - 0.5 / sigma**2
    "smooth_l1": (
        None,
        "the smooth L1 (Huber) loss of data, sigma = scalar",
        _smooth_l1,
        _smooth_l1_grad,
    ),
    "_equal_scalar": (None, "data == scalar", *_with_scalar("equal")),
    "_not_equal_scalar": (None, "data != scalar", *_with_scalar("not_equal")),
    "_greater_scalar": (None, "data > scalar", *_with_scalar("greater")),
    "_greater_equal_scalar": (None, "data >= scalar", *_with_scalar("greater_equal")),
    "_lesser_scalar": (None, "data < scalar", *_with_scalar("lesser")),
    "_lesser_equal_scalar": (None, "data <= scalar", *_with_scalar("lesser_equal")),
    "_logical_and_scalar": (None, "data and scalar", *_with_scalar("logical_and")),
    "_logical_or_scalar": (None, "data or scalar", *_with_scalar("logical_or")),
    "_logical_xor_scalar": (None, "data xor scalar", *_with_scalar("logical_xor")),
}


class _Scalar(ElemwiseValues):
    """data (x) scalar, elementwise; its row of ``_SCALAR_OPS`` holds f and df/dx."""

    params = {"scalar": Param(float, 1.0), "is_int": Param(boolean, True)}
    backward_needs = ("out_grad", "in_data")

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
def _round_half_away(x):
    """C's round: halves go away from zero (NumPy's np.round goes to even: 2.5 -> 2)."""
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0).astype(x.dtype)


_READS_X = ("out_grad", "in_data")
_READS_Y = ("out_grad", "out_data")


# name: (doc, value f(x), derivative df/dx(x, y), what backward reads), where x is the input and
# y = f(x) the output; each derivative reads only what its last column declares, because an
# executor may reuse the other buffer.
_UNARY_OPS = {
    "exp": ("e**x", np.exp, lambda x, y: y, _READS_Y),
    "log": ("ln x", np.log, lambda x, y: 1 / x, _READS_X),
    "sqrt": ("sqrt(x)", np.sqrt, lambda x, y: 0.5 / y, _READS_Y),
    "square": ("x**2", np.square, lambda x, y: 2 * x, _READS_X),
    # MXNet: the gradient of |x| at 0 is sign(0) = 0, of relu at 0 is 0 (observed).
    "abs": ("|x|", np.abs, lambda x, y: np.sign(x), _READS_X),
    "negative": ("-x", np.negative, lambda x, y: -1, ("out_grad",)),
    # relu keeps NaN (np.maximum), and so does its gradient (observed; Activation's gives 0)
    "relu": (
        "max(x, 0)",
        lambda x: np.maximum(x, 0),
        lambda x, y: np.where(np.isnan(y), y, y > 0),
        _READS_Y,
    ),
    "sigmoid": (
        "1 / (1 + e**-x)",
        lambda x: 1 / (1 + np.exp(-x)),
        lambda x, y: y * (1 - y),
        _READS_Y,
    ),
    "tanh": ("tanh(x)", np.tanh, lambda x, y: 1 - y * y, _READS_Y),
    # MXNet's backward of sign reads the head gradient and x, and gives 0 (not a delta).
    "sign": ("-1, 0 or 1", np.sign, lambda x, y: 0, _READS_X),
    # round, trunc and logical_not have a zero gradient and need no head gradient (MXNet).
    "round": ("x rounded half away from zero", _round_half_away, None, ()),
    "trunc": ("x rounded toward zero", np.trunc, None, ()),
    "logical_not": ("1 where x == 0, else 0", lambda x: (x == 0).astype(x.dtype), None, ()),
    "rsqrt": (
        "1 / sqrt(x)",
        lambda x: 1 / np.sqrt(x),
        lambda x, y: -0.5 / (np.sqrt(x) * x),
        _READS_X,
    ),
    "sin": ("sin(x)", np.sin, lambda x, y: np.cos(x), _READS_X),
    "cos": ("cos(x)", np.cos, lambda x, y: -np.sin(x), _READS_X),
    "softsign": (
        "x / (1 + |x|)",
        lambda x: x / (1 + np.abs(x)),
        lambda x, y: 1 / np.square(1 + np.abs(x)),
        _READS_X,
    ),
    "reciprocal": ("1 / x", lambda x: 1 / x, lambda x, y: -1 / (x * x), _READS_X),
    "ceil": ("x rounded up", np.ceil, None, ()),
    "floor": ("x rounded down", np.floor, None, ()),
    "fix": ("x rounded toward zero", np.fix, None, ()),
    "tan": ("tan(x)", np.tan, lambda x, y: 1 + y * y, _READS_Y),
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
    "cbrt": ("x**(1/3)", np.cbrt, lambda x, y: 1 / (3 * y * y), _READS_Y),
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


class _Unary(ElemwiseValues):
    """f(data), elementwise; its row of ``_UNARY_OPS`` holds f and df/dx."""

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
