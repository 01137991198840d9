"""What operators of several modules share: parameter checks, per-channel reshapes, the spatial
geometry of convolution and pooling, when the fast kernels take over, axis and index reading,
dtype parameters, a gradient summed back to a broadcast input's shape, and the bases of value,
*_like and gradient-less operators (MXNet keeps such helpers in headers such as
src/operator/operator_common.h)."""

import numpy as np

from ..assign import assign
from ..base import DTYPE_NP_TO_MX, MXNetValueError
from ..kernels import fast_kernels_enabled
from .operator_base import Operator
from .params import Param, dtype_str
from .rules import same_shape

__all__ = [
    "at_least",
    "in_range",
    "all_but",
    "per_channel",
    "sum_to_shape",
    "fast_path",
    "lift_1d",
    "as_4d",
    "spatial_param",
    "check_spatial",
    "check_layout",
    "axis_in",
    "axes_of",
    "as_indices",
    "index_dtype_known",
    "wrap_or_clip",
    "no_gradient",
    "NoGradient",
    "check_dtype",
    "dtype_param",
    "ElemwiseValues",
    "LendsShape",
]


def at_least(lower):
    """A Param check: the value must be >= ``lower`` (MXNet's wording)."""
    return lambda v: None if v >= lower else f"should be greater equal to {lower}"


def in_range(lo, hi):
    """A Param check: the value must lie in [lo, hi]."""
    return lambda v: None if lo <= v <= hi else f"must be between {lo} and {hi}"


def all_but(ndim, axis):
    """Every axis of an ndim-array except ``axis`` (what per-channel sums reduce over)."""
    return tuple(i for i in range(ndim) if i != axis)


def per_channel(values, ndim, axis):
    """A (C,) vector shaped to broadcast along ``axis`` of an ndim-array."""
    shape = [1] * ndim
    shape[axis] = -1
    return values.reshape(shape)


def fast_path(data, spatial_dims):
    """Whether the numba/BLAS kernels handle this call (1-D or 2-D, float32 or float64)."""
    return (
        fast_kernels_enabled() and spatial_dims in (1, 2) and data.dtype in (np.float32, np.float64)
    )


def lift_1d(values, fill):
    """A 1-D geometry (k,) as the 2-D (fill, k) the kernels take."""
    return (fill,) + tuple(values) if len(values) == 1 else tuple(values)


def as_4d(array):
    """(N, C, W) -> (N, C, 1, W); 4-D arrays pass unchanged."""
    return array.reshape(array.shape[:2] + (1,) + array.shape[2:]) if array.ndim == 3 else array


def spatial_param(op, name, default):
    """A per-spatial-dimension parameter, filled to the kernel's length with ``default``; of a
    longer one (which Pooling accepts) only the first ``len(kernel)`` values count, as in MXNet."""
    value = getattr(op, name)
    return tuple(value)[: len(op.kernel)] if value else (default,) * len(op.kernel)


def check_spatial(op, longer_ok=False):
    """stride / dilate / pad, when given, have one value per kernel dimension; with
    ``longer_ok`` (Pooling, as MXNet's) extra values are accepted and ignored. Sizes are at
    least 1 (kernel, stride, dilate) or 0 (pad): MXNet checks ``incorrect kernel size`` when
    it infers shapes; minisym when the symbol is created."""
    for name, least, meaning in (
        ("kernel", 1, "the window's size"),
        ("stride", 1, "the step between windows"),
        ("dilate", 1, "the spacing of the window's taps"),
        ("pad", 0, "the zeros added per side"),
    ):
        value = tuple(getattr(op, name, None) or ())
        bad = [v for v in value if v < least]
        if bad:
            example = tuple(max(v, least) for v in value)
            raise MXNetValueError(
                f"{op.where}: incorrect {name} size: {name}={value} has {bad[0]}, but each value "
                f"({meaning}, one per spatial axis) must be at least {least}; e.g. "
                f"{name}={example}"
            )
    for name in ("stride", "dilate", "pad"):
        value = getattr(op, name, None)
        if value and (len(value) < len(op.kernel) if longer_ok else len(value) != len(op.kernel)):
            raise MXNetValueError(
                f"{op.where}: {name}={value} has {len(value)} values but "
                f"kernel={op.kernel} has {len(op.kernel)}; give one per "
                "spatial dimension"
            )


CHANNEL_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def check_layout(op, ndim):
    """Only channel-first layouts run; say so at forward (the graph itself accepts others)."""
    expected = CHANNEL_FIRST.get(ndim)
    if op.layout is not None and op.layout != expected:
        raise MXNetValueError(
            f"{op.where}: layout={op.layout!r} is not supported; minisym computes "
            f"{op.op_name} only in the channel-first layout {expected!r}. Transpose the data "
            "with mx.sym.transpose and leave layout unset"
        )


