"""``mx.sym.maximum``, ``minimum``, ``hypot``, ``pow`` / ``power``, ``zeros``, ``ones`` and
``split_v2``: MXNet's Python-level functions, which pick the operator (or its parameters) from
what they are given (a Symbol or a number) instead of being one operator each."""

from numbers import Number

import numpy as np

from ..ops.operator_base import functions
from .creation import create_op
from .symbol import Symbol

__all__ = [
    "maximum",
    "minimum",
    "hypot",
    "pow",
    "power",
    "zeros",
    "ones",
    "eye",
    "arange",
    "linspace",
    "split_v2",
]


def _call(func_name, *args, **kwargs):
    """A node made by the registry function ``func_name`` (``_Maximum``, ``_zeros``, ...)."""
    return create_op(functions()[func_name], args, kwargs)


def _not_supported(name, left, right):
    """MXNet's TypeError, with what each side may be."""
    return TypeError(
        f"types ({type(left).__name__}, {type(right).__name__}) not supported: "
        f"mx.sym.{name}({_shown(left)}, {_shown(right)}) takes two Symbols, a "
        "Symbol and a number, or two numbers"
    )


def _shown(value):
    """An operand as the message shows it: a Symbol by name, anything else by repr."""
    if isinstance(value, Symbol):
        return f"<Symbol {value.name}>"
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _dispatch(name, left, right, both, scalar, rscalar, numbers):
    """Symbol (x) Symbol -> ``both``; Symbol (x) number -> ``scalar``; number (x) Symbol ->
    ``rscalar`` on the Symbol; number (x) number -> ``numbers(left, right)``."""
    if isinstance(left, Symbol) and isinstance(right, Symbol):
        return _call(both, left, right)
    if isinstance(left, Symbol) and isinstance(right, Number):
        return _call(scalar, left, scalar=right)
    if isinstance(left, Number) and isinstance(right, Symbol):
        return _call(rscalar, right, scalar=left)
    if isinstance(left, Number) and isinstance(right, Number):
        return numbers(left, right)
    raise _not_supported(name, left, right)


def maximum(left, right):
    """max(left, right) elementwise, equal shapes (``_maximum``); a number on either side gives
    ``_maximum_scalar``; two numbers give a number. Broadcasting: mx.sym.broadcast_maximum."""
    return _dispatch(
        "maximum",
        left,
        right,
        "_Maximum",
        "_MaximumScalar",
        "_MaximumScalar",
        lambda a, b: a if a > b else b,
    )


def minimum(left, right):
    """min(left, right) elementwise, equal shapes (``_minimum``); a number on either side gives
    ``_minimum_scalar``; two numbers give a number. Broadcasting: mx.sym.broadcast_minimum."""
    return _dispatch(
        "minimum",
        left,
        right,
        "_Minimum",
        "_MinimumScalar",
        "_MinimumScalar",
        lambda a, b: a if a < b else b,
    )


def hypot(left, right):
    """sqrt(left**2 + right**2) elementwise, equal shapes (``_hypot``); a number on either side
    gives ``_hypot_scalar``; two numbers give a number. Broadcasting: mx.sym.broadcast_hypot."""
    return _dispatch(
        "hypot",
        left,
        right,
        "_Hypot",
        "_HypotScalar",
        "_HypotScalar",
        lambda a, b: float(np.hypot(a, b)),
    )


def pow(base, exp):  # MXNet's name
    """base ** exp elementwise, equal shapes (``_power``); ``_power_scalar`` for a number
    exponent, ``_rpower_scalar`` for a number base; two numbers give a number."""
    return _dispatch("pow", base, exp, "_Power", "_PowerScalar", "_RPowerScalar", lambda a, b: a**b)


def power(base, exp):
    """The same as ``mx.sym.pow``: base ** exp elementwise."""
    return pow(base, exp)


def zeros(shape, dtype=None, **kwargs):
    """A symbol with no inputs that makes zeros of ``shape`` (float32 unless ``dtype``)."""
    return _call("_zeros", shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def ones(shape, dtype=None, **kwargs):
    """A symbol with no inputs that makes ones of ``shape`` (float32 unless ``dtype``)."""
    return _call("_ones", shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def eye(N, M=0, k=0, dtype=None, **kwargs):  # MXNet's names
    """A symbol with no inputs that makes the N x M (M = N when 0) matrix with ones on diagonal
    ``k`` (``_eye``)."""
    return _call("_eye", N=N, M=M, k=k, dtype=np.float32 if dtype is None else dtype, **kwargs)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    """A symbol with no inputs that makes ``start, start + step, ...`` below ``stop``, each
    ``repeat`` times (``_arange``); ``infer_range=True`` takes the length from its reader."""
    return _call(
        "_arange",
        start=start,
        stop=stop,
        step=step,
        repeat=repeat,
        infer_range=infer_range,
        name=name,
        dtype=np.float32 if dtype is None else dtype,
    )


def linspace(start, stop, num, endpoint=True, dtype=None, **kwargs):
    """A symbol with no inputs that makes ``num`` evenly spaced values (``_linspace``)."""
    return _call(
        "_linspace",
        start=start,
        stop=stop,
        num=num,
        endpoint=endpoint,
        dtype=np.float32 if dtype is None else dtype,
        **kwargs,
    )


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """``ary`` split along ``axis`` as numpy.split does (``_split_v2``): an int N gives N parts
    (the first ``size % N`` one longer), a tuple of sorted ints the points where parts start."""
    indices, sections = _split_v2_arguments(indices_or_sections)
    return _call(
        "_split_v2", ary, indices=indices, axis=axis, squeeze_axis=squeeze_axis, sections=sections
    )


def _split_v2_arguments(indices_or_sections):
    """(indices, sections) of ``_split_v2`` for numpy's ``indices_or_sections``, as MXNet's
    wrapper reads it: an int (a bool too), or a tuple (a list or array is a ValueError)."""
    if isinstance(indices_or_sections, int):
        return [], indices_or_sections
    if isinstance(indices_or_sections, tuple):
        return [0] + list(indices_or_sections), 0
    raise ValueError(
        "indices_or_sections must either int or tuple of ints (mx.sym.split_v2 "
        f"got {type(indices_or_sections).__name__} {indices_or_sections!r}; write "
        "an int N for N parts, or a tuple such as (2, 5) for the split points)"
    )
