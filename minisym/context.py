"""Devices. minisym computes on the CPU; ``mx.gpu()`` is accepted so GPU blog code runs as typed."""
import threading
import warnings

__all__ = ["Context", "cpu", "gpu", "current_context"]

_warned_gpu = threading.Event()


class Context:
    """A device: ``Context('cpu', 0)``. Equal contexts compare equal; ``str`` is ``cpu(0)``."""

    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {name: code for code, name in devtype2str.items()}

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            device_type, device_id = device_type.device_type, device_type.device_id
        if device_type not in self.devstr2type:
            raise ValueError(f"unknown device type {device_type!r}; use one of "
                             f"{sorted(self.devstr2type)}")
        self.device_type = device_type
        self.device_id = int(device_id)
        self._old_ctx = None

    @property
    def device_typeid(self):
        """MXNet's integer device code (cpu=1, gpu=2)."""
        return self.devstr2type[self.device_type]

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_type == other.device_type
                and self.device_id == other.device_id)

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
        warnings.warn("minisym has no GPU backend: mx.gpu() runs on the CPU "
                      "(results are the same, only slower)", UserWarning, stacklevel=2)
    return Context("gpu", device_id)


def current_context():
    """The default context (``cpu(0)`` unless inside ``with ctx:``)."""
    if not hasattr(Context._default, "value"):
        Context._default.value = Context("cpu", 0)
    return Context._default.value
