"""Shape and type inference: every operator's rule applied forward and backward to a fixpoint."""

import ast
import warnings
from dataclasses import dataclass

import numpy as np

from ..base import DTYPE_MX_TO_NP, DTYPE_NP_TO_MX, MistakeWarning, MXNetTypeError, MXNetValueError
from ..ops.rules import ShapeConflict, fmt, known, merge_shape, merge_value
from ..shape_check import check_shape
from ..trace import slot_names
from ..util import is_np_shape
from .argument_names import candidate_lines, name_hint

__all__ = [
    "infer_shape",
    "infer_type",
    "infer_graph",
    "infer_report",
    "InferReport",
    "NodeShapes",
    "ShapeKind",
    "TypeKind",
]

_MAX_SWEEPS = 100


class ShapeKind:
    """What shape inference needs to know: the rule, merging, hints, what 'unknown' is."""

    what = "shape"

    @staticmethod
    def rule(op, ins, outs):
        """The operator's shape rule: (in_shapes, out_shapes, aux_shapes)."""
        return op.infer_shape(ins, outs)

    merge = staticmethod(merge_shape)
    is_known = staticmethod(known)

    @staticmethod
    def hint(node):
        """A variable's ``__shape__`` attribute as a tuple (-1 read as 0, unknown), or None."""
        text = node.attrs.get("__shape__")
        if text is None:
            return None
        value = ast.literal_eval(text)
        value = (value,) if isinstance(value, int) else value  # shape=3 is (3,), as in MXNet
        return check_shape(
            value, where="mx.sym.Variable", name=node.name, mode="infer", keyword="shape"
        )

    @staticmethod
    def normalize(value):
        """A tuple of Python ints (rules may return lists or numpy ints), or None."""
        return None if value is None else tuple(int(d) for d in value)


class TypeKind:
    """What type inference needs: numpy dtypes, None when unknown."""

    what = "dtype"

    @staticmethod
    def rule(op, ins, outs):
        """The operator's type rule: (in_types, out_types, aux_types)."""
        return op.infer_type(ins, outs)

    merge = staticmethod(merge_value)
    is_known = staticmethod(lambda value: value is not None)

    @staticmethod
    def hint(node):
        """A variable's ``__dtype__`` attribute (an MXNet type code) as a numpy dtype, or None."""
        code = node.attrs.get("__dtype__")
        return None if code is None else np.dtype(DTYPE_MX_TO_NP[int(code)])

    @staticmethod
    def normalize(value):
        """A numpy dtype, or None."""
        return None if value is None else np.dtype(value)


def infer_graph(symbol, given, kind):
    """{(id(node), output index): value} for every entry of ``symbol``'s graph.

    ``given`` maps variable names to values (they override ``__shape__``/``__dtype__`` hints).
    Rules run over the nodes in topological order and then in reverse, until nothing changes.
    """
    table, stop = _fixpoint(symbol, given, kind)
    if stop is not None:
        raise stop.error
    return table


@dataclass(frozen=True)
class _Stop:
    """Why and where the fixpoint stopped early: the failing node (None: it never settled),
    the exception the rule raised, and how many operators' rules had run by then."""

    node: object
    error: Exception
    reached: int


def _fixpoint(symbol, given, kind):
    """(table, stop): every entry's value, and a _Stop when a rule failed (else None)."""
    order = symbol.topo_order()
    table = {}
    for node in order:
        if node.is_variable:
            value = given[node.name] if node.name in given else kind.hint(node)
            table[(id(node), 0)] = kind.normalize(value)
    ops = [node for node in order if not node.is_variable]
    for sweep in range(_MAX_SWEEPS):
        changed = False
        for step, node in enumerate(ops + ops[::-1]):
            try:
                changed |= _apply_rule(node, table, kind)
            except Exception as exc:  # noqa: BLE001 -- infer_graph raises it again, unchanged
                if hasattr(exc, "name_inputs"):  # a rule's message that names the producers
                    exc.name_inputs(node)
                # the first forward sweep is the only time some rules have not run yet
                reached = min(step + 1, len(ops)) if sweep == 0 else len(ops)
                return table, _Stop(node, exc, reached)
        if not changed:
            return table, None
    error = MXNetValueError(f"{kind.what} inference did not settle after {_MAX_SWEEPS} sweeps")
    return table, _Stop(None, error, len(ops))


