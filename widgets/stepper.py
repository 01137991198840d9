"""The executor stepper: one forward and one backward pass, recorded call by call on a copy of
your executor, and a cursor that steps over the calls (it moves over the recording; nothing is
computed again or undone).

At each call it shows what the operator receives and what it writes, slot by slot
(``in_data[0]``, ``out_grad[0]``, ``req`` ...), with a picture of each array: 4-D arrays as a
grid of feature maps, 2-D as a heatmap, others as a histogram. A gradient summed from several
consumers (a residual shortcut) is shown as the sum of its parts. Everything shown is the
engine's own trace (``Executor.enable_trace(keep_bytes=...)``); pictures are made only for the
call under the cursor, so each message stays small.
"""

import difflib
import zlib

import numpy as np
import traitlets

import minisym as mx
from minisym.executor import Executor
from minisym.graph.backward_plan import sum_parts
from minisym.module.module import Module
from minisym.ops.rules import fmt

from ._base import View, css, escape, esm, open_index_map
from ._images import legend, picture
from ._target import source_of
from .i18n import N_
from .i18n import gettext as _

__all__ = ["Stepper", "KEEP_BYTES"]

KEEP_BYTES = 384 << 20  # ResNet-50 at batch 1, 224 x 224, keeps 323 MiB: every array
PICTURE_BUDGET = 600_000  # characters of pictures in one message (the cap is 1 MB)
CAPTION = N_(
    "One operator call at a time, forward then backward, on a copy of your executor: "
    "what each call receives and what it writes, slot by slot."
)
GROUPS = {"receives": N_("receives"), "writes": N_("writes")}
HEADINGS = ("", N_("slot"), N_("name"), N_("array"), N_("shape"), N_("dtype"), "req", "")
HOW_FILLED = {
    "data": N_("Filled (all zero before): {names} with a smooth test pattern."),
    "weight": N_("Filled (all zero before): {names} with He normal, seeded by name."),
    "gamma": N_("Filled (all zero before): {names} with ones."),
    "moving variance": N_("Filled (all zero before): {names} with ones."),
}
# The page's own words (sent through the ``labels`` trait).
LABELS = {
    "call": N_("operator call"),
    "node_name": N_("node name"),
    "jump_to": N_("jump to node"),
    "forward_calls": N_("forward: calls 1–{n}"),
    "both_calls": N_("forward: calls 1–{first} · backward: calls {next}–{n}"),
    "previous": N_("previous call (←)"),
    "back": N_("◀ back"),
    "next_call": N_("next call (→)"),
    "next": N_("next ▶"),
    "position": N_("call {n} of {total}"),
    "no_calls": N_("no calls"),
    "jump": N_("jump"),
    "colour_scale": N_("colour scale"),
    "what_slot": N_("what {slot} is, in the index map of this node"),
    "index_map": N_("index map"),
    "headings": (
        N_("slot"),
        N_("name"),
        N_("array"),
        N_("shape"),
        N_("dtype"),
        "req",
        N_("values"),
        "",
    ),
    "one_part": N_("This call's gradient is one part of "),
    "into": N_(" (into {into})."),
    "see_sum": N_("see the sum at call {n}"),
    "part_from": N_("part from {source}"),
    "not_kept": N_("not kept"),
    "summed": N_("A gradient summed from several readers: "),
    "forward": N_("forward"),
    "backward": N_("backward"),
    "receives": N_("receives ({verb} reads these)"),
    "writes": N_("writes ({verb} fills these, as req says)"),
}
RECEIVES = {"forward": ("in_data", "aux"), "backward": ("out_grad", "in_data", "out_data", "aux")}
WRITES = {"forward": ("out_data",), "backward": ("in_grad",)}
GRADIENTS = ("in_grad", "out_grad")
LEGENDS = {palette: legend(palette) for palette in ("sequential", "diverging")}


