"""Python operators on symbols: ``a + b`` builds ``elemwise_add`` named ``_plus0``, and so on."""
from numbers import Number

from ..base import NotImplementedForSymbol
from ..ops.registry import functions
from .creation import create_op
from .symbol import Symbol

__all__ = ["install_operators"]


def _call(func_name, *args, **kwargs):
    return create_op(functions()[func_name], args, kwargs)


def _binary(symbol_fn, scalar_fn, reverse=False):
    """A dunder method: Symbol (x) Symbol -> ``symbol_fn``; Symbol (x) number -> ``scalar_fn``."""
    def method(self, other):
        if isinstance(other, Symbol) and symbol_fn is not None and not reverse:
            return _call(symbol_fn, self, other)
        if isinstance(other, Number):
            return _call(scalar_fn, self, scalar=other)
        raise TypeError(f"type {type(other)} not supported: a Symbol combines only with "
                        "Symbols and Python numbers")
    return method


def _in_place(symbol_op):
    def method(self, other):
        raise NotImplementedForSymbol(method, symbol_op, other)
    in_place = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "truediv"}[symbol_op]
    method.__name__ = f"__i{in_place}__"
    return method


# dunder -> (function for Symbol operand, function for scalar operand, reversed?)
_TABLE = {
    "__add__": ("_Plus", "_PlusScalar", False),
    "__radd__": ("_Plus", "_PlusScalar", False),
    "__sub__": ("_Minus", "_MinusScalar", False),
    "__rsub__": (None, "_RMinusScalar", True),
    "__mul__": ("_Mul", "_MulScalar", False),
    "__rmul__": ("_Mul", "_MulScalar", False),
    "__truediv__": ("_Div", "_DivScalar", False),
    "__rtruediv__": (None, "_RDivScalar", True),
    "__mod__": ("_Mod", "_ModScalar", False),
    "__rmod__": (None, "_RModScalar", True),
    "__pow__": ("_Power", "_PowerScalar", False),
    "__rpow__": (None, "_rpower_scalar", True),
    "__eq__": ("_equal", "_equal_scalar", False),
    "__ne__": ("_not_equal", "_not_equal_scalar", False),
    "__gt__": ("_greater", "_greater_scalar", False),
    "__ge__": ("_greater_equal", "_greater_equal_scalar", False),
    "__lt__": ("_lesser", "_lesser_scalar", False),
    "__le__": ("_lesser_equal", "_lesser_equal_scalar", False),
}


def _neg(self):
    """``-a`` is ``a * -1.0`` (it shares the ``_mulscalar`` counter)."""
    return _call("_MulScalar", self, scalar=-1.0)


def install_operators():
    """Attach the arithmetic and comparison operators to Symbol."""
    for dunder, (symbol_fn, scalar_fn, reverse) in _TABLE.items():
        method = _binary(symbol_fn, scalar_fn, reverse)
        method.__name__ = dunder
        setattr(Symbol, dunder, method)
    Symbol.__neg__ = _neg
    for symbol_op in ("+=", "-=", "*=", "/="):
        method = _in_place(symbol_op)
        setattr(Symbol, method.__name__, method)
    Symbol.__hash__ = lambda self: id(self)
