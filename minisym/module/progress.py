"""What ``Module.fit`` shows while it trains: one line per epoch, redrawn in place.

    Epoch[0] [##########----------] batch 2/4  loss=1.0986  accuracy=0.5000

``fit(progress_bar=...)`` chooses the form (MXNet's ``fit`` has no bar; this is minisym's):

- ``True`` (the default): the form ``mx.mod.progress.mode`` names, which is the environment
  variable ``MINISYM_PROGRESS`` when set, else ``'auto'``;
- ``'auto'``: ``'live'`` on a terminal, ``'notebook'`` in a Jupyter kernel (JupyterLab, nbval),
  ``'stable'`` anywhere else (a pipe, a file);
- ``'live'``: the line also shows the seconds spent and the batches per second;
- ``'stable'``: no times and no rates, redrawn at fixed batches: the same training prints the
  same text on the same machine (a terminal log, a pipe);
- ``'notebook'``: in a Jupyter kernel, one live bar per epoch drawn as a widget; its text form,
  the only part a stored notebook keeps, names the epoch, its batches and what the bar shows,
  never a number that training computed: those differ in their last digits from one processor,
  kernel or thread count to another, and a stored output must be the same on every machine;
- ``'off'`` or ``False``: nothing.

With ``True``, no line is drawn when logging shows INFO records (``logging.basicConfig(level=
logging.INFO)``, see ``logs_info``): ``fit`` then prints MXNet's log lines alone,
``INFO:root:Epoch[0] Train-accuracy=0.550000``, ``INFO:root:Epoch[0] Time cost=0.012``, as MXNet.

The line goes to ``sys.stderr``, as logging's does, except in a Jupyter kernel, where it goes to
``sys.stdout``: a notebook paints stderr red, and progress is not an error. The loss is the one
the network's head trains on (cross-entropy for ``SoftmaxOutput``, squared / absolute error for
the regression outputs, the mean output of ``MakeLoss``); the metric is ``fit``'s
``eval_metric`` over the epoch so far. A console log record (``logging`` to a stream) or a
warning shown while the line is drawn first clears it, so the record stays a whole line; the bar
comes back at the next batch.
"""

import functools
import logging
import math
import os
import sys
import time
import warnings
from contextlib import contextmanager
from html import escape

import numpy as np

from ..io import NDArrayIter

__all__ = [
    "mode",
    "MODES",
    "resolve",
    "logs_info",
    "default_stream",
    "in_kernel",
    "epoch_bar",
    "EpochBar",
    "NotebookBar",
    "HeadLoss",
    "batches_per_epoch",
]

MODES = ("auto", "live", "stable", "notebook", "off")
mode = os.environ.get("MINISYM_PROGRESS", "auto")


def in_kernel():
    """Whether this process is a Jupyter kernel (its stdout is ipykernel's)."""
    return type(sys.stdout).__module__.startswith("ipykernel")


def default_stream():
    """Where the line goes: a Jupyter kernel's stdout (its stderr shows as an error), else
    stderr."""
    return sys.stdout if in_kernel() else sys.stderr


def resolve(progress_bar, stream):
    """``'live'``, ``'stable'`` or ``'off'`` for fit's ``progress_bar`` drawn on ``stream``."""
    if progress_bar is True:
        choice, source = mode, "mx.mod.progress.mode (from MINISYM_PROGRESS)"
    else:
        choice, source = "off" if progress_bar in (False, None) else progress_bar, "progress_bar"
    if choice not in MODES:
        modes = ", ".join(map(repr, MODES))
        allowed = "True, False, " + modes if source == "progress_bar" else modes
        raise ValueError(
            f"fit: {source} is {choice!r}; it is one of {allowed} ('stable' "
            "shows no times, for stored notebook outputs; 'off' shows nothing)"
        )
    if choice == "auto":
        if _is_terminal(stream):
            return "live"
        choice = "notebook"  # in a Jupyter kernel; elsewhere 'stable', below
    if choice == "notebook" and not (in_kernel() and _has_widgets()):
        return "stable"  # no notebook to draw the widget in: the same line as text
    return choice


