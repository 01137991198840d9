"""The execution trace: for every operator call, which array stands behind each index of
``in_data``, ``out_data``, ``req``, ``in_grad``, ``out_grad`` and ``aux``.

This is what the widgets show. It is off by default and costs nothing then; turn it on with
``executor.enable_trace()``.
"""
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Slot", "OpCall", "Trace", "slot_names"]


@dataclass(frozen=True)
class Slot:
    """One index of one list an operator receives: ``in_data[1]`` is ``weight`` (fc1_weight)."""

    role: str          # 'in_data', 'out_data', 'aux', 'in_grad', 'out_grad'
    index: int         # the position in that list
    name: str          # the operator's own name for it: 'weight', 'output', 'moving_mean'
    entry: str         # the graph's name for the array: 'fc1_weight', 'fc1_output'
    shape: tuple
    dtype: str
    req: str = None    # the req for this slot (out_data in forward, in_grad in backward)
    preview: np.ndarray = None  # the first values, copied at call time (None if not kept)

    @property
    def label(self):
        """``in_data[1]``."""
        return f"{self.role}[{self.index}]"


@dataclass(frozen=True)
class OpCall:
    """One call of ``forward`` or ``backward`` of one node."""

    step: int
    phase: str         # 'forward' or 'backward'
    node: str
    op: str
    is_train: bool
    slots: tuple
    seconds: float = 0.0

    def slot(self, label):
        """The Slot called ``label`` (e.g. ``'in_grad[0]'``)."""
        for slot in self.slots:
            if slot.label == label:
                return slot
        raise KeyError(f"{self.op} '{self.node}' {self.phase} has no slot {label}; it has "
                       + ", ".join(s.label for s in self.slots))

    def table(self):
        """Rows ``(label, name, entry, shape, dtype, req)`` for printing."""
        return [(s.label, s.name, s.entry, s.shape, s.dtype, s.req) for s in self.slots]


@dataclass
class Trace:
    """Every recorded operator call, in order."""

    preview_size: int = 6
    calls: list = field(default_factory=list)

    def record(self, phase, node, is_train, lists, seconds):
        """Append an OpCall; ``lists`` maps a role to ``[(name, entry, array, req), ...]``."""
        slots = []
        for role, items in lists.items():
            for index, (name, entry, array, req) in enumerate(items):
                slots.append(self._slot(role, index, name, entry, array, req))
        self.calls.append(OpCall(len(self.calls), phase, node.name, node.op_name,
                                 bool(is_train), tuple(slots), seconds))

    def _slot(self, role, index, name, entry, array, req):
        if array is None:
            return Slot(role, index, name, entry, (), "none", req)
        preview = None
        if self.preview_size:
            preview = np.array(np.asarray(array).reshape(-1)[: self.preview_size], copy=True)
        return Slot(role, index, name, entry, tuple(array.shape), np.asarray(array).dtype.name,
                    req, preview)

    def find(self, node=None, phase=None):
        """The calls of ``node`` (a name) in ``phase``, in order."""
        return [c for c in self.calls if (node is None or c.node == node)
                and (phase is None or c.phase == phase)]

    def clear(self):
        """Forget every recorded call (tracing stays on)."""
        self.calls.clear()


def slot_names(node):
    """{role: [(name, entry)]} for a node: what each index of each list stands for."""
    op = node.op
    args, outs, auxs = op.list_arguments(), op.list_outputs(), op.list_auxiliary_states()
    in_entries = [src.entry_name(idx) for src, idx in node.inputs]
    out_entries = [node.entry_name(j) for j in range(len(outs))]
    return {
        "in_data": list(zip(args, in_entries[: len(args)])),
        "out_data": list(zip(outs, out_entries)),
        "aux": list(zip(auxs, in_entries[len(args):])),
        "in_grad": [(a, f"grad of {e}") for a, e in zip(args, in_entries)],
        "out_grad": [(o, f"grad of {e}") for o, e in zip(outs, out_entries)],
    }
