"""What a CustomOp did with the arrays it was handed, and the warnings and notes that teach.

The engine hands forward / backward NDArrays over its own buffers (``WatchedNDArray``) that
note whether your code reached an array's values or wrote into it. After the call it can
then tell you that ``out_data[j]`` / ``in_grad[i]`` was never written (it is set to zero rather
than left holding another array's values), that forward / backward *returned* its result
(the engine ignores it), or that backward wrote into ``out_grad``, which it only reads.
"""
import ast
import os
import sys
import warnings

import numpy as np

from ..ndarray.ndarray import NDArray

__all__ = ["WatchedNDArray", "CustomOpWarning", "ResultChecker", "string_kwargs_note",
           "slot_listing", "warn"]

# What each list a CustomOp receives holds, in words (the lists backward only reads).
WHAT_IT_HOLDS = {
    "out_grad": "the gradient arriving from above (from whatever uses this operator's output), "
                "one per list_outputs() name",
    "in_data": "the inputs forward received, one per list_arguments() name",
    "out_data": "what forward wrote, one per list_outputs() name",
}


class CustomOpWarning(RuntimeWarning):
    """A custom operator did something that runs but gives a wrong result (``mx.operator``)."""


class WatchedNDArray(NDArray):
    """An NDArray over an executor buffer that notes whether code reached its values
    (``exposed``) or wrote into it (``written``); its shape, dtype, size and ndim do not count.

    With ``copy_on_write`` the first write goes into a private copy, so writing into an
    ``out_grad`` never changes the head gradient array you passed to ``backward``."""

    __slots__ = ("_buffer", "exposed", "written", "_copy_on_write", "slot")

    def __init__(self, data, ctx, writable=True, copy_on_write=False, slot=None):
        super().__init__(data, ctx, writable)
        self.exposed = False
        self.written = False
        self._copy_on_write = copy_on_write
        self.slot = slot  # "out_data[0] ('output') of Custom 'c' (op_type=...)": for messages

    @property
    def _data(self):
        self.exposed = True
        return self._buffer

    @_data.setter
    def _data(self, value):
        self._buffer = value

    shape = property(lambda self: tuple(self._buffer.shape))
    dtype = property(lambda self: self._buffer.dtype.type)
    size = property(lambda self: int(self._buffer.size))
    ndim = property(lambda self: self._buffer.ndim)

    def _before_write(self):
        self.written = True
        if self._copy_on_write:
            self._buffer = self._buffer.copy()
            self._copy_on_write = False

    def __setitem__(self, key, value):
        self._before_write()
        super().__setitem__(key, value)

    def _inplace(self, other, *how):
        if self.writable:
            self._before_write()
        else:
            self.written = True
        return super()._inplace(other, *how)


def slot_listing(role, names):
    """``in_grad[0] is 'data', in_grad[1] is 'label'``."""
    return ", ".join(f"{role}[{i}] is {n!r}" for i, n in enumerate(names)) or f"{role} is empty"


def describe(value):
    """A returned value in a few words: ``an NDArray (2, 3)``, ``a list of 2 items``."""
    if isinstance(value, NDArray):
        return f"an NDArray {value.shape}"
    if isinstance(value, np.ndarray):
        return f"a numpy array {value.shape}"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__}"


# --- warnings that point at your line --------------------------------------------------------
_ENGINE_DIRS = []


def _engine_dirs():
    """The folders of minisym and minisym_widgets: frames there are not the learner's."""
    if not _ENGINE_DIRS:
        import importlib.util
        _ENGINE_DIRS.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        spec = importlib.util.find_spec("minisym_widgets")
        if spec is not None and spec.origin:
            _ENGINE_DIRS.append(os.path.dirname(os.path.abspath(spec.origin)))
    return _ENGINE_DIRS


def warn(message):
    """Issue a CustomOpWarning at the first line outside the engine (the line of yours that
    ran forward / backward), so a notebook shows your cell, not minisym's internals."""
    dirs = [d + os.sep for d in _engine_dirs()]
    frame, level = sys._getframe(0), 1
    while frame is not None and any(os.path.abspath(frame.f_code.co_filename).startswith(d)
                                    for d in dirs):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, CustomOpWarning, stacklevel=level)


