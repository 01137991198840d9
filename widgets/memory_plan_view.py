"""The memory plan: which operator outputs share a buffer, when each is live over the forward
and backward order, what backward keeps alive, and the bytes with and without sharing.

A view of ``Executor.memory_stats.plan`` (``minisym.memory_plan.MemoryPlan``), the plan the
executor was bound with: nothing here re-derives it. One row per buffer, one bar per output
stored in it, from the step that makes it to the last step that reads it.
"""

import traitlets

import minisym as mx
from minisym.base import MXNetValueError
from minisym.memory_budget import format_bytes

from ._base import View, css, escape, esm
from ._target import source_of
from .i18n import N_, Texts
from .i18n import gettext as _

__all__ = ["MemoryPlanView", "LABELS"]

SMALL_SHARE = 100  # a buffer under 1/100 of the largest is "small": hidden until asked for
TEXT_BUFFERS = 8  # buffers listed by text() and html()

# Every string the learner reads (the page gets them through the ``labels`` trait).
LABELS = Texts(
    {
        "forward": N_("forward"),
        "backward": N_("backward"),
        "without": N_("without sharing"),
        "with": N_("with sharing"),
        "kept": N_("backward keeps alive"),
        "peak": N_("most alive at once"),
        "as_bound": N_("as bound"),
        "inference": N_("bound for inference (grad_req='null')"),
        "show_small": N_("show small buffers"),
        "live_axis": N_("bytes alive"),
        "rows_axis": N_("buffers (one row each)"),
        "steps_axis": N_("operator order: forward calls, then backward calls in reverse"),
        "legend_shared": N_("shared buffer (one colour each)"),
        "legend_alone": N_("buffer of one output"),
        "legend_head": N_("output you see (never shared)"),
        "legend_kept": N_("pale: alive only because backward reads it"),
        "pick": N_("Click a row (a buffer) to see the outputs stored in it."),
        "readout": N_("step {step}: {phase} {node} ({op}){skipped}"),
        "skipped": N_(" (skipped: nothing below needs a gradient)"),
        "planned_line": "{label}: {value}",
        "key": "{key}: ",
        "entry_size": "{shape} · {bytes}",
        "buffer": N_("buffer"),
        "output": N_("output"),
        "bytes": N_("bytes"),
        "live": N_("live"),
        "read_by_backward": N_("backward reads it"),
    }
)
SUMMARY = N_(
    "MemoryPlanView: {entries} outputs of {ops} operators in {buffers} buffers "
    "({shared} shared); {without} without sharing, {with_} with ({ratio}); {kept}"
)
KEPT = N_("backward keeps {count} outputs alive ({bytes})")
KEPT_NONE = N_("no backward runs, so nothing is kept for it")
NO_SHARING = N_("sharing is off (MINISYM_MEMORY_PLAN=0): every output has an array of its own")
INFERENCE_LINE = N_("bound for inference (grad_req='null'): {bytes} in {buffers} buffers ({ratio})")
SMALL_NOTE = N_("{count} small buffers (under {bytes} each, {total} in all)")
BUFFER_HEAD = N_("buffer {index} · {bytes}")
BUFFER_KIND = Texts(
    {
        "shared": N_("shared by {count} outputs, one after the other: saves {saved}"),
        "alone": N_("holds one output: {why}"),
        "head": N_(
            "the array of '{name}', an output of the symbol: outputs you can read are never shared"
        ),
        "own": N_("the array of '{name}' alone (sharing is off)"),
    }
)
ALONE_WHY = Texts(
    {
        "kept": N_("kept until backward, so no other output can use it before"),
        "overlap": N_(
            "when it was made no free buffer was big enough, and no later output took it"
        ),
    }
)
SPAN = "{start} → {end}"
MORE_NAMES = N_(" and {more} more ({count} outputs)")
LARGEST = N_("largest shared buffers:")
NONE_SHARED = N_("no buffer is shared")
STEP_NAME = "{phase} {node}"
READERS = "{node} ({slot})"
SHAPE_NEEDED = N_(
    "MemoryPlanView: give the input shapes to plan a Symbol, e.g. "
    "MemoryPlanView(net, data=(1, 3, 224, 224)); the plan is made at bind"
)