def logs_info(logger):
    """Whether an INFO record of ``logger`` (fit's; the ``logging`` module is the root logger)
    is shown: ``logging.basicConfig(level=logging.INFO)``, or a logger set to INFO whose
    handlers take it. The ``logging`` module's own ``info`` adds basicConfig's stderr handler
    when the root has none, so ``logging.getLogger().setLevel(logging.INFO)`` alone shows them
    too (a Logger's ``info`` would fall to ``logging.lastResort``, which shows warnings only)."""
    node = logging.getLogger() if logger is logging else logger
    if not isinstance(node, logging.Logger) or not node.isEnabledFor(logging.INFO):
        return False
    handlers = [h for lg in _propagation(node) for h in lg.handlers]
    if not handlers:
        return logger is logging and not logging.getLogger().handlers
    return any(h.level <= logging.INFO for h in handlers)


def _propagation(logger):
    """``logger`` and the ancestors its records propagate to (nothing for None)."""
    while logger is not None:
        yield logger
        logger = logger.parent if logger.propagate else None


def _has_widgets():
    try:
        import ipywidgets  # noqa: F401  (optional: only a notebook draws the bar as a widget)
    except ImportError:
        return False
    return True


def epoch_bar(epoch, total, form, stream=None):
    """The progress display of one epoch in ``form`` (see ``resolve``)."""
    if form == "notebook":
        return NotebookBar(epoch, total, form, stream)
    return EpochBar(epoch, total, form, stream)


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def batches_per_epoch(data_iter):
    """How many batches the coming epoch of ``data_iter`` has, or None if it cannot say.

    An NDArrayIter knows: from its position, ``num_data`` and ``batch_size``; ``'pad'`` counts
    the last, incomplete batch, ``'discard'`` and ``'roll_over'`` do not."""
    if not isinstance(data_iter, NDArrayIter):
        return None
    first = data_iter.cursor + data_iter.batch_size  # where the next batch starts
    remaining = max(0, data_iter.num_data - first)
    if data_iter.last_batch_handle == "pad":
        return math.ceil(remaining / data_iter.batch_size)
    return remaining // data_iter.batch_size


