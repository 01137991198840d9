"""The graph view: a symbol drawn like ``mx.viz.plot_network`` (operators, variables, shapes on
the edges) without Graphviz. Residual units collapse into one box; a click on a node opens its
index map below the graph; the node where shape inference fails is drawn in vermillion.

The layout is computed here (``_layout.layered_layout``) and sent as compact lists; the ES module
only draws them and reports clicks by setting ``selected`` or ``expanded``.
"""

import difflib
from contextlib import contextmanager

import ipywidgets
import traitlets

from minisym.symbol.symbol import Symbol
from minisym.trace import slot_names
from minisym.visualization import is_hidden_weight

from ._base import View, css, error_text, escape, esm, open_index_map
from ._graph import GROUP_KIND, entry_shapes, graph_boxes, residual_unit, shape_label
from ._graph_svg import static_svg
from ._layout import layered_layout
from ._target import source_of
from .i18n import N_
from .i18n import gettext as _

__all__ = ["GraphView", "residual_unit"]

# The page's own words (sent through the ``labels`` trait).
LABELS = {
    "expand": N_("{name}: click to expand"),
    "open": N_("{name} ({detail}): click for its index map"),
    "collapse_tip": N_("collapse {group} into one box"),
    "collapse": N_("{group}  ▴ collapse"),
    "zoom_out": N_("zoom out"),
    "zoom_in": N_("zoom in"),
    "fit": N_("fit"),
    "fit_tip": N_("zoom to fit the whole graph"),
    "actual": N_("actual size"),
    "expand_all": N_("expand all"),
    "expand_all_tip": N_("draw every node"),
    "collapse_all": N_("collapse all"),
    "collapse_all_tip": N_("one box per group"),
    "weights": N_("show weights, biases, BN statistics"),
}

# The bits of a node row's flags; the page reads them from the ``flags`` trait, so each number
# is written here only.
FLAGS = {"group": 1, "failed": 2, "variable": 4}
GROUP, FAILED, VARIABLE = FLAGS["group"], FLAGS["failed"], FLAGS["variable"]
MIN_ZOOM, MAX_ZOOM = 0.05, 4.0


