"""The index map: which argument stands behind ``in_data[i]``, ``out_data[j]``, ``aux[k]``,
``in_grad[i]``, ``out_grad[j]`` and both ``req`` lists of one operator node.

Everything shown is read from the engine: the names and where they were declared
(``minisym.contract``), shapes and dtypes (inference), ``req`` and why (the executor), values
(the trace of a run on a copy). Selecting a slot highlights the same index in every list.
"""

import numpy as np
import traitlets

from minisym.contract import FAMILIES, node_contract

from ._base import View, css, escape, esm
from ._target import Target, resolve_target
from .i18n import N_, ngettext
from .i18n import gettext as _

__all__ = ["IndexMap"]

ORDINALS = (
    N_("first"),
    N_("second"),
    N_("third"),
    N_("fourth"),
    N_("fifth"),
    N_("sixth"),
    N_("seventh"),
    N_("eighth"),
)
COLUMN_TITLES = {
    "arguments": N_("arguments: in_data[i] · in_grad[i] · backward req[i]  ⟷  list_arguments()[i]"),
    "outputs": N_("outputs: out_data[j] · out_grad[j] · forward req[j]  ⟷  list_outputs()[j]"),
    "aux": N_("auxiliary states: aux[k]  ⟷  list_auxiliary_states()[k]"),
}
HEADINGS = (N_("i"), N_("name"), N_("given as"), N_("array"), N_("shape"), N_("dtype"))
# The page's own words (sent through the ``labels`` trait).
LABELS = {
    "headings": HEADINGS,
    "not_passed": N_("not passed in backward"),
    "pick": N_("Click a slot to see which argument stands behind it."),
    "run": N_("run on a copy"),
}

AUX_GRADIENT = N_(
    "none: an auxiliary state is not an argument, so it has no in_grad and no req. "
    "forward and backward read it and update it in place (aux[k][:] = ...), and "
    "the executor keeps its values between calls (executor.aux_dict['{entry}'])."
)


