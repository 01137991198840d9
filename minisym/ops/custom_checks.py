"""What a CustomOp did with the arrays it was handed, and the warnings and notes that teach.

The engine hands forward / backward NDArrays over its own buffers (``WatchedNDArray``) that
note whether your code reached an array's values or wrote into it. After the call it can
then tell you that ``out_data[j]`` / ``in_grad[i]`` was never written (it is set to zero rather
than left holding another array's values), that forward / backward *returned* its result
(the engine ignores it), or that backward wrote into ``out_grad``, which it only reads.

The mistakes MXNet lets pass without a word and that are not in MXNet's contract at all warn
with ``minisym.MistakeWarning`` as they happen: an ``in_grad`` overwritten where ``req`` is
'add', a list entry replaced instead of written into (``aux[0] = x``), a keyword such as
``flag=False`` tested for its truth as the string ``'False'`` (``KeywordString``). An exception
raised inside forward / backward gets a note of what each index held (``slot_map_note``).
"""

import ast
import os
import sys
import warnings
from collections import namedtuple
from contextlib import contextmanager

import numpy as np

from ..arrays.ndarray import NDArray, _key_text
from ..assign import assign
from ..base import MistakeWarning
from ..tracebacks import ENGINE_DIRS

__all__ = [
    "WatchedNDArray",
    "SlotName",
    "CustomOpWarning",
    "ResultChecker",
    "KeywordString",
    "keyword_strings",
    "string_kwargs_note",
    "slot_listing",
    "slot_map_note",
    "warn",
]

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
    (``exposed``) or wrote into it (``written``, once a write has succeeded); its shape, dtype,
    size and ndim do not count.

    With ``copy_on_write`` the first write goes into a private copy, so writing into an
    ``out_grad`` never changes the head gradient array you passed to ``backward``. During the
    call, ``on_write(array, how, read_before)`` hears of each write: ``how`` says how it was
    written (``'+='`` and ``'-='`` add into it; any other text replaced its values) and
    ``read_before`` whether the call had read the values first."""

    __slots__ = ("_buffer", "exposed", "written", "_copy_on_write", "slot", "req", "on_write")

    def __init__(
        self, data, ctx, writable=True, copy_on_write=False, slot=None, req=None, on_write=None
    ):
        super().__init__(data, ctx, writable)
        self.exposed = False
        self.written = False
        self._copy_on_write = copy_on_write
        self.slot = slot  # SlotName("out_data", 0, "output", "Custom 'c' (op_type=...)")
        self.req = req  # this slot's req, for out_data and in_grad
        self.on_write = on_write

    @property
    def label(self):
        """``out_data[0]``."""
        return f"{self.slot.role}[{self.slot.index}]"

    @property
    def _data(self):
        read_before, self.exposed = self.exposed, True
        caller = sys._getframe(1)
        if caller.f_code is _COPYTO_CODE and caller.f_locals.get("other") is self:
            self._prepare_write()  # x.copyto(this) writes into what it returns, next
            self._wrote(f"x.copyto({self.label})", read_before)
        return self._buffer

    @_data.setter
    def _data(self, value):
        self._buffer = value

    shape = property(lambda self: tuple(self._buffer.shape))
    dtype = property(lambda self: self._buffer.dtype.type)
    size = property(lambda self: int(self._buffer.size))
    ndim = property(lambda self: self._buffer.ndim)

    def _prepare_write(self):
        if self._copy_on_write:
            self._buffer = self._buffer.copy()
            self._copy_on_write = False

    def _wrote(self, how, read_before):
        self.written = True
        if self.on_write is not None:
            self.on_write(self, how, read_before)

    def __setitem__(self, key, value):
        read_before = self.exposed
        self._prepare_write()
        with self._failing_untouched(read_before):
            super().__setitem__(key, value)
        caller = sys._getframe(1)
        how = (
            f"self.assign({self.label}, {caller.f_locals.get('req')!r}, ...)"
            if caller.f_code is _ASSIGN_CODE
            else f"{self.label}[{_key_text(key)}] = ..."
        )
        self._wrote(how, read_before)

    def _inplace(self, other, *how):
        read_before = self.exposed
        if not self.writable:
            self.written = True  # the read-only error names the slot; nothing was written
            return super()._inplace(other, *how)
        self._prepare_write()
        with self._failing_untouched(read_before):
            result = super()._inplace(other, *how)
        self._wrote(_INPLACE_TEXT.get(how[0], "an in-place operator"), read_before)
        return result

    @contextmanager
    def _failing_untouched(self, read_before):
        """A write that raises wrote nothing: a failed backward's note does not name the array."""
        try:
            yield
        except Exception:
            self.exposed = read_before
            raise