class GraphView(View):
    """``GraphView(target, *, expanded=(), show_weights=False, group_by=residual_unit,
    **shapes)``: ``target`` is a Symbol, an Executor or a Module; ``shapes`` are given as to
    ``infer_shape`` (``data=(1, 3, 224, 224)``). ``group_by(name)`` names the group a node is
    collapsed into (None: no group); ``group_by=None`` draws every node.

    Display it and click: a node sets ``selected`` and its ``IndexMap`` appears in
    ``detail`` (an ipywidgets VBox below the graph); a dashed box adds its group to
    ``expanded``.
    """

    _esm = esm("graph_view.js")
    _css = css("graph_view.css")

    caption = traitlets.Unicode("").tag(sync=True)
    nodes = traitlets.List().tag(sync=True)  # [[name, label, detail, kind, x, y, w, h, flags]]
    edges = traitlets.List().tag(sync=True)  # [[[x0, y0, x1, y1, ...], shape label]]
    frames = traitlets.List().tag(sync=True)  # [[group, x, y, w, h]]: expanded groups
    size = traitlets.List([0, 0]).tag(sync=True)
    groups = traitlets.List(traitlets.Unicode()).tag(sync=True)
    expanded = traitlets.List(traitlets.Unicode()).tag(sync=True)
    show_weights = traitlets.Bool(False).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    zoom = traitlets.Float(1.0).tag(sync=True)
    shapes = traitlets.Dict().tag(sync=True)  # {argument: [dims]}
    failed_node = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    flags = traitlets.Dict(FLAGS).tag(sync=True)  # {name: bit} of a node row's flags

    def __init__(
        self, target, *, expanded=(), show_weights=False, group_by=residual_unit, **shapes
    ):
        super().__init__()
        self.labels = {key: _(value) for key, value in LABELS.items()}
        self._ready = False
        self._target, self._symbol, self._group_by = target, None, group_by
        self._table, self._standing_error = {}, ""
        self._layouts, self._index_map, self._out_labels = {}, None, {}
        self.index_map = None  # the IndexMap shown in ``detail``, if any
        self.detail = self.with_panel()  # the index map opens here
        self.view = self.composed
        given = {}
        with self.reporting():
            self._symbol, given = _resolve(target)
        if self._symbol is None:
            return
        given.update(shapes)
        self.show_weights = bool(show_weights)
        self.expanded = [str(g) for g in expanded]
        self.shapes = {name: _listed(value) for name, value in given.items()}
        self._ready = True
        self._infer()
        self._draw()
        self._prepare_index_map()

    def _prepare_index_map(self):
        """Bind the index map now, while the cell runs, so a click only switches its node."""
        operators = [n.name for n in self._symbol.topo_order() if not n.is_variable]
        if operators:
            self._open_index_map(operators[-1])

    # --- what the learner (or a click) changes ---------------------------------------------
    @traitlets.observe("shapes")
    def _shapes_changed(self, _change):
        if self._ready:
            self._index_map = None  # its executor was bound for the old shapes
            self._infer()
            self._draw()
            self._prepare_index_map()
            if self.selected:
                self._select(self.selected)

    @traitlets.observe("expanded")
    def _expanded_changed(self, change):
        if not self._ready:
            return
        groups = set(self.groups)
        unknown = [g for g in change["new"] if g not in groups]
        if unknown:
            self.expanded = [g for g in change["new"] if g in groups]
            with self._step():
                raise KeyError(
                    _("GraphView: no group named {name}{close}; the groups are {groups}").format(
                        name=repr(unknown[0]),
                        close=_close(unknown[0], groups),
                        groups=", ".join(self.groups) or _("none"),
                    )
                )
            return
        self._draw()

    @traitlets.observe("show_weights")
    def _weights_changed(self, _change):
        if self._ready:
            self._draw()

    @traitlets.observe("selected")
    def _selected_changed(self, change):
        if self._ready:
            self._select(change["new"])

    @traitlets.validate("zoom")
    def _valid_zoom(self, proposal):
        return min(MAX_ZOOM, max(MIN_ZOOM, float(proposal["value"])))

    # --- steps ---------------------------------------------------------------------------------
    @contextmanager
    def _step(self):
        """``reporting()``, keeping an inference failure on show while nothing else went wrong."""
        with self.reporting():
            yield
        if not self.error:
            self.error = self._standing_error

    def _infer(self):
        # not reporting(): what goes wrong here stays on show while the other steps succeed
        self._table, self.failed_node = {}, ""
        try:
            given = _given_shapes(self.shapes)
            self._table, failed, self._standing_error = entry_shapes(self._symbol, given)
            self.failed_node = failed or ""
        except Exception as exc:  # noqa: BLE001 -- a learner's shape is shown, never raised
            self._standing_error = error_text(exc)
        self.error = self._standing_error

    def _draw(self):
        with self._step(), self.hold_sync():  # one message for the whole drawing
            drawing, layout = self._layout()
            self.groups = list(drawing.groups)
            self.nodes = self._node_rows(drawing, layout)
            self.edges = self._edge_rows(drawing, layout)
            self.frames = _frames(drawing, layout, self.expanded)
            self.size = [layout.width, layout.height]
            self.caption = self._caption(drawing)

    def _layout(self):
        """(Drawing, Layout) for the current expanded groups and weights toggle (cached)."""
        key = (frozenset(self.expanded), self.show_weights)
        if key not in self._layouts:
            drawing = graph_boxes(self._symbol, self.expanded, self.show_weights, self._group_by)
            sizes = [(box.key, *_box_size(box)) for box in drawing.boxes]
            weights = [
                box.key
                for box in drawing.boxes
                if box.kind == 0 and is_hidden_weight({"op": "null", "name": box.name})
            ]
            layout = layered_layout(sizes, [(s, t) for s, t, _ in drawing.edges], weights)
            self._layouts[key] = (drawing, layout)
        return self._layouts[key]

    def _node_rows(self, drawing, layout):
        failed_box = self._box_of_name(drawing, self.failed_node)
        rows = []
        for box in drawing.boxes:
            x, y = layout.centres[box.key]
            w, h = _box_size(box)
            flags = (
                (GROUP if box.kind == GROUP_KIND else 0)
                | (FAILED if box.key == failed_box else 0)
                | (VARIABLE if box.kind == 0 else 0)
            )
            detail = box.detail
            if flags & FAILED and flags & GROUP:
                detail = _("fails at {node}").format(node=self.failed_node)
            elif flags & VARIABLE:
                node = self._symbol.topo_order()[box.key]
                detail = shape_label(self._table.get((id(node), 0)), drop_batch=False)
            rows.append([box.name, box.label, detail, box.kind, x, y, w, h, flags])
        return rows

    def _edge_rows(self, drawing, layout):
        rows, names = [], {box.key: box.name for box in drawing.boxes}
        self._out_labels = {}
        for source, target, entries in drawing.edges:
            labels = ", ".join(dict.fromkeys(self._entry_label(n, i) for n, i in entries))
            points = [c for point in layout.routes[(source, target)] for c in point]
            rows.append([points, labels])
            self._out_labels.setdefault(names[source], labels)
        return rows

    def _entry_label(self, node, index):
        """plot_network's label (batch axis dropped), but a weight's full shape."""
        weight = is_hidden_weight({"op": node.op_name, "name": node.name})
        return shape_label(self._table.get((id(node), index)), drop_batch=not weight)

    def _box_of_name(self, drawing, name):
        """Key of the box showing the node called ``name`` (None: no such node, or hidden)."""
        for i, node in enumerate(self._symbol.topo_order()):
            if node.name == name:
                return drawing.box_of.get(i)
        return None

    def _caption(self, drawing):
        ops = sum(1 for n in self._symbol.topo_order() if not n.is_variable)
        folded = sum(1 for b in drawing.boxes if b.kind == GROUP_KIND)
        what = _("{ops} operators in {boxes} boxes").format(ops=ops, boxes=len(drawing.boxes))
        if folded:
            what += _(
                " ({folded} dashed boxes are collapsed groups: click one to expand it)"
            ).format(folded=folded)
        return _(
            "{what}. Data flows top to bottom; each edge carries its shape without the "
            "batch axis. Click a node to open its index map."
        ).format(what=what)

    # --- selection ------------------------------------------------------------------------------
    def _select(self, name):
        self.index_map = None
        self.show_below()
        if not name:
            with self._step():
                pass
            return
        with self._step():
            node = self._find(name)
            self._reveal(name)
            self.show_below(self._detail_of(node))

    def _find(self, name):
        """The node called ``name``; a teaching KeyError for a group or an unknown name."""
        order = self._symbol.topo_order()
        for node in order:
            if node.name == name:
                return node
        if name in self.groups:
            members = [n.name for n in order if self._group_by(n.name) == name]
            raise KeyError(
                _(
                    "GraphView: {name} is a group of {n} nodes, not one node: expand "
                    "it (click it, or add it to .expanded) and select one of "
                    "{members}"
                ).format(
                    name=repr(name),
                    n=len(members),
                    members=", ".join(members[:6]) + (", …" if len(members) > 6 else ""),
                )
            )
        raise KeyError(
            _(
                "GraphView: no node named {name}{close}; a node name is what "
                "list_outputs() shows without '_output'"
            ).format(name=repr(name), close=_close(name, [n.name for n in order]))
        )

    def _reveal(self, name):
        """Expand the group that hides ``name``, so the selected node is drawn."""
        group = self._group_by(name) if self._group_by else None
        if group in self.groups and group not in self.expanded:
            self.expanded = self.expanded + [group]

    def _detail_of(self, node):
        """What opens below the graph: the node's index map, or where a variable is read."""
        if node.is_variable:
            return ipywidgets.HTML(_variable_note(node, self._symbol))
        self.index_map = self._open_index_map(node.name)
        return self.index_map

    def _open_index_map(self, name):
        """The IndexMap of node ``name`` over the same target; one instance is reused (its
        executor is bound once) until the shapes change."""
        if self._index_map is None:
            shapes = {k: tuple(v) for k, v in self.shapes.items()}
            self._index_map = open_index_map(
                self._target, name, shapes if isinstance(self._target, Symbol) else None
            )
        else:
            self._index_map.node = name
        return self._index_map

    # --- display ----------------------------------------------------------------------------------
    def text(self):
        head = self._symbol.name if self._symbol is not None else None
        folded = sum(1 for row in self.nodes if row[8] & GROUP)
        lines = [
            (
                _(
                    "GraphView of {head}: {boxes} boxes, {folded} of {groups} groups collapsed, "
                    "weights shown"
                )
                if self.show_weights
                else _(
                    "GraphView of {head}: {boxes} boxes, {folded} of {groups} groups collapsed, "
                    "weights hidden"
                )
            ).format(head=repr(head), boxes=len(self.nodes), folded=folded, groups=len(self.groups))
        ]
        if self.shapes:
            lines.append(
                _("shapes: {shapes}").format(
                    shapes=", ".join(f"{k}={tuple(v)}" for k, v in self.shapes.items())
                )
            )
        if self.failed_node:
            lines.append(
                _("shape inference fails at {node} (drawn in vermillion)").format(
                    node=repr(self.failed_node)
                )
            )
        if self.error:
            lines.append(self.error)
        for row in self.nodes:
            name, detail, flags = row[0], row[2], row[8]
            mark = "▸" if flags & GROUP else ("✗" if flags & FAILED else " ")
            out = self._out_labels.get(name)
            lines.append(f" {mark} {name:<24} {detail:<34} {'-> ' + out if out else ''}".rstrip())
        if self.selected:
            lines.append(_("selected: {node}").format(node=self.selected))
        return "\n".join(lines)

    def html(self):
        error = f'<pre class="msw-error">{escape(self.error)}</pre>' if self.error else ""
        drawn = static_svg(self.nodes, self.edges, self.frames, self.size, self.flags)
        return (
            f'<div class="msw msw-graph-view"><p>{escape(self.caption)}</p>{error}'
            f'<div style="max-height:520px;overflow:auto">{drawn}</div></div>'
        )


