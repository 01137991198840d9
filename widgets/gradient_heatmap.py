"""The gradient heatmap: where a failed check's two arrays differ, element by element.

A failed ``check_numeric_gradient`` / ``check_symbolic_backward`` / ``check_symbolic_forward``
carries what it compared as ``error.mismatch`` (``minisym.test_utils.compare.Mismatch``). This
widget draws it: the expected (numeric) and the computed (symbolic) values side by side with the
error in units of the tolerance, the worst element outlined. Arrays of more than two axes are
shown one 2-D slice (the last two axes) at a time; large slices are max-pooled into blocks, so
the worst cell stays visible. Imported in a notebook kernel, it registers itself with
``minisym.test_utils.checks.mismatch_observers``: a failed check shows its heatmap before it
raises (a traceback renders no picture). Outside a kernel nothing changes.
"""

import math

import numpy as np
import traitlets

from minisym.module import progress
from minisym.test_utils import checks
from minisym.test_utils.compare import Mismatch, fmt

from ._base import View, css, escape, esm
from .i18n import N_
from .i18n import gettext as _

__all__ = ["GradientHeatmap", "install"]

MAX_ROWS, MAX_COLUMNS = 40, 60  # cells drawn per panel; a larger slice is max-pooled
MAX_SLICE_BARS = 120  # bars in the strip of per-slice errors; more slices are pooled
STATIC_ROWS, STATIC_COLUMNS = 20, 30  # the static HTML fallback draws a coarser error grid

# Every sentence the widget shows. {expected} / {got} are the two arrays' names ('numeric',
# 'symbolic'); the page fills {index}, {a}, {b}, {ratio}, {block}, {slice}.
LABELS = {
    "title": "GradientHeatmap",
    "expected_panel": "{expected}",  # a name only: nothing to translate
    "got_panel": "{got}",
    "error_panel": N_("|{expected} − {got}| ÷ tolerance"),
    "values_legend": N_("values of both, same scale"),
    "error_legend": N_("error ÷ (atol + rtol·|{got}|): above 1 fails"),
    "within": N_("≤ 1 passes"),
    "not_finite": N_("not finite"),
    "worst": N_("worst"),
    "worst_line": N_(
        "worst at {index}: {expected} {a}, {got} {b}{relation}, error {ratio} × tolerance"
    ),
    "worst_elsewhere": N_(" (in slice {slice})"),
    "hover": N_("at {index}: {expected} {a}, {got} {b}, error {ratio} × tolerance"),
    "hover_block": N_(
        "rows {r0}–{r1}, columns {c0}–{c1}: its worst at {index}: {expected} {a}, "
        "{got} {b}, error {ratio} × tolerance"
    ),
    "pooled": N_("each cell shows the worst of a block of {rows} × {columns} elements"),
    "slice": N_("slice"),
    "slices_title": N_("worst error of each slice (click one to show it)"),
    "show_worst": N_("show the worst slice"),
    "hints": N_("what the check says"),
}

# Colours (Okabe-Ito based): values blue (negative) · light · vermillion (positive); the error
# light green up to the tolerance, then orange to dark red; black for inf / NaN.
VALUE_STOPS = ("#0072B2", "#F4F4F4", "#D55E00")
PASS_STOPS = ("#F4F4F4", "#B4DFCF")
FAIL_STOPS = ("#F5C85C", "#E69F00", "#D55E00", "#7A1F00")
NOT_FINITE = "#000000"


