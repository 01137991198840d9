"""The ``Custom`` operator: a registered CustomOpProp / CustomOp pair inside the graph.

It adapts a Prop to the built-in Operator interface, so custom and built-in operators go
through the same inference, executor and trace: only the arrays differ (a CustomOp receives
NDArrays, ``is_train`` as an int, and empty NDArrays for what it did not declare it needs).
"""

import functools
import inspect
import numbers
from contextlib import contextmanager

import numpy as np

from .. import lifecycle
from ..arrays.ndarray import NDArray
from ..base import DTYPE_NP_TO_MX, MXNetError, MXNetTypeError, MXNetValueError
from ..contract import FAMILIES, family_of
from .custom_checks import (
    WHAT_IT_HOLDS,
    ResultChecker,
    SlotName,
    WatchedNDArray,
    detach_kept,
    keyword_strings,
    references,
    slot_listing,
    slot_map_note,
    string_kwargs_note,
)
from .operator_base import Operator, register

__all__ = ["Custom", "get_prop_class"]

_PROPS = {}  # op_type -> CustomOpProp subclass: what @mx.operator.register fills


def get_prop_class(op_type):
    """The Prop class registered as ``op_type``, or a KeyError listing the registered ones."""
    try:
        return _PROPS[op_type]
    except KeyError:
        known = ", ".join(repr(k) for k in sorted(_PROPS)) or "none yet"
        raise KeyError(
            f"Cannot find custom operator {op_type}. Registered custom operators: "
            f"{known}. Register yours with @mx.operator.register('{op_type}') above "
            "its CustomOpProp class."
        ) from None


