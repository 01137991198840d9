"""``mx.nd``: NDArray and the functions that make them."""
import numpy as np

from . import random
from .arithmetic import __all__ as _arithmetic_names
from .arithmetic import (  # noqa: F401 (mx.nd.add(lhs, rhs), ...)
    add,
    divide,
    equal,
    greater,
    greater_equal,
    lesser,
    lesser_equal,
    logical_and,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    modulo,
    multiply,
    not_equal,
    power,
    subtract,
    true_divide,
)
from .ndarray import MX_REAL_T, NDArray, to_numpy
from .serialization import load, save

__all__ = ["NDArray", "array", "zeros", "ones", "empty", "full", "arange", "waitall",
           "random", "concat", "dot", "save", "load"] + _arithmetic_names


def _dtype(dtype):
    return np.dtype(MX_REAL_T if dtype is None else dtype)


def array(source_array, ctx=None, dtype=None):
    """An NDArray holding a copy of ``source_array`` (float32 unless it is an NDArray or
    ``dtype`` says otherwise)."""
    if isinstance(source_array, NDArray):
        dtype = source_array.dtype if dtype is None else dtype
        return NDArray(np.array(source_array._data, dtype=dtype), ctx)
    try:
        data = np.array(source_array, dtype=_dtype(dtype))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"source_array must be array like object ({exc})") from None
    return NDArray(data, ctx)


def zeros(shape, ctx=None, dtype=None, **kwargs):
    """An NDArray of zeros: ``mx.nd.zeros((2, 3))``."""
    return NDArray(np.zeros(_shape(shape), _dtype(dtype)), ctx)


def ones(shape, ctx=None, dtype=None, **kwargs):
    """An NDArray of ones."""
    return NDArray(np.ones(_shape(shape), _dtype(dtype)), ctx)


def empty(shape, ctx=None, dtype=None):
    """A new NDArray (zero-filled here, so results never depend on leftover memory)."""
    return zeros(shape, ctx, dtype)


def full(shape, val, ctx=None, dtype=None, out=None):
    """An NDArray filled with ``val``."""
    result = NDArray(np.full(_shape(shape), val, _dtype(dtype)), ctx)
    if out is not None:
        out[:] = result
        return out
    return result


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=None):
    """``start, start+step, ...`` below ``stop``, each value ``repeat`` times (float32)."""
    values = np.arange(start, stop, step) if stop is not None else np.arange(start)
    return NDArray(np.repeat(values, repeat).astype(_dtype(dtype)), ctx)


def waitall():
    """Nothing to wait for: minisym computes synchronously."""


def dot(lhs, rhs, transpose_a=False, transpose_b=False, **kwargs):
    """Matrix product of two NDArrays."""
    a, b = to_numpy(lhs), to_numpy(rhs)
    return NDArray(np.dot(a.T if transpose_a else a, b.T if transpose_b else b))


def _shape(shape):
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


def _install_operators():
    """mx.nd.<Operator> for every registered operator, and NDArray's fluent methods."""
    from ..fluent import install_fluent
    from ..ops.registry import functions
    from .imperative import imperative_function, install
    install(globals())
    install_fluent(NDArray, imperative_function, "NDArray")
    for name, value in list(globals().items()):  # mx.nd._internal._plus_scalar, as in MXNet
        if name.startswith("_") and name[1:2].isalpha() and name in functions():
            setattr(_internal, name, value)


class _Internal:
    """``mx.nd._internal``: the underscore operator functions (``_plus_scalar``, ...)."""


_internal = _Internal()