class GradientHeatmap(View):
    """``GradientHeatmap(mismatch)``: where two arrays of a failed check differ.

    ``mismatch`` is the ``error.mismatch`` of a failed minisym check (or the error itself).
    ``slice_index`` picks the 2-D slice shown of an array of more than two axes (it starts at
    the worst element's). ``GradientHeatmap.from_error(error)`` and
    ``GradientHeatmap.show_difference(expected, got, ...)`` build one from other sources.
    """

    _esm = esm("gradient_heatmap.js")
    _css = css("gradient_heatmap.css")

    caption = traitlets.Unicode("").tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    worst = traitlets.Dict().tag(sync=True)  # index, values, relation, its cell in the grid
    hints = traitlets.List(traitlets.Unicode()).tag(sync=True)
    shape = traitlets.List(traitlets.Int()).tag(sync=True)
    fold = traitlets.Unicode("").tag(sync=True)  # how the array is laid out in the grid
    slices = traitlets.Int(1).tag(sync=True)
    slice_index = traitlets.Int(0).tag(sync=True)
    slice_label = traitlets.Unicode("").tag(sync=True)
    slice_bars = traitlets.List(traitlets.Dict()).tag(sync=True)
    grid = traitlets.Dict().tag(sync=True)  # rows, columns, block, cells: colours and values
    legend = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, mismatch, **kwargs):
        super().__init__(**kwargs)
        self._mismatch = _as_mismatch(mismatch)
        m = self._mismatch
        self._ratio = m.error_ratio()
        self.labels = _labels(m.names)
        self.shape = list(m.shape)
        self.caption = _caption(m)
        self.summary = _summary(m)
        self.hints = list(m.hints)
        self.legend = _legend(m, self._ratio)
        self.slices = int(np.prod(m.shape[:-2], dtype=np.int64)) if len(m.shape) > 2 else 1
        self.slice_bars = _slice_bars(self._ratio) if len(m.shape) > 2 else []
        worst_slice = self._slice_of(m.worst_index)
        if self.slice_index == worst_slice:
            self._show_slice(worst_slice)
        self.slice_index = worst_slice

    # --- other ways to make one -------------------------------------------------------------
    @classmethod
    def from_error(cls, error):
        """The heatmap of a failed check's AssertionError, or None if it carries no mismatch."""
        mismatch = getattr(error, "mismatch", None)
        return cls(mismatch) if isinstance(mismatch, Mismatch) else None

    @classmethod
    def show_difference(
        cls, expected, got, rtol=1e-4, atol=1e-5, names=("expected", "got"), slot="", check=""
    ):
        """Compare two arrays (as ``np.isclose(got, expected, rtol, atol)`` does, the
        tolerance scaled by ``|got|``); if they differ, display their heatmap in a notebook
        kernel and return it, else return None."""
        expected, got = np.asarray(expected), np.asarray(got)
        mismatch = Mismatch.find(expected, got, rtol, atol, names=tuple(names))
        if mismatch is None:
            return None
        heatmap = cls(mismatch.found_by(check, slot))
        heatmap.show()
        return heatmap

    def show(self):
        """Display the heatmap now if this runs in a notebook kernel (nothing elsewhere)."""
        if _in_kernel():
            from IPython.display import display

            display(self)

    # --- reacting to the page ---------------------------------------------------------------
    @traitlets.validate("slice_index")
    def _valid_slice(self, proposal):
        return min(max(int(proposal["value"]), 0), self.slices - 1)

    @traitlets.observe("slice_index")
    def _slice_changed(self, change):
        with self.reporting():
            self._show_slice(change["new"])

    def _slice_of(self, index):
        """The flat position of the slice holding ``index`` (0 for arrays of two axes or less)."""
        shape = self._mismatch.shape
        if len(shape) <= 2:
            return 0
        return int(np.ravel_multi_index(index[:-2], shape[:-2]))

    def _show_slice(self, position):
        m = self._mismatch
        lead = _leading_index(position, m.shape)
        ratio, expected, got = (_as_grid(x[lead]) for x in (self._ratio, m.expected, m.got))
        self.fold = _fold_text(m.shape, lead, self.slices)
        self.slice_label = _index_text(lead + (slice(None),) * 2) if lead else ""
        worst_here = self._slice_of(m.worst_index) == position
        worst_cell = _grid_position(m.worst_index, m.shape) if worst_here else None
        self.grid = _pooled_grid(
            ratio, expected, got, lead, m.shape, worst_cell, self.legend, MAX_ROWS, MAX_COLUMNS
        )
        self.worst = _worst(m, self._ratio, self.grid["worst_cell"], self._slice_of(m.worst_index))

    # --- fallbacks ----------------------------------------------------------------------------
    def text(self):
        lines = [f"{LABELS['title']}: {self.caption}", self.summary]
        if self.error:
            lines.append(_("error: {message}").format(message=self.error.splitlines()[0]))
        if len(self.shape) > 2:
            lines.append(self.fold)
        return "\n".join(lines + [f"  {h}" for h in self.hints])

    def html(self):
        m = self._mismatch
        lead = _leading_index(self._slice_of(m.worst_index), m.shape)
        coarse = _pooled_grid(
            _as_grid(self._ratio[lead]),
            _as_grid(m.expected[lead]),
            _as_grid(m.got[lead]),
            lead,
            m.shape,
            _grid_position(m.worst_index, m.shape),
            self.legend,
            STATIC_ROWS,
            STATIC_COLUMNS,
        )
        width, rows = coarse["columns"], []
        for r in range(coarse["rows"]):
            rows.append(
                "<tr>"
                + "".join(
                    f"<td style='background:{coarse['error_colour'][k]}'"
                    + (" class='msw-gh-worst'" if k == coarse["worst_cell"] else "")
                    + "></td>"
                    for k in range(r * width, (r + 1) * width)
                )
                + "</tr>"
            )
        hints = "".join(f"<li>{escape(h)}</li>" for h in self.hints)
        fold = f"<p>{escape(_fold_text(m.shape, lead, self.slices))}</p>" if lead else ""
        return (
            f"<div class='msw msw-gradient-heatmap'><p><b>{escape(LABELS['title'])}: "
            f"{escape(self.caption)}</b></p><p>{escape(self.summary)}</p>{fold}"
            f"<table class='msw-gh-static'>{''.join(rows)}</table>"
            f"<ul>{hints}</ul></div>"
        )


