"""The autograd tape: whether calls are recorded, and what each recorded call keeps.

While ``mx.autograd.record()`` is on, every NDArray computed carries a tag (``NDArray._ag``):
the tape node that computed it and which output it is, or the Variable of an array you asked
gradients for. ``mx.autograd.backward`` (``minisym/autograd.py``, with the executors) walks the
nodes back from a head. The tape lives with the arrays, below the operators and executors.
"""

import threading

import numpy as np

from ..assign import assign
from ..base import MXNetError

__all__ = [
    "record",
    "pause",
    "train_mode",
    "predict_mode",
    "is_recording",
    "is_training",
    "set_recording",
    "set_training",
    "RecordingStateScope",
    "GRAD_REQS",
    "Variable",
    "UNTRACKED",
    "TapeNode",
    "FunctionNode",
    "source_of",
    "tag_outputs",
    "record_function",
    "check_not_recorded",
    "attach",
    "check_req",
    "grad_of",
]

GRAD_REQS = ("write", "add", "null")

_state = threading.local()  # per thread, as in MXNet


def is_recording():
    """Whether operator calls are being recorded for ``backward`` (inside ``record()``)."""
    return getattr(_state, "recording", False)


def is_training():
    """Whether operators run in training mode (Dropout drops, BatchNorm uses batch stats)."""
    return getattr(_state, "training", False)


def set_recording(is_recording):
    """Turn recording on or off; returns the previous state."""
    previous = getattr(_state, "recording", False)
    _state.recording = bool(is_recording)
    return previous


def set_training(train_mode):
    """Turn training mode on or off; returns the previous state."""
    previous = getattr(_state, "training", False)
    _state.training = bool(train_mode)
    return previous


class RecordingStateScope:
    """``with`` scope that sets recording and / or training mode and restores them after."""

    def __init__(self, is_record, train_mode):
        self._enter_record, self._enter_train = is_record, train_mode
        self._prev_record = self._prev_train = None

    def __enter__(self):
        if self._enter_record is not None:
            self._prev_record = set_recording(self._enter_record)
        if self._enter_train is not None:
            self._prev_train = set_training(self._enter_train)
        return self

    def __exit__(self, *exc):
        if self._enter_record is not None:
            set_recording(self._prev_record)
        if self._enter_train is not None:
            set_training(self._prev_train)
        return False


