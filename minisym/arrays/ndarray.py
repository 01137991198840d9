"""NDArray: MXNet's array, here a thin wrapper around a NumPy array (often a view).

An NDArray never copies unless asked (``copy``, ``asnumpy``): ``bind`` uses your arrays in
place, slices are views, and ``x[:] = value`` writes into the same memory the executor reads.
"""

import numpy as np

from ..base import MXNetTypeError, MXNetValueError
from ..context import Context, current_context
from ..operand_errors import OPERATOR_SYMBOLS, describe, shape_difference, unsupported_operand
from ..shape_check import is_size
from . import tape as _tape

__all__ = ["NDArray", "to_numpy", "MX_REAL_T"]

MX_REAL_T = np.float32


def to_numpy(value):
    """The NumPy array behind an NDArray, or ``value`` as an array."""
    return value._data if isinstance(value, NDArray) else np.asarray(value)


class NDArray:
    """An n-dimensional array on a context: ``<NDArray 2x3 @cpu(0)>``."""

    __slots__ = ("_data", "_ctx", "writable", "_ag", "__weakref__")
    __array_priority__ = 1000.0  # numpy defers to NDArray's operators
    __module__ = "minisym.ndarray.ndarray"  # MXNet's path (mxnet.ndarray.ndarray.NDArray)

    def __init__(self, data, ctx=None, writable=True):
        self._data = data
        self._ctx = ctx if ctx is not None else current_context()
        self.writable = writable
        self._ag = None  # autograd: a Variable, (TapeNode, index), UNTRACKED or None

    # --- what it is ------------------------------------------------------------------------
    @property
    def shape(self):
        """The shape as a tuple of ints."""
        return tuple(self._data.shape)

    @property
    def dtype(self):
        """The element type as a numpy type class (``numpy.float32``)."""
        return self._data.dtype.type

    @property
    def size(self):
        """The number of elements."""
        return int(self._data.size)

    @property
    def ndim(self):
        """The number of dimensions."""
        return self._data.ndim

    @property
    def context(self):
        """The device: ``cpu(0)``."""
        return self._ctx

    ctx = context

    @property
    def stype(self):
        """The storage type: always ``'default'`` (dense) in minisym."""
        return "default"

    @property
    def T(self):
        """The transpose (a copy, as in MXNet)."""
        result = NDArray(np.ascontiguousarray(self._data.T), self._ctx)
        return _recorded("T", [self], result, lambda g: [g[0].T])

    def __len__(self):
        return self._data.shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    # --- reading ---------------------------------------------------------------------------
    def asnumpy(self):
        """A NumPy copy of the values."""
        return np.array(self._data, copy=True)

    def asscalar(self):
        """The one value of a size-1 array: a numpy scalar for shape (1,); for (1, 1), (1, 1, 1)
        ... a copy of the array itself (``asnumpy()[()]``), as MXNet returns it."""
        if self.size != 1:
            raise ValueError(
                f"The current array is not a scalar: shape {self.shape}; "
                "index it first, e.g. x[0].asscalar()"
            )
        if self.ndim == 1:
            return self._data[0]
        return self.asnumpy()[()]

    def to_dlpack_for_read(self):
        """A PyCapsule "dltensor" sharing this array's memory: ``mx.nd.to_dlpack_for_read``."""
        from .dlpack import to_dlpack_for_read  # deferred: dlpack builds on this module

        return to_dlpack_for_read(self)

    def to_dlpack_for_write(self):
        """A PyCapsule "dltensor" sharing this array's memory: ``mx.nd.to_dlpack_for_write``."""
        from .dlpack import to_dlpack_for_write  # deferred: dlpack builds on this module

        return to_dlpack_for_write(self)

    def __array__(self, dtype=None, copy=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def wait_to_read(self):
        """Nothing to wait for: minisym computes synchronously."""

    def __repr__(self):
        shape_info = "x".join(str(d) for d in self.shape)
        return f"\n{self._data}\n<{type(self).__name__} {shape_info} @{self._ctx}>"

    def __bool__(self):
        if self.size == 1:
            return bool(self._data.reshape(-1)[0])
        raise ValueError("The truth value of an NDArray with multiple elements is ambiguous.")

    __hash__ = object.__hash__

    # --- copies and views ------------------------------------------------------------------
    def copy(self):
        """A new NDArray with the same values."""
        return _recorded("copy", [self], NDArray(self._data.copy(), self._ctx), lambda g: [g[0]])

    def copyto(self, other):
        """Copy into ``other`` (an NDArray of the same shape) or onto a Context."""
        if isinstance(other, Context):
            return NDArray(self._data.copy(), other)
        if not isinstance(other, NDArray):
            raise TypeError(f"copyto does not support type {type(other)}")
        if other is self:
            return other
        if other.shape != self.shape:
            raise MXNetValueError(
                f"copyto: shape mismatch, {self.shape} into {other.shape}: "
                "copyto copies every value, so both must have the same shape "
                "(x.copyto(mx.nd.zeros(x.shape)), or use y[:] = x to "
                "broadcast)"
            )
        other._data[...] = self._data
        return other

    def as_in_context(self, context):
        """This array on ``context`` (itself when already there)."""
        return self if context == self._ctx else self.copyto(context)

    def astype(self, dtype, copy=True):
        """The values as ``dtype``."""
        if not copy and np.dtype(dtype) == self._data.dtype:
            return self
        return _recorded(
            "astype", [self], NDArray(self._data.astype(dtype), self._ctx), lambda g: [g[0]]
        )

    def tostype(self, stype):
        """A copy in storage type ``stype``: only 'default' (dense) exists here."""
        if stype != "default":
            raise MXNetValueError(
                f"tostype({stype!r}): minisym's arrays are dense only (sparse "
                "storage is outside this course); use tostype('default')"
            )
        return self.copy()

    def reshape(self, *shape, **kwargs):
        """A view with a new shape; MXNet's codes 0, -1, -2, -3, -4 and ``reverse`` work."""
        # deferred: Reshape's codes belong to its operator, a layer above the arrays
        from ..ops.tensor.matrix_op import reshape_codes

        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = tuple(shape[0])
        shape = tuple(kwargs.pop("shape", shape))
        reverse = kwargs.pop("reverse", False)
        if kwargs:
            raise TypeError(f"reshape got unexpected keyword arguments {sorted(kwargs)}")
        where = "NDArray.reshape"
        bad = next((i for i, d in enumerate(shape) if not is_size(d)), None)
        if bad is not None:
            raise TypeError(
                f"{where}: shape={shape!r}: dimension {bad} is {shape[bad]!r} "
                f"({type(shape[bad]).__name__}), but a size must be an int (or one of the codes "
                "0 = copy this axis, -1 = infer it, -2, -3, -4); write whole numbers, e.g. "
                "x.reshape((2, -1))"
            )
        target = (
            reshape_codes(shape[::-1], self.shape[::-1], where)[::-1]
            if reverse
            else reshape_codes(shape, self.shape, where)
        )
        if int(np.prod(target)) != self.size:
            raise ValueError(
                f"cannot reshape array of shape {self.shape} ({self.size} values) into {target}"
            )
        return self._view(self._data.reshape(target), "reshape")

    def flatten(self, inplace=False):
        """(N, d1, d2, ...) -> (N, d1*d2*...): a copy (operator flatten), or with
        ``inplace=True`` a view sharing this array's memory, as in MXNet."""
        if inplace:
            return self.reshape((0, -1))
        from ..ndarray import flatten  # deferred: mx.nd's operators are above the arrays

        return flatten(self)

    def expand_dims(self, axis, inplace=False):
        """A new axis of size 1 at ``axis``: a copy (operator expand_dims), or with
        ``inplace=True`` a view sharing this array's memory, as in MXNet."""
        if inplace:
            return self._view(np.expand_dims(self._data, axis), "expand_dims")
        from ..ndarray import expand_dims  # deferred: mx.nd's operators are above the arrays

        return expand_dims(self, axis=axis)

    # --- indexing --------------------------------------------------------------------------
    def __getitem__(self, key):
        index = _index(key)
        result = self._data[index]
        if not isinstance(result, np.ndarray) or result.ndim == 0:
            result = np.asarray(result).reshape(1)  # MXNet has no 0-d arrays: x[0, 0] is (1,)
        elif not result.flags.c_contiguous:
            # MXNet's view is one block of memory: x[1], x[1:3], x[0, 1:3] write through to x;
            # a slice whose elements are apart (x[:, 1], x[:, :, 1]) is a copy.
            result = np.ascontiguousarray(result)
        return _recorded(
            f"x[{_key_text(key)}]",
            [self],
            NDArray(result, self._ctx),
            lambda g: [_scatter(self._data, index, g[0])],
        )

    def __setitem__(self, key, value):
        # MXNet does not check ``writable`` here (only in +=, -=, ...): copied on purpose.
        _tape.check_not_recorded(self, f"x[{_key_text(key)}] = value")
        if isinstance(value, (str, bytes, dict, set)):  # None gives NaN, as in MXNet
            raise TypeError(
                f"NDArray does not support assignment with non-array-"
                f"like object {value!r} of type {type(value)}: assign a number, an "
                "NDArray or a numpy array"
            )
        target = self._data
        try:
            target[_index(key)] = to_numpy(value)
        except ValueError as exc:
            if "broadcast" not in str(exc):
                raise
            into = np.shape(target[_index(key)])
            raise ValueError(  # MXNet's type for it
                f"x[{_key_text(key)}] = value: value has shape {tuple(np.shape(to_numpy(value)))} "
                f"but x[{_key_text(key)}] has shape {into} (x is {self.shape}); the shapes "
                "cannot be broadcast together: on each axis, counted from the right, the sizes "
                "must be equal or value's must be 1. Nothing was written."
            ) from None

    # --- arithmetic ----------------------------------------------------------------------------
    def _binary(self, other, fn, symbol, reverse=False):
        """self ``symbol`` other (other ``symbol`` self when ``reverse``): ``other`` is an NDArray
        (broadcast as NumPy does) or a number (int, float, NumPy scalar), as in MXNet."""
        integer_division = fn is np.true_divide and np.issubdtype(self._data.dtype, np.integer)
        if (_tape.is_recording() or integer_division) and isinstance(other, (NDArray,) + _NUMBERS):
            # recorded (or dividing integers): the operator, as mx.nd.multiply(x, 2) is
            from ..ndarray import arithmetic  # deferred: mx.nd's operators, above the arrays

            function = getattr(arithmetic, _ARITHMETIC[fn if fn in _ARITHMETIC else symbol])
            return function(other, self) if reverse else function(self, other)
        if isinstance(other, NDArray):
            _check_broadcast(self, other, symbol, reverse)
            lhs, rhs = (other._data, self._data) if reverse else (self._data, other._data)
        elif isinstance(other, _NUMBERS):
            scalar = np.asarray(other).astype(self._data.dtype)
            lhs, rhs = (scalar, self._data) if reverse else (self._data, scalar)
        else:
            raise _operand_error(self, other, symbol, reverse)
        with np.errstate(all="ignore"):  # MXNet gives inf / nan silently
            value = np.asarray(fn(lhs, rhs))
        return NDArray(value.astype(self._data.dtype, copy=False), self._ctx)

    def _inplace(self, other, fn):
        symbol = _INPLACE_SYMBOLS.get(fn, fn.__name__)
        _tape.check_not_recorded(self, f"{symbol}=")
        if not self.writable:
            raise ValueError(
                f"trying to modify a readonly NDArray in place ({symbol}=): "
                "inside a custom operator in_data, out_grad and backward's out_data "
                "are read-only; write results into out_data / in_grad with "
                "self.assign"
            )
        # NumPy arrays are accepted here (MXNet refuses them) because CustomOp.assign(dst,
        # 'add', src) is dst[:] += src, and a custom operator's src is often a NumPy array.
        if not isinstance(other, (NDArray, np.ndarray) + _NUMBERS):
            raise TypeError(
                f"type {type(other)} not supported: "
                + unsupported_operand(self, symbol + "=", other)
            )
        if isinstance(other, NDArray):
            _check_broadcast(self, other, symbol + "=", False, into=True)
        fn(self._data, to_numpy(other), out=self._data, casting="unsafe")
        return self

    def __neg__(self):
        return _recorded("-x", [self], NDArray(-self._data, self._ctx), lambda g: [-g[0]])

    def __abs__(self):
        return _recorded(
            "abs(x)",
            [self],
            NDArray(np.abs(self._data), self._ctx),
            lambda g: [g[0] * np.sign(self._data)],
        )

    def _view(self, data, where):
        """A view of this array's memory with another shape (recorded inside record())."""
        shape = self._data.shape
        return _recorded(where, [self], NDArray(data, self._ctx), lambda g: [g[0].reshape(shape)])

    # --- autograd ----------------------------------------------------------------------------
    def attach_grad(self, grad_req="write", stype=None):
        """Give this array a gradient buffer, ``x.grad`` (zeros of its shape): the next
        ``backward`` of something computed from it inside ``autograd.record()`` fills it.
        ``grad_req``: 'write' overwrites it each backward, 'add' adds, 'null' none."""
        if stype not in (None, "default"):
            raise MXNetValueError(
                f"attach_grad: stype={stype!r}: minisym's arrays are dense; leave stype out"
            )
        _tape.attach(self, grad_req)

    @property
    def grad(self):
        """The gradient buffer from ``attach_grad`` (None without one)."""
        return _tape.grad_of(self)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """Gradients of this array, computed inside ``autograd.record()``, into the ``.grad``
        of every array it came from that has ``attach_grad``; ``out_grad`` (default: ones)
        weighs its elements."""
        # deferred: backward runs executors, two layers above the arrays
        from .. import autograd as _autograd

        _autograd.backward(
            [self],
            None if out_grad is None else [out_grad],
            retain_graph=retain_graph,
            train_mode=train_mode,
        )

    def detach(self):
        """The same values (sharing memory) without the recorded history: no gradient flows
        back through it."""
        return NDArray(self._data, self._ctx)


_NUMBERS = (int, float, np.generic)  # MXNet's numeric_types: bool is an int, complex is not
_LEFT_MUST_BE_NDARRAY = ("-", "/", "**", "%")  # MXNet asserts this in the reflected forms
_INPLACE_SYMBOLS = {
    np.add: "+",
    np.subtract: "-",
    np.multiply: "*",
    np.true_divide: "/",
    np.mod: "%",
    np.power: "**",
}


def _operand_error(array, other, symbol, reverse):
    """MXNet's exception for ``array symbol other`` (or reflected), with a teaching text."""
    text = unsupported_operand(array, symbol, other, reverse)
    if reverse and symbol in _LEFT_MUST_BE_NDARRAY:
        if other is None:
            return MXNetTypeError(f"the left operand of {symbol} is None: {text}")
        return AssertionError(f"Argument lhs must have NDArray type: {text}")
    return TypeError(f"type {type(other)} not supported: {text}")


def _check_broadcast(array, other, symbol, reverse, into=False):
    """An MXNetError naming both shapes when two NDArrays cannot be broadcast together
    (``into``: the result must also keep ``array``'s shape, as in ``+=``)."""
    if array.shape == other.shape:
        return
    try:
        fits = np.broadcast_shapes(array.shape, other.shape) == array.shape or not into
    except ValueError:
        fits = False
    if fits:
        return
    lhs, rhs = (other, array) if reverse else (array, other)
    difference, _ = shape_difference(lhs.shape, rhs.shape)
    need = (
        f"the result must keep the left's shape {lhs.shape}"
        if into
        else "on each axis, counted from the right, the sizes must be equal or one of them 1"
    )
    raise MXNetValueError(
        f"{describe(lhs)} {symbol} {describe(rhs)}: the shapes cannot be "
        f"broadcast together: {difference}; {need}"
    )


def _index(key):
    """NDArray keys become the NumPy arrays behind them; a float is refused as MXNet does."""
    if isinstance(key, NDArray):
        return key._data.astype(np.int64)
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    if isinstance(key, (float, np.floating)):
        raise ValueError(
            f"NDArray does not support slicing with key {key!r} of type "
            f"{type(key)}: an index is an int (x[{int(key)}]) or a slice (x[0:2])"
        )
    return key


def _key_text(key):
    """``0, 1:3`` for the key of ``x[0, 1:3]``."""

    def one(k):
        if isinstance(k, slice):
            return ":".join("" if v is None else str(v) for v in (k.start, k.stop)) + (
                f":{k.step}" if k.step is not None else ""
            )
        return "..." if k is Ellipsis else repr(k) if not isinstance(k, NDArray) else "index"

    return ", ".join(one(k) for k in key) if isinstance(key, tuple) else one(key)


def _recorded(where, inputs, result, backward_fn):
    """``result`` of a NumPy-level method; inside ``autograd.record()`` also put on the tape,
    with ``backward_fn(out_grads) -> [gradient per input]``."""
    if _tape.is_recording():
        _tape.record_function(where, inputs, [result], backward_fn)
    return result


def _scatter(data, index, grad):
    """The gradient of ``data[index]``: ``grad`` added back at the indexed places."""
    result = np.zeros_like(data)
    np.add.at(result, index, grad.reshape(np.shape(data[index])))
    return result


_ARITHMETIC = {
    np.add: "add",
    np.subtract: "subtract",
    np.multiply: "multiply",
    np.true_divide: "divide",
    np.mod: "modulo",
    np.power: "power",
    "==": "equal",
    "!=": "not_equal",
    ">": "greater",
    ">=": "greater_equal",
    "<": "lesser",
    "<=": "lesser_equal",
}


def _comparison(fn):
    """A comparison giving 1 / 0 in the left operand's dtype (MXNet has no bool arrays)."""
    return lambda lhs, rhs: fn(lhs, rhs).astype(np.result_type(lhs))


_BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "truediv": np.true_divide,
    "mod": np.mod,
    "pow": np.power,
}
for _name, _fn in _BINARY.items():
    _op = OPERATOR_SYMBOLS[_name]
    setattr(
        NDArray, f"__{_name}__", lambda self, other, fn=_fn, op=_op: self._binary(other, fn, op)
    )
    setattr(
        NDArray,
        f"__r{_name}__",
        lambda self, other, fn=_fn, op=_op: self._binary(other, fn, op, True),
    )
    setattr(NDArray, f"__i{_name}__", lambda self, other, fn=_fn: self._inplace(other, fn))
for _name, _fn in {
    "eq": np.equal,
    "ne": np.not_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
}.items():
    _compare = _comparison(_fn)
    setattr(
        NDArray,
        f"__{_name}__",
        lambda self, other, fn=_compare, op=OPERATOR_SYMBOLS[_name]: self._binary(other, fn, op),
    )
