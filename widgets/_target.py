"""What a widget looks at, whatever the learner passed: a Prop class, a Symbol, an Executor or a
Module becomes one symbol, maybe an executor (read, never changed), and every entry's shape and
dtype as inference gives them."""

from dataclasses import dataclass, replace

import numpy as np

import minisym as mx
from minisym.base import MXNetValueError
from minisym.executor import Executor
from minisym.graph.infer import ShapeKind, TypeKind, infer_graph
from minisym.module.module import Module
from minisym.operator import CustomOpProp, registered
from minisym.symbol.symbol import Symbol

__all__ = ["Source", "Target", "is_label", "resolve_target", "source_of"]


def is_label(name):
    """MXNet's naming of a label argument: ``label`` itself, or ``<output>_label``
    (``softmax_label``). A Module's own ``label_names`` win over it (``Source.label_names``)."""
    return name == "label" or name.endswith("_label")


@dataclass(frozen=True)
class Source:
    """What the learner passed, resolved: its symbol, the executor it runs on (None for a
    Symbol or an unbound Module) and the Module, if it was one. Nothing is copied or changed."""

    symbol: Symbol
    executor: Executor = None
    module: Module = None

    def label_names(self):
        """The label arguments: a Module's ``label_names``, else those named like a label."""
        if self.module is not None:
            return list(self.module.label_names or [])
        return [n for n in self.symbol.list_arguments() if is_label(n)]

    def argument_shapes(self):
        """{argument: shape} of the executor's arrays; {} without an executor."""
        if self.executor is None:
            return {}
        return dict(zip(self.symbol.list_arguments(), (a.shape for a in self.executor.arg_arrays)))


def source_of(target, wrong_type, unbound=None, accepts=(Symbol, Executor, Module)):
    """The Source of a Symbol, an Executor or a Module (the one resolver of every widget).

    ``wrong_type``: the TypeError's message for anything else ({type} is filled in);
    ``unbound``: the error's message for an unbound Module, or None to show its symbol alone;
    ``accepts``: the kinds this widget takes (others get ``wrong_type`` too).
    """
    if not isinstance(target, tuple(accepts)):
        raise TypeError(wrong_type.format(type=type(target).__name__))
    if isinstance(target, Module):
        if not target.binded or target.executor is None:
            if unbound is not None:
                raise MXNetValueError(unbound)
            return Source(target.symbol, None, target)
        return Source(target.executor.symbol, target.executor, target)
    if isinstance(target, Executor):
        return Source(target.symbol, target)
    return Source(target)


@dataclass(frozen=True)
class Target:
    """A symbol with what is known about it; ``executor`` is the learner's or the widget's own."""

    symbol: Symbol
    executor: Executor
    bind_error: str
    shapes: dict  # entry name -> shape tuple or None
    dtypes: dict  # entry name -> dtype name or None
    owned: bool = False  # True when the widget bound ``executor`` itself (its arrays are zeros)

    def operator_names(self):
        """Names of the operator nodes, in execution order."""
        if self.symbol is None:
            return []
        return [n.name for n in self.symbol.topo_order() if not n.is_variable]

    def node(self, name):
        """The operator node called ``name``; a teaching KeyError when there is none."""
        for node in self.symbol.topo_order() if self.symbol is not None else ():
            if node.name == name and not node.is_variable:
                return node
        names = self.operator_names()
        shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
        raise KeyError(
            f"no operator node named {name!r}; the operator nodes are: {shown} "
            "(variables have no index map: pick the operator that reads them)"
        )

    def entry_info(self, entry):
        """('(8, 10)', 'float32') for an entry; '?' where inference does not know."""
        shape, dtype = self.shapes.get(entry), self.dtypes.get(entry)
        shown = "?" if shape is None else str(tuple(d if d else "?" for d in shape))
        return shown.replace("'?'", "?"), dtype or "?"

    def reqs(self, node):
        """{slot label: (req, why)} for both req lists of ``node``; {} before binding."""
        if self.executor is None:
            return {}
        out = {
            f"backward req[{i}]": r for i, r in enumerate(self.executor.backward_reqs(node.name))
        }
        out.update(
            {f"forward req[{j}]": r for j, r in enumerate(self.executor.forward_reqs(node.name))}
        )
        return out

    def grad_reqs_of(self, node):
        """{variable read by ``node``: its grad_req}; {} before binding."""
        if self.executor is None:
            return {}
        reqs = dict(zip(self.symbol.list_arguments(), self.executor.grad_req))
        return {
            src.name: reqs[src.name]
            for src, _ in node.arg_inputs
            if src.is_variable and src.name in reqs
        }

    def with_grad_req(self, changes):
        """This target over a copy of its executor, with ``changes`` ({name: req}) applied."""
        if self.executor is None:
            raise MXNetValueError(
                "grad_req is chosen at bind: give shapes= (or a bound executor) first"
            )
        reqs = dict(zip(self.symbol.list_arguments(), self.executor.grad_req))
        unknown = [n for n in changes if n not in reqs]
        if unknown:
            raise KeyError(f"{unknown[0]!r} is not an argument; the arguments are {list(reqs)}")
        reqs.update(changes)
        return replace(self, executor=self.executor.copy(grad_req=reqs))

    def existing_calls(self):
        """The calls the learner's executor already traced, or []."""
        trace = getattr(self.executor, "trace", None)
        return list(trace.calls) if trace is not None else []

    def run_traced(self, preview_size=6):
        """Forward (training) and backward once on a fresh copy; the recorded calls."""
        if self.executor is None:
            raise MXNetValueError(
                "nothing to run yet: give shapes= so the operator can be bound"
                + (f" ({self.bind_error.splitlines()[0]})" if self.bind_error else "")
            )
        copy = self.executor.copy()
        if self.owned:
            _fill_inputs(copy)
        trace = copy.enable_trace(preview_size=preview_size)
        copy.forward(is_train=True)
        copy.backward(out_grads=[mx.nd.ones(o.shape) for o in copy.outputs])
        return list(trace.calls)


