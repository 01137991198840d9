"""Elementwise operators: Symbol (x) Symbol with equal shapes, broadcast_*, Symbol (x) scalar,
comparisons, and the unary math functions."""
from ..base import MXNetValueError
from .params import Param, boolean
from .registry import Operator, add_function, register
from .rules import fmt, same_shape

__all__ = []


class _Binary(Operator):
    """lhs (x) rhs with identical shapes."""

    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape,
                          fix=f"Use broadcast_{self.op_name.split('_')[-1]} to broadcast.")


def _binary(op_name, doc, needs=("out_grad", "in_data")):
    cls = type(op_name, (_Binary,), {"__doc__": doc, "backward_needs": needs})
    return register(op_name)(cls)


_binary("elemwise_add", "lhs + rhs (equal shapes).", ("out_grad",))
_binary("elemwise_sub", "lhs - rhs (equal shapes).", ("out_grad",))
_binary("elemwise_mul", "lhs * rhs (equal shapes).")
_binary("elemwise_div", "lhs / rhs (equal shapes).")
_binary("_power", "lhs ** rhs (equal shapes).", ("out_grad", "in_data", "out_data"))
_binary("_mod", "lhs % rhs (equal shapes).")
for _cmp in ("_equal", "_not_equal", "_greater", "_greater_equal", "_lesser", "_lesser_equal"):
    _binary(_cmp, f"1 where {_cmp[1:].replace('_', ' ')} holds, else 0 (equal shapes).", ())

for _fn, _op in (("_Plus", "elemwise_add"), ("_plus", "elemwise_add"), ("_add", "elemwise_add"),
                 ("_Minus", "elemwise_sub"), ("_minus", "elemwise_sub"), ("_sub", "elemwise_sub"),
                 ("_Mul", "elemwise_mul"), ("_mul", "elemwise_mul"), ("_Div", "elemwise_div"),
                 ("_div", "elemwise_div"), ("_Power", "_power"), ("_Mod", "_mod")):
    add_function(_fn, _op)


def broadcast_shape(op, lhs, rhs):
    """numpy-style broadcasting of two shapes (left-padded with 1s); 0 is an unknown size."""
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
        elif a == 0 or b == 0:
            out.append(a or b)
        else:
            raise MXNetValueError(
                f"{op.where}: shapes {fmt(lhs)} and {fmt(rhs)} cannot be broadcast: axis {i} "
                f"has sizes {a} and {b}; each axis needs equal sizes or a 1")
    return tuple(out)


class _Broadcast(Operator):
    """lhs (x) rhs with numpy broadcasting."""

    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape, out_shape):
        out = broadcast_shape(self, in_shape[0], in_shape[1])
        return list(in_shape), [out if out is not None else out_shape[0]], []


for _name, _alias in (("broadcast_add", "broadcast_plus"), ("broadcast_sub", "broadcast_minus"),
                      ("broadcast_mul", None), ("broadcast_div", None), ("broadcast_power", None),
                      ("broadcast_maximum", None), ("broadcast_minimum", None)):
    _cls = type(_name, (_Broadcast,), {"__doc__": f"{_name}: lhs, rhs broadcast together."})
    register(_name, *([_alias] if _alias else []))(_cls)


class _Scalar(Operator):
    """data (x) scalar, elementwise."""

    params = {"scalar": Param(float, 1.0), "is_int": Param(boolean, True)}
    backward_needs = ("out_grad", "in_data")

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


_SCALAR_OPS = {
    "_plus_scalar": ("_PlusScalar", "data + scalar"), "_minus_scalar": ("_MinusScalar", "data - scalar"),
    "_rminus_scalar": ("_RMinusScalar", "scalar - data"), "_mul_scalar": ("_MulScalar", "data * scalar"),
    "_div_scalar": ("_DivScalar", "data / scalar"), "_rdiv_scalar": ("_RDivScalar", "scalar / data"),
    "_power_scalar": ("_PowerScalar", "data ** scalar"), "_rpower_scalar": (None, "scalar ** data"),
    "_mod_scalar": ("_ModScalar", "data % scalar"), "_rmod_scalar": ("_RModScalar", "scalar % data"),
    "_maximum_scalar": (None, "max(data, scalar)"), "_minimum_scalar": (None, "min(data, scalar)"),
    "_equal_scalar": (None, "data == scalar"), "_not_equal_scalar": (None, "data != scalar"),
    "_greater_scalar": (None, "data > scalar"), "_greater_equal_scalar": (None, "data >= scalar"),
    "_lesser_scalar": (None, "data < scalar"), "_lesser_equal_scalar": (None, "data <= scalar"),
}
for _op, (_fn, _doc) in _SCALAR_OPS.items():
    register(_op)(type(_op, (_Scalar,), {"__doc__": _doc + ", elementwise."}))
    if _fn:
        add_function(_fn, _op)


class _Unary(Operator):
    """f(data), elementwise."""

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


_UNARY_OPS = {  # name: (formula, what backward reads)
    "exp": ("e**x", ("out_grad", "out_data")), "log": ("ln x", ("out_grad", "in_data")),
    "sqrt": ("sqrt(x)", ("out_grad", "out_data")), "square": ("x**2", ("out_grad", "in_data")),
    "abs": ("|x|", ("out_grad", "in_data")), "negative": ("-x", ("out_grad",)),
    "relu": ("max(x, 0)", ("out_grad", "out_data")),
    "sigmoid": ("1 / (1 + e**-x)", ("out_grad", "out_data")),
    "tanh": ("tanh(x)", ("out_grad", "out_data")),
}
for _op, (_doc, _needs) in _UNARY_OPS.items():
    register(_op)(type(_op, (_Unary,), {"__doc__": f"{_doc}, elementwise.",
                                        "backward_needs": _needs}))