class EpochBar:
    """The progress line of one epoch: ``Epoch[e]``, a bar, ``batch k/N``, loss and metric."""

    WIDTH = 20  # characters of the bar itself
    STABLE_DRAWS = 50  # 'stable' redraws at most this many times per epoch, at fixed batches
    LIVE_INTERVAL = 0.1  # 'live' redraws at most every this many seconds

    def __init__(self, epoch, total, form, stream=None):
        self.epoch, self.total, self.form = epoch, total, form
        self.stream = sys.stderr if stream is None else stream
        # a terminal shows nothing unflushed; a notebook flushes on its own every 0.2 s, so
        # elsewhere 'stable' leaves it to do so (one stored output per flush, not per draw)
        self._flush_draws = form == "live" or _is_terminal(self.stream)
        self.done, self.values = 0, []
        self._shown = ""  # the text on the line now ("" when cleared)
        self._drawn = 0  # the batch count it shows
        self._start = self._last_draw = time.perf_counter()

    def update(self, done, values):
        """``done`` batches so far; ``values`` is ``[(name, value)]`` to show."""
        self.done, self.values = done, values
        if self.form != "off" and (not self._shown or self._due()):
            self._draw()

    def clear(self):
        """Blank the line so that something else can be written on it."""
        if self._shown:
            self._write("\r" + " " * len(self._shown) + "\r")
            self._shown = ""

    def close(self):
        """Draw the final state (unless it is on the line already) and end the line."""
        if self.form != "off" and self.done:
            if self.form == "live" or self._drawn != self.done or not self._shown:
                self._draw()
            self._write("\n")
            self._shown = ""

    def _due(self):
        if self.done == self.total:
            return True
        if self.form == "live":
            return time.perf_counter() - self._last_draw >= self.LIVE_INTERVAL
        if self.total:
            return self.done % math.ceil(self.total / self.STABLE_DRAWS) == 0
        return self.done % (1 if self.done <= 10 else 10 if self.done <= 100 else 100) == 0

    def _draw(self):
        line = self.line()
        pad = " " * max(0, len(self._shown) - len(line))  # cover a longer previous line
        self._write("\r" + line + pad, flush=self._flush_draws)
        self._shown, self._drawn = line, self.done
        self._last_draw = time.perf_counter()

    def line(self):
        """The text of the line: ``'Epoch[0] [#####-----] batch 2/4  loss=1.0986 ...'``."""
        parts = [f"Epoch[{self.epoch}]"]
        if self.total:
            filled = self.WIDTH * min(self.done, self.total) // self.total
            parts.append("[" + "#" * filled + "-" * (self.WIDTH - filled) + "]")
            parts.append(f"batch {self.done}/{self.total}")
        else:
            parts.append(f"batch {self.done}")
        text = " ".join(parts) + "".join(f"  {name}={value:.4f}" for name, value in self.values)
        if self.form == "live":
            elapsed = time.perf_counter() - self._start
            text += f"  {elapsed:.1f}s  {self.done / elapsed if elapsed else 0:.1f} batch/s"
            columns = _columns(self.stream)
            if columns:  # a line the terminal wraps cannot be redrawn in place
                text = text[: max(20, columns - 1)]
        return text

    def _write(self, text, flush=True):
        self.stream.write(text)
        if flush:
            self.stream.flush()

    @contextmanager
    def around_logs(self, logger=None):
        """While the bar is drawn, console log records and warnings clear its line first."""
        if self.form == "off":
            yield self
            return
        handlers = _console_handlers(logger)
        clear = _Clear(self)
        for handler in handlers:
            handler.addFilter(clear)
        shown = warnings.showwarning

        def show(*args, **kwargs):
            self.clear()
            shown(*args, **kwargs)

        warnings.showwarning = show
        try:
            yield self
        finally:
            warnings.showwarning = shown
            for handler in handlers:
                handler.removeFilter(clear)


class NotebookBar(EpochBar):
    """An epoch's bar drawn as a widget in a notebook: a bar, ``batch k/N`` and the values, live.

    What a stored notebook keeps of it is its text form, fixed when it is shown (``text()``):
    ``Epoch[0]: 41 batches (live bar: accuracy, cross-entropy)``. The values reach only the
    live widget, so the stored output is the same on every machine."""

    def __init__(self, epoch, total, form="notebook", stream=None):
        super().__init__(epoch, total, form, stream)
        self.widget = None

    def text(self):
        """The stable text form: the epoch, its batches and the names of what the bar shows."""
        batches = f"{self.total} batches" if self.total else "batches"
        names = ", ".join(name for name, _ in self.values)
        return f"Epoch[{self.epoch}]: {batches}" + (f" (live bar: {names})" if names else "")

    def clear(self):
        """Nothing to clear: the widget has its own place, log lines go below it."""

    def close(self):
        """Draw the final state."""
        if self.done:
            self._draw()

    def _due(self):
        return (
            self.done == self.total or time.perf_counter() - self._last_draw >= self.LIVE_INTERVAL
        )

    def _draw(self):
        if self.widget is None:
            self.widget = _widget_class()(self.text())
            from IPython.display import display  # a kernel is running: IPython is loaded

            display(self.widget)
        self.widget.value = self.html()
        self._shown, self._drawn = "widget", self.done
        self._last_draw = time.perf_counter()

    def html(self):
        """The live line: the epoch, a <progress> bar, ``batch k/N`` and the values."""
        bar = (
            f' <progress value="{min(self.done, self.total)}" max="{self.total}" '
            'style="width: 14em; vertical-align: middle"></progress>'
            if self.total
            else ""
        )
        count = f"batch {self.done}/{self.total}" if self.total else f"batch {self.done}"
        values = "".join(f"  {name}={value:.4f}" for name, value in self.values)
        return (
            '<div style="font-family: var(--jp-code-font-family, monospace); font-size: '
            'var(--jp-code-font-size, 13px); white-space: pre">'
            f"{escape(f'Epoch[{self.epoch}]')}{bar} {escape(count + values)}</div>"
        )