class Stepper(View):
    """``Stepper(target, data=None, label=None, is_train=True, keep_bytes=KEEP_BYTES)``.

    ``target`` is an Executor or a bound Module. The stepper copies it, copies ``data`` /
    ``label`` in (an array, or {name: array}), gives arguments that are all zero deterministic
    values, runs forward(is_train) and backward once with the trace on, and puts the cursor on
    call 0. Your executor and its arrays never change.
    """

    _esm = esm("stepper.js")
    _css = css("stepper.css")

    caption = traitlets.Unicode(CAPTION).tag(sync=True)
    cursor = traitlets.Int(0).tag(sync=True)  # index into ``calls``
    calls = traitlets.List(traitlets.Dict()).tag(sync=True)  # [{step, phase, node, op}]
    first_backward = traitlets.Int(-1).tag(sync=True)  # index of the first backward call
    phase = traitlets.Unicode("").tag(sync=True)  # of the call under the cursor
    current = traitlets.Dict().tag(sync=True)  # the call under the cursor, with pictures
    jump = traitlets.Unicode("").tag(sync=True)  # a node name: cursor to its forward call
    inspect = traitlets.Unicode("").tag(sync=True)  # a slot label: opens the node's index map
    notes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, target, data=None, label=None, is_train=True, keep_bytes=KEEP_BYTES):
        super().__init__()
        self.caption = _(CAPTION)
        self.labels = {
            key: [_(v) if v else v for v in value] if isinstance(value, tuple) else _(value)
            for key, value in LABELS.items()
        }
        self._executor, self._trace, self._run_error = None, None, ""
        self._keep_bytes = int(keep_bytes)
        self.index_map = None
        self.with_panel()  # where the index map opens, under the stepper
        notes, given, ready = [], {}, False
        with self.reporting():
            executor, data_names, label_names = _executor_of(target)
            self._executor = executor.copy()
            given = _given(self._executor, data_names, data, "data")
            given.update(_given(self._executor, label_names, label, "label"))
            notes = _fill_zeros(self._executor, data_names, label_names, set(given))
            ready = True
        if ready:
            with self.reporting():
                self._run(is_train, given)
        self._run_error = self.error  # shown at every call: the run stopped there
        self.notes = notes + self._trace_notes()
        self._show_calls()

    # --- the run -------------------------------------------------------------------------------
    def _run(self, is_train, given):
        """Forward and backward once on the copy, traced; a failing call stops the recording
        there (the calls before it stay)."""
        executor = self._executor
        self._trace = executor.enable_trace(
            preview_size=6, keep_bytes=self._keep_bytes // 2, copy_variables=False
        )  # its own copy: views
        executor.forward(is_train=is_train, **given)
        self._trace.keep_bytes = self._keep_bytes  # what forward left unused goes to backward
        executor.backward(
            out_grads=[mx.nd.ones(o.shape) for o in executor.outputs], is_train=is_train
        )

    def _show_calls(self):
        calls = self._trace.calls if self._trace is not None else []
        self._backward_step = {c.node: c.step for c in calls if c.phase == "backward"}
        self.calls = [{"step": c.step, "phase": c.phase, "node": c.node, "op": c.op} for c in calls]
        self.first_backward = next((c.step for c in calls if c.phase == "backward"), -1)
        self._show(self.cursor)

    def _trace_notes(self):
        trace = self._trace
        if trace is None:
            return []
        notes = [
            _(
                "Arrays kept: {kept} of a {cap} cap (half for forward, the rest for backward)."
            ).format(kept=_mib(trace.kept_bytes), cap=_mib(self._keep_bytes))
        ]
        if trace.skipped_bytes:
            notes.append(
                _(
                    "Arrays past the cap were not kept ({skipped} over the slots showing "
                    "them), so some calls show no picture: Stepper(..., keep_bytes=...) "
                    "keeps more."
                ).format(skipped=_mib(trace.skipped_bytes))
            )
        if not any(c.phase == "backward" for c in trace.calls) and not self._run_error:
            notes.append(
                _(
                    "No backward calls: no argument asks for a gradient (every grad_req "
                    "is 'null'; bind with grad_req='write' or for_training=True)."
                )
            )
        return notes

    # --- the cursor ----------------------------------------------------------------------------
    @traitlets.validate("cursor")
    def _valid_cursor(self, proposal):
        """Stays within the calls: back at call 0 stays at 0, next at the last call stays."""
        return max(0, min(int(proposal["value"]), max(len(self.calls) - 1, 0)))

    @traitlets.observe("cursor")
    def _cursor_moved(self, change):
        self._show(change["new"])

    def _show(self, step):
        self.inspect = ""
        with self.reporting():
            self.current = self._current(step)
            self.phase = self.current.get("phase", "")
            if self.index_map is not None and self.current:
                self.index_map.node = self.current["node"]  # the open index map follows
        if not self.error and self._run_error:
            self.error = self._run_error

    @traitlets.observe("jump")
    def _jumped(self, change):
        name = change["new"].strip()
        if not name:
            return
        step = None
        with self.reporting():
            step = self._step_of(name)
        self.jump = ""
        if step is not None:
            self.cursor = step

    def _step_of(self, name):
        """The step of node ``name``'s forward call (its backward call if it has none)."""
        calls = self._trace.calls if self._trace is not None else []
        for phase in ("forward", "backward"):
            for call in calls:
                if call.node == name and call.phase == phase:
                    return call.step
        readers = sorted(
            {c.node for c in calls for s in c.slots if s.role == "in_data" and s.entry == name}
        )
        if readers:
            raise KeyError(
                _(
                    "{name} is a variable, not an operator: variables are not "
                    "called. Jump to an operator that reads it: {readers}"
                ).format(name=repr(name), readers=", ".join(readers))
            )
        nodes = list(dict.fromkeys(c.node for c in calls))
        close = difflib.get_close_matches(name, nodes, n=3)
        hint = _(" Did you mean {names}?").format(names=", ".join(close)) if close else ""
        shown = ", ".join(nodes[:10]) + (", …" if len(nodes) > 10 else "")
        raise KeyError(
            _(
                "no operator node named {name} ran in this recording.{hint} "
                "The operators are: {shown}"
            ).format(name=repr(name), hint=hint, shown=shown)
        )

    # --- the index map, one click away --------------------------------------------------------
    @traitlets.observe("inspect")
    def _inspected(self, change):
        label = change["new"]
        if not label:
            return
        with self.reporting():
            call = self._call()
            call.slot(label)  # a KeyError naming the slots the call has
            if self.index_map is None:
                self.index_map = open_index_map(self._executor, call.node)
                self.show_below(self.index_map)
            self.index_map.node = call.node
            self.index_map.selected = label

    # --- what is shown -------------------------------------------------------------------------
    def _call(self):
        if self._trace is None or not self._trace.calls:
            raise IndexError(_("nothing was recorded: the run failed before the first call"))
        return self._trace.calls[self.cursor]

    def _current(self, step):
        if self._trace is None or not self._trace.calls:
            return {}
        call = self._trace.calls[step]
        budget = [PICTURE_BUDGET]
        receives = [
            self._slot_view(s, budget, False)
            for role in RECEIVES[call.phase]
            for s in call.slots
            if s.role == role
        ]
        writes = [
            self._slot_view(s, budget, True)
            for role in WRITES[call.phase]
            for s in call.slots
            if s.role == role
        ]
        return {
            "step": call.step,
            "phase": call.phase,
            "node": call.node,
            "op": call.op,
            "is_train": call.is_train,
            "is_train_note": call.note,
            "receives": receives,
            "writes": writes,
            "sums": self._sums_view(call, budget),
            "legends": LEGENDS,
        }

    def _slot_view(self, slot, budget, writes):
        view = {
            "label": slot.label,
            "role": slot.role,
            "name": slot.name,
            "entry": slot.entry,
            "shape": fmt(slot.shape),
            "dtype": slot.dtype,
            "req": slot.req or "",
            "passed": slot.dtype != "none",
            "writes": writes,
            "stats": "",
            "note": "",
            "picture": None,
        }
        if not view["passed"]:
            view["shape"] = view["dtype"] = ""
            view["note"] = _(
                "not passed: this backward does not read it "
                "(Operator.backward_reads / declare_backward_dependency)"
            )
        elif slot.array is None:
            view["note"] = self._not_kept(slot)
        else:
            view["stats"] = _stats(slot.array)
            view["picture"] = _within(budget, slot.array, slot.role in GRADIENTS)
        return view

    def _not_kept(self, slot):
        first = (
            ""
            if slot.preview is None
            else _("first values: {values}").format(
                values=", ".join(f"{v:.4g}" for v in np.asarray(slot.preview, float))
            )
        )
        return (
            _(
                "not kept: the {cap} cap was used up; Stepper(..., keep_bytes=...) keeps more."
            ).format(cap=_mib(self._keep_bytes))
            + f" {first}"
        ).strip()

    def _sums_view(self, call, budget):
        """The summed gradients this call receives (with pictures) or gives a part of."""
        views = []
        if call.phase != "backward":
            return views
        for total in self._trace.sums:
            home = self._home_step(total)
            if home == call.step:
                views.append(self._sum_view(total, budget, home))
            elif call.node in total.sources:
                views.append(
                    {
                        "entry": total.entry,
                        "text": str(total),
                        "into": total.into,
                        "shown_at": home,
                        "parts": [],
                        "total": None,
                        "check": "",
                        "gives": call.node,
                    }
                )
        return views

    def _home_step(self, total):
        """Where a sum is drawn: the call receiving it, or (for an argument's gradient, summed
        after the last call) the backward call of its last contributor."""
        if total.step is not None:
            return total.step
        steps = [self._backward_step.get(s) for s in total.sources]
        return max((s for s in steps if s is not None), default=None)

    def _sum_view(self, total, budget, home):
        parts = [
            {
                "source": source,
                "step": self._backward_step.get(source),
                "picture": None if part is None else _within(budget, part, True),
            }
            for source, part in zip(total.sources, total.parts)
        ]
        return {
            "entry": total.entry,
            "text": str(total),
            "into": total.into,
            "shown_at": home,
            "parts": parts,
            "gives": "",
            "total": None if total.total is None else _within(budget, total.total, True),
            "check": _sum_check(total),
        }

    # --- fallbacks -----------------------------------------------------------------------------
    def _position(self):
        current = self.current
        if not current:
            return _("no calls recorded")
        return _("call {n} of {total} · {phase} · {op} '{node}'").format(
            n=current["step"] + 1,
            total=len(self.calls),
            phase=_(LABELS[current["phase"]]),
            op=current["op"],
            node=current["node"],
        )

    def text(self):
        forward = sum(c["phase"] == "forward" for c in self.calls)
        lines = [
            _(
                "Stepper: {calls} operator calls on a copy ({forward} forward, {backward} backward)"
            ).format(calls=len(self.calls), forward=forward, backward=len(self.calls) - forward),
            self._position(),
        ]
        if self.current.get("is_train_note"):
            lines.append(f"  {self.current['is_train_note']}")
        if self.error:
            lines.append(_("error: {message}").format(message=self.error.splitlines()[0]))
        for group in ("receives", "writes"):
            for slot in self.current.get(group, []):
                lines.append(
                    f"  {_(GROUPS[group]):<8} {slot['label']:<12} {slot['name']:<12} "
                    f"{slot['entry']:<28} {slot['shape']:<18} {slot['dtype']:<8} "
                    f"{slot['req']}".rstrip()
                )
        lines.extend(
            "  " + _("{sum}  (into {into})").format(sum=s["text"], into=s["into"])
            for s in self.current.get("sums", [])
        )
        lines.extend(self.notes)
        return "\n".join(lines)

    def html(self):
        rows = []
        for group in ("receives", "writes"):
            for slot in self.current.get(group, []):
                # no values: they vary with BLAS
                cells = [
                    _(GROUPS[group]),
                    slot["label"],
                    slot["name"],
                    slot["entry"],
                    slot["shape"],
                    slot["dtype"],
                    slot["req"],
                    slot["note"],
                ]
                rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        head = "".join(f"<th>{escape(_(t)) if t else t}</th>" for t in HEADINGS)
        sums = "".join(
            f"<p><code>{escape(s['text'])}</code></p>" for s in self.current.get("sums", [])
        )
        error = f"<pre>{escape(self.error)}</pre>" if self.error else ""
        notes = "".join(f"<p>{escape(n)}</p>" for n in self.notes)
        is_train = self.current.get("is_train_note", "")
        is_train = f"<p><i>{escape(is_train)}</i></p>" if is_train else ""
        return (
            f"<div class='msw msw-stepper'><p><b>{escape(self.caption)}</b></p>"
            f"<p>{escape(self._position())}</p>{is_train}{error}<table><tr>{head}</tr>"
            f"{''.join(rows)}</table>{sums}{notes}</div>"
        )