@register("Custom")
class Custom(Operator):
    """A Python operator: ``mx.sym.Custom(data, op_type='my_op', **kwargs)``."""

    inputs_by_position_or_name = True  # like MXNet's variadic ops: not both at once
    writes_every_gradient = False  # a CustomOp may leave an in_grad unwritten: zero it first
    takes_prop_keywords = True
    writes_aux_in_user_code = True

    def __init__(self, attrs=None, node_name=None):
        """No Param schema to parse: every attribute but op_type goes to the Prop, as a str."""
        self.attrs = dict(attrs or {})
        self.node_name = node_name
        if "op_type" not in self.attrs:
            raise MXNetValueError(
                f"Custom {node_name!r}: name the registered operator with "
                "mx.sym.Custom(..., op_type='your_op'): Required argument "
                "`op_type` is missing"
            )
        self.op_type = self.attrs["op_type"]
        label = lambda: f"mx.sym.Custom(op_type={self.op_type!r}, name={node_name!r})"
        with lifecycle.action(label):
            self.prop = self._make_prop()
            self._ask_declarations()

    @property
    def where(self):
        """How errors name this operator: ``Custom 'c1' (op_type='softmax')``."""
        return f"Custom {self.node_name!r} (op_type={self.op_type!r})"

    def _make_prop(self):
        try:
            prop_cls = get_prop_class(self.op_type)
        except KeyError as exc:
            raise MXNetValueError(f"{self.where}: {exc.args[0]}") from None
        hidden = {k for k in self.attrs if k.startswith("__") and k.endswith("__")}  # __shape__
        given = {k: v for k, v in self.attrs.items() if k != "op_type" and k not in hidden}
        kwargs = keyword_strings(given, self.where, prop_cls.__name__)
        self.prop_kwargs, self.prop_class_name = kwargs, prop_cls.__name__
        try:
            inspect.signature(prop_cls).bind(**kwargs)
        except TypeError as exc:
            params = ", ".join(inspect.signature(prop_cls).parameters) or "(none)"
            raise MXNetTypeError(
                f"{self.where}: give {prop_cls.__name__}.__init__ one parameter "
                "per keyword of mx.sym.Custom (other than op_type and name), "
                f"or change the call to match it (it takes: {params}): "
                f"{prop_cls.__name__}.__init__ {exc}. Every such keyword goes "
                "to the Prop, as a string."
            ) from None
        with self.noting_string_kwargs("__init__"):
            return lifecycle.observe(prop_cls, "__init__", kwargs=kwargs, site=self)

    def _ask(self, method, *args, engine_catches=False):
        """``self.prop.method(*args)``: the one way the engine calls the Prop (``lifecycle``)."""
        with self.noting_string_kwargs(method, self.prop):
            return lifecycle.observe(
                self.prop, method, args, site=self, engine_catches=engine_catches
            )

    @contextmanager
    def noting_string_kwargs(self, method, *objects):
        """A TypeError raised in ``method`` gets a note when a keyword argument that looks like
        a number is still the string it arrived as (``objects``: the Prop and/or the CustomOp)."""
        try:
            yield
        except TypeError as exc:
            note = string_kwargs_note(self, exc, method, *objects)
            if note and note not in getattr(exc, "__notes__", ()):
                exc.add_note(note)
            raise

    def head_gradient_hint(self):
        """What the "needs a head gradient" error adds for a Custom node."""
        prop = type(self.prop).__name__
        return (
            f" {prop} has need_top_grad=True (CustomOpProp's default), so its backward "
            "waits for out_grad, the gradient of its output from above. If it is a loss "
            "that makes its own gradient, call super().__init__(need_top_grad=False) in "
            f"{prop}.__init__; then backward() needs no out_grads."
        )

    def _ask_declarations(self):
        """The Prop's names and backward dependency, asked once at creation (as MXNet does)."""
        self._declared = {
            m: self._names_from(m)
            for m in ("list_arguments", "list_outputs", "list_auxiliary_states")
        }
        self._declared["reads"] = super().backward_reads()

    def _names_from(self, method):
        """The names (strs) ``method`` returns, or a teaching error; what it raises gets a note."""
        prop = type(self.prop).__name__
        try:
            names = self._ask(method)
        except Exception as exc:  # -- infer_graph raises it again, unchanged
            exc.add_note(
                f"(raised in {prop}.{method} of {self.where}, which mx.sym.Custom "
                "calls when it creates the node)"
            )
            raise
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            example = {
                "list_arguments": "['data', 'label']",
                "list_outputs": "['output']",
                "list_auxiliary_states": "[] (or ['moving_mean'])",
            }[method]
            got = (
                f"the str {names!r}, which would be read letter by letter"
                if isinstance(names, str)
                else f"{names!r} ({type(names).__name__})"
            )
            raise MXNetTypeError(
                f"{self.where}: return a list of names (strs) from "
                f"{prop}.{method}, e.g. return {example}; it returned {got}"
            )
        return list(names)

    # --- declarations come from the Prop, asked once ---------------------------------------------
    def list_arguments(self):
        return list(self._declared["list_arguments"])

    def list_outputs(self):
        return list(self._declared["list_outputs"])

    def list_auxiliary_states(self):
        return list(self._declared["list_auxiliary_states"])

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return list(self._ask("declare_backward_dependency", out_grad, in_data, out_data))

    def backward_reads(self):
        """What the Prop declared when the node was created (see Operator.backward_reads)."""
        return {role: list(flags) for role, flags in self._declared["reads"].items()}

    def infer_shape(self, in_shape, out_shape):
        """Ask the Prop with MXNet's conventions: lists of ints, ``[]`` for an unknown shape
        and -1 for an unknown size (``[-1, 3]``; minisym's 0); a -1 it returns stays unknown."""
        given = [[] if s is None else [int(d) if d else -1 for d in s] for s in in_shape]
        unknowns = any(s is None for s in in_shape)
        try:
            result = self._ask("infer_shape", given, engine_catches=unknowns)
        except Exception as exc:  # -- infer_graph raises it again, unchanged
            if unknowns:
                return list(in_shape), list(out_shape), [None] * len(self.list_auxiliary_states())
            exc.add_note(
                f"(raised in {type(self.prop).__name__}.infer_shape of {self.where}, "
                f"called with in_shape={given})"
            )
            raise
        groups = self._check_lengths(result, "infer_shape", "shapes")
        return tuple([self._returned_shape(s, given) for s in shapes] for shapes in groups)

    def _returned_shape(self, shape, given):
        """A shape the Prop returned as minisym's tuple (-1 -> 0, unknown), None for ``[]``."""
        if shape is None:
            return None
        if not isinstance(shape, (list, tuple, np.ndarray)):
            raise MXNetTypeError(
                f"{self.where}: return one list of shapes per group from "
                f"{type(self.prop).__name__}.infer_shape, each shape a list of ints, e.g. "
                "return in_shape, [[4, 3]], [] for one output of shape (4, 3), not [4, 3]: it "
                f"returned {shape!r} ({type(shape).__name__}) where a shape belongs"
            )
        if not len(shape):
            return None
        self._check_integer_sizes(shape)
        sizes = tuple(int(d) for d in shape)
        if any(d < -1 for d in sizes):
            raise MXNetValueError(
                f"{self.where}: leave an unknown size at -1 in "
                f"{type(self.prop).__name__}.infer_shape (arithmetic on a -1 gives negative "
                f"sizes): it returned the shape {list(sizes)}, with a negative size, when called "
                f"with in_shape={given}; sizes are positive, or -1 for one not known yet"
            )
        return tuple(0 if d == -1 else d for d in sizes)

    def _check_integer_sizes(self, shape):
        """Every size an int, as MXNet needs: a keyword of mx.sym.Custom used unconverted as a
        size ('10') gets the note that names it."""
        bad = next((d for d in shape if not isinstance(d, numbers.Integral)), None)
        if bad is None:
            return
        fix = (
            "write int(...) where the size is computed"
            if isinstance(bad, float)
            else "make every size an int"
        )
        with self.noting_string_kwargs("infer_shape", self.prop):
            raise MXNetTypeError(
                f"{self.where}: {fix} in {type(self.prop).__name__}.infer_shape: it returned the "
                f"shape {tuple(shape)!r}, with the size {bad!r} ({type(bad).__name__}); every size "
                "must be an int"
            )

    def infer_type(self, in_type, out_type):
        """Ask the Prop with numpy type classes (None for unknown); dtypes come back."""
        given = [None if t is None else np.dtype(t).type for t in in_type]
        groups = self._check_lengths(self._ask("infer_type", given), "infer_type", "types")
        declared = (self.list_arguments(), self.list_outputs(), self.list_auxiliary_states())
        return tuple(
            [self._returned_type(t, f"{which} {i} {names[i]!r}") for i, t in enumerate(types)]
            for types, which, names in zip(groups, ("input", "output", "aux state"), declared)
        )

    def _returned_type(self, value, slot):
        """A dtype the Prop's infer_type returned for ``slot`` ("input 0 'data'") as a numpy dtype
        (None stays unknown), or a TypeError naming it: MXNet has a type code for each dtype."""
        if value is None:
            return None
        try:
            dtype = np.dtype(value)
        except TypeError:
            dtype = None
        if dtype is None or dtype.type not in DTYPE_NP_TO_MX:
            raise MXNetTypeError(
                f"{self.where}: return numpy types such as np.float32 from "
                f"{type(self.prop).__name__}.infer_type (in_type[0] is the first input's): it "
                f"returned {value!r} for {slot}, which is not a data type MXNet has"
            )
        return dtype

    def _check_lengths(self, result, method, what):
        """The 2 or 3 returned lists, each of the declared length, or a teaching error."""
        prop = type(self.prop).__name__
        stage = "InferShape" if method == "infer_shape" else "InferType"  # MXNet's wording
        if not isinstance(result, (list, tuple)) or len(result) not in (2, 3):
            raise MXNetValueError(
                f"{self.where}: return 2 or 3 lists (inputs, outputs[, aux]) "
                f"from {prop}.{method}; it returned {result!r}"
            )
        ins, outs = result[0], result[1]
        aux = result[2] if len(result) == 3 else []
        for got, names, label in (
            (outs, self.list_outputs(), "output"),
            (ins, self.list_arguments(), "input"),
            (aux, self.list_auxiliary_states(), "aux state"),
        ):
            if len(got) != len(names):
                count = f"{len(names)} entr{'y' if len(names) == 1 else 'ies'}"
                raise MXNetValueError(
                    f"{self.where}: return one {what[:-1]} per name in {names} from "
                    f"{prop}.{method}: {stage} Error: expecting {count} in returned {label} "
                    f"{what}, got {len(got)}."
                )
        return list(ins), list(outs), list(aux)

    # --- computing: one CustomOp per executor ------------------------------------------------
    def create_runner(self, ctx, in_shapes, in_dtypes):
        """The prop's CustomOp wrapped to take the executor's NumPy arrays."""
        codes = [DTYPE_NP_TO_MX[np.dtype(t).type] for t in in_dtypes]
        custom_op = self._ask("create_operator", ctx, [list(s) for s in in_shapes], codes)
        if custom_op is None:
            raise MXNetError(
                f"{self.where}: return your CustomOp instance from "
                f"{type(self.prop).__name__}.create_operator (e.g. return MyOp()); it "
                "returned None"
            )
        return CustomRunner(self, custom_op, ctx)

    def forward(self, is_train, req, in_data, out_data, aux):
        """Not on the node: an executor runs the CustomOp that ``create_runner`` makes."""
        raise MXNetError(
            f"{self.where}: bind it first (sym.simple_bind(...)): it runs inside an executor"
        )

    backward = forward


