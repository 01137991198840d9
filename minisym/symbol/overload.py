"""Python operators on symbols: ``a + b`` builds ``elemwise_add`` named ``_plus0``, and so on."""

from numbers import Number

import numpy as np

from ..base import NotImplementedForSymbol
from ..operand_errors import OPERATOR_SYMBOLS, unsupported_operand
from ..ops.operator_base import functions
from .creation import create_op
from .symbol import Symbol

__all__ = ["install_operators"]


def _call(func_name, *args, **kwargs):
    """Create a node with the ``mx.sym`` function named ``func_name``."""
    return create_op(functions()[func_name], args, kwargs)


def _binary(dunder, symbol_fn, scalar_fn):
    """A dunder method: Symbol (x) Symbol -> ``symbol_fn``; Symbol (x) number -> ``scalar_fn``.

    ``symbol_fn`` is None for the reflected ``__rsub__`` and the like: Python calls them only
    when the left operand is not a Symbol (``a - b`` of two Symbols is ``a.__sub__(b)``).
    """
    stem = dunder.strip("_")
    reverse = stem not in OPERATOR_SYMBOLS  # __radd__, __rsub__, ...: the Symbol is on the right
    written = OPERATOR_SYMBOLS[stem[1:] if reverse else stem]
    # As in MXNet: arithmetic takes any numbers.Number (Decimal too), comparisons MXNet's
    # numeric_types (NumPy scalars too, so np.bool_ reaches the scalar parser and fails there).
    scalars = _NUMERIC_TYPES if stem in _COMPARISONS else Number

    def method(self, other):
        if isinstance(other, Symbol) and symbol_fn is not None:
            return _call(symbol_fn, self, other)
        if isinstance(other, scalars):
            return _call(scalar_fn, self, scalar=other)
        raise TypeError(
            f"type {type(other)} not supported: "
            + unsupported_operand(self, written, other, reverse)
        )

    method.__name__ = dunder
    return method


_COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")
_NUMERIC_TYPES = (int, float, np.generic)


def _in_place(symbol_op):
    """``+=`` and friends: NDArray-only, so a Symbol raises MXNet's NotImplementedForSymbol."""

    def method(self, other):
        raise NotImplementedForSymbol(method, symbol_op, other)

    in_place = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "truediv"}[symbol_op]
    method.__name__ = f"__i{in_place}__"
    return method


# dunder -> (function for a Symbol operand, function for a number operand)
_TABLE = {
    "__add__": ("_Plus", "_PlusScalar"),
    "__radd__": ("_Plus", "_PlusScalar"),
    "__sub__": ("_Minus", "_MinusScalar"),
    "__rsub__": (None, "_RMinusScalar"),
    "__mul__": ("_Mul", "_MulScalar"),
    "__rmul__": ("_Mul", "_MulScalar"),
    "__truediv__": ("_Div", "_DivScalar"),
    "__rtruediv__": (None, "_RDivScalar"),
    "__mod__": ("_Mod", "_ModScalar"),
    "__rmod__": (None, "_RModScalar"),
    "__pow__": ("_Power", "_PowerScalar"),
    "__rpow__": (None, "_rpower_scalar"),
    "__eq__": ("_equal", "_equal_scalar"),
    "__ne__": ("_not_equal", "_not_equal_scalar"),
    "__gt__": ("_greater", "_greater_scalar"),
    "__ge__": ("_greater_equal", "_greater_equal_scalar"),
    "__lt__": ("_lesser", "_lesser_scalar"),
    "__le__": ("_lesser_equal", "_lesser_equal_scalar"),
}


def _neg(self):
    """``-a`` is ``a * -1.0`` (it shares the ``_mulscalar`` counter)."""
    return _call("_MulScalar", self, scalar=-1.0)


def install_operators():
    """Attach the arithmetic and comparison operators to Symbol."""
    for dunder, (symbol_fn, scalar_fn) in _TABLE.items():
        setattr(Symbol, dunder, _binary(dunder, symbol_fn, scalar_fn))
    Symbol.__neg__ = _neg
    for symbol_op in ("+=", "-=", "*=", "/="):
        method = _in_place(symbol_op)
        setattr(Symbol, method.__name__, method)
