"""The execution trace: for every operator call, which array stands behind each index of
``in_data``, ``out_data``, ``req``, ``in_grad``, ``out_grad`` and ``aux``.

This is what the widgets show. It is off by default and costs nothing then; turn it on with
``executor.enable_trace()``. With ``keep_bytes`` it also keeps whole arrays (``Slot.array``),
copied at call time because the memory plan reuses buffers afterwards, and records each gradient
summed from several consumers (``Trace.sums``): ``grad of x = part from A + part from B``.
"""

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Slot", "OpCall", "GradSum", "Trace", "slot_names"]


@dataclass(frozen=True)
class Slot:
    """One index of one list an operator receives: ``in_data[1]`` is ``weight`` (fc1_weight)."""

    role: str  # 'in_data', 'out_data', 'aux', 'in_grad', 'out_grad'
    index: int  # the position in that list
    name: str  # the operator's own name for it: 'weight', 'output', 'moving_mean'
    entry: str  # the graph's name for the array: 'fc1_weight', 'fc1_output'
    shape: tuple
    dtype: str
    req: str = None  # the req for this slot (out_data in forward, in_grad in backward)
    preview: np.ndarray = None  # the first values, copied at call time (None if not kept)
    array: np.ndarray = field(default=None, compare=False, repr=False)  # whole, read-only copy

    @property
    def label(self):
        """``in_data[1]``."""
        return f"{self.role}[{self.index}]"


@dataclass(frozen=True)
class OpCall:
    """One call of ``forward`` or ``backward`` of one node."""

    step: int
    phase: str  # 'forward' or 'backward'
    node: str
    op: str
    is_train: bool
    slots: tuple
    seconds: float = 0.0
    note: str = ""  # what is_train changes in this call, from the operator ('' if nothing)

    def slot(self, label):
        """The Slot called ``label`` (e.g. ``'in_grad[0]'``)."""
        for slot in self.slots:
            if slot.label == label:
                return slot
        raise KeyError(
            f"{self.op} '{self.node}' {self.phase} has no slot {label}; it has "
            + ", ".join(s.label for s in self.slots)
        )

    def table(self):
        """Rows ``(label, name, entry, shape, dtype, req)`` for printing."""
        return [(s.label, s.name, s.entry, s.shape, s.dtype, s.req) for s in self.slots]


@dataclass(frozen=True)
class GradSum:
    """A gradient summed from several contributions: ``grad of x = part from A + part from B``.

    An entry read by two or more operators (a residual shortcut) gets one gradient part from
    each reader's backward; the executor adds them up before the producer's backward reads the
    sum as its ``out_grad`` (or before it lands in the argument's gradient array).
    """

    entry: str  # 'grad of stage1_unit1_relu1_output'
    into: str  # where the sum goes: "out_grad[0] of 'bn1'" or "grad_dict['x']"
    step: int  # the backward call that receives it as out_grad; None for an argument
    sources: tuple  # who gave each part: a node name, or 'out_grads' for a head gradient
    shape: tuple
    parts: tuple = field(default=(), compare=False, repr=False)  # read-only copies (or None)
    total: np.ndarray = field(default=None, compare=False, repr=False)  # their sum (or None)

    def __str__(self):
        return f"{self.entry} = " + " + ".join(f"part from {s}" for s in self.sources)


@dataclass
class Trace:
    """Every recorded operator call, in order; with ``keep_bytes``, whole arrays up to that cap.

    A kept array is copied once: slots showing the same buffer with the same values (an output
    and the inputs that read it) share one read-only copy. Arrays past the cap are not kept
    (``Slot.array`` is None) and counted in ``skipped_bytes`` (once per slot). Arrays whose id
    is in ``views`` are kept as read-only views, free of the cap.
    """

    preview_size: int = 6
    keep_bytes: int = 0  # 0 keeps no whole arrays
    views: frozenset = frozenset()  # ids of arrays shown as views, not copied
    calls: list = field(default_factory=list)
    sums: list = field(default_factory=list)
    kept_bytes: int = 0
    skipped_bytes: int = 0
    _copies: dict = field(default_factory=dict, repr=False)

    def record(self, phase, node, is_train, lists, seconds):
        """Append an OpCall; ``lists`` maps a role to ``[(name, entry, array, req), ...]``."""
        slots = []
        for role, items in lists.items():
            for index, (name, entry, array, req) in enumerate(items):
                slots.append(self._slot(role, index, name, entry, array, req))
        self.calls.append(
            OpCall(
                len(self.calls),
                phase,
                node.name,
                node.op_name,
                bool(is_train),
                tuple(slots),
                seconds,
                node.op.is_train_note(bool(is_train), phase),
            )
        )

    def record_sum(self, entry, into, step, sources, parts, total):
        """Append a GradSum: ``parts`` (arrays from ``sources``) added up into ``total``."""
        self.sums.append(
            GradSum(
                entry,
                into,
                step,
                tuple(sources),
                tuple(total.shape),
                tuple(self._keep(p) for p in parts),
                self._keep(total),
            )
        )

    def _slot(self, role, index, name, entry, array, req):
        if array is None:
            return Slot(role, index, name, entry, (), "none", req)
        array = np.asarray(array)
        preview = None
        if self.preview_size:
            preview = np.array(array.reshape(-1)[: self.preview_size], copy=True)
        return Slot(
            role,
            index,
            name,
            entry,
            tuple(array.shape),
            array.dtype.name,
            req,
            preview,
            self._keep(array),
        )

    def _keep(self, array):
        """A read-only copy of ``array`` within the cap, or None; equal copies are shared."""
        if not self.keep_bytes:
            return None
        array = np.asarray(array)
        if id(array) in self.views:
            view = array.view()
            view.flags.writeable = False
            return view
        key = (id(array), array.shape, array.dtype.str)
        kept = self._copies.get(key)
        if kept is not None and np.array_equal(kept, array):
            return kept  # the same buffer, unchanged since it was copied
        if self.kept_bytes + array.nbytes > self.keep_bytes:
            self.skipped_bytes += array.nbytes
            return None
        kept = np.array(array, copy=True)
        kept.flags.writeable = False
        self._copies[key] = kept
        self.kept_bytes += kept.nbytes
        return kept

    def find(self, node=None, phase=None):
        """The calls of ``node`` (a name) in ``phase``, in order."""
        return [
            c
            for c in self.calls
            if (node is None or c.node == node) and (phase is None or c.phase == phase)
        ]

    def sums_at(self, step):
        """The GradSums that call ``step`` receives as its out_grad."""
        return [s for s in self.sums if s.step == step]

    def clear(self):
        """Forget every recorded call and kept array (tracing stays on)."""
        self.calls.clear()
        self.sums.clear()
        self._copies.clear()
        self.kept_bytes = self.skipped_bytes = 0


def slot_names(node):
    """{role: [(name, entry)]} for a node: what each index of each list stands for."""
    op = node.op
    args, outs, auxs = op.list_arguments(), op.list_outputs(), op.list_auxiliary_states()
    in_entries = [src.entry_name(idx) for src, idx in node.inputs]
    out_entries = [node.entry_name(j) for j in range(len(outs))]
    return {
        "in_data": list(zip(args, in_entries[: len(args)])),
        "out_data": list(zip(outs, out_entries)),
        "aux": list(zip(auxs, in_entries[len(args) :])),
        "in_grad": [(a, f"grad of {e}") for a, e in zip(args, in_entries)],
        "out_grad": [(o, f"grad of {e}") for o, e in zip(outs, out_entries)],
    }