# --- the target and its inputs ----------------------------------------------------------------
def _executor_of(target):
    """(executor, data names, label names) of an Executor or a bound Module."""
    source = source_of(
        target,
        _("the stepper runs an Executor (from bind / simple_bind) or a bound Module; got {type}"),
        unbound=_(
            "this Module is not bound yet: call mod.bind(data_shapes=..., label_shapes=...)"
            " (and mod.init_params()) first, then step through it"
        ),
        accepts=(Executor, Module),
    )
    labels = source.label_names()
    if source.module is not None:
        return source.executor, list(source.module.data_names), labels
    names = source.symbol.list_arguments()
    return source.executor, [n for n in names if n not in labels and not _is_parameter(n)], labels


def _is_parameter(name):
    return name.endswith(("weight", "bias", "gamma", "beta"))


def _given(executor, names, value, kind):
    """{argument: array} from ``data`` / ``label``: one array (for the first name) or a dict."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        if not names:
            raise ValueError(
                _(
                    "this executor has no {kind} argument to put the array in; give "
                    "a dict {{argument name: array}} (arguments: {arguments})"
                ).format(kind=kind, arguments=executor.symbol.list_arguments())
            )
        value = {names[0]: value}
    return {
        name: array if isinstance(array, mx.nd.NDArray) else mx.nd.array(array)
        for name, array in value.items()
    }


def _fill_zeros(executor, data_names, label_names, given):
    """Deterministic values for every argument that is all zero (never set) and not given:
    data a test pattern, weights He-normal, gammas 1 (biases, betas and labels stay 0), and
    moving variances 1. Returns notes saying what was filled."""
    filled = {}
    for name, array in executor.arg_dict.items():
        if (
            name in given
            or name in label_names
            or name.endswith(("bias", "beta"))
            or array.asnumpy().any()
        ):
            continue
        kind = "data" if name in data_names else "gamma" if name.endswith("gamma") else "weight"
        array[:] = _values(name, array.shape, kind).astype(array.dtype)
        filled.setdefault(kind, []).append(name)
    for name, array in executor.aux_dict.items():
        if name.endswith("var") and not array.asnumpy().any():
            array[:] = 1
            filled.setdefault("moving variance", []).append(name)
    return [_(HOW_FILLED[kind]).format(names=_names(names)) for kind, names in filled.items()]


def _values(name, shape, kind):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    if kind == "gamma":
        return np.ones(shape)
    if kind == "data":
        return _pattern(shape) if len(shape) == 4 else rng.standard_normal(shape)
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
    return rng.standard_normal(shape) * np.sqrt(2.0 / max(fan_in, 1))


def _pattern(shape):
    """(N, C, H, W) rings and stripes, a different phase per channel and sample: edges and
    blobs that feature maps visibly respond to."""
    n, c, height, width = shape
    y, x = np.meshgrid(np.linspace(-1, 1, height), np.linspace(-1, 1, width), indexing="ij")
    radius = np.hypot(x, y)
    out = np.empty(shape)
    for i in range(n):
        for k in range(c):
            phase = 0.9 * k + 0.5 * i
            out[i, k] = (
                np.sin(9 * radius + phase) + np.cos(5 * x - 3 * y + phase) + 2.0 * (radius < 0.35)
            )
    return out


def _names(names):
    return ", ".join(names[:3]) + (
        _(" and {n} more").format(n=len(names) - 3) if len(names) > 3 else ""
    )


# --- numbers and pictures -----------------------------------------------------------------------
def _within(budget, array, gradient):
    """The picture of ``array`` if the message still has room for it, else a note."""
    if budget[0] <= 0:
        return {"kind": "none", "caption": _("picture left out to keep this message small")}
    drawn = picture(array, gradient)
    budget[0] -= len(drawn.get("src", "")) + 40 * len(drawn.get("counts", ()))
    return drawn


def _stats(array):
    values = np.asarray(array, dtype=np.float64)
    if not values.size:
        return _("empty")
    finite = values[np.isfinite(values)]
    bad = values.size - finite.size
    if not finite.size:
        return _("no finite values ({bad} nan / inf)").format(bad=f"{bad:,}")
    text = _("min {low} · mean {mean} · max {high}").format(
        low=f"{finite.min():.4g}", mean=f"{finite.mean():.4g}", high=f"{finite.max():.4g}"
    )
    return text + (_(" · {bad} nan / inf").format(bad=f"{bad:,}") if bad else "")


def _sum_check(total):
    """'parts add up: max |Σ parts − gradient| = 0' from the kept copies."""
    if total.total is None or any(p is None for p in total.parts):
        return _("not every part was kept (over the cap), so the sum is not checked here")
    summed = sum_parts(total.parts)  # the engine's sum, in its dtype and order: exact shows 0
    gap = float(np.abs(summed - total.total).max()) if summed.size else 0.0
    return _("the parts add up to the gradient: max |sum of parts − gradient| = {gap}").format(
        gap=f"{gap:.3g}"
    )


def _mib(nbytes):
    """'1.5 MiB', or '12.0 KiB' below one MiB."""
    if nbytes < 2**20:
        return f"{nbytes / 2**10:.1f} KiB"
    return f"{nbytes / 2**20:.1f} MiB"
