"""Devices. minisym computes on the CPU; ``mx.gpu()`` is accepted so GPU blog code runs as typed."""

import threading
import warnings

from .base import MXNetError

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "num_gpus", "gpu_memory_info", "current_context"]

_warned_gpu = threading.Event()


class Context:
    """A device: ``Context('cpu', 0)``. Equal contexts compare equal; ``str`` is ``cpu(0)``."""

    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {name: code for code, name in devtype2str.items()}

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            device_type, device_id = device_type.device_type, device_type.device_id
        if device_type not in self.devstr2type:
            # MXNet's type (its devstr2type lookup), with what would have worked
            raise KeyError(
                f"unknown device type {device_type!r}; use one of "
                f"{sorted(self.devstr2type)}, e.g. mx.cpu() or mx.gpu(0)"
            )
        self.device_type = device_type
        self.device_id = int(device_id)
        self._old_ctx = None

    @property
    def device_typeid(self):
        """MXNet's integer device code (cpu=1, gpu=2)."""
        return self.devstr2type[self.device_type]

    def empty_cache(self):
        """Free the GPU memory pool: nothing to free in minisym (every array lives on the CPU)."""
        if self.device_type != "gpu":
            raise MXNetError(
                f"{self}.empty_cache(): only a GPU context has a memory pool to "
                "empty (MXNet raises for the CPU too); call it on mx.gpu(i)"
            )

    def __eq__(self, other):
        return (
            isinstance(other, Context)
            and self.device_type == other.device_type
            and self.device_id == other.device_id
        )

    def __hash__(self):
        return hash((self.device_type, self.device_id))

    def __str__(self):
        return f"{self.device_type}({self.device_id})"

    __repr__ = __str__

    def __enter__(self):
        self._old_ctx = current_context()
        Context._default.value = self
        return self

    def __exit__(self, ptype, value, trace):
        Context._default.value = self._old_ctx

    _default = threading.local()


def cpu(device_id=0):
    """The CPU context ``cpu(device_id)``."""
    return Context("cpu", device_id)


def gpu(device_id=0):
    """A GPU context; minisym runs it on the CPU and says so once."""
    if not _warned_gpu.is_set():
        _warned_gpu.set()
        warnings.warn(
            "minisym has no GPU backend: mx.gpu() runs on the CPU "
            "(results are the same, only slower)",
            UserWarning,
            stacklevel=2,
        )
    return Context("gpu", device_id)


def cpu_pinned(device_id=0):
    """The pinned-memory CPU context ``cpu_pinned(device_id)`` (plain CPU memory in minisym)."""
    return Context("cpu_pinned", device_id)


def num_gpus():
    """0: minisym has no GPU backend (``mx.gpu(i)`` contexts still run, on the CPU)."""
    return 0


def gpu_memory_info(device_id=0):
    """MXNetError, as on a CPU-only MXNet: there is no GPU whose memory could be read."""
    raise MXNetError(
        f"gpu_memory_info({device_id}): minisym has no GPU (num_gpus() is 0), so "
        "there is no GPU memory to report; mx.gpu() contexts run on the CPU"
    )


def current_context():
    """The default context (``cpu(0)`` unless inside ``with ctx:``)."""
    if not hasattr(Context._default, "value"):
        Context._default.value = Context("cpu", 0)
    return Context._default.value
