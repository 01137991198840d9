"""The shape explorer: edit the input shapes and watch every node's inferred input, output and
aux shapes follow, up to the node where inference fails, with the engine's teaching error.

Everything shown comes from ``minisym.graph.infer.infer_report``; the widget only parses the
text fields, keeps the batch and image-size sliders in step with them, and picks the rows the
table shows (filtered by name, variables folded away), so a ResNet-50 stays a small message.
"""

import difflib
from contextlib import contextmanager

import numpy as np
import traitlets

from minisym.graph.infer import infer_report
from minisym.ops.rules import fmt, known

from ._base import View, css, escape, esm
from ._target import is_label, source_of
from .i18n import N_, ngettext
from .i18n import gettext as _

__all__ = ["ShapeExplorer", "ShapeTextError", "parse_shape", "shape_text"]

DEFAULT_DATA = (1, 3, 224, 224)
TEXT_ROWS = 16  # operator rows the text / static HTML fallback lists
CAPTION = N_(
    "Every node's shapes as inference finds them: edit an input shape and every row follows."
)
LEGEND = N_(
    "? = not known yet (MXNet writes 0 for an unknown dimension and () for an unknown "
    "shape). An empty field leaves that input unknown."
)
# A row's status as the table writes it (the key is also its CSS class).
STATUS = {
    "ok": "",
    "given": N_("given"),
    "partial": N_("partly unknown"),
    "failed": N_("fails here"),
    "unreached": N_("not reached"),
}
TEXT_STATUS = {
    "ok": N_("ok"),
    "given": N_("given"),
    "partial": N_("partial"),
    "failed": N_("failed"),
    "unreached": N_("unreached"),
}
HEADINGS = (N_("node"), N_("op"), N_("inputs"), N_("outputs"), N_("aux"), N_("status"))
# The page's own words (sent through the ``labels`` trait).
LABELS = {
    "caption": CAPTION,
    "status": STATUS,
    "headings": (
        N_("node"),
        N_("op"),
        N_("inputs (in_data)"),
        N_("outputs (out_data)"),
        N_("aux"),
        "",
    ),
    "unknown": N_("unknown"),
    "forget": N_("forget the shape of {name}"),
    "add_placeholder": N_("argument name, e.g. fc1_weight"),
    "add": N_("give a shape"),
    "batch": N_("batch (dim 0 of {fields})"),
    "image": N_("image size (H = W of {field})"),
    "jump": N_("jump to {node}"),
    "variable": N_("variable"),
    "filter": N_("filter by node name"),
    "show_variables": N_("show variables"),
    "legend_unknown": N_(
        "not known yet (MXNet writes 0 for an unknown dimension, () for an unknown shape)"
    ),
}
_DEFAULT = object()


class ShapeTextError(ValueError):
    """A shape field whose text is not a shape; ``field`` names it."""

    def __init__(self, field, text, why):
        self.field = field
        super().__init__(
            _(
                "Shape field '{field}': {text} is not a shape ({why}). Write whole "
                "numbers separated by commas, e.g. 1, 3, 224, 224; 0 or ? leaves a "
                "dimension unknown, and an empty field the whole shape."
            ).format(field=field, text=repr(text), why=why)
        )


def parse_shape(text, field):
    """``'1, 3, 224, 224'`` (or ``'(1, 3, 224, 224)'``, ``?`` for 0) as a tuple; None if empty."""
    body = text.strip()
    if body[:1] in ("(", "[") and body[-1:] in (")", "]"):
        body = body[1:-1].strip()
    if not body:
        return None
    parts = [part.strip() for part in body.split(",")]
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # '(3,)'
    dims = []
    for part in parts:
        if part == "?":
            dims.append(0)
        elif part.isascii() and part.isdigit():
            dims.append(int(part))
        else:
            why = (
                _("a dimension is missing")
                if not part
                else _("{part} is not a whole number").format(part=repr(part))
            )
            raise ShapeTextError(
                field,
                text,
                why + (_(" (sizes cannot be negative)") if part.startswith("-") else ""),
            )
    return tuple(dims)