@functools.cache
def _engine_error_class(kind):
    """MXNetError and ``kind`` in one class that shows as ``kind`` (a traceback reads as before),
    made once per type; MXNetError itself when the two cannot be combined, as for OSError."""
    try:
        return type(
            kind.__name__,
            (MXNetError, kind),
            {
                "__module__": kind.__module__,
                "__qualname__": kind.__qualname__,
                "__str__": lambda self: self.__dict__.get("_text", Exception.__str__(self)),
            },
        )
    except TypeError:
        return MXNetError


def engine_error(exc):
    """What MXNet raises for an exception in a CustomOp's forward / backward: an MXNetError
    (when the output is read; minisym computes at once, so at the call). It is also of the
    exception's own type and shows as it (``except AssertionError`` still catches it, the
    traceback ends ``AssertionError: ...``); it keeps the message and the attributes, and
    takes the notes, which name the operator, the node and what each index held."""
    kind = _engine_error_class(type(exc))
    text = str(exc)
    try:  # not kind(...): an exception's __init__ may take other arguments than its args
        error = kind.__new__(kind, *exc.args)
        error.args = exc.args
        error.__dict__.update(vars(exc))
    except Exception:  # noqa: BLE001 -- an exception that cannot be copied: its text is kept
        error = MXNetError(text)
    error.__dict__["_text"] = text
    if hasattr(exc, "__notes__"):
        error.__notes__ = exc.__notes__
        del exc.__notes__
    return error


