"""MXNet's optimizer-states format (``mod.save_optimizer_states``, a ``.states`` file;
``Updater.get_states()``), read without unpickling and written without the pickle module.

MXNet writes those with Python's pickle, and unpickling runs whatever code the bytes name. This
reads the pickle's opcodes one by one as a parser would, and builds only what optimizer states
are made of: dicts, tuples, lists, numbers, strings, None, and MXNet NDArrays (a pickled NDArray
is ``mxnet.ndarray.ndarray.NDArray`` rebuilt from its ``handle``: the bytes of one array record
of a ``.params`` file). Any other object (an optimizer saved with ``dump_optimizer=True``, a
scheduler, a function) is refused by name; nothing named in the file is ever imported or called.

``write_states`` writes the same format (pickle protocol 4, the opcodes MXNet's own files use),
so MXNet resumes from a minisym checkpoint and minisym from MXNet's.
"""

import io
import struct

from .arrays.ndarray import NDArray
from .arrays.serialization import _read_array, _Reader, _write_array
from .base import MXNetValueError

__all__ = ["parse_states", "write_states"]

_ALLOWED_GLOBALS = {
    ("mxnet.ndarray.ndarray", "NDArray"): "NDArray",
    ("builtins", "bytearray"): "bytearray",
    ("__builtin__", "bytearray"): "bytearray",
    # protocol 2 writes bytes as _codecs.encode(text, 'latin1')
    ("_codecs", "encode"): "encode",
}
_MARK = object()
_NO_ARGS = object()


class _Global:
    """A class or function the file names that may be called: 'NDArray', 'bytearray' or
    'encode' (each only with the arguments MXNet's states give it)."""

    def __init__(self, kind):
        self.kind = kind


class _PendingArray:
    """``NDArray(None)`` from the file, waiting for BUILD to give it its handle."""

    def __init__(self):
        self.array = None