def field_text(shape):
    """What a field shows for ``shape``: ``'1, 3, 224, 224'``; text is kept as it is."""
    if shape is None:
        return ""
    if isinstance(shape, str):
        return shape
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        return str(shape)  # not a shape: its field says so
    # a size that is not an int (2.5, '3') is shown as it is, so that its field says why
    return ", ".join(
        str(int(d)) if isinstance(d, (int, np.integer)) and not isinstance(d, bool) else str(d)
        for d in shape
    )


def shape_text(shape):
    """How the table writes a shape: ``(1, 3, ?, ?)``, and ``?`` for an unknown shape."""
    return "?" if shape is None else fmt(shape)


def _explored(target):
    """(symbol, its input shapes, its label names) of a Symbol, an Executor or a Module."""
    source = source_of(
        target, _("ShapeExplorer shows a Symbol, an Executor or a Module; got {type}")
    )
    labels = source.label_names()
    if source.module is not None:
        module = source.module
        descs = list(module.data_shapes) + list(module.label_shapes or []) if module.binded else []
        return module.symbol, {d.name: tuple(d.shape) for d in descs}, labels
    shapes = source.argument_shapes()
    return source.symbol, {n: s for n, s in shapes.items() if n == "data" or n in labels}, labels


class ShapeExplorer(View):
    """``ShapeExplorer(symbol, data=(1, 3, 224, 224), **more_shapes)``: every node's shapes.

    One text field per given argument (``shapes``: name -> text); ``batch`` drives dimension 0
    of the first field and of every ``*_label`` field, ``image_size`` dimensions 2 and 3 of a
    4-D first field. ``rows`` is the table: ``[name, op, inputs, outputs, aux, status]`` with
    inputs ``[[slot, entry, shape text]]``, outputs and aux ``[[slot, shape text]]``, status one
    of ok / partial / given / failed / unreached. The symbol may also be an Executor or a Module
    (its input shapes become the fields). Nothing of yours is changed.
    """

    _esm = esm("shape_explorer.js")
    _css = css("shape_explorer.css")

    shapes = traitlets.Dict(value_trait=traitlets.Unicode()).tag(sync=True)
    batch = traitlets.Int(0).tag(sync=True)
    image_size = traitlets.Int(0).tag(sync=True)
    has_image = traitlets.Bool(False).tag(sync=True)
    batch_fields = traitlets.List(traitlets.Unicode()).tag(sync=True)
    bad_field = traitlets.Unicode("").tag(sync=True)
    add_argument = traitlets.Unicode("").tag(sync=True)  # a name typed in: becomes a field
    candidates = traitlets.List(traitlets.Unicode()).tag(sync=True)  # arguments not yet fields
    rows = traitlets.List(traitlets.List()).tag(sync=True)
    failed_node = traitlets.Unicode("").tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    counts = traitlets.Unicode("").tag(sync=True)
    filter = traitlets.Unicode("").tag(sync=True)
    show_variables = traitlets.Bool(False).tag(sync=True)
    focus = traitlets.Unicode("").tag(sync=True)  # the row clicked or jumped to
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, symbol, data=_DEFAULT, **more_shapes):
        self._ready = False
        self._syncing = False
        super().__init__()
        self.labels = _translated(LABELS)
        self.symbol, fields, self._arguments, self._report = None, {}, [], None
        self._labels = []
        with self.reporting():  # not a Symbol: the widget shows why, and stays empty
            self.symbol, fields, self._labels = _explored(symbol)
        if self.symbol is None:
            return
        self._arguments = self.symbol.list_arguments()
        self._standing_error = ""  # the fields' parse or inference error
        self._last_given = {}  # the shapes of the last fields that parsed
        if data is _DEFAULT:
            data = fields.pop("data", DEFAULT_DATA if "data" in self._arguments else None)
        given = ({} if data is None else {"data": data}) | fields | more_shapes
        self.shapes = {name: field_text(shape) for name, shape in given.items()}
        self._ready = True
        self._update()

    # --- reacting to the learner ------------------------------------------------------------------
    @traitlets.observe("shapes")
    def _shapes_changed(self, change):
        if self._ready:
            self._update()

    @traitlets.observe("batch")
    def _batch_moved(self, change):
        if self._ready and not self._syncing:
            self._set_dims(self.batch_fields, {0: change["new"]})

    @traitlets.observe("image_size")
    def _image_moved(self, change):
        if self._ready and not self._syncing and self.shapes:
            size = change["new"]
            self._set_dims(list(self.shapes)[:1], {2: size, 3: size}, rank=4)

    @traitlets.observe("filter", "show_variables")
    def _view_changed(self, change):
        if self._ready:
            self._show_rows()

    @traitlets.observe("focus")
    def _focus_changed(self, change):
        name = change["new"]
        if not self._ready or not name:
            return
        with self._step(), self.hold_sync():
            node = self._report.node(name)
            if any(row[0] == name for row in self.rows):
                return
            if node.op == "null":
                self.show_variables = True
            if self.filter.strip().lower() not in name.lower():
                self.filter = ""

    @traitlets.observe("add_argument")
    def _argument_added(self, change):
        name = change["new"].strip()
        if not self._ready or not name:
            return
        with self._step():
            self._check_argument(name)
            if name not in self.shapes:
                self.shapes = {**self.shapes, name: field_text(self._inferred(name))}
        self.add_argument = ""

    @contextmanager
    def _step(self):
        """Like reporting(), but a step that works leaves the fields' own error showing."""
        with self.reporting():
            yield
        if not self.error:
            self.error = self._standing_error

    # --- what is recomputed -----------------------------------------------------------------------
    def _update(self):
        """Parse every field, infer, and refresh the sliders and the table."""
        with self.hold_sync():
            self.bad_field = ""
            self.batch_fields = [
                n for i, n in enumerate(self.shapes) if i == 0 or n in self._labels or is_label(n)
            ]
            self.candidates = [n for n in self._arguments if n not in self.shapes]
            with self.reporting():
                given = self._given()
                self._sync_sliders(given)
                self._report = infer_report(self.symbol, given)
                self._last_given = given
            parsed = not self.error
            if self._report is None:  # the very first fields did not parse
                self._report = infer_report(self.symbol, {})
            if parsed:
                self.error = self._report.error
            self._standing_error = self.error
            self.failed_node = self._report.failed_node or ""
            self.summary = _summary(self._report, self.shapes, parsed)
            self._show_rows()

    def _given(self):
        """{argument: shape} of the fields that hold one; ShapeTextError names a bad field."""
        given = {}
        for name, text in self.shapes.items():
            try:
                self._check_argument(name)
                shape = parse_shape(text, name)
            except ValueError:
                self.bad_field = name
                raise
            if shape is not None:
                given[name] = shape
        return given

    def _check_argument(self, name):
        if name in self._arguments:
            return
        close = difflib.get_close_matches(name, self._arguments, n=3)
        hint = (
            _("did you mean {names}? ").format(names=", ".join(repr(c) for c in close))
            if close
            else ""
        )
        aux = name in self.symbol.list_auxiliary_states()
        raise ValueError(
            _("{name} is not an argument of this symbol; ").format(name=repr(name))
            + hint
            + (_("auxiliary states are inferred, never given. ") if aux else "")
            + _("Shapes are given for the names of list_arguments().")
        )

    def _inferred(self, name):
        """What inference currently says about argument ``name`` (None if nothing)."""
        return self._report.node(name).outputs[0][2] if self._report else None

    def _sync_sliders(self, given):
        """Sliders follow the first field: its dimension 0, and H (= W) of a 4-D shape."""
        first = given.get(next(iter(self.shapes), None))
        self._syncing = True
        try:
            if first:
                self.batch = first[0]
            self.has_image = first is not None and len(first) == 4
            if self.has_image:
                self.image_size = first[2]
        finally:
            self._syncing = False

    def _set_dims(self, names, dims, rank=None):
        """Rewrite dimensions ``dims`` ({index: size}) of fields ``names`` that parse."""
        new = dict(self.shapes)
        for name in names:
            try:
                shape = parse_shape(new.get(name, ""), name)
            except ShapeTextError:
                continue  # the error already names this field; the slider cannot help
            if shape is None or len(shape) <= max(dims) or (rank and len(shape) != rank):
                continue
            new[name] = field_text([dims.get(i, d) for i, d in enumerate(shape)])
        self.shapes = new

    def _show_rows(self):
        """The rows the table shows: filtered by name or op, variables folded unless asked."""
        report, given = self._report, self._given_names()
        wanted = self.filter.strip().lower()
        rows = [
            _row(node, report.failed_node, given)
            for node in report.nodes
            if (self.show_variables or node.op != "null")
            and (not wanted or wanted in node.name.lower() or wanted in node.op.lower())
        ]
        operators = sum(1 for node in report.nodes if node.op != "null")
        self.rows = rows
        self.counts = _("{shown} of {total} nodes shown ({operators} operators{folded})").format(
            shown=len(rows),
            total=len(report.nodes),
            operators=operators,
            folded="" if self.show_variables else _(", variables folded away"),
        )

    def _given_names(self):
        names = set()
        for name, text in self.shapes.items():
            try:
                if parse_shape(text, name) is not None:
                    names.add(name)
            except ShapeTextError:
                pass
        return names

    # --- composing with the index map ------------------------------------------------------------
    def index_map(self, node=None):
        """The IndexMap of operator ``node`` (default: the focused row), with these shapes."""
        from .index_map import IndexMap

        return IndexMap(
            self.symbol, node=node or self.focus or None, shapes=self._last_given or None
        )

    def with_index_map(self):
        """This explorer above the index map of the operator row you click (an ipywidgets VBox)."""
        import ipywidgets
        from IPython.display import display

        below = ipywidgets.Output()

        def show(change):
            node = next((n for n in self._report.nodes if n.name == change["new"]), None)
            if node is None or node.op == "null":
                return  # variables have no index map; an unknown name is already an error
            below.clear_output()
            with below:
                display(self.index_map(node.name))

        self.observe(show, "focus")
        return ipywidgets.VBox([self, below])

    # --- fallbacks -------------------------------------------------------------------------------
    def text(self):
        lines = [_("ShapeExplorer: {caption}").format(caption=_(CAPTION))]
        lines += [
            f"  {name} = {shape_text(self._parsed_or_none(name)) if text else '?'}"
            for name, text in self.shapes.items()
        ]
        lines.append(self.summary + " " + self.counts)
        if self.error:
            lines += [
                _("error: {message}").format(message=line) for line in self.error.splitlines()
            ]
        for row in _window(self.rows, self.failed_node):
            lines.append("  ..." if row is None else "  " + _row_text(row))
        lines.append(_(LEGEND))
        return "\n".join(lines)

    def html(self):
        fields = ", ".join(
            f"<code>{escape(n)} = {escape(t or '?')}</code>" for n, t in self.shapes.items()
        )
        parts = [
            f"<div class='msw msw-shape-explorer'><p>{escape(_(CAPTION))}</p>",
            f"<p>{fields}</p>",
            f"<p>{escape(self.summary)} {escape(self.counts)}</p>",
        ]
        if self.error:
            parts.append(f"<pre class='msw-error'>{escape(self.error)}</pre>")
        parts.append(
            "<table><tr>" + "".join(f"<th>{escape(_(h))}</th>" for h in HEADINGS) + "</tr>"
        )
        for row in _window(self.rows, self.failed_node):
            parts.append("<tr><td colspan='6'>…</td></tr>" if row is None else _row_html(row))
        parts.append(f"</table><p class='msw-note'>{escape(_(LEGEND))}</p></div>")
        return "".join(parts)

    def _parsed_or_none(self, name):
        try:
            return parse_shape(self.shapes[name], name)
        except ShapeTextError:
            return self.shapes[name]