def _apply_rule(node, table, kind):
    """Run ``node``'s rule once and merge what it says into ``table``; True if anything changed."""
    op = node.op
    n_args = len(op.list_arguments())
    ins = [table.get((id(src), idx)) for src, idx in node.inputs]
    outs = [table.get((id(node), j)) for j in range(node.num_outputs)]
    new_in, new_out, new_aux = kind.rule(op, ins[:n_args], outs)
    proposals = [(("in", i), node.inputs[i], v) for i, v in enumerate(list(new_in) + list(new_aux))]
    proposals += [(("out", j), (node, j), v) for j, v in enumerate(new_out)]
    changed = False
    for slot, (src, idx), value in proposals:
        value = kind.normalize(value)
        old = table.get((id(src), idx))
        try:
            merged = kind.merge(old, value)
        except ShapeConflict:
            raise MXNetValueError(_conflict_message(node, slot, old, value, ins, kind)) from None
        if (old is None) != (merged is None) or merged != old:  # np.dtype(None) is float64
            table[(id(src), idx)] = merged
            changed = True
    return changed


def _conflict_message(node, slot, provided, inferred, ins, kind):
    """Name the operator, node, argument (by name and index), both values, and the fix."""
    op = node.op
    slot_names = op.list_arguments() + op.list_auxiliary_states()
    what = kind.what
    if slot[0] == "in":
        i = slot[1]
        src = node.inputs[i][0]
        which = f"input {i} '{slot_names[i]}' (node '{src.name}')"
        fix = (
            f"Fix: give '{src.name}' the {what} {fmt(inferred)}, or leave it out and let "
            f"inference fill it in."
            if src.is_variable
            else f"Fix: check the layer that produces '{src.name}'."
        )
    else:
        which = f"output {slot[1]} '{op.list_outputs()[slot[1]]}'"
        fix = "Fix: check what consumes this output."
    context = ", ".join(
        f"{n}={fmt(v) if what == 'shape' else v}" for n, v in zip(slot_names, ins) if v is not None
    )
    shown = fmt if what == "shape" else str
    return (
        f"Error in operator {node.name}: {op.op_name} {what} inconsistent, Provided = "
        f"{shown(provided)}, inferred {what} = {shown(inferred)}.\n"
        f"{op.where}: {which} is {shown(provided)} but the operator needs {shown(inferred)}"
        f" (known inputs: {context or 'none'}). {fix}"
    )


def _given_values(symbol, args, kwargs, kind, convert):
    """Map argument names to the values passed positionally or by keyword."""
    if args and kwargs:
        raise ValueError(
            f"Can only specify known argument {kind.what}s either by positional or "
            "kwargs way, not both."
        )
    arg_names = symbol.list_arguments()
    if args:
        if len(args) > len(arg_names):
            raise MXNetValueError(
                f"infer_{kind.what}: {len(args)} positional values given but the "
                f"symbol has {len(arg_names)} arguments {arg_names}"
            )
        pairs = [(arg_names[i], v, f"argument {i}") for i, v in enumerate(args) if v is not None]
    else:
        pairs = [(k, v, repr(k)) for k, v in kwargs.items()]
        for name, _, _ in pairs:
            if name not in arg_names:
                api = "infer_shape" if kind is ShapeKind else "infer_type"
                raise MXNetTypeError(
                    f"{api}: Keyword argument name {name} not found.\nCandidate arguments:\n"
                    f"{candidate_lines(arg_names)}\n{name_hint(symbol, name, api)}"
                )
    given = {}
    for name, value, label in pairs:
        converted = convert(value, label, name)
        if converted is not _SKIP:
            given[name] = converted
    return given


_SKIP = object()


def _shape_value(value, label, name):
    """A given shape, which must be a tuple (MXNet's check) of int sizes; -1 is read as 0
    (unknown), as MXNet reads it, and any other negative size is refused."""
    if not isinstance(value, tuple):
        example = tuple(value) if isinstance(value, list) else (2, 3)
        raise TypeError(
            f"Arguments need to be shapes (tuple), but {label} is {type(value)}. "
            f"Write it as a tuple, e.g. {example}."
        )
    return check_shape(
        value, where="infer_shape", name=name, mode="infer", fraction=TypeError
    )  # MXNet: TypeError (a float), MXNetError (< -1)


