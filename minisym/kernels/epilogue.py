"""What a convolution kernel applies to its output while it is in cache when a BatchNorm at
inference is folded into it: a shift per filter, then ReLU or a Clip's limits. An epilogue is
the tuple (shift (F,), relu, low, high); a size-0 shift means none."""

import numpy as np
from numba import njit, uint64

from .jit import CACHE

__all__ = ["no_epilogue", "epilogue_of", "shift_and_limit", "shifted_copy_at"]


def no_epilogue(dtype):
    """The epilogue that does nothing (of the same numba types as one that does)."""
    return np.empty(0, dtype), False, dtype.type(-np.inf), dtype.type(np.inf)


def epilogue_of(offset, act, dtype):
    """The epilogue adding ``offset`` (F,) per filter, then ``act``: None, 'relu' or a Clip's
    (low, high)."""
    low, high = (-np.inf, np.inf) if act in (None, "relu") else act
    return offset.astype(dtype), act == "relu", dtype.type(low), dtype.type(high)


@njit(cache=CACHE, inline="always")
def shift_and_limit(rows, shift, relu, low, high):
    """rows[f] + shift[f], then max(., 0) if relu, then limited to [low, high] (NaN passes):
    what BatchNorm's kernel does after its scale, with the same tests."""
    for f in range(rows.shape[0]):
        row, by = rows[f], shift[f]
        for k in range(row.size):
            v = row[k] + by
            v = v if (v > 0 or not relu) else 0
            row[k] = low if v < low else (high if v > high else v)


@njit(cache=CACHE, inline="always")
def shifted_copy_at(out, start, src, src_start, count, by, relu, low, high):
    """out[start + k] = src[src_start + k] + by, then ``shift_and_limit``'s relu and limits,
    for k < count (starts unsigned): the epilogue while a row is copied out."""
    for k in range(uint64(count)):
        v = src[src_start + k] + by
        v = v if (v > 0 or not relu) else 0
        out[start + k] = low if v < low else (high if v > high else v)
