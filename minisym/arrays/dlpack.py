"""DLPack: hand an NDArray's memory to another library, or take theirs, without copying.

    capsule = mx.nd.to_dlpack_for_read(x)     # a PyCapsule named "dltensor", sharing x's memory
    y = mx.nd.from_dlpack(capsule)            # an NDArray on that same memory (capsule used up)

Any DLPack consumer (``torch.utils.dlpack.from_dlpack``, ...) takes the capsule, and
``from_dlpack`` takes one from any producer (``numpy_array.__dlpack__()``), as in MXNet: a CPU
tensor with compact (C-order) strides, consumed once.
"""

import ctypes

import numpy as np

from ..base import DTYPE_NP_TO_MX, MXNetError
from ..context import cpu
from .ndarray import NDArray

__all__ = ["to_dlpack_for_read", "to_dlpack_for_write", "from_dlpack"]

_NAME = b"dltensor"
_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]


def to_dlpack_for_read(data):
    """A PyCapsule "dltensor" sharing ``data``'s memory (NDArray of any shape), to read."""
    data.wait_to_read()  # an AttributeError for what is not an NDArray, as in MXNet
    return _export(data)


def to_dlpack_for_write(data):
    """A PyCapsule "dltensor" sharing ``data``'s memory: what the consumer writes, ``data``
    holds."""
    data.wait_to_read()
    return _export(data)


def _export(data):
    if not data._data.flags.writeable:
        raise MXNetError(
            "to_dlpack: this NDArray's memory is read-only here (an array the "
            "tracer keeps); take x.copy() and export the copy"
        )
    return data._data.__dlpack__()


class _Capsule:
    """What ``np.from_dlpack`` reads: the capsule and the device it is on (the CPU)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def from_dlpack(dlpack):
    """An NDArray on the memory of the DLPack ``dlpack`` (a PyCapsule "dltensor"), which is used
    up: a second ``from_dlpack`` of it raises, as in MXNet."""
    assert _is_fresh(dlpack), ValueError(
        "Invalid DLPack Tensor. DLTensor capsules can be consumed only once."
    )
    view = np.from_dlpack(_Capsule(dlpack))  # renames the capsule "used_dltensor"
    if not _compact(view):
        raise MXNetError(
            "from_dlpack: Unsupported DLPack because MXNet only support compact "
            f"tensor now: strides {view.strides} for shape {view.shape}; give a "
            "C-contiguous tensor (numpy: np.ascontiguousarray(a).__dlpack__())"
        )
    if view.dtype.type not in DTYPE_NP_TO_MX and view.dtype != np.bool_:
        raise MXNetError(
            f"from_dlpack: Unsupported DLPack data type {view.dtype}: MXNet "
            "takes float16/32/64, uint8, int8, int32, int64 or bool"
        )
    return NDArray(_writable(view), cpu(0))


def _is_fresh(obj):
    """Whether ``obj`` is a PyCapsule named "dltensor" (not yet used)."""
    return type(obj).__name__ == "PyCapsule" and bool(_api.PyCapsule_IsValid(obj, _NAME))


def _compact(view):
    """MXNet's test: the last stride 1 and each other the product of the sizes after it."""
    if view.ndim == 0:
        return True
    strides = [s // view.itemsize for s in view.strides]
    return strides[-1] == 1 and all(
        strides[i] == view.shape[i + 1] * strides[i + 1] for i in range(view.ndim - 1)
    )


def _writable(view):
    """The same memory as ``view`` without numpy's read-only mark (numpy marks every tensor of
    an unversioned capsule read-only; MXNet's from_dlpack result is writable). The buffer keeps
    ``view``, and so the producer's memory, alive."""
    if view.size == 0:
        return np.empty(view.shape, view.dtype)
    buffer = (ctypes.c_byte * view.nbytes).from_address(view.ctypes.data)
    buffer.owner = view
    return np.frombuffer(buffer, view.dtype).reshape(view.shape)
