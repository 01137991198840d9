"""The lifecycle of a custom operator: every call the engine makes into its Prop and its Op, in
order, under the action of yours that caused it, with what each call received, returned and
printed. A view of ``minisym.lifecycle``: it records, this shows.

It answers what a blog post rebuilding the call stack by hand cannot: a print in the Prop shows
when you create or bind the symbol, a print in the Op's ``forward`` only when data flows, and
bind calls the Prop (inference, ``create_operator``) but nothing of the Op.
"""

import traitlets

from minisym import lifecycle

from ._base import View, css, escape, esm, open_index_map
from .i18n import N_
from .i18n import gettext as _

__all__ = ["Lifecycle"]

SHOWS = ("all", "prop", "op")
ROW_CHARS = 240  # args / result / printed text on a timeline row
DETAIL_CHARS = 20_000  # any one value in the detail panel

CAPTION = N_(
    "Every call the engine made into a custom operator, in order, under the action of "
    "yours that caused it. Blue rows: the Prop (declares). Green rows: the Op "
    "(computes). Click a row for everything it received, returned and printed."
)

# The page's own words (sent through the ``labels`` trait).
LABELS = {
    "empty": N_("No call into a custom operator yet: create one with mx.sym.Custom(...)."),
    "all": N_("every call"),
    "prop": N_("Prop only"),
    "op": N_("Op only"),
    "every_node": N_("every node"),
    "total": N_("{n} calls"),
    "stop": N_("■ stop recording"),
    "record": N_("● record"),
    "index_map": N_("index map"),
    "raised": N_("raised"),
    "open": N_("open the index map of '{node}'"),
}

# When the engine makes each call, and why: what the detail panel says under a call.
WHEN = {
    "__init__": N_(
        "mx.sym.Custom builds the Prop when you create the symbol. Every keyword but "
        "op_type and name reaches __init__ as a str (10 arrives as '10')."
    ),
    "list_arguments": N_(
        "Asked once, when the symbol is created: in_data[i], in_grad[i] and "
        "backward req[i] follow these names; missing inputs become variables "
        "named {name}_{argument}."
    ),
    "list_outputs": N_(
        "Asked once, when the symbol is created: out_data[j], out_grad[j] and "
        "forward req[j] follow these names."
    ),
    "list_auxiliary_states": N_(
        "Asked once, when the symbol is created: aux[k] follows these names."
    ),
    "declare_backward_dependency": N_(
        "Asked once, when the symbol is created, with numbered ids "
        "(out_grad, then in_data, then out_data); backward receives "
        "only the arrays whose ids come back, the others are empty "
        "NDArrays."
    ),
    "infer_shape": N_(
        "Called whenever shapes are inferred: by infer_shape and again by bind. "
        "minisym runs every rule forward and backward until nothing changes, so it "
        "is called several times, with [] for shapes not known yet."
    ),
    "infer_type": N_("Called whenever dtypes are inferred: by infer_type and again by bind."),
    "create_operator": N_(
        "Called at bind, once per executor: the only moment the Prop makes "
        "the Op. The Op's __init__ runs inside it, so its prints appear here."
    ),
    "forward": N_("Runs only when the executor runs forward: the first time data reaches the Op."),
    "backward": N_("Runs only when the executor runs backward."),
}


