"""Every shape a learner types is checked here before anything uses it: sizes are ints, never
negative, and a 0 (or, in inference, a -1) means "unknown" only where MXNet gives it that meaning.

    check_shape((-3, 2), where="infer_shape", name="a", mode="infer")
    -> NegativeDimensionError: infer_shape: 'a' has shape (-3, 2): dimension 0 is -3 ...

``mode``: ``"infer"`` (infer_shape, a Variable's shape): -1 becomes 0, unknown, as in MXNet;
``"bind"`` (simple_bind, Executor.reshape): every negative size is refused, a 0 stays unknown;
``"array"`` (mx.nd.zeros, ones, empty, full): every negative size is refused, a 0 is an empty axis.
"""

import numbers

import numpy as np

from .base import MXNetTypeError, MXNetValueError

__all__ = ["check_shape", "NegativeDimensionError", "NegativeSizeOverflow", "is_size"]


class NegativeDimensionError(MXNetValueError):
    """A negative size in a shape where MXNet raises MXNetError for it: inference,
    Executor.reshape, mx.nd.zeros / ones."""


class NegativeSizeOverflow(OverflowError, ValueError):
    """A negative size where MXNet raises OverflowError (its ctypes call cannot take it):
    simple_bind, mx.nd.empty, mx.nd.full."""


def is_size(value):
    """True for a Python or NumPy integer (not a bool, not a float that happens to be whole)."""
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


_UNKNOWN = {
    "infer": "0 or -1 means 'unknown' here: inference fills it in",
    "bind": "a 0 means 'unknown' here; the arrays must have every size known",
    "array": "0 makes an empty axis",
}


def check_shape(
    shape,
    *,
    where,
    name,
    mode="infer",
    keyword=None,
    negative=NegativeDimensionError,
    fraction=MXNetTypeError,
):
    """``shape`` as a tuple of Python ints, or a teaching error naming ``where`` (the API
    called), ``name`` (the argument whose shape it is) and the bad dimension; the fix is
    written as ``keyword=(...)`` (default: ``name=(...)``). ``negative`` / ``fraction`` are
    the exception types for a negative and a non-int size: MXNet's for that call."""
    keyword = keyword or name
    dims = tuple(shape)
    for axis, size in enumerate(dims):
        if not is_size(size):
            raise fraction(
                f"{where}: {_who(name, dims)}: dimension {axis} is {size!r} "
                f"({type(size).__name__}), but a size must be an int. Fix: "
                f"{_fixed(keyword, dims, axis, _int_guess(size))}."
            )
    dims = tuple(int(d) for d in dims)
    for axis, size in enumerate(dims):
        if size < 0 and not (mode == "infer" and size == -1):
            guess = abs(size)
            raise negative(
                f"{where}: {_who(name, dims)}: dimension {axis} is {size}, but "
                f"a size cannot be negative ({_UNKNOWN[mode]}). Fix: "
                f"{_fixed(keyword, dims, axis, guess)}."
            )
    if mode == "infer":
        dims = tuple(0 if d == -1 else d for d in dims)
    return dims


def _who(name, dims):
    """``'data' has shape (-3, 5)``, or ``shape (-3, 5)`` when no argument is named."""
    return f"{name!r} has shape {_show(dims)}" if name else f"shape {_show(dims)}"


def _show(dims):
    return "(" + ", ".join(repr(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _int_guess(size):
    """What the learner probably meant by a size that is not an int: 2.0 -> 2, '3' -> 3."""
    if isinstance(size, (bool, np.bool_)):
        return int(size)
    if isinstance(size, (float, np.floating)) and np.isfinite(size):
        return max(int(size), 1)
    if isinstance(size, str) and size.strip().lstrip("-").isdigit():
        return abs(int(size))
    return None


def _fixed(name, dims, axis, guess):
    """``give a=(3, 2)``: the shape with the bad dimension replaced by ``guess``."""
    if guess is None:
        return "write every size as a whole number, e.g. (2, 3)"
    fixed = _show(tuple(guess if i == axis else d for i, d in enumerate(dims)))
    if name and name.isidentifier():
        return f"give {name}={fixed}"
    return f"give the shape {fixed}"