def _resolve(target):
    """(symbol, shapes its arrays give) of a Symbol, an Executor or a (bound) Module."""
    source = source_of(target, _("GraphView draws a Symbol, an Executor or a Module; got {type}"))
    return source.symbol, source.argument_shapes()


def _given_shapes(shapes):
    """{argument: tuple} from the ``shapes`` trait; a teaching TypeError for anything else."""
    given = {}
    for name, dims in shapes.items():
        if not isinstance(dims, (list, tuple)) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims
        ):
            raise TypeError(
                _(
                    "GraphView: the shape of {quoted} must be a tuple of whole numbers "
                    "(0 = unknown), e.g. {name}=(1, 3, 224, 224); got {dims}"
                ).format(quoted=repr(name), name=name, dims=repr(dims))
            )
        given[name] = tuple(dims)
    return given


def _listed(value):
    """A shape as a JSON list; anything else is kept so inference names it in its error."""
    return [int(d) for d in value] if isinstance(value, tuple) else value


def _close(name, candidates):
    match = difflib.get_close_matches(name, list(candidates), n=1)
    return _(" (did you mean {name}?)").format(name=repr(match[0])) if match else ""


def _box_size(box):
    """(width, height) in pixels: wide enough for the name (monospace) and the detail line."""
    width = max(110, 7.4 * len(box.label) + 24, 6.2 * len(box.detail) + 24)
    return round(min(width, 320)), 50 if box.kind == GROUP_KIND else 44