# --- after forward / backward ----------------------------------------------------------------
class ResultChecker:
    """Checks, after each call of one CustomOp, that its results went where they belong; warns
    once per node, executor and kind of mistake (a copy of the executor shares ``warned``)."""

    def __init__(self, op):
        self.op = op
        self.warned = set()

    def _warn_once(self, key, message):
        if key not in self.warned:
            self.warned.add(key)
            warn(message)

    def after_forward(self, returned, req, out_data, given, names):
        """``given``: the WatchedNDArrays forward received in ``out_data`` (a SlotList)."""
        unwritten = _zero_unwritten(req, given)
        listing = slot_listing("out_data", names)
        if returned is not None:
            left = (f" So {_join(f'out_data[{j}] ({names[j]!r})' for j in unwritten)} "
                    "holds zeros, not your result." if unwritten else "")
            self._warn_once(("forward", "returned"), (
                f"{self.op.where}: forward returned {describe(returned)}, and the engine ignores "
                f"what forward returns.{left} Write each result into its output instead: "
                f"self.assign(out_data[0], req[0], result), one out_data per list_outputs() "
                f"name ({listing})."))
            return
        for j in unwritten:
            self._warn_once(("forward", j), (
                f"{self.op.where}: forward did not write out_data[{j}] ({names[j]!r}) although "
                f"req[{j}] is {req[j]!r}, so minisym set it to zero (MXNet would leave whatever "
                f"that buffer held).{_replaced(out_data, given, 'out_data', j)} Write it with "
                f"self.assign(out_data[{j}], req[{j}], result), one out_data per list_outputs() "
                f"name ({listing})."))

    def after_backward(self, returned, req, lists, given, names):
        """``lists``: {role: SlotList} backward received; ``given``: the WatchedNDArrays it was
        handed in ``in_grad``."""
        unwritten = _zero_unwritten(req, given)
        listing = slot_listing("in_grad", names)
        if returned is not None:
            left = (f" So {_join(f'in_grad[{i}] ({names[i]!r})' for i in unwritten)} got none "
                    "of your gradient (zero under req 'write', unchanged under 'add')."
                    if unwritten else "")
            self._warn_once(("backward", "returned"), (
                f"{self.op.where}: backward returned {describe(returned)}, and the engine "
                f"ignores what backward returns.{left} Write each gradient into its in_grad "
                f"instead: self.assign(in_grad[0], req[0], grad), one in_grad per "
                f"list_arguments() name ({listing})."))
            return
        clue = _wrote_into_inputs(lists)
        for i in unwritten:
            got = ("nothing added to its gradient" if req[i] == "add" else
                   "a zero gradient (MXNet would leave whatever that buffer held)")
            self._warn_once(("backward", i), (
                f"{self.op.where}: backward did not write in_grad[{i}] ({names[i]!r}) although "
                f"req[{i}] is {req[i]!r}, so {names[i]!r} got {got}.{clue}"
                f"{_replaced(lists['in_grad'], given, 'in_grad', i)} Write its gradient with "
                f"self.assign(in_grad[{i}], req[{i}], grad), one in_grad per list_arguments() "
                f"name ({listing}); if {names[i]!r} has no gradient, assign 0 there or bind it "
                "with grad_req='null'."))


    def after_reading(self, phase, lists):
        """Warn once per slot when ``phase`` (forward / backward) wrote into a list it only
        reads (``lists``: {role: SlotList}); the write went into a private copy."""
        for role, slots in lists.items():
            for i, array in enumerate(list.__iter__(slots)):
                if getattr(array, "written", False):
                    name = slots.names[i]
                    self._warn_once((phase, "wrote", role, i), (
                        f"{self.op.where}: {phase} wrote into {role}[{i}] ({name!r}), which it "
                        f"only reads: {role} is {WHAT_IT_HOLDS[role]}. The write went into a "
                        f"private copy, so {name!r} and every other operator reading it keep "
                        "their values (in MXNet the write would change them). Compute into a new "
                        f"array instead (x = {role}[{i}].copy()), and write results into "
                        + ("out_data with self.assign(out_data[0], req[0], result)."
                           if phase == "forward" else
                           "in_grad with self.assign(in_grad[0], req[0], grad).")))

    def after_keeping(self, phase, kept):
        """Warn once per slot that ``phase`` kept an array it was handed (``kept``: [(role,
        index, name)]); the engine has already given each its own copy of the values."""
        for role, i, name in kept:
            later = ("backward" if phase == "forward" else "a later call")
            self._warn_once((phase, "kept", role, i), (
                f"{self.op.where}: {phase} kept {role}[{i}] ({name!r}) after it returned (e.g. "
                f"self.saved = {role}[{i}]). The arrays a call receives are valid only during "
                "that call: the executor reuses their memory for other operators' values. So "
                "the kept NDArray now holds its own copy of the values it had when "
                f"{phase} returned (reading it in {later} is safe; writing into it changes "
                f"nothing in the executor). Keep a copy yourself (self.saved = {role}[{i}]"
                ".copy())" + (", or declare it in declare_backward_dependency and read it from "
                              f"backward's {role}[{i}]." if phase == "forward" and
                              role in ("in_data", "out_data") else ".")))


def references(lists):
    """{(role, index): reference count} of each array handed out, and {(role, None): ...} of
    each list: compared before and after a call, what the call kept (stored on self, in a
    global, ...) shows as a larger count."""
    counts = {}
    for role, slots in lists.items():
        counts[(role, None)] = sys.getrefcount(slots)
        for i, array in enumerate(list.__iter__(slots)):
            counts[(role, i)] = sys.getrefcount(array)
    return counts


