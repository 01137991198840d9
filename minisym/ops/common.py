"""What the layer operators share: parameter checks, per-channel reshapes, the spatial
geometry of convolution and pooling, and when the fast kernels take over."""
import numpy as np

from ..base import MXNetValueError
from ..kernels import fast_kernels_enabled

__all__ = ["at_least", "in_range", "all_but", "per_channel", "fast_path", "lift_1d", "as_4d",
           "spatial_param", "check_spatial", "check_layout"]


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
    return (fast_kernels_enabled() and spatial_dims in (1, 2)
            and data.dtype in (np.float32, np.float64))


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
    return tuple(value)[:len(op.kernel)] if value else (default,) * len(op.kernel)


def check_spatial(op, longer_ok=False):
    """stride / dilate / pad, when given, have one value per kernel dimension; with
    ``longer_ok`` (Pooling, as MXNet's) extra values are accepted and ignored. Sizes are at
    least 1 (kernel, stride, dilate) or 0 (pad): MXNet checks ``incorrect kernel size`` when
    it infers shapes; minisym when the symbol is created."""
    meaning = {"kernel": "the window's size", "stride": "the step between windows",
               "dilate": "the spacing of the window's taps", "pad": "the zeros added per side"}
    for name, least in (("kernel", 1), ("stride", 1), ("dilate", 1), ("pad", 0)):
        value = tuple(getattr(op, name, None) or ())
        bad = [v for v in value if v < least]
        if bad:
            example = tuple(max(v, least) for v in value)
            raise MXNetValueError(
                f"{op.where}: incorrect {name} size: {name}={value} has {bad[0]}, but each value "
                f"({meaning[name]}, one per spatial axis) must be at least {least}; e.g. "
                f"{name}={example}")
    for name in ("stride", "dilate", "pad"):
        value = getattr(op, name, None)
        if value and (len(value) < len(op.kernel) if longer_ok else
                      len(value) != len(op.kernel)):
            raise MXNetValueError(f"{op.where}: {name}={value} has {len(value)} values but "
                                  f"kernel={op.kernel} has {len(op.kernel)}; give one per "
                                  "spatial dimension")


CHANNEL_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def check_layout(op, ndim):
    """Only channel-first layouts run; say so at forward (the graph itself accepts others)."""
    expected = CHANNEL_FIRST.get(ndim)
    if op.layout is not None and op.layout != expected:
        raise MXNetValueError(
            f"{op.where}: layout={op.layout!r} is not supported; minisym computes "
            f"{op.op_name} only in the channel-first layout {expected!r}. Transpose the data "
            "with mx.sym.transpose and leave layout unset")
