"""What an error says when ``+ - * / % ** == < ...`` meets an operand it cannot use: the
expression as written (``NDArray * str '3'``) and what would work instead (``float('3')``).

Shared by NDArray and Symbol arithmetic; the exception types stay MXNet's (TypeError, or
AssertionError for a reflected ``'3' - x`` on an NDArray), only the text teaches.
"""

import reprlib

import numpy as np

__all__ = ["OPERATOR_SYMBOLS", "describe", "unsupported_operand", "shape_difference"]

# dunder stem -> the symbol the learner typed (reflected forms use the same one)
OPERATOR_SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "mod": "%",
    "pow": "**",
    "eq": "==",
    "ne": "!=",
    "gt": ">",
    "ge": ">=",
    "lt": "<",
    "le": "<=",
}

_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40

_WORKS = {
    "NDArray": "An NDArray combines with another NDArray or a number (int, float or a NumPy "
    "scalar)",
    "Symbol": "A Symbol combines with another Symbol or a Python number",
}


def _kind(value):
    """'NDArray' or 'Symbol' for those (and their subclasses), else the type's name."""
    for cls in type(value).__mro__:
        if cls.__name__ in ("NDArray", "Symbol"):
            return cls.__name__
    return type(value).__name__


def describe(value):
    """How a message shows an operand: ``str '3'``, ``NDArray (2, 3)``, ``Symbol 'fc1'``."""
    kind = _kind(value)
    if value is None:
        return "None"
    if kind == "Symbol":
        return f"Symbol {value.name!r}" if value.name is not None else "Symbol group"
    if kind == "NDArray":
        return f"NDArray {_shape(value.shape)}"
    if isinstance(value, np.ndarray):
        return f"numpy.ndarray {_shape(value.shape)}"
    return f"{kind} {_REPR.repr(value)}"


def unsupported_operand(array, symbol, other, reverse=False):
    """The text for ``array symbol other`` (``other symbol array`` when ``reverse``), where
    ``array`` is the NDArray or Symbol whose operator was called."""
    home = _kind(array)
    written = (
        f"{describe(other)} {symbol} {describe(array)}"
        if reverse
        else f"{describe(array)} {symbol} {describe(other)}"
    )
    return f"{written}. {_WORKS[home]}; {_advice(home, other)}."


def _advice(home, other):
    """What to write instead of ``other``."""
    if isinstance(other, str):
        return _text_advice(other)
    if other is None:
        return (
            "this operand is None: check where it was set (a function without a return "
            "statement gives None)"
        )
    if isinstance(other, complex):
        return "complex numbers are not supported: use a real number"
    if home == "Symbol" and (
        isinstance(other, (np.ndarray, list, tuple)) or _kind(other) == "NDArray"
    ):
        return (
            "a Symbol holds no values until it is bound: make the array an input, "
            "c = mx.sym.Variable('c'), and give its values when you bind "
            "(args={'c': mx.nd.array(values)})"
        )
    if home == "NDArray" and _kind(other) == "Symbol":
        return (
            "a Symbol is a graph without values: bind it and run forward to get NDArrays "
            "(executor.outputs[0]), or make this NDArray a Variable of the graph"
        )
    if isinstance(other, np.ndarray):
        return (
            "MXNet does not mix NDArrays and NumPy arrays in arithmetic: wrap it with "
            "mx.nd.array(value), or compute in NumPy on x.asnumpy()"
        )
    if isinstance(other, (list, tuple)):
        return f"a {type(other).__name__} is not an array: make it one with mx.nd.array(value)"
    return "convert it first, e.g. float(value), if it stands for a number"


def _text_advice(text):
    """Advice for a str operand, which is often a number that arrived as text."""
    try:
        float(text)
    except ValueError:
        return f"{text!r} is text and does not read as a number"
    return f"{text!r} is text, not a number: convert it first, e.g. float({text!r})"


def _shape(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def shape_difference(lhs, rhs):
    """(where ``lhs`` and ``rhs`` differ, in words; their broadcast shape, or None if they do
    not broadcast). Shapes line up from the right, as broadcasting does; 0 is unknown."""
    ndim = max(len(lhs), len(rhs))
    left = (1,) * (ndim - len(lhs)) + tuple(lhs)
    right = (1,) * (ndim - len(rhs)) + tuple(rhs)
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(left, right)) if a and b and a != b]
    parts = []
    if len(lhs) != len(rhs):
        parts.append(
            f"the left has {_count(len(lhs), 'axis', 'axes')} and the right "
            f"{len(rhs)} (lined up from the right)"
        )
    if differ:
        axes = _and([str(i) for i, _, _ in differ])
        sizes = ", ".join(f"{a} vs {b}" for _, a, b in differ)
        parts.append(
            f"axis {axes} differs ({sizes})"
            if len(differ) == 1
            else f"axes {axes} differ ({sizes})"
        )
    if any(a != 1 and b != 1 for _, a, b in differ):
        return "; ".join(parts), None
    return "; ".join(parts), tuple(max(a, b) if a and b else 0 for a, b in zip(left, right))


def _and(words):
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _count(n, one, many):
    return f"{n} {one if n == 1 else many}"