def _frames(drawing, layout, expanded):
    """A dashed frame around the boxes of each expanded group, titled with its name."""
    frames = []
    for group in expanded:
        inside = [b for b in drawing.boxes if drawing.group_of.get(b.key) == group]
        if not inside:
            continue
        left = min(layout.centres[b.key][0] - _box_size(b)[0] / 2 for b in inside) - 8
        right = max(layout.centres[b.key][0] + _box_size(b)[0] / 2 for b in inside) + 8
        top = min(layout.centres[b.key][1] - _box_size(b)[1] / 2 for b in inside) - 20
        bottom = max(layout.centres[b.key][1] + _box_size(b)[1] / 2 for b in inside) + 6
        frames.append([group, round(left), round(top), round(right - left), round(bottom - top)])
    return frames


def _variable_note(node, symbol):
    """HTML: a variable has no index map; say which index of which operator reads it."""
    uses = []
    for op_node in symbol.topo_order():
        if op_node.is_variable:
            continue
        names = slot_names(op_node)
        for role in ("in_data", "aux"):
            for i, (slot, entry) in enumerate(names[role]):
                if entry == node.name:
                    uses.append(
                        "<li>"
                        + _("{slot} ({name}) of {node} ({op})").format(
                            slot=f"<code>{role}[{i}]</code>",
                            name=f"<code>{escape(slot)}</code>",
                            node=f"<code>{escape(op_node.name)}</code>",
                            op=escape(op_node.op_name),
                        )
                        + "</li>"
                    )
    listed = "".join(uses) or f"<li>{escape(_('no operator reads it'))}</li>"
    note = escape(_("{name} is a variable, so it has no index map of its own. It is read as:"))
    return (
        '<div class="msw msw-graph-view-note"><p>'
        + note.format(name=f"<code>{escape(node.name)}</code>")
        + f"</p><ul>{listed}</ul></div>"
    )
