"""``mx.nd.add``, ``subtract``, ``multiply``, ...: MXNet's module-level arithmetic.

As MXNet 1.9.1's ``_ufunc_helper``: two NDArrays go to the broadcast operator (``add`` is
``broadcast_add``: NumPy broadcasting, equal dtypes), an NDArray and a number to the scalar
operator (``_plus_scalar``; the number is cast to the array's dtype, so an int32 array plus 2.5
adds 2), and two numbers to Python's own arithmetic (``mx.nd.add(2, 3) == 5``).
"""

import operator

import numpy as np

from ..arrays.ndarray import NDArray

__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "modulo",
    "power",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "lesser",
    "lesser_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
]

_NUMBERS = (int, float, np.generic)  # MXNet's numeric_types (bool is an int)

# name: (NDArray (x) NDArray, NDArray (x) number, number (x) NDArray, number (x) number, sign)
_TABLE = {
    "add": ("broadcast_add", "_plus_scalar", "_plus_scalar", operator.add, "+"),
    "subtract": ("broadcast_sub", "_minus_scalar", "_rminus_scalar", operator.sub, "-"),
    "multiply": ("broadcast_mul", "_mul_scalar", "_mul_scalar", operator.mul, "*"),
    "divide": ("broadcast_div", "_div_scalar", "_rdiv_scalar", operator.truediv, "/"),
    "modulo": ("broadcast_mod", "_mod_scalar", "_rmod_scalar", operator.mod, "%"),
    "power": ("broadcast_power", "_power_scalar", "_rpower_scalar", operator.pow, "**"),
    "maximum": (
        "broadcast_maximum",
        "_maximum_scalar",
        "_maximum_scalar",
        lambda x, y: x if x > y else y,
        "max",
    ),
    "minimum": (
        "broadcast_minimum",
        "_minimum_scalar",
        "_minimum_scalar",
        lambda x, y: x if x < y else y,
        "min",
    ),
    "equal": (
        "broadcast_equal",
        "_equal_scalar",
        "_equal_scalar",
        lambda x, y: 1 if x == y else 0,
        "==",
    ),
    "not_equal": (
        "broadcast_not_equal",
        "_not_equal_scalar",
        "_not_equal_scalar",
        lambda x, y: 1 if x != y else 0,
        "!=",
    ),
    "greater": (
        "broadcast_greater",
        "_greater_scalar",
        "_lesser_scalar",
        lambda x, y: 1 if x > y else 0,
        ">",
    ),
    "greater_equal": (
        "broadcast_greater_equal",
        "_greater_equal_scalar",
        "_lesser_equal_scalar",
        lambda x, y: 1 if x >= y else 0,
        ">=",
    ),
    "lesser": (
        "broadcast_lesser",
        "_lesser_scalar",
        "_greater_scalar",
        lambda x, y: 1 if x < y else 0,
        "<",
    ),
    "lesser_equal": (
        "broadcast_lesser_equal",
        "_lesser_equal_scalar",
        "_greater_equal_scalar",
        lambda x, y: 1 if x <= y else 0,
        "<=",
    ),
    "logical_and": (
        "broadcast_logical_and",
        "_logical_and_scalar",
        "_logical_and_scalar",
        lambda x, y: 1 if x and y else 0,
        "and",
    ),
    "logical_or": (
        "broadcast_logical_or",
        "_logical_or_scalar",
        "_logical_or_scalar",
        lambda x, y: 1 if x or y else 0,
        "or",
    ),
    "logical_xor": (
        "broadcast_logical_xor",
        "_logical_xor_scalar",
        "_logical_xor_scalar",
        lambda x, y: 1 if bool(x) ^ bool(y) else 0,
        "xor",
    ),
}


def _operand(value):
    """How a message shows an operand: ``NDArray (2, 3)``, ``str '3'``, ``ndarray (2, 3)``."""
    if isinstance(value, NDArray) or isinstance(value, np.ndarray):
        return f"{type(value).__name__} {tuple(value.shape)}"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 30 else text[:27] + '...'}"


def _fix(value):
    """What would work instead of ``value``."""
    if isinstance(value, np.ndarray):
        return "wrap the NumPy array with mx.nd.array(...)"
    if isinstance(value, str):
        return f"convert the string to a number first, e.g. float({value!r})"
    return "give an NDArray (mx.nd.array(...)) or a number"


def _make(name, array_op, scalar_op, rscalar_op, numbers, sign):
    def function(lhs, rhs):
        from .. import ndarray as nd

        if isinstance(lhs, _NUMBERS):
            if isinstance(rhs, _NUMBERS):
                return numbers(lhs, rhs)
            if isinstance(rhs, NDArray):
                return getattr(nd, rscalar_op)(rhs, scalar=float(lhs))
            raise _side_error(name, "right", rhs, AssertionError)
        if not isinstance(rhs, (NDArray,) + _NUMBERS):
            raise _side_error(name, "right", rhs, TypeError)
        if not isinstance(lhs, NDArray):
            raise _side_error(name, "left", lhs, AssertionError)
        if isinstance(rhs, NDArray):
            return getattr(nd, array_op)(lhs, rhs)
        return getattr(nd, scalar_op)(lhs, scalar=float(rhs))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"{name}(lhs, rhs): lhs {sign} rhs elementwise, NDArrays broadcast "
        f"together (mx.nd.{array_op}); a number on either side is cast to the "
        f"array's dtype (mx.nd.{scalar_op}); two numbers give a Python number."
    )
    return function


def _side_error(name, side, value, kind):
    """MXNet's exception type (TypeError, or AssertionError where MXNet asserts NDArray),
    with a message naming the function, the operand and the fix."""
    prefix = f"type {type(value)} not supported: " if kind is TypeError else ""
    return kind(
        f"{prefix}mx.nd.{name}: the {side} operand is {_operand(value)}; each operand "
        f"must be an NDArray or a number (int, float, NumPy scalar): {_fix(value)}"
    )


add = _make("add", *_TABLE["add"])
subtract = _make("subtract", *_TABLE["subtract"])
multiply = _make("multiply", *_TABLE["multiply"])
divide = true_divide = _make("divide", *_TABLE["divide"])
modulo = _make("modulo", *_TABLE["modulo"])
power = _make("power", *_TABLE["power"])
maximum = _make("maximum", *_TABLE["maximum"])
minimum = _make("minimum", *_TABLE["minimum"])
equal = _make("equal", *_TABLE["equal"])
not_equal = _make("not_equal", *_TABLE["not_equal"])
greater = _make("greater", *_TABLE["greater"])
greater_equal = _make("greater_equal", *_TABLE["greater_equal"])
lesser = _make("lesser", *_TABLE["lesser"])
lesser_equal = _make("lesser_equal", *_TABLE["lesser_equal"])
logical_and = _make("logical_and", *_TABLE["logical_and"])
logical_or = _make("logical_or", *_TABLE["logical_or"])
logical_xor = _make("logical_xor", *_TABLE["logical_xor"])