# --- registering with the checks ----------------------------------------------------------------
def _in_kernel():
    """True inside a Jupyter kernel, where a display reaches the page (the engine decides, as
    it does for fit's progress bar)."""
    return progress.in_kernel()


def show_before_raise(mismatch):
    """The observer a failed check calls: display its heatmap in a notebook kernel."""
    if _in_kernel():
        GradientHeatmap(mismatch).show()


def install():
    """In a notebook kernel, make every failed check display its heatmap before it raises
    (once, however often this runs). Returns whether it is installed."""
    if not _in_kernel():
        return False
    if show_before_raise not in checks.mismatch_observers:
        checks.mismatch_observers.append(show_before_raise)
    return True


# --- what is shown ------------------------------------------------------------------------------
def _as_mismatch(source):
    if isinstance(source, Mismatch):
        return source
    mismatch = getattr(source, "mismatch", None)
    if isinstance(mismatch, Mismatch):
        return mismatch
    raise TypeError(
        _(
            "GradientHeatmap needs the mismatch of a failed check: pass "
            "error.mismatch (or the AssertionError of "
            "mx.test_utils.check_numeric_gradient, ...), or use "
            "GradientHeatmap.show_difference(expected, got); got {type}"
        ).format(type=type(source).__name__)
    )


def _labels(names):
    expected, got = names
    return {
        k: (v if k == "title" else _(v)).replace("{expected}", expected).replace("{got}", got)
        for k, v in LABELS.items()
    }


def _caption(m):
    """``"check_numeric_gradient failed on in_grad[0] ('data', ...) of Custom 'sm'"``."""
    what = m.slot or _("{a} and {b}").format(a=m.names[0], b=m.names[1])
    return _("{check} failed on {what}").format(check=m.check, what=what) if m.check else what


def _summary(m):
    """``"shape (4, 10): 40 of 40 elements outside rtol=0.01, atol=0.0001; worst at [2, 3]:
    numeric 0.1234, symbolic -0.1234 (sign flipped)"``."""
    a, b = m.expected[m.worst_index], m.got[m.worst_index]
    relation = m.relation(m.worst_index)
    return _(
        "shape {shape}: {count} of {size} elements outside rtol={rtol}, atol={atol}; "
        "worst at {index}: {expected} {a}, {got} {b}"
    ).format(
        shape=tuple(m.shape),
        count=m.count,
        size=m.size,
        rtol=m.rtol,
        atol=m.atol,
        index=_index_text(m.worst_index),
        expected=m.names[0],
        a=fmt(a, b),
        got=m.names[1],
        b=fmt(b, a),
    ) + (f" ({relation})" if relation else "")