class IndexMap(View):
    """``IndexMap(target, node=None, shapes=None, **prop_kwargs)``: every slot of one node.

    ``target`` is a CustomOpProp subclass (with ``shapes={'data': (8, 10), ...}`` and its
    keyword arguments), a Symbol, a bound Executor or a Module; ``node`` names the operator node
    (default: the last one). Nothing of yours changes: runs happen on a copy.
    """

    _esm = esm("index_map.js")
    _css = css("index_map.css")

    node = traitlets.Unicode("").tag(sync=True)
    nodes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)
    tables = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    linked = traitlets.List(traitlets.Unicode()).tag(sync=True)
    detail = traitlets.List(traitlets.List()).tag(sync=True)  # [[heading, text], ...]
    grad_req = traitlets.Dict().tag(sync=True)  # {argument variable of this node: req}
    notes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    ran = traitlets.Bool(False).tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, target, node=None, shapes=None, **prop_kwargs):
        super().__init__()
        self.labels = {
            key: [_(v) for v in value] if isinstance(value, tuple) else _(value)
            for key, value in LABELS.items()
        }
        self._target = Target(None, None, None, {}, {})
        self._contract = []
        self._previews = {}
        with self.reporting():
            self._target = resolve_target(target, shapes, prop_kwargs)
        self.nodes = self._target.operator_names()
        self.node = node if node is not None else (self.nodes[-1] if self.nodes else "")
        self.on_msg(self._on_front_end_message)

    # --- reacting to the learner ------------------------------------------------------------------
    @traitlets.observe("node")
    def _node_changed(self, change):
        self.selected = ""
        self._step(self._show_node, change["new"])

    @traitlets.observe("selected")
    def _selection_changed(self, change):
        self._step(self._explain, change["new"])

    def _step(self, method, *args):
        """Run one reaction; a mistake is shown inline, and a bind error stays in view."""
        with self.reporting():
            method(*args)
        if not self.error and self._target.bind_error:
            self.error = self._target.bind_error

    @traitlets.observe("grad_req")
    def _grad_req_changed(self, change):
        if change["old"] == change["new"] or set(change["old"]) != set(change["new"]):
            return  # a new node's variables, not a learner's choice
        with self.reporting():
            self._target = self._target.with_grad_req(change["new"])
            self._previews = {}
            self.ran = False
            self._rebuild()

    def _on_front_end_message(self, _widget, content, _buffers):
        if content.get("do") == "run":
            self.run()

    def run(self):
        """Run forward (is_train=True) and backward once on a copy, to show values."""
        with self.reporting():
            calls = self._target.run_traced()
            self._previews = _previews_of(calls, self.node)
            self.ran = True
            self._rebuild()

    # --- what is shown ----------------------------------------------------------------------------
    def _show_node(self, name):
        self._contract = []
        self.tables, self.detail, self.linked, self.notes = [], [], [], []
        node = self._target.node(name)
        self._contract = node_contract(node)
        self._previews = _previews_of(self._target.existing_calls(), name)
        self.ran = bool(self._previews)
        self.grad_req = self._target.grad_reqs_of(node)
        self._rebuild()

    def _rebuild(self):
        node = self._target.node(self.node)
        reqs = self._target.reqs(node)
        self.caption = _caption(node)
        self.tables = [
            self._table(family, reqs)
            for family in FAMILIES
            if any(d.family == family for d in self._contract)
        ]
        self.notes = self._notes(node, reqs)
        if any(d.label == self.selected for d in self._contract):
            self._explain(self.selected)

    def _table(self, family, reqs):
        docs = [d for d in self._contract if d.family == family]
        roles = FAMILIES[family][1]
        rows = []
        for index in sorted({d.index for d in docs}):
            first = next(d for d in docs if d.index == index)
            shape, dtype = self._target.entry_info(first.entry)
            cells = [self._cell(d, reqs) for d in docs if d.index == index]
            rows.append(
                {
                    "index": index,
                    "name": first.name,
                    "entry": first.entry,
                    "given": _given_text(first.given, first.entry),
                    "shape": shape,
                    "dtype": dtype,
                    "cells": cells,
                }
            )
        return {
            "family": family,
            "title": _(COLUMN_TITLES[family]),
            "roles": list(roles),
            "rows": rows,
        }

    def _cell(self, doc, reqs):
        req = reqs.get(doc.label)
        return {
            "label": doc.label,
            "role": doc.role,
            "passed": doc.in_backward,
            "req": req[0] if req else "",
            "preview": self._previews.get(doc.label, ""),
        }

    def _notes(self, node, reqs):
        notes = []
        if not reqs:
            notes.append(_("req is decided at bind: give shapes (or a bound executor) to see it."))
        if not self.ran:
            notes.append(_("Press “run on a copy” to see values; your own arrays never change."))
        elif not any(label.startswith("in_grad") for label in self._previews):
            notes.append(
                _(
                    "'{node}' ran no backward: nothing it depends on asks for a "
                    "gradient (every grad_req upstream is 'null')."
                ).format(node=node.name)
            )
        return notes

    def _explain(self, label):
        """Fill ``detail`` and ``linked`` for the selected slot label."""
        doc = next((d for d in self._contract if d.label == label), None)
        if doc is None:
            self.detail, self.linked = [], []
            if label:
                raise KeyError(
                    f"'{self.node}' has no slot {label}; it has "
                    + ", ".join(d.label for d in self._contract)
                )
            return
        same = [d.label for d in self._contract if d.family == doc.family and d.index == doc.index]
        method = FAMILIES[doc.family][0]
        self.linked = same + [f"{method}()[{doc.index}]"]
        self.detail = self._detail_lines(doc, method, same)

    def _detail_lines(self, doc, method, same):
        node = self._target.node(self.node)
        shape, dtype = self._target.entry_info(doc.entry)
        ordinal = (
            _(ORDINALS[doc.index])
            if doc.index < len(ORDINALS)
            else _("number {n}").format(n=doc.index + 1)
        )
        lines = [
            [doc.label, _("is '{name}'").format(name=doc.name)],
            [
                _("declared"),
                _("{ordinal} in {method}(): {declared}").format(
                    ordinal=ordinal, method=method, declared=doc.declared
                ),
            ],
        ]
        if doc.family != "outputs":
            lines.append(
                [_("given"), _given_sentence(doc.given, doc.entry, node, doc.family == "aux")]
            )
        lines.append(
            [
                _("array"),
                _("{entry} · shape {shape} · {dtype}").format(
                    entry=doc.entry, shape=shape, dtype=dtype
                ),
            ]
        )
        req = self._target.reqs(node).get(_req_label(doc))
        if req:
            lines.append(["req", f"{req[0]}: {req[1]}"])
        lines.append(
            [
                _("backward"),
                _("receives it")
                if doc.in_backward
                else _("not passed: {why}").format(why=doc.why_not),
            ]
        )
        if doc.family == "aux":
            lines.append([_("gradient"), _(AUX_GRADIENT).format(entry=doc.entry)])
        if self._previews.get(doc.label):
            lines.append([_("values"), self._previews[doc.label]])
        lines.append(
            [
                _("same index"),
                ", ".join([s for s in same if s != doc.label] + [f"{method}()[{doc.index}]"]),
            ]
        )
        return lines

    # --- fallbacks ----------------------------------------------------------------------------
    def text(self):
        lines = [_("IndexMap: {caption}").format(caption=self.caption or _("(no node)"))]
        if self.error:
            lines.append(_("error: {message}").format(message=self.error.splitlines()[0]))
        for table in self.tables:
            lines.append(table["title"])
            for row in table["rows"]:
                reqs = " ".join(f"{c['label']}={c['req']}" for c in row["cells"] if c["req"])
                hidden = [c["label"] for c in row["cells"] if not c["passed"]]
                lines.append(
                    f"  [{row['index']}] {row['name']:<10} {row['given']:<18} "
                    f"{row['entry']:<16} {row['shape']:<14} {row['dtype']:<8} {reqs}"
                    + (
                        _("  (backward gets no {slots})").format(slots=", ".join(hidden))
                        if hidden
                        else ""
                    )
                )
        return "\n".join(lines)

    def html(self):
        parts = [f"<div class='msw msw-indexmap'><p><b>{escape(self.caption)}</b></p>"]
        if self.error:
            parts.append(f"<pre>{escape(self.error)}</pre>")
        for table in self.tables:
            head = "".join(
                f"<th>{escape(h)}</th>" for h in [_(h) for h in HEADINGS] + table["roles"]
            )
            body = "".join(
                "<tr>"
                + "".join(
                    f"<td>{escape(v)}</td>"
                    for v in (r["index"], r["name"], r["given"], r["entry"], r["shape"], r["dtype"])
                )
                + "".join(f"<td>{escape(_cell_text(c))}</td>" for c in r["cells"])
                + "</tr>"
                for r in table["rows"]
            )
            parts.append(f"<p>{escape(table['title'])}</p><table><tr>{head}</tr>{body}</table>")
        parts.append("</div>")
        return "".join(parts)