class CustomRunner:
    """Calls a CustomOp with NDArrays that alias the executor's buffers, then checks that its
    results went into ``out_data`` / ``in_grad`` (see ``custom_checks``)."""

    def __init__(self, op, custom_op, ctx):
        self.op = op
        self.custom_op = custom_op
        self.ctx = ctx
        self.needs = op.backward_reads()
        self.checker = ResultChecker(op)

    def _wrap(self, arrays, role, needed=None, writable=True, req=None, phase=None):
        """WatchedNDArrays over the buffers, in a SlotList named after ``role``: what the call
        only reads is read-only as in MXNet (``+=`` fails; ``x[:] = ...`` writes into a copy)."""
        names = self._names(role)
        heard = self.checker.on_write(phase) if req is not None else None
        wrapped = [
            WatchedNDArray(
                a,
                self.ctx,
                writable,
                copy_on_write=not writable,
                slot=SlotName(role, i, names[i], self.op.where),
                req=None if req is None else req[i],
                on_write=heard,
            )
            if needed is None or needed[i]
            else _undeclared(self.op, role, i, names[i], self.ctx)
            for i, a in enumerate(arrays)
        ]
        return SlotList(wrapped, role, names, self.op.where)

    def _names(self, role):
        """The Prop's names for list ``role`` ('in_data', 'forward req', ...): contract.FAMILIES."""
        return getattr(self.op, FAMILIES[family_of(role)][0])()

    def _call(self, method, args, listing):
        """``custom_op.method(*args)``, recorded; what it raises gets ``slot_map_note(listing)``."""
        called = f"{type(self.custom_op).__name__}.{method}"
        try:
            with self.op.noting_string_kwargs(method, self.op.prop, self.custom_op):
                return lifecycle.observe(self.custom_op, method, args, site=self.op)
        except Exception as exc:  # an MXNetError goes on as it is, any other as engine_error
            exc.add_note(slot_map_note(self.op, called, listing))
            if isinstance(exc, MXNetError):
                raise
            # one traceback, down to the line that raised (the exception stays __context__)
            raise engine_error(exc).with_traceback(exc.__traceback__) from None
        finally:
            for _, arrays, _, _ in listing:
                for array in arrays:
                    if isinstance(array, WatchedNDArray):
                        array.on_write = None

    def forward(self, is_train, req, in_data, out_data, aux):
        """CustomOp.forward with ``is_train`` as 0 / 1 and read-only ``in_data``. An array it
        keeps after returning gets its own copy of the values (with a warning)."""
        lists = {
            "in_data": self._wrap(in_data, "in_data", writable=False),
            "out_data": self._wrap(out_data, "out_data", req=req, phase="forward"),
        }
        aux_list = self._wrap(aux, "aux")
        given, aux_given = list(lists["out_data"]), list(aux_list)  # as handed out (see backward)
        listing = _listing({**lists, "aux": aux_list}, req, "out_data")
        before = references(lists)
        req_list = SlotList(req, "req", self._names("forward req"), self.op.where)
        returned = self._call(
            "forward", (int(bool(is_train)), req_list, *lists.values(), aux_list), listing
        )
        self.checker.after_forward(returned, list(req), lists["out_data"], given)
        self.checker.after_replacing("forward", "out_data", lists["out_data"], given)
        self.checker.after_replacing("forward", "aux", aux_list, aux_given)
        self.checker.after_reading("forward", {"in_data": lists["in_data"]})
        returned = None  # what forward returned is not an array it kept
        self.checker.after_keeping("forward", detach_kept(lists, before))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """CustomOp.backward; what declare_backward_dependency left out is an EmptyNDArray.
        ``last_backward`` says, per in_grad and aux, whether it wrote there ('yes'), touched
        the values ('maybe', in_grad only: reading an aux state, as backward does to update
        it, changes nothing) or not ('no'): what a failed backward already changed."""
        lists = {
            "out_grad": self._wrap(out_grad, "out_grad", self.needs["out_grad"], False),
            "in_data": self._wrap(in_data, "in_data", self.needs["in_data"], False),
            "out_data": self._wrap(out_data, "out_data", self.needs["out_data"], False),
            "in_grad": self._wrap(in_grad, "in_grad", req=req, phase="backward"),
        }
        aux_list = self._wrap(aux, "aux")
        # the entries as handed out (code may replace them)
        given, aux_given = list(lists["in_grad"]), list(aux_list)
        listing = _listing({**lists, "aux": aux_list}, req, "in_grad")
        before = references(lists)
        req_list = SlotList(req, "req", self._names("backward req"), self.op.where)
        try:
            returned = self._call("backward", (req_list, *lists.values(), aux_list), listing)
        finally:
            self.last_backward = {
                "in_grad": [_touched(a) for a in given],
                "aux": ["yes" if a.written else "no" for a in aux_given],
            }
        self.checker.after_backward(returned, list(req), lists, given)
        self.checker.after_replacing("backward", "in_grad", lists["in_grad"], given)
        self.checker.after_replacing("backward", "aux", aux_list, aux_given)
        if not any(r != "null" and not a.exposed for r, a in zip(req, given)):
            self.checker.after_reading("backward", {r: lists[r] for r in WHAT_IT_HOLDS})
        returned = None  # what backward returned is not an array it kept
        self.checker.after_keeping("backward", detach_kept(lists, before))