def _index_text(index):
    """``'[2, 3]'``; slices print as ``':'``."""
    return "[" + ", ".join(":" if isinstance(i, slice) else str(int(i)) for i in index) + "]"


def _leading_index(position, shape):
    """The index of the leading axes (all but the last two) of slice number ``position``."""
    if len(shape) <= 2:
        return ()
    return tuple(int(i) for i in np.unravel_index(position, shape[:-2]))


def _as_grid(values):
    """A 2-D view of a slice: () -> 1 x 1, (n,) -> 1 x n, (r, c) as it is."""
    values = np.asarray(values)
    return values.reshape((1,) * (2 - values.ndim) + values.shape)


def _grid_position(index, shape):
    """(row, column) of ``index`` in its slice's grid."""
    tail = tuple(index[-2:]) if len(shape) >= 2 else tuple(index)
    return ((0,) * (2 - len(tail)) + tail) if tail else (0, 0)


def _fold_text(shape, lead, slices):
    if len(shape) == 0:
        return _("one value")
    if len(shape) == 1:
        return _("one row: axis 0 ({n} elements) across").format(n=shape[0])
    where = _("rows: axis {rows}, columns: axis {columns}").format(
        rows=len(shape) - 2, columns=len(shape) - 1
    )
    if len(shape) == 2:
        return where
    return _("slice {index} of {slices} slices over axes 0–{last} ({where})").format(
        index=_index_text(lead + (slice(None),) * 2),
        slices=slices,
        last=len(shape) - 3,
        where=where,
    )


