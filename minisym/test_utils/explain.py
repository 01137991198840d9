"""What a failed check tells the learner: which slot of which operator holds the wrong array,
and what the wrong values look like (sign flipped, off by a factor, never written, ...)."""

import numpy as np

from .compare import fmt

__all__ = [
    "argument_slot",
    "output_slot",
    "look_at",
    "custom_owner",
    "pattern_hint",
    "precision_hint",
    "unwritten_hint",
    "wrong_index_hint",
    "loss_head_hints",
    "forward_mode_hint",
]


def _consumers(sym, name):
    """[(node, position)]: every operator of ``sym`` that reads variable ``name`` as in_data."""
    return [
        (node, pos)
        for node in sym.topo_order()
        if not node.is_variable
        for pos, (src, _) in enumerate(node.arg_inputs)
        if src.is_variable and src.name == name
    ]


def argument_slot(sym, name):
    """``"in_grad[0] ('data', list_arguments()[0]) of Custom 'sm' (op_type='softmax')"``."""
    position = f"list_arguments()[{sym.list_arguments().index(name)}]"
    users = _consumers(sym, name)
    if len(users) == 1:
        node, pos = users[0]
        return f"in_grad[{pos}] ('{name}', {position}) of {node.op.where}"
    if not users:
        return f"the gradient of '{name}' ({position})"
    parts = " + ".join(f"in_grad[{pos}] of {node.op.where}" for node, pos in users)
    return f"the gradient of '{name}' ({position}), the sum {parts},"


def look_at(sym, name):
    """``'Look at what backward assigns to in_grad[0]'`` (of each operator reading ``name``)."""
    users = _consumers(sym, name)
    if len(users) == 1:
        return f"Look at what backward assigns to in_grad[{users[0][1]}]"
    slots = ", ".join(f"in_grad[{pos}] of {node.op.where}" for node, pos in users)
    return f"Look at what each backward assigns: {slots}" if users else "Look at backward"


def output_slot(sym, j):
    """``"output 0 'sm_output' (list_outputs()[0], out_data[0] of Custom 'sm')"``."""
    node, index = sym.outputs[j]
    name = sym.list_outputs()[j]
    if node.is_variable:
        return f"output {j} '{name}' (list_outputs()[{j}], the variable itself)"
    return f"output {j} '{name}' (list_outputs()[{j}], out_data[{index}] of {node.op.where})"


def _looks_like(x, y, scale, atol):
    return float(np.max(np.abs(x - y), initial=0.0)) <= 0.02 * scale + atol


def pattern_hint(want, got, names, atol):
    """One sentence on how ``got`` relates to ``want`` (``names``: what to call them), or None."""
    want, got = np.asarray(want, np.float64), np.asarray(got, np.float64)
    if want.shape != got.shape:
        return None
    wanted, gotten = names
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1e-12)
    if not np.any(got):
        return f"{gotten} is all zeros: nothing was written, or zeros were."
    if _looks_like(got, -want, scale, atol):
        return f"{gotten} is -{wanted} everywhere: the sign is flipped."
    denominator = float(np.sum(want * want))
    if denominator > 0:
        c = float(np.sum(got * want)) / denominator
        if abs(c - 1) > 0.05 and abs(c) > 0.05 and _looks_like(got, c * want, scale, atol):
            where = "" if gotten == "forward" else ", in forward or in backward"
            return (
                f"{gotten} is {fmt(c)} times {wanted} everywhere: a constant factor is "
                f"missing or extra{where}."
            )
    if got.ndim == 2 and got.shape[0] == got.shape[1] and _looks_like(got, want.T, scale, atol):
        return f"{gotten} is {wanted} transposed."
    return None


def wrong_index_hint(want, name, others, slot_of):
    """If another argument's gradient holds what ``name`` should get, say so (or None).

    ``others``: {argument name: its computed gradient}; ``slot_of(name)`` describes a slot.
    """
    want = np.asarray(want, np.float64)
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1e-12)
    for other, got in others.items():
        got = np.asarray(got, np.float64)
        if (
            other != name
            and got.shape == want.shape
            and np.any(want)
            and _looks_like(got, want, scale, 0.0)
        ):
            return (
                f"What '{name}' should get is in {slot_of(other)} instead: it was written "
                "to the wrong index."
            )
    return None


def precision_hint(want, got, rtol, atol):
    """A float64 check that float32's tolerances would pass: float32 arithmetic somewhere."""
    if (
        rtol >= 1e-4
        or np.asarray(want).shape != np.asarray(got).shape
        or not np.allclose(want, got, rtol=1e-4, atol=1e-3)
    ):
        return None
    return (
        "It is close, but not to float64's precision: something computes in float32 (in a "
        "custom operator, mx.nd.array(x) is float32 unless you pass dtype=x.dtype)."
    )


def unwritten_hint(slot, req, zeros, custom_node):
    """Backward left the gradient as it was (or zero): it was probably never assigned."""
    if req == "add":
        text = f"Backward added nothing to {slot}"
    elif zeros:
        text = f"{slot} is all zeros"
    else:
        text = (
            f"{slot} still holds the values it had before backward (the check fills it "
            "with noise first)"
        )
    text += ": backward never assigned it, or it assigned another index."
    if custom_node is not None:
        names = custom_node.op.list_arguments()
        listing = ", ".join(f"in_grad[{i}] is '{n}'" for i, n in enumerate(names))
        text += f" In {custom_node.op.where}, {listing}."
    return text


def custom_owner(sym, name):
    """The one Custom node reading variable ``name``, or None."""
    users = [node for node, _ in _consumers(sym, name)]
    if len(users) == 1 and users[0].op.prop is not None:
        return users[0]
    return None


def loss_head_hints(sym):
    """For each operator of ``sym`` whose backward ignores out_grad: why the numeric check
    cannot match it."""
    hints = []
    for node in sym.topo_order():
        if node.is_variable or any(node.op.backward_reads()["out_grad"]):
            continue
        why = " (need_top_grad=False)" if node.op.prop is not None else ""
        hints.append(
            f"{node.op.where} ignores the gradient from above{why}: its backward returns the "
            "gradient of its loss, not of its output, and check_numeric_gradient differentiates "
            "the output, so the two cannot match (MXNet fails the same way). Check a loss with "
            "check_symbolic_backward(sym, location, None, expected=[the gradient you expect])."
        )
    return hints


def forward_mode_hint(sym, use_forward_train):
    """With use_forward_train=False, the numeric gradient differentiates the inference forward."""
    modal = sorted(
        {n.op_name for n in sym.topo_order() if not n.is_variable and n.op.train_mode_matters}
    )
    if use_forward_train or not modal:
        return None
    return (
        f"use_forward_train=False: the numeric gradient ran forward with is_train=False, but "
        f"backward differentiates the training forward, and {' and '.join(modal)} "
        f"{'compute' if len(modal) > 1 else 'computes'} differently in the two."
    )