_COPYTO_CODE = NDArray.copyto.__code__  # x.copyto(y) writes through y._data
_ASSIGN_CODE = assign.__code__
_INPLACE_TEXT = {
    np.add: "+=",
    np.subtract: "-=",
    np.multiply: "*=",
    np.true_divide: "/=",
    np.mod: "%=",
    np.power: "**=",
}
ADDS_INTO = ("+=", "-=")  # what a write under req 'add' may be: self.assign adds with +=


class SlotName(namedtuple("SlotName", "role index name where")):
    """Which slot of which operator an array is: ``in_grad[0] ('data') of Custom 'c' ...``."""

    def __str__(self):
        return f"{self.role}[{self.index}] ({self.name!r}) of {self.where}"


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


# --- what a call received, for an exception raised inside it ------------------------------------
def slot_map_note(op, method, listing):
    """The note an exception raised in ``method`` (``'MyOp.backward'``) of ``op`` gets: every
    index of every list the call received, with its name, shape, dtype and req. ``listing``:
    [(role, [array], names, req or None)] in the order of the call's parameters."""
    rows, empty = [], []
    for role, arrays, names, req in listing:
        if not arrays:
            empty.append(role)
        for i, (array, name) in enumerate(zip(arrays, names)):
            held = (
                "empty (not listed in declare_backward_dependency)"
                if array.dtype is None
                else f"{tuple(array.shape)} {np.dtype(array.dtype).name}"
            )
            req_text = f"req[{i}] = {req[i]!r}" if req is not None else ""
            rows.append((f"{role}[{i}]", repr(name), held, req_text))
    widths = [max((len(row[c]) for row in rows if c < 2 or row[3]), default=0) for c in range(3)]
    lines = [
        "  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths + [0])).rstrip()
        for row in rows
    ]
    lines += [f"  {role}: none" for role in empty]
    return (
        f"(Check each index {method} used against what it held in this call of "
        f"{op.where}:\n" + "\n".join(lines) + ")"
    )