class MemoryPlanView(View):
    """``MemoryPlanView(target, *, grad_req='write', **shapes)``: the memory plan of an Executor,
    a bound Module, or a Symbol bound here with ``shapes`` (``data=(1, 3, 224, 224)``) and
    ``grad_req``. Click a row: ``selected`` becomes its buffer and ``detail`` lists its outputs;
    click a bar: ``entry`` becomes that output's name, and its buffer is selected.
    ``variant='inference'`` shows the plan the same graph gets with grad_req='null'.
    """

    _esm = esm("memory_plan_view.js")
    _css = css("memory_plan_view.css")

    labels = traitlets.Dict().tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)
    totals = traitlets.List().tag(sync=True)  # [[label, value, note]]
    steps = traitlets.List().tag(sync=True)  # [[phase, node, op, runs]] per step
    num_forward = traitlets.Int(0).tag(sync=True)
    rows = traitlets.List().tag(sync=True)  # [{buffer, bytes, kind, small, bars}]
    live = traitlets.List().tag(sync=True)  # bytes alive at each step
    planned = traitlets.Int(0).tag(sync=True)  # bytes allocated with sharing
    notes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    variants = traitlets.List(traitlets.Unicode()).tag(sync=True)
    variant = traitlets.Unicode("bound").tag(sync=True)
    show_small = traitlets.Bool(False).tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)  # a buffer index, -1 for none
    entry = traitlets.Unicode("").tag(sync=True)  # an output's name: its bar was clicked
    detail = traitlets.List().tag(sync=True)  # [[heading, text]]
    detail_rows = traitlets.List().tag(sync=True)  # [[output, shape, bytes, live, read by]]

    def __init__(self, target, *, grad_req="write", **shapes):
        super().__init__()
        self.labels = LABELS.translated()
        self._plans = {}
        with self.reporting():
            plan = _plan_of(target, grad_req, shapes)
            self._plans = {"bound": plan}
            if any(s.phase == "backward" for s in plan.steps):
                self._plans["inference"] = plan.for_inference()
            self.variants = list(self._plans)
            self._show()

    @property
    def plan(self):
        """The MemoryPlan shown (``variant``), or None when the target could not be planned."""
        return self._plans.get(self.variant)

    # --- what the learner changes -----------------------------------------------------------
    @traitlets.observe("variant")
    def _variant_changed(self, change):
        if self._plans and change["new"] not in self._plans:
            self.variant = change["old"]
            self.error = _("MemoryPlanView: variant must be one of {variants}; got {got}").format(
                variants=list(self._plans), got=repr(change["new"])
            )
            return
        with self.reporting():
            self.entry, self.selected = "", -1
            self._show()

    @traitlets.observe("selected")
    def _selected_changed(self, change):
        with self.reporting():
            plan = self.plan
            if self.entry and (plan is None or plan.entry(self.entry).buffer != change["new"]):
                self.entry = ""
            self._explain(change["new"])

    @traitlets.observe("entry")
    def _entry_changed(self, change):
        if not change["new"] or self.plan is None:
            return
        with self.reporting():
            buffer = self.plan.entry(change["new"]).buffer
            if buffer == self.selected:
                self._explain(buffer)
            self.selected = buffer

    # --- what is shown -------------------------------------------------------------------------
    def _show(self):
        plan = self.plan
        if plan is None:
            return
        self.caption = _summary(plan)
        self.steps = [[s.phase, s.node, s.op, s.runs] for s in plan.steps]
        self.num_forward = plan.num_forward
        self.live, self.planned = plan.live_bytes(), plan.planned_bytes
        self.totals = _totals(plan)
        self.rows = _rows(plan)
        self.notes = _notes(plan, self.rows)
        self._explain(self.selected)

    def _explain(self, index):
        plan = self.plan
        if plan is None or index < 0:
            self.detail, self.detail_rows = [], []
            return
        if index >= len(plan.buffers):
            self.detail, self.detail_rows = [], []
            raise IndexError(
                _("MemoryPlanView: pick a buffer from 0 to {last}; got {index}").format(
                    last=len(plan.buffers) - 1, index=index
                )
            )
        buffer = plan.buffers[index]
        entries = [plan.entries[e] for e in buffer.entries]
        self.detail = [
            [
                _(BUFFER_HEAD).format(index=index, bytes=format_bytes(buffer.nbytes)),
                _kind_text(plan, buffer, entries),
            ]
        ]
        self.detail_rows = [
            [
                e.name,
                _shape_text(e.shape) + " " + e.dtype,
                format_bytes(e.nbytes),
                _span_text(plan, e),
                ", ".join(READERS.format(node=n, slot=s) for n, s in e.backward_readers),
            ]
            for e in entries
        ]

    # --- fallbacks ------------------------------------------------------------------------------
    def text(self):
        plan = self._plans.get("bound")
        if plan is None:
            return "MemoryPlanView" + (": " + self.error.splitlines()[0] if self.error else "")
        lines = [_summary(plan)]
        if "inference" in self._plans:
            lines.append(_inference_line(self._plans["inference"], plan))
        lines.append(_(LARGEST) if _shared(plan) else _(NONE_SHARED))
        for buffer in _largest_shared(plan):
            lines.append(
                f"  {LABELS['buffer']} {buffer.index:<4} "
                f"{format_bytes(buffer.nbytes):>10}  {_names(plan, buffer)}"
            )
        return "\n".join(lines)

    def html(self):
        plan = self._plans.get("bound")
        if plan is None:
            return f"<div class='msw msw-memory-plan'><pre>{escape(self.text())}</pre></div>"
        parts = [f"<div class='msw msw-memory-plan'><p><b>{escape(_summary(plan))}</b></p>"]
        if "inference" in self._plans:
            parts.append(f"<p>{escape(_inference_line(self._plans['inference'], plan))}</p>")
        head = "".join(
            f"<th>{escape(h)}</th>"
            for h in (LABELS["buffer"], LABELS["bytes"], LABELS["output"], LABELS["live"])
        )
        body = "".join(
            "<tr>"
            + "".join(
                f"<td>{escape(v)}</td>"
                for v in (
                    buffer.index,
                    format_bytes(buffer.nbytes),
                    _names(plan, buffer),
                    _buffer_span(plan, buffer),
                )
            )
            + "</tr>"
            for buffer in _largest_shared(plan)
        )
        if body:
            parts.append(f"<table><tr>{head}</tr>{body}</table>")
        parts.append("</div>")
        return "".join(parts)