def _translated(table):
    """``table`` with every text (also inside tuples and dicts) in the learner's language."""
    if isinstance(table, dict):
        return {key: _translated(value) for key, value in table.items()}
    if isinstance(table, (tuple, list)):
        return [_translated(value) for value in table]
    return _(table) if table else table


# --- rows -----------------------------------------------------------------------------------------
def _row(node, failed_node, given):
    """One table row of a NodeShapes: compact lists, shapes already as text."""
    return [
        node.name,
        node.op,
        [[slot, entry, shape_text(shape)] for slot, entry, shape in node.inputs],
        [[slot, shape_text(shape)] for slot, _, shape in node.outputs],
        [[slot, shape_text(shape)] for slot, _, shape in node.aux],
        _status(node, failed_node, given),
    ]


def _status(node, failed_node, given):
    if node.name == failed_node:
        return "failed"
    if not node.reached:
        return "unreached"
    if node.op == "null" and node.name in given:
        return "given"
    return "ok" if all(known(shape) for _, _, shape in node.slots()) else "partial"


def _summary(report, shapes, parsed):
    """One sentence on where inference got to."""
    stale = "" if parsed else _("Showing the shapes of the last fields that parsed. ")
    operators = [n for n in report.nodes if n.op != "null"]
    if report.failed_node:
        failed = report.node(report.failed_node)
        after = sum(1 for n in operators if not n.reached)
        return stale + (
            ngettext(
                "Inference stopped at '{node}' ({op}); {n} operator after it not reached.",
                "Inference stopped at '{node}' ({op}); {n} operators after it not reached.",
                after,
            )
            if after
            else _("Inference stopped at '{node}' ({op}).")
        ).format(node=failed.name, op=failed.op, n=after)
    if report.error:
        return stale + _("Inference did not finish.")
    unknown = sum(1 for n in operators if not all(known(s) for *_, s in n.slots()))
    if not unknown:
        return stale + _("Every shape of all {n} operators is known.").format(n=len(operators))
    return stale + (
        _("{unknown} of {n} operators still have unknown shapes (?): give an input shape.")
        if not shapes
        else _(
            "{unknown} of {n} operators still have unknown shapes (?): give more of "
            "the input shapes."
        )
    ).format(unknown=unknown, n=len(operators))