# --- warnings that point at your line --------------------------------------------------------
def warn(message, category=CustomOpWarning):
    """Issue a warning at the first line outside the engine (the line of yours that wrote the
    array, or ran forward / backward), so a notebook shows your cell, not minisym's internals."""
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(ENGINE_DIRS):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# --- after forward / backward ----------------------------------------------------------------
class ResultChecker:
    """Checks, after each call of one CustomOp, that its results went where they belong; warns
    once per node, executor and kind of mistake (a copy of the executor shares ``warned``)."""

    def __init__(self, op):
        self.op = op
        self.warned = set()

    def _warn_once(self, key, message, category=CustomOpWarning):
        if key not in self.warned:
            self.warned.add(key)
            warn(message, category)

    def after_forward(self, returned, req, out_data, given):
        """``given``: the WatchedNDArrays forward received in ``out_data`` (a SlotList)."""
        unwritten, names = _zero_unwritten(req, given), out_data.names
        listing = slot_listing("out_data", names)
        if returned is not None:
            left = _left_unwritten("out_data", names, unwritten, "holds zeros, not your result.")
            self._warn_once(
                ("forward", "returned"),
                (
                    f"{self.op.where}: write each result into its output instead of returning it: "
                    f"self.assign(out_data[0], req[0], result), one out_data per list_outputs() "
                    f"name ({listing}). forward returned {describe(returned)}, and the engine "
                    f"ignores what forward returns.{left}"
                ),
            )
            return
        for j in unwritten:
            self._warn_once(
                ("forward", j),
                (
                    f"{self.op.where}: write out_data[{j}] with self.assign(out_data[{j}], "
                    f"req[{j}], result), one out_data per list_outputs() name ({listing}): forward "
                    f"did not write out_data[{j}] ({names[j]!r}) although req[{j}] is {req[j]!r}, "
                    "so minisym set it to zero (MXNet would leave whatever that buffer held)."
                    f"{_replaced(out_data, given, 'out_data', j)}"
                ),
            )

    def after_backward(self, returned, req, lists, given):
        """``lists``: {role: SlotList} backward received; ``given``: the WatchedNDArrays it was
        handed in ``in_grad``."""
        unwritten, names = _zero_unwritten(req, given), lists["in_grad"].names
        listing = slot_listing("in_grad", names)
        if returned is not None:
            lost = "got none of your gradient (zero under req 'write', unchanged under 'add')."
            left = _left_unwritten("in_grad", names, unwritten, lost)
            self._warn_once(
                ("backward", "returned"),
                (
                    f"{self.op.where}: write each gradient into its in_grad instead of returning "
                    f"it: self.assign(in_grad[0], req[0], grad), one in_grad per list_arguments() "
                    f"name ({listing}). backward returned {describe(returned)}, and the engine "
                    f"ignores what backward returns.{left}"
                ),
            )
            return
        clue = _wrote_into_inputs(lists)
        for i in unwritten:
            got = (
                "nothing added to its gradient"
                if req[i] == "add"
                else "a zero gradient (MXNet would leave whatever that buffer held)"
            )
            self._warn_once(
                ("backward", i),
                (
                    f"{self.op.where}: write the gradient of {names[i]!r} with "
                    f"self.assign(in_grad[{i}], req[{i}], grad), one in_grad per list_arguments() "
                    f"name ({listing}); if {names[i]!r} has no gradient, assign 0 there or bind it "
                    f"with grad_req='null'. backward did not write in_grad[{i}] ({names[i]!r}) "
                    f"although req[{i}] is {req[i]!r}, so {names[i]!r} got {got}.{clue}"
                    f"{_replaced(lists['in_grad'], given, 'in_grad', i)}"
                ),
            )

    def on_write(self, phase):
        """The ``on_write`` of the arrays ``phase`` writes its results into: under req 'add'
        a write that replaces the values (anything but ``+=``, which ``self.assign`` uses) warns
        as it happens, unless the call read those values first (``x[:] = x + g`` adds too)."""

        def heard(array, how, read_before):
            if array.req != "add" or how in ADDS_INTO or read_before:
                return
            i, name = array.slot.index, array.slot.name
            kind = "grad" if phase == "backward" else "result"
            self._warn_once(
                (phase, "overwrote", array.label),
                (
                    f"{self.op.where}: add into {array.label} ({name!r}) instead of overwriting "
                    f"it: write self.assign({array.label}, req[{i}], {kind}), which adds when "
                    f"req[{i}] is 'add' (or {array.label}[:] += {kind}). {how} replaced the values "
                    f"{array.label} held, but req[{i}] is 'add' ("
                    + (
                        "grad_req='add': gradients accumulate over backward calls, and those of "
                        "earlier calls are lost)."
                        if phase == "backward"
                        else "the result is added to what the output holds, which is lost)."
                    )
                ),
                MistakeWarning,
            )

        return heard

    def after_replacing(self, phase, role, slots, given):
        """Warn once per slot when ``phase`` replaced an entry of ``slots`` (``aux[0] = x``)
        and left the engine's array (in ``given``) unwritten; for out_data / in_grad only when
        it read that array (otherwise the "did not write" warning has already said so)."""
        for i, array in enumerate(given[: len(slots)]):
            if list.__getitem__(slots, i) is array or array.written:
                continue
            if role != "aux" and (array.req == "null" or not array.exposed):
                continue
            label, name = f"{role}[{i}]", slots.names[i]
            fix = {
                "aux": f"{label}[:] = new_value",
                "in_grad": f"self.assign({label}, req[{i}], grad)",
                "out_data": f"self.assign({label}, req[{i}], result)",
            }[role]
            kept = (
                "the auxiliary state keeps its old values"
                if role == "aux"
                else f"the engine's {label} keeps the values it held before this call"
            )
            self._warn_once(
                (phase, "replaced", role, i),
                (
                    f"{self.op.where}: write into {label} ({name!r}) instead of replacing it: "
                    f"{fix}. {phase.capitalize()} put a new array into the list it received "
                    f"({label} = ...), which the engine never reads, so {kept} (MXNet ignores the "
                    "new one without a word)."
                ),
                MistakeWarning,
            )

    def after_reading(self, phase, lists):
        """Warn once per slot when ``phase`` (forward / backward) wrote into a list it only
        reads (``lists``: {role: SlotList}); the write went into a private copy."""
        for role, i, name in _written(lists):
            self._warn_once(
                (phase, "wrote", role, i),
                (
                    f"{self.op.where}: compute into a new array instead (x = "
                    f"{role}[{i}].copy()), and write results into "
                    + (
                        "out_data with self.assign(out_data[0], req[0], result)"
                        if phase == "forward"
                        else "in_grad with self.assign(in_grad[0], req[0], grad)"
                    )
                    + f": {phase} wrote into {role}[{i}] ({name!r}), which it only reads: "
                    f"{role} is {WHAT_IT_HOLDS[role]}. The write went into a private "
                    f"copy, so {name!r} and every other operator reading it keep their "
                    "values (in MXNet the write would change them)."
                ),
            )

    def after_keeping(self, phase, kept):
        """Warn once per slot that ``phase`` kept an array it was handed (``kept``: [(role,
        index, name)]); the engine has already given each its own copy of the values."""
        for role, i, name in kept:
            later = "backward" if phase == "forward" else "a later call"
            self._warn_once(
                (phase, "kept", role, i),
                (
                    f"{self.op.where}: keep a copy yourself (self.saved = {role}[{i}].copy())"
                    + (
                        ", or declare it in declare_backward_dependency and read it from "
                        f"backward's {role}[{i}]"
                        if phase == "forward" and role in ("in_data", "out_data")
                        else ""
                    )
                    + f": {phase} kept {role}[{i}] ({name!r}) after it returned (e.g. self.saved = "
                    f"{role}[{i}]). The arrays a call receives are valid only during that call: "
                    "the executor reuses their memory for other operators' values. So the kept "
                    f"NDArray now holds its own copy of the values it had when {phase} returned "
                    f"(reading it in {later} is safe; writing into it changes nothing in the "
                    "executor)."
                ),
            )