# --- the plan of what the learner passed ------------------------------------------------------
def _plan_of(target, grad_req, shapes):
    """The MemoryPlan of an Executor, a bound Module, or a Symbol bound with ``shapes``."""
    source = source_of(
        target,
        _(
            "MemoryPlanView: pass an Executor, a bound Module, or a Symbol with its input "
            "shapes; got {type}"
        ),
        unbound=_(
            "MemoryPlanView: bind the Module first (mod.bind(data_shapes=...)): the "
            "memory plan is made at bind"
        ),
    )
    executor = source.executor
    if executor is None:
        if not shapes:
            raise MXNetValueError(_(SHAPE_NEEDED))
        executor = source.symbol.simple_bind(mx.cpu(), grad_req=grad_req, **shapes)
    elif shapes:
        raise TypeError(
            _(
                "MemoryPlanView: leave out the shapes ({shapes}): they are for a "
                "Symbol, and this {type} is bound already, its plan made then"
            ).format(shapes=", ".join(sorted(shapes)), type=type(executor).__name__)
        )
    return executor.memory_stats.plan


# --- pieces of the picture -------------------------------------------------------------------
def _rows(plan):
    """One row per buffer, in the order buffers are first used: {buffer, bytes, kind, small,
    bars: [[first, last_forward, last, tooltip, output name]]}."""
    largest = max((b.nbytes for b in plan.buffers), default=0)
    rows = []
    for buffer in sorted(plan.buffers, key=lambda b: (plan.entries[b.entries[0]].first, b.index)):
        entries = [plan.entries[e] for e in buffer.entries]
        rows.append(
            {
                "buffer": buffer.index,
                "bytes": format_bytes(buffer.nbytes),
                "kind": _kind(buffer, entries),
                "small": buffer.nbytes * SMALL_SHARE < largest,
                "bars": [
                    [e.first, e.last_forward, e.last, _tooltip(plan, e), e.name] for e in entries
                ],
            }
        )
    return rows


def _kind(buffer, entries):
    if entries[0].head:
        return "head"
    if len(entries) > 1:
        return "shared"
    return "own" if buffer.own else "alone"


