"""What the graph view draws: the boxes and edges of a Symbol, residual units collapsed.

Boxes, labels and colours follow ``mx.viz.plot_network`` (``node_look``, ``is_hidden_weight``);
shapes come from the engine's inference (``entry_shapes``). Nothing here knows about pixels.
"""

import re
from dataclasses import dataclass

from minisym.graph.infer import infer_report
from minisym.visualization import is_hidden_weight, node_look

__all__ = ["Box", "Drawing", "residual_unit", "graph_boxes", "entry_shapes", "shape_label"]

GROUP_KIND = -1  # a collapsed group; 0-7 are plot_network's colour indices
_UNIT = re.compile(r"^(stage\d+_unit\d+)_")


def residual_unit(name):
    """The residual unit a node belongs to, read from its name: ``'stage2_unit1_conv1'`` ->
    ``'stage2_unit1'`` (the names the course's and MXNet's ResNet builders give); None for a
    node outside every unit (``data``, ``conv0``, ``_plus3``, ``fc1``)."""
    match = _UNIT.match(name)
    return match.group(1) if match else None


@dataclass(frozen=True)
class Box:
    """One drawn box: a node, or a collapsed group of nodes."""

    key: object  # layout key: topological index of a node, ("group", name) of a group
    name: str  # node or group name (what a click selects or expands)
    label: str  # first line
    detail: str  # second line
    kind: int  # plot_network's colour index, or GROUP_KIND
    members: tuple  # topological indices of the nodes it stands for


@dataclass(frozen=True)
class Drawing:
    """Boxes in topological order and edges ``(source key, target key, [entries])``; an entry
    is ``(node, output index)`` and several merge when a group hides what is between them."""

    boxes: tuple
    edges: tuple
    groups: tuple  # every group name, collapsed or not, in order of appearance
    box_of: dict  # topological index -> key of the box that shows it (absent: hidden)
    group_of: dict  # topological index -> its group's name (absent: in no group)


def _as_dict(node):
    """The ``tojson()`` form of ``node`` that plot_network's rules read."""
    return {"op": node.op_name, "name": node.name, "attrs": dict(node.attrs)}


def graph_boxes(symbol, expanded=(), show_weights=False, group_by=residual_unit):
    """The Drawing of ``symbol``: groups (``group_by(name)``) not in ``expanded`` become one box;
    weights, biases and BatchNorm statistics are left out unless ``show_weights``."""
    order = symbol.topo_order()
    group_of = [group_by(node.name) if group_by else None for node in order]
    groups = tuple(dict.fromkeys(g for g in group_of if g is not None))
    collapsed = set(groups) - set(expanded)
    hidden = {
        i for i, node in enumerate(order) if not show_weights and is_hidden_weight(_as_dict(node))
    }
    box_of, members = {}, {}
    for i in range(len(order)):
        if i in hidden:
            continue
        key = ("group", group_of[i]) if group_of[i] in collapsed else i
        box_of[i] = key
        members.setdefault(key, []).append(i)
    boxes = tuple(_box(key, members[key], order) for key in members)
    grouped = {i: g for i, g in enumerate(group_of) if g is not None}
    return Drawing(boxes, _edges(order, box_of), groups, box_of, grouped)


def _box(key, members, order):
    """The Box of a node or of a collapsed group."""
    if isinstance(key, tuple):
        ops = sum(1 for i in members if not order[i].is_variable)
        return Box(
            key, key[1], key[1], f"{ops} operators · click to expand", GROUP_KIND, tuple(members)
        )
    node = order[key]
    label, kind = node_look(_as_dict(node))
    detail = node.op_name if label == node.name else label.replace("\n", " ")
    if node.is_variable:
        detail = "variable"
    return Box(key, node.name, node.name, detail, kind, (key,))


def _edges(order, box_of):
    """Edges between boxes, in topological order of their targets; edges inside a box vanish."""
    position = {id(node): i for i, node in enumerate(order)}
    edges = {}
    for i, node in enumerate(order):
        for src, idx in node.inputs:
            j = position[id(src)]
            if j not in box_of or box_of[j] == box_of[i]:
                continue
            edges.setdefault((box_of[j], box_of[i]), []).append((src, idx))
    return tuple((s, t, entries) for (s, t), entries in edges.items())


# --- shapes --------------------------------------------------------------------------------
def entry_shapes(symbol, shapes):
    """({(id(node), output index): shape or None}, failed node name or None, error text).

    The one place the view asks the engine for shapes (``infer_report``: it never raises for
    a conflict; a name that is not an argument, or a shape that is not a tuple, still raises).
    """
    report = infer_report(symbol, shapes)
    table = {}
    for node, row in zip(symbol.topo_order(), report.nodes):
        for j, (_, _, shape) in enumerate(row.outputs):
            table[(id(node), j)] = None if shape is None else tuple(shape)
    return table, report.failed_node, report.error


def shape_label(shape, drop_batch=True):
    """An edge label like plot_network's, ``64x56x56``: unknown (None, or 0 dims) as ``?``."""
    if shape is None or len(shape) == 0:
        return "?"
    dims = shape[1:] if drop_batch and len(shape) > 1 else shape
    return "x".join(str(d) if d else "?" for d in dims)
