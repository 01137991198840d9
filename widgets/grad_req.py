"""The grad_req playground: run backward k times under 'write', 'add' and 'null' and put one
argument's gradient after each run side by side. 'write' shows the same gradient every time,
'add' accumulates it (run k = k × run 1), 'null' never writes it (there is no gradient array)."""

import numpy as np
import traitlets

import minisym as mx

from ._base import View, css, escape, esm
from ._target import resolve_target
from .i18n import N_
from .i18n import gettext as _

__all__ = ["GradReqPlayground"]

MODES = ("write", "add", "null")
MAX_RUNS = 10
LABELS = {"runs": N_("runs"), "gradient_of": N_("gradient of"), "run": N_("run {n}")}


class GradReqPlayground(View):
    """``GradReqPlayground(target, argument=None, runs=3, shapes=None)``: one argument's gradient
    after each of ``runs`` backward passes, under each grad_req, on copies of ``target``."""

    _esm = esm("grad_req.js")
    _css = css("grad_req.css")

    argument = traitlets.Unicode("").tag(sync=True)
    arguments = traitlets.List(traitlets.Unicode()).tag(sync=True)
    runs = traitlets.Int(3).tag(sync=True)
    columns = traitlets.List(traitlets.Dict()).tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, target, argument=None, runs=3, shapes=None, **prop_kwargs):
        super().__init__()
        self.labels = {key: _(value) for key, value in LABELS.items()}
        self._target = None
        with self.reporting():
            self._target = resolve_target(target, shapes, prop_kwargs)
            if self._target.executor is None:
                raise ValueError(
                    _(
                        "the playground runs backward, so it needs a bound "
                        "executor: give shapes=... or pass an executor / Module"
                    )
                    + (f"\n{self._target.bind_error}" if self._target.bind_error else "")
                )
        if self._target is None or self._target.executor is None:
            return
        self.arguments = list(self._target.symbol.list_arguments())
        self.runs = runs
        self.argument = argument if argument is not None else self._default_argument()

    def _default_argument(self):
        """The first argument that has a gradient array (else the first argument)."""
        reqs = dict(zip(self.arguments, self._target.executor._grad_req))
        return next((n for n in self.arguments if reqs[n] != "null"), self.arguments[0])

    @traitlets.observe("argument", "runs")
    def _changed(self, _change):
        if self._target is None or self._target.executor is None or not self.argument:
            return
        with self.reporting():
            self._play()

    def _play(self):
        if self.argument not in self.arguments:
            raise KeyError(
                _("{argument} is not an argument; the arguments are {arguments}").format(
                    argument=repr(self.argument), arguments=self.arguments
                )
            )
        if not 1 <= self.runs <= MAX_RUNS:
            raise ValueError(
                _("runs must be between 1 and {most}, got {runs}").format(
                    most=MAX_RUNS, runs=self.runs
                )
            )
        self.columns = [self._column(mode) for mode in MODES]
        self.summary = _summary(self.argument, self.columns)

    def _column(self, mode):
        """The gradient of ``argument`` after each run, with grad_req ``mode`` for it."""
        executor = self._target.executor.copy(grad_req=self._reqs_with(mode))
        for grad in executor.grad_arrays:
            if grad is not None:
                grad[:] = 0
        cells, first = [], None
        for run in range(1, self.runs + 1):
            executor.forward(is_train=True)
            executor.backward(out_grads=[mx.nd.ones(o.shape) for o in executor.outputs])
            grad = executor.grad_dict[self.argument]
            values = None if grad is None else grad.asnumpy().copy()
            first = values if first is None else first
            cells.append(_cell(run, values, first))
        return {"req": mode, "cells": cells}

    def _reqs_with(self, mode):
        reqs = dict(zip(self.arguments, self._target.executor._grad_req))
        reqs[self.argument] = mode
        return reqs

    def text(self):
        lines = [
            _("GradReqPlayground: gradient of {argument} after each backward").format(
                argument=repr(self.argument)
            )
        ]
        if self.error:
            lines.append(_("error: {message}").format(message=self.error.splitlines()[0]))
        for column in self.columns:
            shown = "; ".join(
                _("run {n}: {values}").format(n=c["run"], values=c["values"])
                for c in column["cells"]
            )
            lines.append(f"  grad_req={column['req']:<5} {shown}")
        if self.summary:
            lines.append(self.summary)
        return "\n".join(lines)

    def html(self):
        head = "".join(f"<th>grad_req='{escape(c['req'])}'</th>" for c in self.columns)
        rows = []
        for i in range(self.runs if self.columns else 0):
            cells = "".join(
                f"<td><code>{escape(c['cells'][i]['values'])}</code><br>"
                f"{escape(c['cells'][i]['note'])}</td>"
                for c in self.columns
            )
            rows.append(f"<tr><th>{escape(_('run {n}').format(n=i + 1))}</th>{cells}</tr>")
        error = f"<pre>{escape(self.error)}</pre>" if self.error else ""
        title = _("gradient of {argument}").format(argument=self.argument)
        return (
            f"<div class='msw msw-gradreq'><p><b>{escape(title)}</b>"
            f"</p>{error}<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"
            f"<p>{escape(self.summary)}</p></div>"
        )


def _cell(run, values, first):
    """One run's gradient: its first values, its sum, and how it compares to run 1."""
    if values is None:
        return {
            "run": run,
            "values": _("no gradient array"),
            "total": "",
            "note": _("grad_req='null': backward never writes it"),
        }
    total = float(np.abs(values).sum())
    note = ""
    if run > 1 and first is not None:
        scale = _scale(values, first)
        note = (
            _("same as run 1")
            if scale == 1
            else _("= {k} × run 1").format(k=f"{scale:g}")
            if scale
            else _("differs from run 1")
        )
    return {
        "run": run,
        "values": _first_values(values),
        "total": f"Σ|g| = {total:.4g}",
        "note": note,
    }


def _scale(values, first):
    """k when ``values`` equals k × ``first`` for a whole number k, else None."""
    norm = float(np.abs(first).sum())
    if norm == 0:
        return 1 if not np.abs(values).sum() else None
    k = round(float(np.abs(values).sum()) / norm)
    return k if k and np.allclose(values, k * first, rtol=1e-4, atol=1e-6) else None


def _first_values(values, count=4):
    flat = values.reshape(-1)
    shown = ", ".join(f"{v:.4g}" for v in flat[:count].tolist())
    return f"[{shown}{', …' if flat.size > count else ''}]"


def _summary(argument, columns):
    """One sentence of what the columns show."""
    by_req = {c["req"]: c["cells"] for c in columns}
    runs = len(by_req["write"])
    add_last = by_req["add"][-1]["note"]
    return _(
        "'write' gives the same gradient of {argument} after every backward; 'add' "
        "accumulates it (after {runs} runs: {last}), so reset it yourself between "
        "batches; 'null' gives it no gradient array at all."
    ).format(argument=repr(argument), runs=runs, last=add_last or _("as run 1"))
