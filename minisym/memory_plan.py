"""The memory plan: operator outputs share buffers when their lifetimes do not overlap.

Made once at bind. Steps are the forward calls ``0..K-1`` and then the backward calls in reverse
``K..2K-1``. An output lives from its producer's forward step to its last reader: a consumer's
forward, or a backward that reads it (the producer's own backward when it declares
``out_data``; a consumer's backward when it declares ``in_data``). Outputs you can see (the
heads) are never shared. Greedy best fit by byte size, largest buffers first among those free.

``Executor.memory_stats.plan`` describes the plan an executor was bound with
(:class:`MemoryPlan`): which outputs share each buffer, when each is live, what backward keeps.
"""

import math
import os
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "memory_plan_enabled",
    "plan_buffers",
    "plan_sizes",
    "planned_bytes",
    "entry_bytes",
    "describe_plan",
    "PlanStats",
    "MemoryPlan",
    "PlannedEntry",
    "PlannedBuffer",
    "PlanStep",
]


def memory_plan_enabled():
    """Buffers are shared between operator outputs unless MINISYM_MEMORY_PLAN=0."""
    return os.environ.get("MINISYM_MEMORY_PLAN", "1") != "0"


class PlanStats:
    """How much memory the plan saves: bytes needed with and without sharing; ``plan`` is the
    whole :class:`MemoryPlan` (described when first asked for)."""

    def __init__(self, planned_bytes, unplanned_bytes, buffers, describe=None):
        self.planned_bytes = planned_bytes
        self.unplanned_bytes = unplanned_bytes
        self.buffers = buffers
        self._describe = describe
        self._plan = None

    @property
    def plan(self):
        """The :class:`MemoryPlan` these figures come from, or None when not recorded."""
        if self._plan is None and self._describe is not None:
            self._plan = self._describe()
        return self._plan

    def __repr__(self):
        return (
            f"<PlanStats {self.planned_bytes / 2**20:.1f} MiB in {self.buffers} buffers "
            f"instead of {self.unplanned_bytes / 2**20:.1f} MiB>"
        )


def _spans(ops, runs_backward):
    """{(id(node), j): [first step, last forward step, last step, [(reader, slot label)]]} for
    every operator output; the readers are the nodes whose backward reads it."""
    count = len(ops)
    spans = {}
    for k, node in enumerate(ops):
        reads_out = (
            node.op.backward_reads()["out_data"]
            if id(node) in runs_backward
            else [False] * node.num_outputs
        )
        for j in range(node.num_outputs):
            spans[(id(node), j)] = [k, k, k, []]
            if reads_out[j]:
                spans[(id(node), j)][2] = 2 * count - 1 - k
                spans[(id(node), j)][3].append((node, f"out_data[{j}]"))
    for k, node in enumerate(ops):
        reads_in = (
            node.op.backward_reads()["in_data"]
            if id(node) in runs_backward
            else [False] * len(node.arg_inputs)
        )
        for i, ((src, idx), read) in enumerate(zip(node.arg_inputs, reads_in)):
            span = spans.get((id(src), idx))
            if span is None:  # a variable: your array, not the plan's
                continue
            span[1] = max(span[1], k)
            span[2] = max(span[2], 2 * count - 1 - k if read else k)
            if read:
                span[3].append((node, f"in_data[{i}]"))
    return spans


def _lifetimes(ops, runs_backward, pinned):
    """{(id(node), j): (first step, last step)} for every operator output not pinned."""
    return {
        key: (span[0], span[2])
        for key, span in _spans(ops, runs_backward).items()
        if key not in pinned
    }


def entry_bytes(shape, dtype):
    """The bytes of one array of ``shape`` and ``dtype`` (Python ints: never overflows)."""
    return math.prod(shape) * np.dtype(dtype).itemsize