def _type_value(value, label, name):
    """A given dtype as a numpy dtype; _SKIP for a type MXNet has no code for."""
    try:
        np_type = np.dtype(value).type
    except TypeError:
        raise TypeError(  # numpy's TypeError in MXNet, with the argument named
            f"infer_type: {label} is {value!r}, which is not a data type; give a numpy type or "
            f"its name, e.g. {name}=np.float32 or {name}='float32'"
        ) from None
    if np_type not in DTYPE_NP_TO_MX:
        return _SKIP
    return np.dtype(np_type)


def _results(symbol, table, present):
    """(args, outs, aux) lists from ``table`` in list orders, each value passed to ``present``."""
    arg_nodes, aux_nodes = symbol.variable_nodes()
    args = [present(table[(id(n), 0)]) for n in arg_nodes]
    aux = [present(table[(id(n), 0)]) for n in aux_nodes]
    outs = [present(table.get((id(n), j))) for n, j in symbol.outputs]
    return args, outs, aux


def _complete(symbol, table, kind):
    """Whether every argument, output and auxiliary state is known."""
    args, outs, aux = _results(symbol, table, lambda v: v)
    return all(kind.is_known(v) for v in args + outs + aux)


def _unknown_lines(names, values, is_missing, show):
    """``name: value`` lines for the missing values, at most ten and then ``...``."""
    lines = []
    for name, value in zip(names, values):
        if is_missing(value):
            if len(lines) >= 10:
                lines.append("...")
                break
            lines.append(f"{name}: {show(value)}")
    return lines


def infer_shape(symbol, args, kwargs, partial):
    """MXNet's ``infer_shape`` / ``infer_shape_partial`` (see Symbol.infer_shape)."""
    given = _given_values(symbol, args, kwargs, ShapeKind, _shape_value)
    table = infer_graph(symbol, given, ShapeKind)
    present = _numpy_convention if is_np_shape() else (lambda v: () if v is None else v)
    if partial or _complete(symbol, table, ShapeKind):
        return _results(symbol, table, present)
    arg_shapes, _, _ = _results(symbol, table, present)
    lines = _unknown_lines(symbol.list_arguments(), arg_shapes, lambda s: not s or 0 in s, str)
    message = (
        "Cannot decide shape for the following arguments (0s in shape means unknown "
        "dimensions). Consider providing them as input:\n\t" + "\n\t".join(lines)
    )
    minus_one = {} if is_np_shape() else _given_minus_one(symbol, args, kwargs)
    if minus_one:
        warnings.warn(_minus_one_hint(minus_one) + "\n" + message, MistakeWarning, stacklevel=3)
    else:
        warnings.warn(message, stacklevel=3)
    return None, None, None


def _numpy_convention(shape):
    """A shape as MXNet reports it under np_shape(True): unknown sizes -1, unknown shapes None."""
    return None if shape is None else tuple(-1 if size == 0 else size for size in shape)


def _given_minus_one(symbol, args, kwargs):
    """{name: shape as given} of the shapes given with a -1 size."""
    given = (dict(zip(symbol.list_arguments(), args)) if args else kwargs).items()
    return {
        name: tuple(value)
        for name, value in given
        if isinstance(value, (tuple, list))
        and any(isinstance(d, (int, np.integer)) and d == -1 for d in value)
    }


def _minus_one_hint(minus_one):
    """The teaching line of an infer_shape that failed because a size was given as -1."""
    name, shape = next(iter(minus_one.items()))
    typed = ", ".join(f"{n}={s}" for n, s in minus_one.items())
    if shape[0] == -1:
        fixed = (32,) + shape[1:]
        fix = f"give a real batch size instead of -1, e.g. {name}={fixed}: -1 is not a batch size"
    else:
        fix = f"give every size of {name!r} instead of -1: -1 is not a size"
    return (
        f"infer_shape: {fix}. MXNet writes an unknown dimension as 0 in legacy shapes, so "
        f"the -1 in {typed} is read as 0, 'unknown' (shown as 0 below), and no shape that "
        "depends on it can be decided."
    )


