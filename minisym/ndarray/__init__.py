"""``mx.nd``: NDArray and the functions that make them."""

import numpy as np

from ..arrays.dlpack import from_dlpack, to_dlpack_for_read, to_dlpack_for_write
from ..arrays.ndarray import MX_REAL_T, NDArray, to_numpy
from ..arrays.serialization import load, save
from ..base import DTYPE_NP_TO_MX, MXNetTypeError, MXNetValueError
from ..fluent import install_fluent
from ..memory_budget import check_array
from ..ops.operator_base import functions  # the dot operator: MXNet's N-D rule, not numpy.dot's
from ..ops.tensor.init_op import arange_values
from ..shape_check import NegativeSizeOverflow, check_shape
from . import contrib, random
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
from .imperative import imperative_function, install

__all__ = [
    "NDArray",
    "array",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "eye",
    "linspace",
    "moveaxis",
    "split_v2",
    "waitall",
    "random",
    "concat",
    "dot",
    "save",
    "load",
    "to_dlpack_for_read",
    "to_dlpack_for_write",
    "from_dlpack",
] + _arithmetic_names


def _dtype(dtype):
    """A numpy dtype MXNet has (float32 for None), or a TypeError listing the choices."""
    choices = lambda: ", ".join(repr(np.dtype(t).name) for t in DTYPE_NP_TO_MX)
    try:
        result = np.dtype(MX_REAL_T if dtype is None else dtype)
    except TypeError:  # 'float33': a TypeError, as numpy's in MXNet
        raise TypeError(
            f"dtype={dtype!r} is not a data type MXNet has; use one of "
            f"{choices()} (or the numpy type, e.g. np.float32)"
        ) from None
    if result.type not in DTYPE_NP_TO_MX:  # 'complex64': MXNet's "Invalid Input"
        raise MXNetTypeError(
            f"dtype={dtype!r} is not a data type MXNet has; use one of "
            f"{choices()} (or the numpy type, e.g. np.float32)"
        )
    return result


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
    return NDArray(np.zeros(_shape(shape, "mx.nd.zeros", dtype), _dtype(dtype)), ctx)


def ones(shape, ctx=None, dtype=None, **kwargs):
    """An NDArray of ones."""
    return NDArray(np.ones(_shape(shape, "mx.nd.ones", dtype), _dtype(dtype)), ctx)


def eye(N, M=0, k=0, ctx=None, dtype=None, **kwargs):  # MXNet's names
    """The N x M (M = N when 0) NDArray with ones on diagonal ``k``: ``mx.nd.eye(3)``."""
    return NDArray(np.eye(N, M or N, k).astype(_dtype(dtype)), ctx)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=None):
    """``num`` evenly spaced values from start to stop (stop left out unless ``endpoint``)."""
    values = np.linspace(start, stop, num, endpoint=endpoint)
    return NDArray(values.astype(_dtype(dtype)), ctx)


def moveaxis(tensor, source, destination):
    """``tensor`` with axis ``source`` moved to position ``destination`` (a transpose)."""
    axes = list(range(tensor.ndim))
    axes.insert(destination % tensor.ndim, axes.pop(source % tensor.ndim))
    return tensor.transpose(axes)


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """``ary`` split along ``axis`` as numpy.split does: an int N gives N equal parts (a
    ValueError when N does not divide the axis), a tuple of sorted ints the points where parts
    start; a list of NDArrays (one NDArray for one part)."""
    axis_size = ary.shape[axis]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if axis_size % sections:
            raise ValueError(
                f"array split does not result in an equal division: axis {axis} "
                f"has size {axis_size}, which {sections} does not divide (give the "
                "split points as a tuple for unequal parts)"
            )
        section_size = int(axis_size / sections)
        indices = [i * section_size for i in range(sections)]
    elif isinstance(indices_or_sections, tuple):
        indices = [0] + list(indices_or_sections)
    else:
        raise ValueError(
            "indices_or_sections must either int or tuple of ints (mx.nd.split_v2 "
            f"got {type(indices_or_sections).__name__} {indices_or_sections!r}; "
            "write an int N for N parts, or a tuple such as (2, 5))"
        )
    return _internal._split_v2(ary, indices, axis, squeeze_axis)


def _slice_assign_method(self, rhs, begin, end, step):
    """Write ``rhs`` into this array's slice [begin:end:step] in place; returns this array."""
    return _internal._slice_assign(self, rhs, begin=begin, end=end, step=step, out=self)


def _slice_assign_scalar_method(self, value, begin, end, step):
    """Set this array's slice [begin:end:step] to ``value`` in place; returns this array."""
    return _internal._slice_assign_scalar(self, value, begin=begin, end=end, step=step, out=self)


def _split_v2_method(self, *args, **kwargs):
    """Convenience fluent method for mx.nd.split_v2: x.split_v2(2, axis=1)."""
    return split_v2(self, *args, **kwargs)


