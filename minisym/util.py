"""``mx.util``'s switch between MXNet's two shape conventions.

MXNet 1.9.1 reads a 0 in a shape as "unknown" (legacy, the default, what this course teaches)
or, under ``mx.np_shape(True)``, as a real size of zero with -1 for unknown (NumPy's
convention, for ``mx.np``). minisym's inference always works in the legacy convention; under
``np_shape(True)`` it reports in NumPy's: an unknown size as -1 and a wholly unknown shape as
None (a -1 given is unknown in both). ``mx.np`` arrays themselves (``use_np_array``) are outside
the course.
"""

import functools

from .base import MXNetError

__all__ = [
    "is_np_shape",
    "set_np_shape",
    "np_shape",
    "use_np_shape",
    "use_np_array",
    "use_np",
    "is_np_array",
]

_state = {"np_shape": False}

_NO_NP_ARRAY = (
    "mx.np arrays (use_np / use_np_array) are outside this course: minisym's "
    "arrays are mx.nd NDArrays. Leave the decorator out, or use "
    "mx.use_np_shape for NumPy's shape convention alone."
)


def is_np_shape():
    """Whether shapes are reported in NumPy's convention (-1 = unknown); False by default."""
    return _state["np_shape"]


def is_np_array():
    """False: arrays are mx.nd NDArrays, not mx.np ndarrays."""
    return False


def set_np_shape(active):
    """Set the convention (True: NumPy's, -1 = unknown); returns the previous one."""
    previous, _state["np_shape"] = _state["np_shape"], bool(active)
    return previous


class _NumpyShapeScope:
    """``with mx.np_shape(True):`` -- the convention inside the block, restored after."""

    def __init__(self, is_np_shape=True):  # MXNet's signature
        self._enter_state = bool(is_np_shape)
        self._prev = None

    def __enter__(self):
        self._prev = set_np_shape(self._enter_state)
        return self

    def __exit__(self, *exc):
        set_np_shape(self._prev)
        return False


def np_shape(active=True):
    """A scope with the given shape convention: ``with mx.np_shape(True):``."""
    return _NumpyShapeScope(active)


def use_np_shape(func):
    """Run ``func`` under NumPy's shape convention (MXNet's decorator)."""

    @functools.wraps(func)
    def under_np_shape(*args, **kwargs):
        with np_shape(True):
            return func(*args, **kwargs)

    return under_np_shape


def use_np_array(func):
    """MXNet's decorator for mx.np arrays inside ``func``: ``func`` refuses to run; the rest of
    a file that defines it still loads."""

    @functools.wraps(func)
    def refuse(*args, **kwargs):
        raise MXNetError(f"{func.__qualname__} is decorated with use_np: {_NO_NP_ARRAY}")

    return refuse


use_np = use_np_array