class Lifecycle(View):
    """``Lifecycle(op_type=None, log=None)``: the timeline of a custom operator's calls.

    Starts recording when created (of ``op_type``: a str, a list, or None for every custom
    operator), or shows ``log``, an existing ``mx.lifecycle.record()`` Recording. Create
    symbols, bind and run in later cells: the timeline updates as calls happen. ``stop()`` ends
    recording.
    """

    _esm = esm("lifecycle.js")
    _css = css("lifecycle.css")

    caption = traitlets.Unicode(CAPTION).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)  # the first calls, as rows
    recent = traitlets.List(traitlets.Dict()).tag(sync=True)  # the last calls, past `limit`
    gap = traitlets.Unicode("").tag(sync=True)  # what lies between, in words
    total = traitlets.Int(0).tag(sync=True)  # calls recorded
    show = traitlets.Unicode("all").tag(sync=True)  # 'all' | 'prop' | 'op'
    node = traitlets.Unicode("").tag(sync=True)  # '' for every node
    nodes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    selected = traitlets.Int(0).tag(sync=True)  # seq of the call shown; 0: none
    detail = traitlets.List(traitlets.List()).tag(sync=True)  # [[heading, text], ...]
    recording = traitlets.Bool(True).tag(sync=True)
    index_map = traitlets.Unicode("").tag(sync=True)  # node whose IndexMap is open
    limit = traitlets.Int(200).tag(sync=True)  # calls shown from the start
    tail = traitlets.Int(20).tag(sync=True)  # calls shown from the end
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, op_type=None, log=None, **kwargs):
        super().__init__(**kwargs)
        self.caption = _(CAPTION)
        self.labels = {key: _(value) for key, value in LABELS.items()}
        self._log = log
        with self.reporting():  # a wrong op_type is shown, and nothing is recorded
            if log is None:
                self._log = lifecycle.record(_op_types(op_type))
        if self._log is None:
            self._log = lifecycle.Recording(op_type=())  # never started: shows nothing
        self._show, self._node = "all", ""
        self._head_end = None  # index in the log after the last call of a full head
        self.with_panel()  # where the index map opens, under the timeline
        self.box = self.composed
        self._log.subscribe(self._heard)
        self.recording = self._log.active
        self._refresh()

    @classmethod
    def watch(cls, op_type=None):
        """Same as ``Lifecycle(op_type)``: start recording now and show the calls."""
        return cls(op_type)

    @property
    def log(self):
        """The Recording shown (``log.calls``: every LifecycleCall)."""
        return self._log

    def stop(self):
        """Stop recording (the timeline stays); ``start()`` or the button records again."""
        self.recording = False

    def start(self):
        self.recording = True

    def clear(self):
        """Forget every recorded call."""
        self._log.clear()
        self.selected = 0
        self._head_end = None
        self._refresh()

    # --- reacting to the learner -------------------------------------------------------------
    @traitlets.observe("recording")
    def _recording_changed(self, change):
        if change["new"]:
            self._log.start()
        else:
            self._log.stop()

    @traitlets.observe("show")
    def _show_changed(self, change):
        with self.reporting():
            if change["new"] not in SHOWS:
                raise ValueError(
                    _(
                        "Lifecycle: show={show} is not one of {shows} (every call, "
                        "the Prop's, the Op's); still showing {current}"
                    ).format(
                        show=repr(change["new"]),
                        shows=", ".join(map(repr, SHOWS)),
                        current=repr(self._show),
                    )
                )
            self._show = change["new"]
            self._head_end = None
            self._refresh()

    @traitlets.observe("node")
    def _node_changed(self, change):
        with self.reporting():
            name = change["new"]
            if name and name not in self._node_names():
                raise KeyError(
                    _(
                        "Lifecycle: no call of a node named {name} was recorded; "
                        "the nodes seen are {nodes} ('' shows every node)"
                    ).format(name=repr(name), nodes=self._node_names() or _("none yet"))
                )
            self._node = name
            self._head_end = None
            self._refresh()

    @traitlets.observe("selected")
    def _selected_changed(self, change):
        with self.reporting():
            self.detail = self._detail(change["new"])
            self._refresh()

    @traitlets.observe("index_map")
    def _index_map_changed(self, change):
        with self.reporting():
            self.show_below(*([self._open_index_map(change["new"])] if change["new"] else []))

    @traitlets.observe("limit", "tail")
    def _window_changed(self, change):
        if hasattr(self, "_log"):
            self._head_end = None
            self._refresh()

    def _heard(self, call):
        """A call ended: show it (only the end of the timeline changes once the start is full)."""
        self._refresh(head=self._head_end is None)

    # --- what is shown -----------------------------------------------------------------------
    def _visible(self, call):
        return (self._show == "all" or call.owner == self._show) and (
            not self._node or call.node == self._node
        )

    def _refresh(self, head=True):
        """Recompute the rows; ``head=False`` leaves the start of the timeline as it is."""
        self.total = len(self._log.calls)
        self.nodes = self._node_names()
        first, self.gap, recent = self._windows()
        if head:
            self.rows = self._rows(first)
        self.recent = self._rows(recent) if recent else []

    def _head(self, calls):
        """(the first ``limit`` visible calls, index in ``calls`` just after the last)."""
        if self._head_end is not None:
            return [c for c in calls[: self._head_end] if self._visible(c)], self._head_end
        head = []
        for i, call in enumerate(calls):
            if self._visible(call):
                if len(head) == self.limit:
                    self._head_end = i
                    return head, i
                head.append(call)
        return head, len(calls)

    def _recent(self, calls, start):
        """The last ``tail`` visible calls after index ``start``."""
        recent = []
        for call in reversed(calls[start:]):
            if len(recent) == self.tail:
                break
            if self._visible(call):
                recent.append(call)
        return recent[::-1]

    def _gap_text(self, calls, start, recent):
        if start >= len(calls):
            return ""
        last_shown = recent[0].seq if recent else len(calls) + 1
        first_hidden = calls[start].seq
        if first_hidden >= last_shown:
            return ""
        return _(
            "calls {first}–{last} are not shown here (the first {limit} and the last "
            "{tail} are); widget.log.calls has them all"
        ).format(first=first_hidden, last=last_shown - 1, limit=self.limit, tail=self.tail)

    def _node_names(self):
        return list(dict.fromkeys(c.node for c in self._log.calls))

    def _rows(self, calls):
        """Flat rows: an 'action' heading per section, then a 'call' or 'group' row per run of
        calls of one method (a selected group also lists its calls)."""
        rows = []
        for label, groups in lifecycle.grouped(calls):
            rows.append({"kind": "action", "label": label})
            for group in groups:
                rows.extend(self._group_rows(group))
        return rows

    def _group_rows(self, group):
        if len(group) == 1:
            return [_call_row(group[0], "call", self.selected)]
        row = _call_row(group[-1], "group", self.selected)
        seqs = [c.seq for c in group]
        row.update(
            seq=seqs[0],
            seqs=seqs,
            count=len(group),
            printed=_clip("".join(c.printed for c in group), ROW_CHARS),
            error=any(c.error and not c.handled for c in group),
            handled=any(c.handled for c in group),
            expanded=self.selected in seqs,
            selected=self.selected in seqs,
        )
        rows = [row]
        if row["expanded"]:
            rows.extend(_call_row(c, "member", self.selected) for c in group)
        return rows

    def _call(self, seq):
        calls = self._log.calls
        if 1 <= seq <= len(calls) and calls[seq - 1].seq == seq:
            return calls[seq - 1]
        raise IndexError(
            _(
                "Lifecycle: there is no call #{seq}; this timeline has {has} "
                "(selected=0 selects none)"
            ).format(
                seq=seq, has=_("calls 1–{n}").format(n=len(calls)) if calls else _("no calls yet")
            )
        )

    def _detail(self, seq):
        """[[heading, text]] of call ``seq``: everything it received, returned and printed."""
        if not seq:
            return []
        call = self._call(seq)
        owner = _("the Prop (declares)") if call.owner == "prop" else _("the Op (computes)")
        ran = (
            _("{defined_in}.{method} (the default: {cls} does not override it)").format(
                defined_in=call.defined_in, method=call.method, cls=call.cls
            )
            if call.inherited
            else f"{call.cls}.{call.method}"
        )
        lines = [
            [
                _("call"),
                _("#{seq} of {total}: {ran}, {owner}").format(
                    seq=call.seq, total=len(self._log.calls), ran=ran, owner=owner
                ),
            ],
            [_("node"), f"'{call.node}' (op_type={call.op_type!r})"],
            [_("caused by"), call.action],
        ]
        lines += [
            [_("argument {name}").format(name=name), _clip(lifecycle.show(v), DETAIL_CHARS)]
            for name, v in call.args.items()
        ]
        if call.error:
            caught = (
                _(" — caught by the engine, which asks again when more is known")
                if call.handled
                else _(" — it reached your code as this exception")
            )
            lines.append([_("raised"), call.error + caught])
        elif call.result is not None:
            lines.append([_("returned"), _clip(lifecycle.show(call.result), DETAIL_CHARS)])
        if call.printed:
            lines.append([_("printed"), _clip(call.printed, DETAIL_CHARS)])
        when = WHEN.get(call.method, "")
        lines.append([_("when"), _(when) if when else ""])
        if call.target is not None:
            lines.append(
                [
                    _("index map"),
                    _(
                        "set index_map='{node}' (or click) to see which "
                        "array stands behind each index of this node"
                    ).format(node=call.node),
                ]
            )
        return lines

    def _open_index_map(self, node):
        """The IndexMap of ``node`` on the Symbol / Executor its latest recorded action ran on."""
        target = next(
            (
                c.target
                for c in reversed(self._log.calls)
                if c.node == node and c.target is not None
            ),
            None,
        )
        if target is None:
            known = node in self._node_names()
            raise LookupError(
                _("Lifecycle: no index map for node {node}: ").format(node=repr(node))
                + (
                    _(
                        "so far it was only created (the Symbol did not exist yet when the Prop "
                        "was asked). Infer its shapes or bind it, then open the index map."
                    )
                    if known
                    else _("no call of it was recorded; the nodes seen are {nodes}.").format(
                        nodes=self._node_names() or _("none yet")
                    )
                )
            )
        with lifecycle.action(
            _("IndexMap(node='{node}') opened from the lifecycle widget").format(node=node)
        ):
            return open_index_map(target, node)

    # --- fallbacks ---------------------------------------------------------------------------
    def _windows(self):
        """(the first visible calls, the gap in words, the last visible calls): what is shown."""
        calls = self._log.calls
        first, rest_start = self._head(calls)
        recent = self._recent(calls, rest_start)
        return first, self._gap_text(calls, rest_start, recent), recent

    def text(self):
        state = _("recording") if self._log.active else _("stopped")
        which = (
            ""
            if self._show == "all"
            else (
                _(", only the prop's calls") if self._show == "prop" else _(", only the op's calls")
            )
        )
        where = _(", node '{node}'").format(node=self._node) if self._node else ""
        lines = [
            _("Lifecycle ({state}; {n} calls{which}{where})").format(
                state=state, n=len(self._log.calls), which=which, where=where
            )
        ]
        first, gap, recent = self._windows()
        lines.append(lifecycle.timeline_text(first))
        if gap:
            lines += [f"... {gap}", lifecycle.timeline_text(recent)]
        return "\n".join(lines)

    def html(self):
        first, gap, recent = self._windows()
        parts = [
            f'<div class="msw msw-lifecycle"><p class="msw-note">{escape(_(CAPTION))}</p>',
            '<table class="msw-lifecycle-static">',
        ]
        parts += [_row_html(row) for row in self._rows(first)]
        if gap:
            parts.append(f'<tr><td colspan="4"><em>{escape(gap)}</em></td></tr>')
            parts += [_row_html(row) for row in self._rows(recent)]
        parts.append("</table></div>")
        return "".join(parts)

    def close(self):
        self._log.unsubscribe(self._heard)
        super().close()


