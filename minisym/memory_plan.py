"""The memory plan: operator outputs share buffers when their lifetimes do not overlap.

Made once at bind. Steps are the forward calls ``0..K-1`` and then the backward calls in reverse
``K..2K-1``. An output lives from its producer's forward step to its last reader: a consumer's
forward, or a backward that reads it (the producer's own backward when it declares
``out_data``; a consumer's backward when it declares ``in_data``). Outputs you can see (the
heads) are never shared. Greedy best fit by byte size, largest buffers first among those free.
"""
import numpy as np

__all__ = ["plan_buffers", "PlanStats"]


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


def plan_buffers(ops, shapes, dtypes, runs_backward, pinned, share=True):
    """({entry: numpy array}, PlanStats) for every operator output of ``ops``."""
    data, unplanned, planned = {}, 0, 0
    life = _lifetimes(ops, runs_backward, pinned) if share else {}
    free, busy = [], []  # busy: (last step, buffer)
    order = sorted(life, key=lambda k: life[k][0])
    for key in order:
        first, last = life[key]
        free.extend(buf for end, buf in busy if end < first)
        busy = [(end, buf) for end, buf in busy if end >= first]
        nbytes = int(np.prod(shapes[key], dtype=np.int64)) * np.dtype(dtypes[key]).itemsize
        fits = [i for i, b in enumerate(free) if b.nbytes >= nbytes]
        if fits:
            buf = free.pop(min(fits, key=lambda i: free[i].nbytes))
        else:
            buf = np.zeros(max(nbytes, 1), np.uint8)
            planned += buf.nbytes
        busy.append((last, buf))
        data[key] = buf[:nbytes].view(dtypes[key]).reshape(shapes[key])
        unplanned += nbytes
    for node in ops:
        for j in range(node.num_outputs):
            key = (id(node), j)
            if key not in data:
                data[key] = np.zeros(shapes[key], dtypes[key])
                nbytes = data[key].nbytes
                planned, unplanned = planned + nbytes, unplanned + nbytes
    return data, PlanStats(planned, unplanned, len(data))