def detach_kept(lists, before):
    """[(role, index, name)] of the arrays (or whole lists) a call kept, each now over its own
    copy of the values, so it never sees another operator's values nor writes into them."""
    after = references(lists)
    kept = []
    for role, slots in lists.items():
        whole = after[(role, None)] > before[(role, None)]
        for i, array in enumerate(list.__iter__(slots)):
            if not isinstance(array, WatchedNDArray):
                continue  # an empty NDArray (not declared), or an entry the code replaced
            if whole or after[(role, i)] > before[(role, i)]:
                array._buffer = array._buffer.copy()
                array._copy_on_write = False
                kept.append((role, i, slots.names[i]))
    return kept


def _join(parts):
    """'a', 'a and b', 'a, b and c'."""
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _zero_unwritten(req, given):
    """Indices whose array the code never reached although req asks for it; under 'write'
    those buffers are set to zero (under 'add' nothing was added, which is already right)."""
    unwritten = []
    for i, (array, r) in enumerate(zip(given, req)):
        if r != "null" and not array.exposed:
            unwritten.append(i)
            if r in ("write", "inplace"):
                array._buffer[...] = 0
    return unwritten


def _replaced(slots, given, role, index):
    """The clue when the code replaced the list's entry (``in_grad[0] = grad``)."""
    if list.__getitem__(slots, index) is given[index]:
        return ""
    return (f" ({role}[{index}] = ... replaced the entry of the list, not the values of the "
            "array the engine gave you: the engine never sees the new one.)")


def _wrote_into_inputs(lists):
    """The clue when backward wrote into what it only reads (out_grad, in_data, out_data)."""
    for role in ("out_grad", "in_data", "out_data"):
        slots = lists[role]
        for j, array in enumerate(list.__iter__(slots)):
            if getattr(array, "written", False):
                return (f" It wrote into {role}[{j}] ({slots.names[j]!r}) instead: {role} is "
                        f"{WHAT_IT_HOLDS[role]}; backward reads it and writes its results "
                        "into in_grad.")
    return ""


# --- keyword arguments that are still strings ------------------------------------------------
def string_kwargs_note(op, exc, method, *objects):
    """The note for a TypeError inside a custom operator when a keyword argument of
    ``mx.sym.Custom`` that looks like a number reached the Prop as a string (they all do), or
    None. Names the keyword when the error shows its value or a Prop / Op attribute still holds
    it as a str (``objects``: the Prop and the CustomOp, where they exist); ``method`` is the
    Prop / Op method that raised (in infer_shape a number is a size: an int)."""
    if not isinstance(exc, TypeError):
        return None
    numeric = {k: v for k, v in op.prop_kwargs.items() if _looks_like_a_number(v)}
    if not numeric:
        return None
    text = str(exc)
    shown = [k for k, v in numeric.items() if repr(v) in text]
    stored = [(k, type(obj).__name__, attr) for obj in objects if obj is not None
              for attr, value in getattr(obj, "__dict__", {}).items()
              for k, v in numeric.items() if isinstance(value, str) and value == v]
    prop = op.prop_class_name
    if stored:
        k, owner, attr = ([s for s in stored if s[0] in shown] or stored)[0]
        detail = f"{k}={numeric[k]!r} is still the string {numeric[k]!r} in {owner}.{attr}"
    elif shown:
        k, attr = shown[0], shown[0]
        detail = f"{k}={numeric[k]!r} arrived as the string {numeric[k]!r}"
    elif "str" in text:
        k = attr = next(iter(numeric))
        got = ", ".join(f"{name}={value!r}" for name, value in numeric.items())
        detail = f"it received {got}, all strings"
    else:
        return None
    return (f"(In {op.where}: every keyword argument of mx.sym.Custom reaches {prop}.__init__ "
            f"as a string, and {detail}. Convert it in {prop}.__init__: "
            f"{_conversion(attr, k, numeric[k], method == 'infer_shape' or 'integer' in text)}.)")


def _looks_like_a_number(value):
    """'3', '0.5', '1e-3', 'inf', 'True', '(3, 3)': a str that reads as a non-str literal."""
    if not isinstance(value, str):
        return False
    try:
        float(value)
        return True
    except ValueError:
        pass
    try:
        return not isinstance(ast.literal_eval(value.strip()), str)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _conversion(attr, keyword, value, wants_int):
    """The line a learner writes to convert ``value``: ``self.scale = float(scale)``."""
    try:
        parsed = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        parsed = float(value)  # 'inf', 'nan'

    if isinstance(parsed, bool):
        return f"self.{attr} = {keyword} == 'True'"
    if isinstance(parsed, int) and wants_int:
        return f"self.{attr} = int({keyword})"
    if isinstance(parsed, (int, float)):
        return f"self.{attr} = float({keyword})"
    return f"self.{attr} = ast.literal_eval({keyword})"