class _Parser:
    """A stack machine over the opcodes MXNet's states use (pickle protocols 2 to 5)."""

    def __init__(self, payload, where):
        self.payload, self.pos, self.where = payload, 0, where
        self.stack, self.memo = [], {}

    # --- reading bytes ----------------------------------------------------------------------
    def take(self, size):
        if size < 0 or self.pos + size > len(self.payload):
            self.fail(f"the file ends inside a record at byte {self.pos} (a truncated file)")
        chunk = self.payload[self.pos : self.pos + size]
        self.pos += size
        return chunk

    def unpack(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))[0]

    def line(self):
        end = self.payload.find(b"\n", self.pos)
        if end < 0:
            self.fail("a text record without its end of line (a damaged file)")
        text = self.take(end - self.pos)
        self.pos += 1
        return text.decode("utf-8", "replace")

    def fail(self, why):
        raise MXNetValueError(
            f"{self.where}: these states are a Python pickle (MXNet's .states "
            f"format), which minisym parses instead of unpickling, and it "
            f"cannot read them: {why}"
        )

    # --- the stack --------------------------------------------------------------------------
    def pop(self):
        if not self.stack:
            self.fail("the stack runs empty (a damaged file)")
        return self.stack.pop()

    def pop_mark(self):
        """The items above the last MARK, which is removed."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i] is _MARK:
                items = self.stack[i + 1 :]
                del self.stack[i:]
                return items
        self.fail("a MARK is missing (a damaged file)")

    def run(self):
        while True:
            code = self.take(1)
            if code == b".":
                value = self.pop()
                return value
            handler = _HANDLERS.get(code)
            if handler is None:
                self.fail(
                    f"opcode {code!r} at byte {self.pos - 1} builds something other than "
                    "arrays, numbers and containers"
                )
            handler(self)


def _push(value):
    return lambda p: p.stack.append(value)


def _global(p, module, name):
    kind = _ALLOWED_GLOBALS.get((module, name))
    if kind is None:
        what = f"{module}.{name}"
        if module.startswith(("mxnet.optimizer", "mxnet.lr_scheduler")):
            hint = (
                "it is an optimizer or scheduler, saved with "
                "get_states(dump_optimizer=True). In MXNet, save only the states: "
                "updater.get_states() or mod.save_optimizer_states(fname)"
            )
        else:
            hint = (
                "only arrays, numbers and containers are read. Save the states again with "
                "minisym's Updater.get_states() or Module.save_optimizer_states"
            )
        p.fail(
            f"they hold an object of class {what}, and minisym never builds the objects a "
            f"file names: {hint}"
        )
    p.stack.append(_Global(kind))


def _stack_global(p):
    name, module = p.pop(), p.pop()
    if not isinstance(module, str) or not isinstance(name, str):
        p.fail("a class name that is not text (a damaged file)")
    _global(p, module, name)


def _reduce(p):
    args, func = p.pop(), p.pop()
    if not isinstance(func, _Global) or not isinstance(args, tuple):
        p.fail("a call of something that is not an allowed class")
    if func.kind == "bytearray" and len(args) == 1 and isinstance(args[0], (bytes, bytearray)):
        p.stack.append(bytes(args[0]))
    elif func.kind == "bytearray" and not args:
        p.stack.append(b"")
    elif (
        func.kind == "encode"
        and len(args) == 2
        and isinstance(args[0], str)
        and args[1] == "latin1"
    ):
        p.stack.append(args[0].encode("latin1"))
    elif func.kind == "NDArray" and (not args or (len(args) == 1 and args[0] is None)):
        p.stack.append(_PendingArray())
    else:
        p.fail(f"{func.kind} called with unexpected arguments")


def _build(p):
    state, target = p.pop(), p.stack[-1] if p.stack else None
    if not isinstance(target, _PendingArray) or not isinstance(state, dict):
        p.fail("a BUILD of something other than an NDArray")
    handle = state.get("handle")
    if not isinstance(handle, (bytes, bytearray)):
        p.fail("an NDArray without its data (its 'handle' is not bytes)")
    reader = _Reader(bytes(handle), p.where)
    target.array = _read_array(reader)


def _tuple(n):
    def handler(p):
        items = [p.pop() for _ in range(n)][::-1]
        p.stack.append(tuple(items))

    return handler


def _set_items(p, items, target):
    if not isinstance(target, dict) or len(items) % 2:
        p.fail("dict items for something that is not a dict")
    for key, value in zip(items[::2], items[1::2]):
        target[_hashable(p, key)] = value


def _hashable(p, key):
    if isinstance(key, (int, float, str, bytes, bool)) or key is None:
        return key
    if isinstance(key, tuple):
        return tuple(_hashable(p, k) for k in key)
    p.fail("a dict key that is not a number, text or tuple")


def _setitem(p):
    value, key = p.pop(), p.pop()
    _set_items(p, [key, value], p.stack[-1] if p.stack else None)


def _setitems(p):
    items = p.pop_mark()
    _set_items(p, items, p.stack[-1] if p.stack else None)


def _append(p):
    value = p.pop()
    target = p.stack[-1] if p.stack else None
    if not isinstance(target, list):
        p.fail("APPEND to something that is not a list")
    target.append(value)


def _appends(p):
    items = p.pop_mark()
    target = p.stack[-1] if p.stack else None
    if not isinstance(target, list):
        p.fail("APPENDS to something that is not a list")
    target.extend(items)


def _dict_from_mark(p):
    items, target = p.pop_mark(), {}
    _set_items(p, items, target)
    p.stack.append(target)


def _memo_put(p, key):
    if not p.stack:
        p.fail("a memo of an empty stack")
    p.memo[key] = p.stack[-1]


def _memo_get(p, key):
    if key not in p.memo:
        p.fail(f"a reference to memo {key} that was never stored")
    p.stack.append(p.memo[key])


def _text(size_fmt):
    return lambda p: p.stack.append(p.take(p.unpack(size_fmt)).decode("utf-8"))


def _bytes(size_fmt):
    return lambda p: p.stack.append(p.take(p.unpack(size_fmt)))


def _long1(p):
    size = p.unpack("B")
    p.stack.append(int.from_bytes(p.take(size), "little", signed=True))


_HANDLERS = {
    b"\x80": lambda p: p.unpack("B"),  # PROTO
    b"\x95": lambda p: p.unpack("Q"),  # FRAME (its size is not needed)
    b"(": lambda p: p.stack.append(_MARK),  # MARK
    b"}": lambda p: p.stack.append({}),  # EMPTY_DICT
    b"]": lambda p: p.stack.append([]),  # EMPTY_LIST
    b")": _push(()),  # EMPTY_TUPLE
    b"N": _push(None),
    b"\x88": _push(True),
    b"\x89": _push(False),
    b"t": lambda p: p.stack.append(tuple(p.pop_mark())),  # TUPLE
    b"\x85": _tuple(1),
    b"\x86": _tuple(2),
    b"\x87": _tuple(3),
    b"l": lambda p: p.stack.append(list(p.pop_mark())),  # LIST
    b"d": _dict_from_mark,  # DICT
    b"a": _append,
    b"e": _appends,
    b"s": _setitem,
    b"u": _setitems,
    b"\x94": lambda p: _memo_put(p, len(p.memo)),  # MEMOIZE
    b"q": lambda p: _memo_put(p, p.unpack("B")),  # BINPUT
    b"r": lambda p: _memo_put(p, p.unpack("I")),  # LONG_BINPUT
    b"h": lambda p: _memo_get(p, p.unpack("B")),  # BINGET
    b"j": lambda p: _memo_get(p, p.unpack("I")),  # LONG_BINGET
    b"J": lambda p: p.stack.append(p.unpack("i")),  # BININT
    b"K": lambda p: p.stack.append(p.unpack("B")),  # BININT1
    b"M": lambda p: p.stack.append(p.unpack("H")),  # BININT2
    b"\x8a": _long1,  # LONG1
    b"G": lambda p: p.stack.append(struct.unpack(">d", p.take(8))[0]),  # BINFLOAT (big-endian)
    b"\x8c": _text("B"),
    b"X": _text("I"),
    b"\x8d": _text("Q"),  # (SHORT_)BINUNICODE(8)
    b"C": _bytes("B"),
    b"B": _bytes("I"),
    b"\x8e": _bytes("Q"),  # (SHORT_)BINBYTES(8)
    b"\x96": _bytes("Q"),  # BYTEARRAY8
    b"\x93": _stack_global,  # STACK_GLOBAL
    b"c": lambda p: _global(p, p.line(), p.line()),  # GLOBAL (protocol 2)
    b"R": _reduce,
    b"b": _build,
}


def _resolve(value, where):
    """``value`` with every pending NDArray replaced by the array BUILD gave it."""
    if isinstance(value, _PendingArray):
        if value.array is None:
            raise MXNetValueError(f"{where}: an NDArray in these states has no data")
        return value.array
    if isinstance(value, tuple):
        return tuple(_resolve(v, where) for v in value)
    if isinstance(value, list):
        return [_resolve(v, where) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, where) for k, v in value.items()}
    if isinstance(value, (_Global, bytes)) or value is _MARK:
        raise MXNetValueError(
            f"{where}: these states hold a value that is not an array, a "
            "number or a container (a damaged file)"
        )
    return value


def parse_states(payload, where):
    """The ``{index: state}`` an MXNet ``.states`` file (or ``Updater.get_states()``) holds."""
    try:
        value = _resolve(_Parser(bytes(payload), where).run(), where)
    except RecursionError:
        raise MXNetValueError(f"{where}: these states nest too deeply (a damaged file)") from None
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], dict):
        value = value[0]  # (states, optimizer) never gets here: the optimizer is refused above
    if not isinstance(value, dict):
        raise MXNetValueError(
            f"{where}: these MXNet states are a {type(value).__name__}, not "
            "the {index: state} dict Updater.get_states() writes"
        )
    return value


# --- writing ------------------------------------------------------------------------------------
def write_states(states):
    """The bytes MXNet's ``pickle.dumps(states)`` gives for ``{index: state}`` (arrays, None,
    tuples, lists, numbers, strings), built opcode by opcode."""
    out = io.BytesIO()
    out.write(b"\x80\x04")  # PROTO 4
    _write(out, states)
    out.write(b".")
    return out.getvalue()


def _write(out, value):
    if hasattr(value, "item") and not isinstance(value, NDArray):
        value = value.item()  # a NumPy scalar
    if value is None:
        out.write(b"N")
    elif value is True or value is False:
        out.write(b"\x88" if value else b"\x89")
    elif isinstance(value, int):
        _write_int(out, int(value))
    elif isinstance(value, float):
        out.write(b"G" + struct.pack(">d", value))
    elif isinstance(value, str):
        _write_text(out, value)
    elif isinstance(value, NDArray):
        _write_ndarray(out, value)
    elif isinstance(value, tuple) and len(value) <= 3:
        for item in value:
            _write(out, item)
        out.write([b")", b"\x85", b"\x86", b"\x87"][len(value)])
    elif isinstance(value, tuple):
        out.write(b"(")
        for item in value:
            _write(out, item)
        out.write(b"t")
    elif isinstance(value, list):
        out.write(b"](")
        for item in value:
            _write(out, item)
        out.write(b"e")
    elif isinstance(value, dict):
        out.write(b"}(")
        for key, item in value.items():
            _write(out, key)
            _write(out, item)
        out.write(b"u")
    else:
        raise TypeError(
            f"Updater.get_states: cannot save a {type(value).__name__} in MXNet's "
            "states format (only arrays, None, numbers, strings, tuples, lists and "
            "dicts)"
        )


def _write_int(out, value):
    if 0 <= value < 256:
        out.write(b"K" + struct.pack("<B", value))
    elif -(2**31) <= value < 2**31:
        out.write(b"J" + struct.pack("<i", value))
    else:
        raw = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
        out.write(b"\x8a" + struct.pack("<B", len(raw)) + raw)


def _write_text(out, text):
    raw = text.encode("utf-8")
    if len(raw) < 256:
        out.write(b"\x8c" + struct.pack("<B", len(raw)) + raw)
    else:
        out.write(b"X" + struct.pack("<I", len(raw)) + raw)


def _write_ndarray(out, array):
    """``NDArray(None)`` rebuilt with ``{'handle': bytearray(<one .params array record>)}``."""
    record = io.BytesIO()
    _write_array(record, array)
    raw = record.getvalue()
    _write_text(out, "mxnet.ndarray.ndarray")
    _write_text(out, "NDArray")
    out.write(b"\x93N\x85R}")  # STACK_GLOBAL, (None,), REDUCE, {}
    _write_text(out, "handle")
    _write_text(out, "builtins")
    _write_text(out, "bytearray")
    out.write(b"\x93")  # STACK_GLOBAL
    out.write(
        (b"C" + struct.pack("<B", len(raw)))
        if len(raw) < 256
        else (b"B" + struct.pack("<I", len(raw)))
        if len(raw) < 2**32
        else (b"\x8e" + struct.pack("<Q", len(raw)))
    )
    out.write(raw)
    out.write(b"\x85Rsb")  # (bytes,), REDUCE, SETITEM, BUILD