def plan_sizes(ops, shapes, dtypes, runs_backward, pinned, share=True):
    """(buffer sizes in bytes, {entry: buffer index}) of the shared buffers, nothing allocated
    yet: what ``plan_buffers`` allocates, and what bind checks against the memory available.
    Outputs left out (the heads, or all with ``share=False``) get an array of their own."""
    sizes, where = [], {}
    life = _lifetimes(ops, runs_backward, pinned) if share else {}
    free, busy = [], []  # buffer indices; busy: (last step, buffer index)
    for key in sorted(life, key=lambda k: life[k][0]):
        first, last = life[key]
        free.extend(index for end, index in busy if end < first)
        busy = [(end, index) for end, index in busy if end >= first]
        nbytes = entry_bytes(shapes[key], dtypes[key])
        fits = [i for i, index in enumerate(free) if sizes[index] >= nbytes]
        if fits:
            index = free.pop(min(fits, key=lambda i: sizes[free[i]]))
        else:
            index = len(sizes)
            sizes.append(max(nbytes, 1))
        busy.append((last, index))
        where[key] = index
    return sizes, where


def planned_bytes(ops, shapes, dtypes, runs_backward, pinned, share=True):
    """(bytes ``plan_buffers`` will allocate, (entry, bytes) of the largest output or None)."""
    sizes, where = plan_sizes(ops, shapes, dtypes, runs_backward, pinned, share)
    total, largest = sum(sizes), None
    for node in ops:
        for j in range(node.num_outputs):
            key = (id(node), j)
            nbytes = entry_bytes(shapes[key], dtypes[key])
            if key not in where:
                total += nbytes
            if largest is None or nbytes > largest[1]:
                largest = ((node, j), nbytes)
    return total, largest


def plan_buffers(ops, shapes, dtypes, runs_backward, pinned, share=True):
    """({entry: numpy array}, PlanStats) for every operator output of ``ops``."""
    sizes, where = plan_sizes(ops, shapes, dtypes, runs_backward, pinned, share)
    buffers = [np.zeros(size, np.uint8) for size in sizes]
    data, unplanned, planned = {}, 0, sum(sizes)
    for key, index in where.items():
        nbytes = entry_bytes(shapes[key], dtypes[key])
        data[key] = buffers[index][:nbytes].view(dtypes[key]).reshape(shapes[key])
        unplanned += nbytes
    for node in ops:
        for j in range(node.num_outputs):
            key = (id(node), j)
            if key not in data:
                data[key] = np.zeros(shapes[key], dtypes[key])
                nbytes = data[key].nbytes
                planned, unplanned = planned + nbytes, unplanned + nbytes
    inputs = (
        list(ops),
        dict(shapes),
        dict(dtypes),
        frozenset(runs_backward),
        frozenset(pinned),
        share,
    )
    return data, PlanStats(planned, unplanned, len(data), lambda: describe_plan(*inputs))


# --- the plan described: what MemoryPlanView and the lessons show ------------------------------
@dataclass(frozen=True)
class PlanStep:
    """One step of the plan's order: ``phase`` 'forward' or 'backward' of operator ``node``;
    ``runs`` is False for a backward the executor skips (nothing below it needs a gradient)."""

    index: int
    phase: str
    node: str
    op: str
    runs: bool


@dataclass(frozen=True)
class PlannedEntry:
    """One operator output: where it is stored and the steps ``first..last`` it must survive.

    ``last_forward`` is its last forward reader (``first`` when none); past it, only a backward
    keeps it alive: ``backward_readers`` names them, ``(node, 'in_data[0]')``. A ``head`` (an
    output of the symbol) always has an array of its own and lives to the end.
    """

    index: int
    name: str
    node: str
    op: str
    shape: tuple
    dtype: str
    nbytes: int
    first: int
    last_forward: int
    last: int
    buffer: int
    head: bool
    backward_readers: tuple


@dataclass(frozen=True)
class PlannedBuffer:
    """One allocation: ``entries`` (indices into ``MemoryPlan.entries``, in the order they use
    it) share its ``nbytes``; ``own`` when it is the array of one output left out of sharing."""

    index: int
    nbytes: int
    entries: tuple
    own: bool


