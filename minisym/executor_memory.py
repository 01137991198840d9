"""What an executor will allocate, checked against the memory budget before bind allocates
anything (``simple_bind``, ``bind``, ``Executor.reshape``, ``Executor.copy``)."""

import numpy as np

from .graph.backward_plan import BackwardPlan
from .memory_budget import check_fits, describe_array, format_bytes
from .memory_plan import entry_bytes, memory_plan_enabled, planned_bytes

__all__ = ["NEW_ARRAYS", "check_executor", "executor_needs"]

NEW_ARRAYS = ("arguments", "gradients", "auxiliary states")


def check_executor(
    symbol, shapes, dtypes, grad_reqs, where, new_arrays=NEW_ARRAYS, given=None, extra=()
):
    """Refuse, before anything is allocated, an executor whose arrays would not fit.

    ``shapes`` / ``dtypes``: {entry: ...} of every entry (as bind infers them; nothing is
    checked while one is unknown, the caller reports that); ``new_arrays``: which of the
    variables' arrays this call allocates (simple_bind all, bind none: they are yours);
    ``given``: {name: shape} you gave, for the batch-size hint; ``extra``: [(what, bytes)]
    allocated besides (arrays Executor.reshape grows).
    """
    parts = executor_needs(symbol, shapes, dtypes, grad_reqs, new_arrays, extra)
    if parts is None:
        return
    total = sum(nbytes for _, nbytes, _ in parts)
    detail = "It is: " + "; ".join(
        f"{what} {format_bytes(nbytes)}" + (f" (the largest {big})" if big else "")
        for what, nbytes, big in parts
        if nbytes
    )
    check_fits(
        total,
        where,
        "this executor needs",
        lambda limit: _batch_fix(given, total, limit, grad_reqs),
        detail,
    )


def executor_needs(symbol, shapes, dtypes, grad_reqs, new_arrays=NEW_ARRAYS, extra=()):
    """[(what, bytes, the largest array of it described or '')] an executor allocates: the
    variables' arrays named in ``new_arrays``, ``extra``, the operators' outputs as the memory
    plan allocates them (``Executor.memory_stats.planned_bytes``), and the largest
    convolution's im2col workspace; None while an entry's shape or dtype is unknown."""
    entries = [(id(n), j) for n in symbol.topo_order() for j in range(n.num_outputs)]
    if any(shapes.get(k) is None or dtypes.get(k) is None for k in entries):
        return None
    arg_nodes, aux_nodes = symbol.variable_nodes()
    ops = [n for n in symbol.topo_order() if not n.is_variable]
    parts = []

    def variables(what, nodes):
        sized = [(entry_bytes(shapes[(id(n), 0)], dtypes[(id(n), 0)]), n) for n in nodes]
        big = max(sized, key=lambda item: item[0], default=None)
        parts.append(
            (
                what,
                sum(b for b, _ in sized),
                ""
                if big is None
                else describe_array(
                    repr(big[1].name), shapes[(id(big[1]), 0)], dtypes[(id(big[1]), 0)]
                ),
            )
        )

    if "arguments" in new_arrays:
        variables("arguments", arg_nodes)
    if "gradients" in new_arrays:
        variables("gradients", [n for n, r in zip(arg_nodes, grad_reqs) if r != "null"])
    if "auxiliary states" in new_arrays:
        variables("auxiliary states", aux_nodes)
    parts.extend((what, nbytes, "") for what, nbytes in extra)
    runs = BackwardPlan(
        symbol.topo_order(),
        symbol.outputs,
        {id(n): r for n, r in zip(arg_nodes, grad_reqs) if r != "null"},
    ).runs
    pinned = {(id(n), i) for n, i in symbol.outputs}
    plan, largest = planned_bytes(ops, shapes, dtypes, runs, pinned, memory_plan_enabled())
    if largest is not None:
        (node, j), _ = largest
        parts.append(
            (
                "operator outputs (the memory plan)",
                plan,
                describe_array(
                    repr(node.entry_name(j)), shapes[(id(node), j)], dtypes[(id(node), j)]
                ),
            )
        )
    workspace = _conv_workspace(ops, shapes, dtypes, runs)
    if workspace is not None:
        parts.append(
            (
                "im2col workspace while the largest convolution runs",
                workspace[0],
                workspace[1].op.where,
            )
        )
    return parts


def _conv_workspace(ops, shapes, dtypes, runs):
    """(bytes, node) of the largest scratch space an operator takes while it runs (a
    Convolution's im2col matrix, twice over when its backward runs), or None."""
    best = None
    for node in ops:
        in_shapes = [shapes[(id(src), idx)] for src, idx in node.arg_inputs]
        out_shapes = [shapes[(id(node), j)] for j in range(node.num_outputs)]
        itemsize = np.dtype(dtypes[(id(node), 0)]).itemsize
        nbytes = node.op.workspace_bytes(in_shapes, out_shapes, itemsize, id(node) in runs)
        if nbytes and (best is None or nbytes > best[0]):
            best = (nbytes, node)
    return best


def _batch_fix(given, total, limit, grad_reqs):
    """'a smaller batch: data=(256, 3, 224, 224) -> at most about data=(60, 3, 224, 224)' ..."""
    shapes = dict(given or {})
    name = "data" if "data" in shapes else next(iter(shapes), None)
    hint = ""
    if name is not None and len(shapes[name]) > 0 and shapes[name][0] > 1:
        shape = tuple(shapes[name])
        fits = int(shape[0] * limit / total)
        hint = (
            f": {name}={shape} -> at most about {name}={(max(fits, 1),) + shape[1:]}"
            if fits >= 1
            else f" (even {name}={(1,) + shape[1:]} may not fit: make each "
            "example smaller, or the layers fewer or narrower)"
        )
    grads = (
        ", and grad_req='null' for arrays that need no gradient"
        if any(r != "null" for r in grad_reqs)
        else ""
    )
    return f"a smaller batch{hint}{grads}"
