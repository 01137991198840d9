"""The memory plan: operator outputs share buffers when their lifetimes do not overlap.

Made once at bind. Steps are the forward calls ``0..K-1`` and then the backward calls in reverse
``K..2K-1``. An output lives from its producer's forward step to its last reader: a consumer's
forward, or a backward that reads it (the producer's own backward when it declares
``out_data``; a consumer's backward when it declares ``in_data``). Outputs you can see (the
heads) are never shared. Greedy best fit by byte size, largest buffers first among those free.
"""
import math

import numpy as np

__all__ = ["plan_buffers", "plan_sizes", "planned_bytes", "entry_bytes", "PlanStats"]


class PlanStats:
    """How much memory the plan saves: bytes needed with and without sharing."""

    def __init__(self, planned_bytes, unplanned_bytes, buffers):
        self.planned_bytes = planned_bytes
        self.unplanned_bytes = unplanned_bytes
        self.buffers = buffers

    def __repr__(self):
        return (f"<PlanStats {self.planned_bytes / 2**20:.1f} MiB in {self.buffers} buffers "
                f"instead of {self.unplanned_bytes / 2**20:.1f} MiB>")


def _lifetimes(ops, runs_backward, pinned):
    """{(id(node), j): (first step, last step)} for every operator output not pinned."""
    step = {id(node): k for k, node in enumerate(ops)}
    back_step = {id(node): 2 * len(ops) - 1 - k for k, node in enumerate(ops)}
    life = {}
    for node in ops:
        for j in range(node.num_outputs):
            life[(id(node), j)] = [step[id(node)], step[id(node)]]
        if id(node) in runs_backward:
            for j, read in enumerate(node.op.backward_reads()["out_data"]):
                if read:
                    life[(id(node), j)][1] = back_step[id(node)]
    for node in ops:
        if id(node) in runs_backward:
            reads_in = node.op.backward_reads()["in_data"]
        else:
            reads_in = [False] * len(node.arg_inputs)
        for (src, idx), read in zip(node.arg_inputs, reads_in):
            key = (id(src), idx)
            if key in life:
                last = back_step[id(node)] if read else step[id(node)]
                life[key][1] = max(life[key][1], last)
    return {k: tuple(v) for k, v in life.items() if k not in pinned}


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
    return data, PlanStats(planned, unplanned, len(data))