def _pooled_grid(ratio, expected, got, lead, shape, worst_cell, legend, max_rows, max_columns):
    """The cells of one 2-D slice, each block of a larger slice shown by its worst element."""
    rows, columns = ratio.shape
    step = (math.ceil(rows / max_rows), math.ceil(columns / max_columns))
    out_rows, out_columns = math.ceil(rows / step[0]), math.ceil(columns / step[1])
    padded = np.full((out_rows * step[0], out_columns * step[1]), -1.0)
    padded[:rows, :columns] = ratio
    blocks = padded.reshape(out_rows, step[0], out_columns, step[1]).swapaxes(1, 2)
    best = blocks.reshape(out_rows, out_columns, -1).argmax(axis=2)  # the first maximum
    grid = {
        "rows": out_rows,
        "columns": out_columns,
        "block": list(step),
        "worst_cell": -1,
        **{key: [] for key in CELL_KEYS},
    }
    if worst_cell is not None:
        grid["worst_cell"] = (worst_cell[0] // step[0]) * out_columns + worst_cell[1] // step[1]
    for r in range(out_rows):
        for c in range(out_columns):
            k = int(best[r, c])
            at = (r * step[0] + k // step[1], c * step[1] + k % step[1])
            cell = _cell(ratio[at], expected[at], got[at], _full_index(lead, at, shape), legend)
            for key, value in zip(CELL_KEYS, cell):
                grid[key].append(value)
    return grid


def _full_index(lead, at, shape):
    return lead + tuple(at[2 - min(len(shape), 2) :])


CELL_KEYS = ("index", "a", "b", "ratio", "a_colour", "b_colour", "error_colour")


def _cell(ratio, expected, got, index, legend):
    """One cell's entries, in the order of CELL_KEYS (the grid keeps one list per key)."""
    return (
        _index_text(index),
        _shown(expected),
        _shown(got),
        _shown(ratio, 3),
        _value_colour(expected, legend["value_max"]),
        _value_colour(got, legend["value_max"]),
        _error_colour(ratio, legend["ratio_max"]),
    )


def _shown(x, digits=4):
    """A finite number as 4 significant digits (whole above 1000), inf / NaN as their names."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    return f"{x:,.0f}" if 1000 <= abs(x) < 1e6 else f"{x:.{digits}g}"


def _mix(stops, t):
    """The colour a fraction ``t`` (0..1) along the stops, as #rrggbb."""
    t = min(max(float(t), 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    lo, hi = (tuple(int(s[k : k + 2], 16) for k in (1, 3, 5)) for s in stops[i : i + 2])
    return "#" + "".join(f"{round(a + (b - a) * (t - i)):02X}" for a, b in zip(lo, hi))


def _value_colour(value, value_max):
    value = float(value)
    if not math.isfinite(value):
        return NOT_FINITE
    return _mix(VALUE_STOPS, 0.5 + 0.5 * value / value_max if value_max else 0.5)


def _error_colour(ratio, ratio_max):
    ratio = float(ratio)
    if not math.isfinite(ratio):
        return NOT_FINITE
    if ratio <= 1:
        return _mix(PASS_STOPS, ratio)
    return _mix(FAIL_STOPS, math.log(ratio) / math.log(ratio_max))


def _legend(m, ratio):
    """The two colour scales: values (symmetric around 0) and the error ratio (log above 1)."""
    values = np.concatenate([m.expected.ravel(), m.got.ravel()])
    finite = np.abs(values[np.isfinite(values)])
    value_max = float(f"{finite.max():.3g}") if finite.size else 0.0
    finite_ratio = ratio[np.isfinite(ratio)]
    ratio_max = max(float(finite_ratio.max()) if finite_ratio.size else 0.0, 10.0)
    ratio_max = float(f"{ratio_max:.3g}")
    mid = 10.0 ** round(math.log10(ratio_max) / 2)  # a round number halfway up the log scale
    return {
        "value_max": value_max,
        "ratio_max": ratio_max,
        "values": [
            [_mix(VALUE_STOPS, t), _shown(value_max * (2 * t - 1), 3)]
            for t in (0, 0.25, 0.5, 0.75, 1)
        ],
        "errors": [
            [_mix(PASS_STOPS, 0), "0"],
            [_mix(PASS_STOPS, 1), "1"],
            [_error_colour(mid, ratio_max), _shown(mid)],
            [_error_colour(ratio_max, ratio_max), _shown(ratio_max, 3)],
        ],
        "not_finite": NOT_FINITE,
        "any_not_finite": bool(not np.all(np.isfinite(ratio))),
    }


def _slice_bars(ratio):
    """One bar per slice (pooled when there are many): its worst error and which slice."""
    per_slice = ratio.reshape(-1, ratio.shape[-2] * ratio.shape[-1]).max(axis=1)
    step = math.ceil(per_slice.size / MAX_SLICE_BARS)
    ratio_max = max(float(np.max(per_slice[np.isfinite(per_slice)], initial=0.0)), 10.0)
    bars = []
    for start in range(0, per_slice.size, step):
        group = per_slice[start : start + step]
        slice_at = start + int(np.argmax(group))
        bars.append(
            {
                "slice": slice_at,
                "colour": _error_colour(group.max(), ratio_max),
                "label": _index_text(_leading_index(slice_at, ratio.shape) + (slice(None),) * 2),
                "ratio": _shown(group.max(), 3),
                "fails": bool(group.max() > 1),
            }
        )
    return bars


def _worst(m, ratio, cell, position):
    """The worst element: its index, both values, how they relate, its cell (-1: not shown)
    and its slice (number ``slice_index`` and its label, for arrays of more than two axes)."""
    index = m.worst_index
    a, b = m.expected[index], m.got[index]
    lead = _leading_index(position, m.shape)
    return {
        "index": _index_text(index),
        "a": fmt(a, b),
        "b": fmt(b, a),
        "relation": m.relation(index),
        "ratio": _shown(ratio[index], 3),
        "cell": cell,
        "slice_index": position,
        "slice": _index_text(lead + (slice(None),) * 2) if lead else "",
    }


install()