@functools.cache
def _widget_class():
    """The bar's ipywidgets HTML class: its text form (what nbval sees) is the ``text`` given."""
    import ipywidgets  # optional: only a notebook draws the bar as a widget

    class FitProgress(ipywidgets.HTML):
        """fit's live bar of one epoch; its repr is the stable text a stored notebook keeps."""

        def __init__(self, text):
            super().__init__()
            self.text = text
            self.add_class("msw-fit")  # what the browser tests find it by

        def __repr__(self):
            return self.text

    return FitProgress


class _Clear(logging.Filter):
    """A handler filter that lets every record through after clearing the bar's line."""

    def __init__(self, bar):
        super().__init__()
        self.bar = bar

    def filter(self, record):
        self.bar.clear()
        return True


def _console_handlers(logger):
    """The stream handlers (not files) that a record of ``logger`` or of the root reaches."""
    node = logger if isinstance(logger, logging.Logger) else None
    handlers = [h for lg in [logging.getLogger(), *_propagation(node)] for h in lg.handlers]
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    unique = {
        id(h): h
        for h in handlers
        if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
    }
    return list(unique.values())


def _columns(stream):
    """The width of the terminal ``stream`` is, or None when it is not one."""
    try:
        return os.get_terminal_size(stream.fileno()).columns if _is_terminal(stream) else None
    except (AttributeError, OSError, ValueError):
        return None


# --- the loss of the network's heads ---------------------------------------------------------
def _cross_entropy(pred, label):
    label = label.reshape(-1) if pred.ndim == 2 else label  # (n,) or (n, 1) labels
    index = np.expand_dims(label.astype(np.int64), 1)
    return -np.log(np.take_along_axis(pred, index, axis=1) + 1e-12).mean()


def _logistic(pred, label):
    label = label.reshape(pred.shape)
    return -(label * np.log(pred + 1e-12) + (1 - label) * np.log(1 - pred + 1e-12)).mean()


def _squared(pred, label):
    return ((pred - label.reshape(pred.shape)) ** 2).mean()


def _absolute(pred, label):
    return np.abs(pred - label.reshape(pred.shape)).mean()


# a loss head's ``Operator.head_loss`` -> its loss from the head's output and label
_HEAD_LOSSES = {
    "cross_entropy": _cross_entropy,
    "logistic": _logistic,
    "squared": _squared,
    "absolute": _absolute,
    "mean": lambda pred, _: pred.mean(),
}


class HeadLoss:
    """The mean loss over an epoch of the heads of ``symbol`` that are loss operators."""

    def __init__(self, symbol):
        self.heads = []  # (output index, loss function, label variable name or None)
        for index, (node, _) in enumerate(symbol.outputs):
            if node.is_variable:
                continue
            loss, reads_label = _HEAD_LOSSES.get(node.op.head_loss), node.op.head_loss_reads_label
            label = node.arg_inputs[1][0] if reads_label and len(node.arg_inputs) > 1 else None
            if loss is None or (reads_label and (label is None or not label.is_variable)):
                continue
            self.heads.append((index, loss, label.name if label is not None else None))
        self.reset()

    def reset(self):
        """Forget the epoch so far."""
        self.total, self.count = 0.0, 0

    def update(self, outputs, labels):
        """Add one batch: the module's ``outputs`` and ``{label name: NDArray}``."""
        losses = []
        for index, loss, label_name in self.heads:
            label = labels.get(label_name) if label_name else None
            if label_name and label is None:
                continue
            try:
                value = loss(outputs[index].asnumpy(), None if label is None else label.asnumpy())
            except (ValueError, IndexError):  # a shape this display does not understand
                continue
            losses.append(float(value))
        if losses:
            self.total += sum(losses) / len(losses)
            self.count += 1

    def get(self):
        """``[('loss', mean)]``, or ``[]`` when no head is a loss this knows."""
        return [("loss", self.total / self.count)] if self.count else []