@dataclass(frozen=True)
class MemoryPlan:
    """The memory plan of one bound graph: ``steps`` (forward, then backward in reverse),
    every operator output (``entries``) and the ``buffers`` they share.

    ``planned_bytes`` is what is allocated (``Executor.memory_stats.planned_bytes``),
    ``unplanned_bytes`` what one array per output would take; ``shared`` is False when
    ``MINISYM_MEMORY_PLAN=0`` turned sharing off.
    """

    steps: tuple
    entries: tuple
    buffers: tuple
    planned_bytes: int
    unplanned_bytes: int
    shared: bool
    num_forward: int
    inputs: tuple = field(default=(), repr=False, compare=False)  # for ``for_inference``

    def kept_for_backward(self):
        """The entries a backward reads, so kept alive after their last forward reader."""
        return [e for e in self.entries if e.backward_readers]

    def live_bytes(self):
        """[bytes of the outputs alive at each step]: the least any plan of this order needs at
        that step; its largest value is at most ``planned_bytes``."""
        change = [0] * (len(self.steps) + 1)
        for entry in self.entries:
            change[entry.first] += entry.nbytes
            change[entry.last + 1] -= entry.nbytes
        live, total = [], 0
        for delta in change[:-1]:
            total += delta
            live.append(total)
        return live

    def entry(self, name):
        """The PlannedEntry called ``name`` (``'conv0_output'``); KeyError naming them if none."""
        for entry in self.entries:
            if entry.name == name:
                return entry
        shown = ", ".join(e.name for e in self.entries[:8])
        raise KeyError(
            f"no operator output named {name!r} in this plan; the outputs are "
            f"{shown}{', ...' if len(self.entries) > 8 else ''}"
        )

    def for_inference(self):
        """The plan the same graph and shapes get when bound with grad_req='null' (no backward
        runs, so nothing is kept for it)."""
        ops, shapes, dtypes, _, pinned, share = self.inputs
        return describe_plan(ops, shapes, dtypes, frozenset(), pinned, share)

    def __repr__(self):
        shared = sum(1 for b in self.buffers if len(b.entries) > 1)
        return (
            f"<MemoryPlan {len(self.entries)} outputs in {len(self.buffers)} buffers "
            f"({shared} shared): {self.planned_bytes} bytes instead of "
            f"{self.unplanned_bytes}>"
        )


def describe_plan(ops, shapes, dtypes, runs_backward, pinned, share=True):
    """The MemoryPlan ``plan_buffers`` makes from the same arguments (nothing allocated):
    each output's buffer, the steps it is live, and the backwards that keep it."""
    sizes, where = plan_sizes(ops, shapes, dtypes, runs_backward, pinned, share)
    spans = _spans(ops, runs_backward)
    count = len(ops)
    steps = [PlanStep(k, "forward", n.name, n.op_name, True) for k, n in enumerate(ops)]
    if any(id(n) in runs_backward for n in ops):
        steps += [
            PlanStep(count + k, "backward", n.name, n.op_name, id(n) in runs_backward)
            for k, n in enumerate(reversed(ops))
        ]
    members = [[] for _ in sizes]
    entries, own = [], []
    for node in ops:
        for j in range(node.num_outputs):
            key = (id(node), j)
            first, last_forward, last, readers = spans[key]
            nbytes = entry_bytes(shapes[key], dtypes[key])
            if key in pinned:
                last = len(steps) - 1
            if key in where:
                buffer = where[key]
                members[buffer].append(len(entries))
            else:
                buffer = len(sizes) + len(own)
                own.append(PlannedBuffer(buffer, nbytes, (len(entries),), True))
            entries.append(
                PlannedEntry(
                    len(entries),
                    node.entry_name(j),
                    node.name,
                    node.op_name,
                    tuple(int(d) for d in shapes[key]),
                    np.dtype(dtypes[key]).name,
                    nbytes,
                    first,
                    last_forward,
                    min(last, len(steps) - 1),
                    buffer,
                    key in pinned,
                    tuple((reader.name, slot) for reader, slot in readers),
                )
            )
    buffers = [
        PlannedBuffer(i, size, tuple(sorted(members[i], key=lambda e: entries[e].first)), False)
        for i, size in enumerate(sizes)
    ] + own
    return MemoryPlan(
        tuple(steps),
        tuple(entries),
        tuple(buffers),
        sum(b.nbytes for b in buffers),
        sum(e.nbytes for e in entries),
        bool(share),
        count,
        (list(ops), dict(shapes), dict(dtypes), frozenset(runs_backward), frozenset(pinned), share),
    )