def _flag(value, where):
    """``train_mode`` as a bool; a string (``'False'`` would be true) is refused."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{where}: train_mode={value!r} is not a bool: write "
            "train_mode=True or train_mode=False (without quotes)"
        )
    return bool(value)


def record(train_mode=True):
    """``with mx.autograd.record():`` records every operator call for ``backward``;
    ``train_mode=False`` records while operators run as in inference."""
    return RecordingStateScope(True, _flag(train_mode, "autograd.record"))


def pause(train_mode=False):
    """``with mx.autograd.pause():`` inside ``record()``: calls that are not recorded."""
    return RecordingStateScope(False, _flag(train_mode, "autograd.pause"))


def train_mode():
    """``with mx.autograd.train_mode():`` operators run in training mode (not recorded)."""
    return RecordingStateScope(None, True)


def predict_mode():
    """``with mx.autograd.predict_mode():`` operators run in inference mode."""
    return RecordingStateScope(None, False)


# --- what the tape holds ------------------------------------------------------------------------
class Variable:
    """An array you asked gradients for (``attach_grad`` / ``mark_variables``): a leaf of
    the tape. ``grad`` is the NDArray its gradient goes into, ``req`` its grad_req."""

    __slots__ = ("grad", "req", "shape")
    inputs = ()

    def __init__(self, grad, req, shape):
        self.grad, self.req, self.shape = grad, req, tuple(shape)


class Untracked:
    """What an array computed while recording, from arrays without gradients, carries: so
    ``backward`` can say why it cannot differentiate it."""

    __slots__ = ()


UNTRACKED = Untracked()


class TapeNode:
    """One recorded call: its inputs as ``(source, index)`` (source a TapeNode or a
    Variable; None for an input without gradient), and how to run its backward."""

    where = "an operator"

    def __init__(self, sources, out_arrays):
        self.sources = list(sources)
        self.inputs = tuple(s for s in self.sources if s is not None)  # for topo_order
        self.out_like = [np.zeros((), a.dtype) if a is None else a for a in out_arrays]
        self.freed = False

    @property
    def num_outputs(self):
        """How many outputs the call returned."""
        return len(self.out_like)

    def zero_grad(self, j):
        """A zero head gradient for output ``j`` (no consumer asked for its gradient)."""
        return np.zeros(self.out_like[j].shape, self.out_like[j].dtype)

    def run_backward(self, out_grad, in_grad, req, train_mode):
        """Fill ``in_grad[i]`` (numpy arrays) per ``req[i]`` from ``out_grad``."""
        raise NotImplementedError

    def grad_buffer(self, i):
        """A 'write' buffer for the gradient of input ``i``."""
        raise NotImplementedError

    def free(self):
        """Drop what backward needed (``retain_graph=False``)."""
        self.freed = True
        self.out_like = [np.empty(0, a.dtype) for a in self.out_like]


class FunctionNode(TapeNode):
    """A recorded NDArray method that is not an operator (``x[0]``, ``x.T``, ``reshape``,
    ``mx.nd.dot``, an ``autograd.Function``): its backward is a Python function
    ``out_grads -> [gradient per input]`` (None for an input it gives no gradient)."""

    def __init__(self, where, sources, in_arrays, out_arrays, backward_fn):
        super().__init__(sources, out_arrays)
        self.where = where
        self.in_like = [a for a in in_arrays]
        self.backward_fn = backward_fn

    def grad_buffer(self, i):
        return np.zeros_like(self.in_like[i])

    def run_backward(self, out_grad, in_grad, req, train_mode):
        grads = self.backward_fn(out_grad)
        for i, (target, r) in enumerate(zip(in_grad, req)):
            if r != "null" and grads[i] is not None:
                assign(target, r, np.asarray(grads[i]).astype(target.dtype, copy=False))

    def free(self):
        super().free()
        self.backward_fn = self.in_like = None


def source_of(array):
    """The tape source of an NDArray input, ``(TapeNode or Variable, index)``, or None."""
    tag = getattr(array, "_ag", None)
    if tag is None or tag is UNTRACKED:
        return None
    return tag if isinstance(tag, tuple) else (tag, 0)


def tag_outputs(outputs, node):
    """Mark ``outputs`` (NDArrays) as what ``node`` computed (UNTRACKED when node is None)."""
    for j, out in enumerate(outputs):
        out._ag = UNTRACKED if node is None else (node, j)


def record_function(where, inputs, outputs, backward_fn):
    """While recording: put a FunctionNode for ``outputs = f(inputs)`` on the tape (or mark
    the outputs untracked when no input has a gradient). ``inputs`` are NDArrays or None."""
    sources = [None if a is None else source_of(a) for a in inputs]
    if not any(sources):
        tag_outputs(outputs, None)
        return
    node = FunctionNode(
        where,
        sources,
        [None if a is None else a._data for a in inputs],
        [o._data for o in outputs],
        backward_fn,
    )
    tag_outputs(outputs, node)


def check_not_recorded(array, what):
    """Inside ``record()``, writing into an array the tape computed breaks its gradient."""
    tag = getattr(array, "_ag", None)
    if is_recording() and isinstance(tag, tuple):
        raise MXNetError(
            f"{what}: this array (shape {tuple(array.shape)}) was computed inside "
            "autograd.record() and is part of the recorded graph; writing into it (+=, *=, "
            "y[idx] = ..., out=y) would make its gradient wrong. Assigning to NDArrays that "
            "are already in a computational graph is refused: compute a new array instead "
            "(y = y + 1), or call backward first, or write outside the record() block."
        )


# --- variables ----------------------------------------------------------------------------------
def attach(array, grad_req="write"):
    """``array.attach_grad(grad_req)``: a zero gradient buffer of its shape and dtype."""
    check_req(grad_req, "attach_grad")
    grad = type(array)(np.zeros(array.shape, array._data.dtype), array.context)
    array._ag = Variable(grad, grad_req, array.shape)


def check_req(req, where):
    if req not in GRAD_REQS:
        raise KeyError(
            f"{where}: grad_req={req!r} is not one of 'write' (backward overwrites "
            "the gradient), 'add' (backward adds to it, to sum over several "
            "backward calls) or 'null' (no gradient)"
        )


def grad_of(array):
    """``array.grad``: its gradient NDArray, or None when it has none (no attach_grad)."""
    tag = getattr(array, "_ag", None)
    return tag.grad if isinstance(tag, Variable) else None