def _window(rows, failed_node):
    """At most TEXT_ROWS rows for the fallbacks (None marks a gap): around the failing node,
    or the first and last ones."""
    if len(rows) <= TEXT_ROWS:
        return rows
    names = [row[0] for row in rows]
    if failed_node in names:
        at = names.index(failed_node)
        start = max(0, min(at - TEXT_ROWS + 4, len(rows) - TEXT_ROWS))
        shown = rows[start : start + TEXT_ROWS]
        return ([None] if start else []) + shown + ([None] if start + TEXT_ROWS < len(rows) else [])
    half = TEXT_ROWS // 2
    return rows[:half] + [None] + rows[-half:]


def _slots_text(slots):
    return " ".join(f"{s[0]}={s[-1]}" for s in slots)


def _row_text(row):
    name, op, ins, outs, aux, status = row
    text = f"{name:<24} {op:<16} {_slots_text(ins)} -> {_slots_text(outs)}"
    if aux:
        text += f"  aux {_slots_text(aux)}"
    return text + ("" if status in ("ok", "given") else f"  [{_(TEXT_STATUS[status])}]")


def _row_html(row):
    name, op, ins, outs, aux, status = row
    cells = [
        name,
        op,
        _slots_text(ins),
        _slots_text(outs),
        _slots_text(aux),
        _(TEXT_STATUS.get(status, status)),
    ]
    return (
        f"<tr class='msw-shape-explorer-{status}'>"
        + "".join(f"<td><code>{escape(c)}</code></td>" for c in cells)
        + "</tr>"
    )