def empty(shape, ctx=None, dtype=None):
    """A new NDArray whose values mean nothing until you write them: ``mx.nd.empty((2, 3))``.

    MXNet does not initialise it (whatever the memory held). minisym fills it with a fixed,
    visibly wrong sentinel instead, NaN for floats and the dtype's minimum for integers, so
    that reading it before writing shows, and the same way on every machine."""
    dims = _shape(shape, "mx.nd.empty", dtype, python_errors=True)
    dtype = _dtype(dtype)
    return NDArray(np.full(dims, empty_sentinel(dtype), dtype), ctx)


def empty_sentinel(dtype):
    """What ``mx.nd.empty`` fills an array of ``dtype`` with: NaN, or the integer minimum."""
    dtype = np.dtype(dtype)
    return np.nan if dtype.kind == "f" else np.iinfo(dtype).min if dtype.kind in "iu" else 0


def full(shape, val, ctx=None, dtype=None, out=None):
    """An NDArray filled with ``val``."""
    if isinstance(val, (str, bytes)):  # None gives NaN, as in MXNet
        raise TypeError(
            f"mx.nd.full: val={val!r} ({type(val).__name__}) is not a number; "
            "give the value every element gets, e.g. mx.nd.full((2, 3), 0.5)"
        )
    dims = _shape(shape, "mx.nd.full", dtype, python_errors=True)
    result = NDArray(np.full(dims, val, _dtype(dtype)), ctx)
    if out is not None:
        out[:] = result
        return out
    return result


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=None):
    """``start, start+step, ...`` below ``stop``, each value ``repeat`` times (float32)."""
    if step == 0:
        raise MXNetValueError(
            f"mx.nd.arange: step=0 never reaches stop={stop!r}; give a "
            "step that is not 0, e.g. step=1"
        )
    return NDArray(arange_values(start, stop, step, repeat, _dtype(dtype)), ctx)


def waitall():
    """Nothing to wait for: minisym computes synchronously."""


def dot(lhs, rhs, transpose_a=False, transpose_b=False, **kwargs):
    """Matrix product of two NDArrays."""
    a, b = to_numpy(lhs), to_numpy(rhs)
    a, b = a.T if transpose_a else a, b.T if transpose_b else b
    if a.ndim and b.ndim and a.shape[-1] != b.shape[0]:
        raise MXNetValueError(
            f"mx.nd.dot: dot shape error: lhs {a.shape} x rhs {b.shape}"
            f"{' (after the transposes)' if transpose_a or transpose_b else ''}: the last axis "
            f"of lhs ({a.shape[-1]}) must equal the first axis of rhs ({b.shape[0]}). "
            + (
                "Fix: transpose_b=True multiplies by rhs.T. "
                if a.shape[-1] == b.shape[-1] and not transpose_b
                else ""
            )
            + "Check which side should be transposed."
        )
    as_array = lambda x: x if isinstance(x, NDArray) else NDArray(to_numpy(x))
    return imperative_function(functions()["dot"])(  # an NDArray as itself: autograd records it
        as_array(lhs), as_array(rhs), transpose_a=transpose_a, transpose_b=transpose_b, **kwargs
    )


def _shape(shape, where, dtype=None, python_errors=False):
    """A shape typed as an int or a tuple of ints, checked (no negative or non-int size, and
    an array of it and ``dtype`` fits in the memory available); with ``python_errors`` a bad
    size is an OverflowError / TypeError, as MXNet's empty and full raise, else an MXNetError,
    as its zeros and ones do."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if isinstance(shape, np.ndarray) and shape.ndim == 1:
        shape = tuple(shape.tolist())  # MXNet refuses it; minisym reads it
    if not isinstance(shape, (tuple, list)):
        raise MXNetTypeError(
            f"{where}: shape={shape!r} is not a shape; give a tuple of sizes, e.g. shape=(2, 3)"
        )
    errors = {"negative": NegativeSizeOverflow, "fraction": TypeError} if python_errors else {}
    dims = check_shape(shape, where=where, name=None, mode="array", keyword="shape", **errors)
    check_array(dims, _dtype(dtype), where)
    return dims


def _install_operators():
    """mx.nd.<Operator> for every registered operator, and NDArray's fluent methods."""
    install(globals())
    dot.__signature__ = imperative_function(functions()["dot"]).__signature__  # MXNet's order
    contrib.install()  # mx.nd.contrib.Proposal, ...
    install_fluent(NDArray, imperative_function, "NDArray")
    NDArray.split_v2 = _split_v2_method  # MXNet's NDArray methods over Python-level functions
    NDArray.slice_assign = _slice_assign_method
    NDArray.slice_assign_scalar = _slice_assign_scalar_method
    for name, value in list(globals().items()):  # mx.nd._internal._plus_scalar, as in MXNet
        if name.startswith("_") and name[1:2].isalpha() and name in functions():
            setattr(_internal, name, value)


class _Internal:
    """``mx.nd._internal``: the underscore operator functions (``_plus_scalar``, ...)."""


_internal = _Internal()


_install_operators()  # mx.nd.<Operator>: every registered operator, run imperatively
