"""``mx.nd.random``: arrays of random numbers from the engine's seeded generator."""

import numpy as np

from ..arrays.ndarray import MX_REAL_T, NDArray
from ..random import generator

__all__ = ["uniform", "normal"]


def uniform(low=0.0, high=1.0, shape=(1,), dtype=None, ctx=None, out=None, **kwargs):
    """Values drawn uniformly from [low, high)."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    values = generator().uniform(low, high, shape).astype(dtype or MX_REAL_T)
    return _result(values, ctx, out)


def normal(loc=0.0, scale=1.0, shape=(1,), dtype=None, ctx=None, out=None, **kwargs):
    """Values drawn from N(loc, scale**2)."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    values = generator().normal(loc, scale, shape).astype(dtype or MX_REAL_T)
    return _result(values, ctx, out)


def _result(values, ctx, out):
    if out is not None:
        out[:] = values
        return out
    return NDArray(np.asarray(values), ctx)