def as_indices(values):
    """Index values as MXNet reads them: truncated toward zero, as int64."""
    return np.trunc(values).astype(np.int64)


def index_dtype_known(op, in_type, slot):
    """MXNet needs the dtype of the index input to be known (it chooses the kernel by it)."""
    if in_type[slot] is None:
        name = op.list_arguments()[slot]
        raise MXNetValueError(
            f"{op.where}: the dtype of input {slot} '{name}' is unknown, and {op.op_name} needs "
            f"it (MXNet: 'Index type must be set'). Give the dtype of the variable that feeds "
            f"'{name}' (infer_type(<its name>='float32')), or bind it to an array"
        )


def no_gradient(op, req, out_grad, in_grad):
    """The backward of an operator MXNet 1.9.1 gives no gradient (no FGradient): a zero head
    gradient (below a BlockGrad) passes as zeros, any other raises MXNet's error."""
    if all(r == "null" for r in req):
        return
    if any(np.any(g != 0) for g in out_grad):
        raise MXNetValueError(
            f"Operator {op.op_name} is non-differentiable because it didn't register FGradient "
            f"attribute. ({op.where} has no gradient in MXNet 1.9.1: bind its inputs with "
            "grad_req='null', compute it outside autograd.record(), or put mx.sym.BlockGrad "
            "after it" + (f"; for a gradient use {op.instead}" if op.instead else "") + ")"
        )
    for grad, r in zip(in_grad, req):
        assign(grad, r, 0)


def sum_to_shape(grad, shape):
    """Sum ``grad`` over the axes that broadcasting added or stretched, giving ``shape``."""
    lead = grad.ndim - len(shape)
    stretched = tuple(lead + i for i, d in enumerate(shape) if d == 1 and grad.shape[lead + i] != 1)
    if not lead and not stretched:
        return grad.reshape(shape)  # nothing to sum: no copy
    return np.sum(grad, axis=tuple(range(lead)) + stretched, keepdims=True).reshape(shape)


def wrap_or_clip(indices, size, mode):
    """Truncated indices, clipped into [0, size) or wrapped around it."""
    idx = as_indices(indices)
    return np.mod(idx, size) if mode == "wrap" else np.clip(idx, 0, size - 1)


def axis_in(op, axis, ndim, what="axis"):
    """``axis`` as a non-negative int, or a teaching error naming the range."""
    if not -ndim <= axis < ndim:
        raise MXNetValueError(
            f"{op.where}: {what}={axis} is out of range for data with {ndim} "
            f"dimensions; use an axis in [{-ndim}, {ndim - 1}]"
        )
    return axis % ndim


def axes_of(axes, ndim, where, name):
    """``axes`` (negative counting from the end) as non-negative axes of an ndim-array."""
    found = []
    for axis in axes:
        if not -ndim <= axis < ndim:
            raise MXNetValueError(
                f"{where}: {name} has axis {axis}, but the input has {ndim} "
                f"axes; give axes in -{ndim}..{ndim - 1}"
            )
        found.append(axis % ndim)
    return found


_DTYPES = tuple(np.dtype(t).name for t in DTYPE_NP_TO_MX)  # float32, float64, ..., bool


def check_dtype(op, dtype):
    """A TypeError naming the operator when ``dtype`` is not one MXNet has (MXNet's Python
    wrapper raises numpy's TypeError for it)."""
    if dtype not in _DTYPES:
        raise TypeError(
            f"{op.where}: dtype={dtype!r} is not a data type MXNet has; use one "
            f"of {', '.join(map(repr, _DTYPES))} (or the numpy type, e.g. "
            "np.float32)"
        )


def dtype_param(default):
    """A dtype parameter read leniently (numpy names) and checked by ``check_dtype``."""

    def read(text):
        try:
            return dtype_str(text)
        except ValueError:  # 'float33': check_dtype says which ones exist
            return text.strip()

    read.__name__ = "dtype"
    return Param(read, default)


class ElemwiseValues(Operator):
    """The inputs (most often one) and the output share one shape (both ways) and dtype."""

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output of the same shape (the output's shape gives data's too)."""
        return same_shape(self, in_shape, out_shape)


class LendsShape(Operator):
    """Base of the *_like operators: input 1 only lends its shape, input 0 its values."""

    backward_needs = ("out_grad",)

    def infer_type(self, in_type, out_type):
        """The output has input 0's dtype; input 1 keeps its own."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        return [dtype, in_type[1]], [dtype], []


class NoGradient(Operator):
    """Base of an operator without a gradient in MXNet 1.9.1 (``instead``: what has one)."""

    backward_needs = ("out_grad",)
    has_gradient = False

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """None in MXNet 1.9.1: refused (zeros below a BlockGrad)."""
        no_gradient(self, req, out_grad, in_grad)