def _op_types(op_type):
    """``op_type`` as lifecycle.record takes it: None, a registered name or a list of names; a
    Prop class is read as the name it was registered under."""
    from minisym.operator import CustomOpProp, registered

    if isinstance(op_type, type) and issubclass(op_type, CustomOpProp):
        name = next((k for k, v in registered().items() if v is op_type), None)
        if name is None:
            raise TypeError(
                _(
                    "Lifecycle: {cls} is not registered: put "
                    "@mx.operator.register('your_op') above the class, then "
                    "Lifecycle('your_op')"
                ).format(cls=op_type.__name__)
            )
        return name
    if (
        op_type is None
        or isinstance(op_type, str)
        or (isinstance(op_type, (list, tuple, set)) and all(isinstance(t, str) for t in op_type))
    ):
        return op_type
    raise TypeError(
        _(
            "Lifecycle(op_type): op_type is the name a custom operator was registered "
            "under (@mx.operator.register('softmax') -> Lifecycle('softmax')), a list "
            "of names, or None for every custom operator; got {got}"
        ).format(got=repr(op_type))
    )


def _call_row(call, kind, selected):
    """One timeline row of ``call`` (short texts; the detail panel has the rest)."""
    args = ", ".join(f"{k}={lifecycle.show(v)}" for k, v in call.args.items())
    return {
        "kind": kind,
        "seq": call.seq,
        "seqs": [call.seq],
        "count": 1,
        "owner": call.owner,
        "node": call.node,
        "method": call.method,
        "who": f"{call.cls}.{call.method}",
        "args": _clip(args, ROW_CHARS),
        "result": _clip(call.outcome(), ROW_CHARS),
        "printed": _clip(call.printed, ROW_CHARS),
        "error": bool(call.error) and not call.handled,
        "handled": call.handled,
        "default": _("{cls}'s default").format(cls=call.defined_in) if call.inherited else "",
        "selected": call.seq == selected,
        "expanded": False,
    }


def _row_html(row):
    """One static-HTML table row of a timeline row."""
    if row["kind"] == "action":
        return f'<tr><th colspan="4">{escape(row["label"])}</th></tr>'
    count = f" ×{row['count']}" if row["count"] > 1 else ""
    outcome = f" → {escape(row['result'])}" if row["result"] else ""
    printed = f'<pre style="margin:0">{escape(row["printed"])}</pre>' if row["printed"] else ""
    return (
        f"<tr><td>{row['seq']}</td><td>{row['owner']}</td>"
        f"<td><code>{escape(row['who'])}({escape(row['args'])}){outcome}</code>{count}"
        f"{printed}</td><td>{escape(row['default'])}</td></tr>"
    )


def _clip(text, limit):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