def _entries(lists):
    """(role, index, array) of every entry of every SlotList of ``lists`` ({role: SlotList})."""
    for role, slots in lists.items():
        for i, array in enumerate(list.__iter__(slots)):
            yield role, i, array


def _written(lists):
    """[(role, index, name)] of the entries of ``lists`` the call wrote into."""
    return [
        (role, i, lists[role].names[i])
        for role, i, array in _entries(lists)
        if getattr(array, "written", False)  # an empty NDArray or a replaced entry has none
    ]


def references(lists):
    """{(role, index): reference count} of each array handed out, and {(role, None): ...} of
    each list: compared before and after a call, what the call kept (stored on self, in a
    global, ...) shows as a larger count."""
    counts = {(role, None): sys.getrefcount(slots) for role, slots in lists.items()}
    counts.update({(role, i): sys.getrefcount(array) for role, i, array in _entries(lists)})
    return counts


def detach_kept(lists, before):
    """[(role, index, name)] of the arrays (or whole lists) a call kept, each now over its own
    copy of the values, so it never sees another operator's values nor writes into them."""
    after = references(lists)
    kept = []
    for role, i, array in _entries(lists):
        if not isinstance(array, WatchedNDArray):
            continue  # an empty NDArray (not declared), or an entry the code replaced
        if after[(role, None)] > before[(role, None)] or after[(role, i)] > before[(role, i)]:
            array._buffer = array._buffer.copy()
            array._copy_on_write = False
            kept.append((role, i, lists[role].names[i]))
    return kept


def _left_unwritten(role, names, unwritten, what):
    """`` So out_data[0] ('output') holds ...``: the slots a call left unwritten, '' if none."""
    if not unwritten:
        return ""
    parts = [f"{role}[{i}] ({names[i]!r})" for i in unwritten]
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f" So {joined} {what}"


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
    return (
        f" ({role}[{index}] = ... replaced the entry of the list, not the values of the "
        "array the engine gave you: the engine never sees the new one.)"
    )


def _wrote_into_inputs(lists):
    """The clue when backward wrote into what it only reads (out_grad, in_data, out_data)."""
    written = _written({role: lists[role] for role in WHAT_IT_HOLDS})
    if not written:
        return ""
    role, j, name = written[0]
    return (
        f" It wrote into {role}[{j}] ({name!r}) instead: {role} is {WHAT_IT_HOLDS[role]}; "
        "backward reads it and writes its results into in_grad."
    )