def _listing(lists, req, written):
    """[(role, arrays, names, req or None)] of the lists a call receives, for ``slot_map_note``."""
    return [
        (role, list(slots), slots.names, list(req) if role == written else None)
        for role, slots in lists.items()
    ]


def _touched(array):
    """'yes' when code wrote into ``array``, 'maybe' when it reached its values, else 'no'."""
    return "yes" if array.written else "maybe" if array.exposed else "no"


class SlotList(list):
    """The list a custom operator receives; out of range, it says what each index is."""

    def __init__(self, items, role, names, where):
        super().__init__(items)
        self.role = role
        self.names = list(names)
        self.where = where

    def __getitem__(self, index):
        try:
            return super().__getitem__(index)
        except IndexError:
            count = len(self)
            fix = (
                f"use an index from 0 to {count - 1} ({slot_listing(self.role, self.names)})"
                if count
                else f"declare a name first: {self.role} is empty"
            )
            raise IndexError(
                f"{self.where}: {fix}; {self.role}[{index}] does not exist: {self.role} has "
                f"{count} entr{'y' if count == 1 else 'ies'}, one per name the Prop declares. "
                "in_data / in_grad / backward req follow list_arguments(), out_data / out_grad "
                "/ forward req follow list_outputs(), aux follows list_auxiliary_states()."
            ) from None