def infer_type(symbol, args, kwargs, partial):
    """MXNet's ``infer_type`` / ``infer_type_partial``; dtypes come back as numpy type classes."""
    given = _given_values(symbol, args, kwargs, TypeKind, _type_value)
    table = infer_graph(symbol, given, TypeKind)
    present = lambda v: None if v is None else v.type
    if partial or _complete(symbol, table, TypeKind):
        return _results(symbol, table, present)
    arg_types, _, _ = _results(symbol, table, present)
    lines = _unknown_lines(symbol.list_arguments(), arg_types, lambda t: t is None, str)
    warnings.warn(
        "Cannot decide type for the following arguments. Consider providing them as "
        "input:\n\t" + "\n\t".join(lines),
        stacklevel=3,
    )
    return None, None, None


# --- the per-node report the shape explorer and graph view show --------------------------------
@dataclass(frozen=True)
class NodeShapes:
    """One node's shapes where inference left them.

    ``inputs`` / ``outputs`` / ``aux`` are ``(slot name, graph entry, shape or None)`` triples in
    the order of ``in_data`` / ``out_data`` / ``aux``: ``('weight', 'fc1_weight', (10, 784))``.
    A variable has one output named after itself. ``reached`` is False for an operator whose rule
    never ran because inference stopped before it.
    """

    name: str
    op: str
    inputs: tuple
    outputs: tuple
    aux: tuple
    reached: bool = True

    def slots(self):
        """Every (slot name, entry, shape) triple: inputs, then outputs, then aux."""
        return self.inputs + self.outputs + self.aux


@dataclass(frozen=True)
class InferReport:
    """Every node's shapes in topological order, and where and why inference stopped.

    ``failed_node`` is the node whose rule failed (None when none did) and ``error`` the teaching
    message ``infer_shape`` raises for it, notes included ('' when inference went through).
    """

    nodes: tuple
    failed_node: str | None = None
    error: str = ""

    @property
    def ok(self):
        """True when no rule failed (shapes may still be unknown)."""
        return not self.error

    def node(self, name):
        """The NodeShapes of the node called ``name``."""
        for node in self.nodes:
            if node.name == name:
                return node
        names = [n.name for n in self.nodes]
        raise KeyError(
            f"infer_report: no node named {name!r}; the nodes are "
            + ", ".join(names[:12])
            + (", ..." if len(names) > 12 else "")
        )


def infer_report(symbol, shapes):
    """Shape inference that never raises for a bad shape: each node's shapes as far as it got.

    ``shapes`` maps argument names to tuples (0 = unknown dimension), as ``infer_shape`` takes
    them by keyword; a name that is not an argument, or a value that is not a tuple, raises
    ``infer_shape``'s error. A rule that fails (a conflict, or an exception in a custom Prop's
    ``infer_shape``) ends inference there: the report holds what was known at that moment.
    """
    given = _given_values(symbol, (), dict(shapes), ShapeKind, _shape_value)
    table, stop = _fixpoint(symbol, given, ShapeKind)
    order = symbol.topo_order()
    ops = [node for node in order if not node.is_variable]
    ran = {id(node) for node in ops[: len(ops) if stop is None else stop.reached]}
    nodes = tuple(_node_shapes(node, table, node.is_variable or id(node) in ran) for node in order)
    if stop is None:
        return InferReport(nodes)
    return InferReport(nodes, None if stop.node is None else stop.node.name, _message(stop.error))


def _node_shapes(node, table, reached):
    """NodeShapes of ``node`` from the inference table."""
    if node.is_variable:
        return NodeShapes(
            node.name, "null", (), ((node.name, node.name, table.get((id(node), 0))),), ()
        )
    names = slot_names(node)
    shape = lambda entry: table.get((id(entry[0]), entry[1]))
    outputs = [(node, j) for j in range(node.num_outputs)]
    triples = lambda pairs, entries: tuple(
        (name, entry_name, shape(entry)) for (name, entry_name), entry in zip(pairs, entries)
    )
    return NodeShapes(
        node.name,
        node.op_name,
        triples(names["in_data"], node.arg_inputs),
        triples(names["out_data"], outputs),
        triples(names["aux"], node.aux_inputs),
        reached,
    )


def _message(exc):
    """The text of ``exc`` as raised, with the notes the engine added (which Prop, which call)."""
    return "\n".join([str(exc), *getattr(exc, "__notes__", ())])