def resolve_target(target, shapes=None, prop_kwargs=None):
    """A Target from a Prop class (+ shapes, kwargs), a Symbol, an Executor or a Module."""
    prop_kwargs = prop_kwargs or {}
    if isinstance(target, type) and issubclass(target, CustomOpProp):
        return _with_binding(_prop_symbol(target, prop_kwargs), shapes)
    if prop_kwargs:
        raise TypeError(
            f"keyword arguments {sorted(prop_kwargs)} go to a CustomOpProp class; "
            f"this target is a {type(target).__name__}"
        )
    source = source_of(
        target,
        "an index map shows a CustomOpProp class, a Symbol, an Executor or a Module; got {type}",
        unbound="this Module is not bound yet: call mod.bind(data_shapes=...) "
        "first, then show its index map",
    )
    if source.executor is not None:
        return _from_executor(source.executor)
    return _with_binding(source.symbol, shapes)


def _prop_symbol(prop_cls, prop_kwargs):
    """``mx.sym.Custom`` of a registered Prop, one variable per argument, by keyword."""
    op_type = next((k for k, v in registered().items() if v is prop_cls), None)
    if op_type is None:
        raise MXNetValueError(
            f"{prop_cls.__name__} is not registered: put "
            "@mx.operator.register('your_op') above the class"
        )
    probe = prop_cls(**{k: str(v) for k, v in prop_kwargs.items()})
    inputs = {name: mx.sym.Variable(name) for name in probe.list_arguments()}
    return mx.sym.Custom(op_type=op_type, name=op_type, **inputs, **prop_kwargs)


def _with_binding(symbol, shapes):
    """Inferred shapes, and an executor of our own when the shapes let it bind."""
    if not shapes:
        return _inferred(symbol, None, "", {})
    try:
        executor = symbol.simple_bind(mx.cpu(), grad_req="write", **shapes)
    except Exception as exc:  # noqa: BLE001 -- shown to the learner, names still shown
        return _inferred(symbol, None, str(exc), shapes)
    return replace(_from_executor(executor), owned=True)


def _fill_inputs(executor):
    """Deterministic values for a fresh executor's arguments: uniform in [0, 1), and class
    indices 0 or 1 for the labels."""
    rng = np.random.default_rng(0)
    labels = Source(executor.symbol, executor).label_names()
    for name, array in zip(executor.symbol.list_arguments(), executor.arg_arrays):
        values = (
            rng.integers(0, 2, array.shape) if name in labels else rng.uniform(0, 1, array.shape)
        )
        array[:] = values.astype(array.dtype)


def _from_executor(executor):
    symbol = executor.symbol
    given = dict(zip(symbol.list_arguments(), (a.shape for a in executor.arg_arrays)))
    given.update(zip(symbol.list_auxiliary_states(), (a.shape for a in executor.aux_arrays)))
    return _inferred(symbol, executor, "", given)


def _inferred(symbol, executor, bind_error, shapes):
    """Target with every entry's shape and dtype from inference (unknown where it stops)."""
    types = {n: np.dtype("float32") for n in symbol.list_arguments()}
    if executor is not None:
        types = dict(zip(symbol.list_arguments(), (np.dtype(a.dtype) for a in executor.arg_arrays)))
    shape_table = _safe_infer(symbol, {k: tuple(v) for k, v in shapes.items()}, ShapeKind)
    type_table = _safe_infer(symbol, types, TypeKind)
    entry_shapes, entry_types = {}, {}
    for node in symbol.topo_order():
        for j in range(node.num_outputs):
            entry = node.entry_name(j)
            entry_shapes[entry] = shape_table.get((id(node), j))
            dtype = type_table.get((id(node), j))
            entry_types[entry] = None if dtype is None else np.dtype(dtype).name
    return Target(symbol, executor, bind_error, entry_shapes, entry_types)


def _safe_infer(symbol, given, kind):
    """Inference table, or {} when a rule fails (the bind error says why)."""
    try:
        return infer_graph(symbol, given, kind)
    except Exception:  # noqa: BLE001 -- the widget shows what is known
        return {}
