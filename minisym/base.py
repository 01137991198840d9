"""Exception types and dtype codes shared by the whole engine."""

import numpy as np

__all__ = [
    "MXNetError",
    "MXNetValueError",
    "MXNetTypeError",
    "MXNetOSError",
    "MXNetMemoryError",
    "NotImplementedForSymbol",
    "MistakeWarning",
    "DTYPE_NP_TO_MX",
    "DTYPE_MX_TO_NP",
    "dtype_name",
    "py_str",
]


class MXNetError(RuntimeError):
    """An error raised by the engine itself (MXNet's ``mx.base.MXNetError``)."""


class MXNetValueError(MXNetError, ValueError):
    """An MXNetError about a bad value or shape; ``except ValueError`` catches it too."""


class MXNetTypeError(MXNetError, TypeError):
    """An MXNetError about a bad type or name; ``except TypeError`` catches it too."""


class MXNetOSError(MXNetError, OSError):
    """An MXNetError about a file that cannot be read or written (no such folder, no space left);
    ``except OSError`` catches it too, and ``errno`` / ``filename`` are the system's."""

    def __init__(self, message, errno=None, filename=None):
        super().__init__(message)
        self.errno, self.filename = errno, filename

    def __str__(self):
        return self.args[0]


class MXNetMemoryError(MXNetError, MemoryError):
    """An MXNetError for arrays that would not fit in the memory available to the process,
    raised before anything is allocated; ``except MemoryError`` catches it too."""


class MistakeWarning(UserWarning):
    """Something a learner did that runs but gives a wrong result without a word from MXNet
    (an ``in_grad`` overwritten where ``req`` is ``'add'``, an executor array replaced instead
    of written into, ...). One category for all of them, so ``-W error::minisym.MistakeWarning``
    turns exactly these into errors; MXNet itself has none of them."""


class NotImplementedForSymbol(MXNetError):
    """An NDArray-only operation was called on a Symbol (e.g. ``+=``)."""

    def __init__(self, function, alias, *args):
        super().__init__()
        self.function = function.__name__
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self):
        msg = f"Function {self.function}"
        if self.alias:
            msg += f' (namely operator "{self.alias}")'
        if self.args:
            msg += " with arguments (" + ", ".join(self.args) + ")"
        return msg + " is not implemented for Symbol and only available in NDArray."


# MXNet's integer type codes (include/mxnet/base.h); they appear in `__dtype__` attributes
# and in the dtypes a CustomOpProp.create_operator receives.
DTYPE_NP_TO_MX = {
    np.float32: 0,
    np.float64: 1,
    np.float16: 2,
    np.uint8: 3,
    np.int32: 4,
    np.int8: 5,
    np.int64: 6,
    np.bool_: 7,
}
DTYPE_MX_TO_NP = {code: t for t, code in DTYPE_NP_TO_MX.items()}
DTYPE_MX_TO_NP[-1] = None

# MXNet's default real type, the dtype of mx.nd.array and of every Variable without __dtype__.
mx_real_t = np.float32


def py_str(data):
    """The text of ``data``, bytes decoded as UTF-8 (MXNet's helper for strings from C)."""
    return data.decode("utf-8")


def _as_list(obj):
    """obj itself when it is a list or tuple, else [obj] (MXNet's helper for one-or-many)."""
    return obj if isinstance(obj, (list, tuple)) else [obj]


def dtype_name(dtype):
    """'float32' for any dtype-like; 'None' for None."""
    return "None" if dtype is None else np.dtype(dtype).name