def _kind_text(plan, buffer, entries):
    kind = _kind(buffer, entries)
    if kind == "shared":
        saved = sum(e.nbytes for e in entries) - buffer.nbytes
        return BUFFER_KIND[kind].format(count=len(entries), saved=format_bytes(saved))
    if kind == "alone":
        why = ALONE_WHY["kept" if entries[0].backward_readers else "overlap"]
        return BUFFER_KIND[kind].format(why=why)
    return BUFFER_KIND[kind].format(name=entries[0].name)


def _tooltip(plan, entry):
    return (
        f"{entry.name} {_shape_text(entry.shape)} {entry.dtype}, "
        f"{format_bytes(entry.nbytes)}: {_span_text(plan, entry)}"
    )


def _step_name(plan, index):
    step = plan.steps[index]
    return STEP_NAME.format(phase=LABELS[step.phase], node=step.node)


def _span_text(plan, entry):
    return SPAN.format(start=_step_name(plan, entry.first), end=_step_name(plan, entry.last))


def _buffer_span(plan, buffer):
    """From the step its first output is made to the last step any of them is read."""
    entries = [plan.entries[e] for e in buffer.entries]
    return SPAN.format(
        start=_step_name(plan, entries[0].first), end=_step_name(plan, max(e.last for e in entries))
    )


def _shape_text(shape):
    return str(tuple(shape))


def _names(plan, buffer, shown=4):
    """'a, b, c, d and 5 more (9 outputs)': the outputs stored in ``buffer``, first few."""
    names = [plan.entries[e].name for e in buffer.entries]
    if len(names) <= shown:
        return ", ".join(names)
    return ", ".join(names[:shown]) + _(MORE_NAMES).format(
        more=len(names) - shown, count=len(names)
    )


def _shared(plan):
    return [b for b in plan.buffers if len(b.entries) > 1]


def _largest_shared(plan):
    return sorted(_shared(plan), key=lambda b: (-b.nbytes, b.index))[:TEXT_BUFFERS]


def _ratio(part, whole):
    return f"{part / whole:.2f}x" if whole else "1.00x"


def _kept_text(plan):
    kept = plan.kept_for_backward()
    if not any(s.phase == "backward" for s in plan.steps):
        return _(KEPT_NONE)
    return _(KEPT).format(count=len(kept), bytes=format_bytes(sum(e.nbytes for e in kept)))


def _summary(plan):
    return _(SUMMARY).format(
        entries=len(plan.entries),
        ops=plan.num_forward,
        buffers=len(plan.buffers),
        shared=len(_shared(plan)),
        without=format_bytes(plan.unplanned_bytes),
        with_=format_bytes(plan.planned_bytes),
        ratio=_ratio(plan.planned_bytes, plan.unplanned_bytes),
        kept=_kept_text(plan),
    )


def _inference_line(inference, bound):
    return _(INFERENCE_LINE).format(
        bytes=format_bytes(inference.planned_bytes),
        buffers=len(inference.buffers),
        ratio=_ratio(inference.planned_bytes, bound.unplanned_bytes),
    )


def _totals(plan):
    kept = plan.kept_for_backward()
    outputs = N_("{n} outputs")
    return [
        [
            LABELS["without"],
            format_bytes(plan.unplanned_bytes),
            _(outputs).format(n=len(plan.entries)),
        ],
        [
            LABELS["with"],
            format_bytes(plan.planned_bytes),
            _("{ratio} · {n} buffers").format(
                ratio=_ratio(plan.planned_bytes, plan.unplanned_bytes), n=len(plan.buffers)
            ),
        ],
        [LABELS["kept"], format_bytes(sum(e.nbytes for e in kept)), _(outputs).format(n=len(kept))],
        [LABELS["peak"], format_bytes(max(plan.live_bytes(), default=0)), ""],
    ]


def _notes(plan, rows):
    notes = [] if plan.shared else [_(NO_SHARING)]
    small = [r for r in rows if r["small"]]
    if small:
        limit = max(b.nbytes for b in plan.buffers) // SMALL_SHARE
        total = sum(plan.buffers[r["buffer"]].nbytes for r in small)
        notes.append(
            _(SMALL_NOTE).format(
                count=len(small), bytes=format_bytes(limit), total=format_bytes(total)
            )
        )
    return notes