# --- keyword arguments that are still strings ------------------------------------------------
class KeywordString(str):
    """A keyword argument of ``mx.sym.Custom`` as the Prop receives it: the str MXNet passes
    ('False' for ``flag=False``), and in every way a str, except that testing its truth
    (``if flag:``) warns when the text means a false value ('False', '0', 'None', '[]', ...):
    a non-empty string is true, the opposite of what it says. Converting it stays silent.
    Its type presents itself as ``str`` in messages; pickled, it is a plain str."""

    def __new__(cls, text, keyword, where, prop):
        self = super().__new__(cls, text)
        self.keyword, self.where, self.prop = keyword, where, prop
        self.means_false = _means_false(text)  # decided once: truth is tested in loops
        return self

    def __reduce__(self):
        return (str, (str(self),))  # pickled and deep-copied as the plain str it is

    def __bool__(self):
        if self.means_false:
            self.means_false = False  # once per keyword of a node
            text = str(self)
            fix = (
                "super().__init__(need_top_grad=need_top_grad == 'True')"
                if self.keyword == "need_top_grad"
                # CustomOpProp's own, tested there
                else _conversion(self.keyword, self.keyword, text, True)
            )
            warn(
                f"{self.where}: convert the keyword {self.keyword} in {self.prop}.__init__ "
                f"before testing it, e.g. {fix}. Every keyword of mx.sym.Custom reaches "
                f"{self.prop} as a string, and {self.keyword}={text!r} is a non-empty string, "
                f"so it counts as true: the opposite of what {text} means.",
                MistakeWarning,
            )
        return len(self) > 0


# Python's and NumPy's messages name an operand's type ("unsupported operand type(s) for +:
# 'int' and 'str'"): a keyword is named as the str it is, as in MXNet.
KeywordString.__name__ = KeywordString.__qualname__ = "str"
KeywordString.__module__ = "builtins"


_NOT_A_LITERAL = object()


def _literal(text):
    """The Python literal ``text`` spells ('3', '(3, 3)', 'False'), else _NOT_A_LITERAL."""
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT_A_LITERAL


def _means_false(text):
    """Whether ``text`` is a non-empty str whose literal is false: '0', 'False', 'None', '[]'."""
    value = _literal(text)
    return value is not _NOT_A_LITERAL and not isinstance(value, str) and not value


def keyword_strings(kwargs, where, prop):
    """{keyword: KeywordString} for the str values of ``kwargs`` (the others as they are)."""
    return {
        k: KeywordString(v, k, where, prop) if isinstance(v, str) else v for k, v in kwargs.items()
    }


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
    stored = [
        (k, type(obj).__name__, attr)
        for obj in objects
        if obj is not None
        for attr, value in getattr(obj, "__dict__", {}).items()
        for k, v in numeric.items()
        if isinstance(value, str) and value == v
    ]
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
    return (
        f"(In {op.where}: every keyword argument of mx.sym.Custom reaches {prop}.__init__ "
        f"as a string, and {detail}. Convert it in {prop}.__init__: "
        f"{_conversion(attr, k, numeric[k], method == 'infer_shape' or 'integer' in text)}.)"
    )


def _looks_like_a_number(value):
    """'3', '0.5', '1e-3', 'inf', 'True', '(3, 3)': a str that reads as a non-str literal."""
    if not isinstance(value, str):
        return False
    try:
        float(value)
        return True
    except ValueError:
        literal = _literal(value)
        return literal is not _NOT_A_LITERAL and not isinstance(literal, str)


def _conversion(attr, keyword, value, wants_int):
    """The line a learner writes to convert ``value``: ``self.scale = float(scale)``."""
    parsed = _literal(value)
    if parsed is _NOT_A_LITERAL:
        parsed = float(value)  # 'inf', 'nan'
    if isinstance(parsed, bool):
        return f"self.{attr} = {keyword} == 'True'"
    if isinstance(parsed, int) and wants_int:
        return f"self.{attr} = int({keyword})"
    if isinstance(parsed, (int, float)):
        return f"self.{attr} = float({keyword})"
    return f"self.{attr} = ast.literal_eval({keyword})"