def _cell_text(cell):
    if not cell["passed"]:
        return _("not passed")
    return cell["req"] or "✓"


def _req_label(doc):
    """The req slot sharing ``doc``'s index ('backward req[i]' for in_data[i] and in_grad[i])."""
    if doc.family == "arguments":
        return f"backward req[{doc.index}]"
    return f"forward req[{doc.index}]" if doc.family == "outputs" else ""


def _caption(node):
    op = node.op
    arguments, outputs = len(op.list_arguments()), len(op.list_outputs())
    states = len(op.list_auxiliary_states())
    counts = [
        ngettext("{n} argument", "{n} arguments", arguments).format(n=arguments),
        ngettext("{n} output", "{n} outputs", outputs).format(n=outputs),
        ngettext("{n} auxiliary state", "{n} auxiliary states", states).format(n=states),
    ]
    return _("{where}: {counts}").format(where=op.where, counts=_(", ").join(counts))


def _given_text(given, entry):
    """Short 'given as' cell: 'label=', 'position 1', 'created: fc1_weight'."""
    if given is None:
        return ""
    kind, value = given
    if kind == "keyword":
        return f"{value}="
    if kind == "position":
        return _("position {n}").format(n=value)
    return _("created")


def _given_sentence(given, entry, node, is_state=False):
    """How the input reached the node, in words."""
    call = f"mx.sym.{node.op_name}(...)"
    if given is None:
        return _("the graph was read from JSON: entry '{entry}'").format(entry=entry)
    kind, value = given
    if kind == "keyword":
        return _("given as {keyword}= in the {call} call that made '{node}'").format(
            keyword=value, call=call, node=node.name
        )
    if kind == "position":
        return _("given by position ({position}) in the {call} call that made '{node}'").format(
            position=value, call=call, node=node.name
        )
    created = (
        N_(
            "not given in the {call} call, so it was created as the variable '{entry}' "
            "(the node's name + '_' + the state's name)"
        )
        if is_state
        else N_(
            "not given in the {call} call, so it was created as the variable '{entry}' "
            "(the node's name + '_' + the argument's name)"
        )
    )
    return _(created).format(call=call, entry=entry)


def _previews_of(calls, node_name):
    """{slot label: short text of its first values} from the node's last forward / backward."""
    previews = {}
    for phase, roles in (
        ("forward", ("in_data", "out_data", "aux")),
        ("backward", ("in_grad", "out_grad")),
    ):
        mine = [c for c in calls if c.node == node_name and c.phase == phase]
        if not mine:
            continue
        for slot in mine[-1].slots:
            if slot.role in roles and slot.preview is not None:
                previews[slot.label] = _values_text(slot.preview, slot.shape)
    return previews


def _values_text(values, shape):
    """'[0.1, -0.25, 0.3, …]' for a preview of an array of ``shape``."""
    shown = ", ".join(
        f"{v:.4g}" if np.issubdtype(np.asarray(v).dtype, np.floating) else str(v)
        for v in np.asarray(values).tolist()
    )
    more = ", …" if int(np.prod(shape)) > len(values) else ""
    return f"[{shown}{more}]"
