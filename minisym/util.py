"""``mx.util``'s switch between MXNet's two shape conventions, legacy half only.

MXNet 1.9.1 reads a 0 in a shape as "unknown" (legacy, the default, what this course teaches)
or, under ``mx.np_shape(True)``, as a real size of zero with -1 for unknown (NumPy's
convention, for ``mx.np``). minisym keeps the legacy convention: ``mx.np_shape(False)``, which
MXNet's own tests write around their partial-shape cases, works; asking for NumPy's shapes
raises and says why.
"""
from .base import MXNetError

__all__ = ["is_np_shape", "set_np_shape", "np_shape", "use_np_shape", "is_np_array"]

_OUTSIDE = ("NumPy shape semantics (mx.np_shape(True): 0 a real size, -1 unknown) belong to "
            "mx.np, which is outside this course: minisym keeps MXNet's legacy shapes, where 0 "
            "means unknown. Leave the switch out, or write mx.np_shape(False).")


def is_np_shape():
    """False: shapes follow MXNet's legacy convention (0 = unknown)."""
    return False


def is_np_array():
    """False: arrays are mx.nd NDArrays, not mx.np ndarrays."""
    return False


def set_np_shape(active):
    """Set the convention; returns the previous one (False). Only False is possible here."""
    if active:
        raise MXNetError(_OUTSIDE)
    return False


class _NumpyShapeScope:
    """``with mx.np_shape(False):`` (a no-op here; as in MXNet, not a decorator)."""

    def __init__(self, is_np_shape=True):  # noqa: FBT002 (MXNet's signature)
        if is_np_shape:
            raise MXNetError(_OUTSIDE)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def np_shape(active=True):
    """A scope with the given shape convention: ``with mx.np_shape(False):``."""
    return _NumpyShapeScope(active)


def use_np_shape(func):
    """MXNet's decorator for NumPy shapes inside ``func``: refused here, as np_shape(True)."""
    raise MXNetError(_OUTSIDE)