def _undeclared(op, role, index, name, ctx):
    """The empty NDArray backward gets for ``role[index]`` (``name``), which it did not declare
    it needs: reading it and writing into it fail, each with its own message."""
    prop = type(op.prop).__name__
    slot = f"{role}[{index}] ({name!r})"
    mxnet = " (MXNet: Check failed: ndim_is_known(this->ndim()): Shape is unknown.)"
    loss = role == "out_grad" and not getattr(op.prop, "need_top_grad_", True)
    if loss:
        read = (
            f"{op.where}: compute backward's gradient without out_grad: {prop} passes "
            "need_top_grad=False, so it is a loss that makes its own gradient and does not "
            f"read out_grad (need_top_grad=False leaves out every out_grad; {slot} is an "
            "empty NDArray in backward). If it needs the gradient arriving from above after "
            f"all, drop need_top_grad=False from {prop}.__init__ and list {role}[{index}] in "
            f"{prop}.declare_backward_dependency (lesson 6).{mxnet}"
        )
    else:
        read = (
            f"{op.where}: list {role}[{index}] in {prop}.declare_backward_dependency to "
            f"read it in backward (lesson 6), or do not read it: {slot} is an empty NDArray "
            f"in backward, because {prop}.declare_backward_dependency did not list it."
            f"{mxnet}"
        )
    why = " (need_top_grad=False leaves out every out_grad)" if loss else ""
    arguments = op.list_arguments()
    write = (
        f"{op.where}: write backward's results into in_grad, not into {slot}: "
        f"self.assign(in_grad[0], req[0], grad), one in_grad[i] per list_arguments() name "
        f"({slot_listing('in_grad', arguments)}). Backward wrote into {slot}, but backward "
        f"only reads {role}: it is {WHAT_IT_HOLDS[role]}. (Here {slot} is an empty "
        f"NDArray, because {prop}.declare_backward_dependency did not list it{why}.)"
    )
    return EmptyNDArray(read, write, ctx)


class EmptyNDArray(NDArray):
    """Like MXNet's empty NDArray: shape ``()`` (size 1, ndim 0, dtype None), and reading its
    values fails (MXNet: ``Shape is unknown``); here the error says which array it is and why,
    and writing into it says where backward's results go instead."""

    __slots__ = ("_message", "_write_message")

    def __init__(self, message, write_message, ctx):
        self._message = message
        self._write_message = write_message
        super().__init__(None, ctx, writable=False)

    @property
    def _data(self):
        raise MXNetValueError(self._message)

    @_data.setter
    def _data(self, value):
        pass

    shape = property(lambda self: ())
    size = property(lambda self: 1)
    ndim = property(lambda self: 0)
    dtype = property(lambda self: None)

    def __setitem__(self, key, value):
        raise MXNetValueError(self._write_message)

    def _inplace(self, other, *how):
        raise MXNetValueError(self._write_message)

    def __repr__(self):
        return f"<empty NDArray @{self._ctx}> (not declared in declare_backward_dependency)"
