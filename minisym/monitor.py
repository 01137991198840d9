"""``mx.mon.Monitor``: print statistics of every operator output while a network runs, and of
every gradient its backward pass computes (as MXNet's monitor sees its backward nodes)."""

import logging
import re

import numpy as np

from .arrays.ndarray import NDArray

__all__ = ["Monitor", "MonitorHook"]


class MonitorHook:
    """What an Executor calls after each operator's forward and backward."""

    def __init__(self, callback, monitor_all, ctx):
        self.callback = callback
        self.monitor_all = monitor_all
        self.ctx = ctx

    def after_forward(self, node, in_data, out_data):
        """Every output, hidden ones too (MXNet's order); inputs first with monitor_all."""
        if self.monitor_all:
            names = node.op.list_arguments()
            for (src, _), name, array in zip(node.inputs, names, in_data):
                if src.is_variable:
                    self.callback(src.name, NDArray(array, self.ctx, writable=False))
                self.callback(f"{node.name}_{name}", NDArray(array, self.ctx, writable=False))
        for j, array in enumerate(out_data):
            self.callback(node.entry_name(j), NDArray(array, self.ctx, writable=False))

    def after_backward(self, node, in_grad):
        """Every input gradient a node's backward wrote, named as MXNet names the outputs of
        its backward node: ``{node}_backward_output{i}`` (``in_grad[i]``), without the index
        when there is one input. ``elemwise_add`` has no backward node in MXNet (its gradient
        is the head gradient, passed on), so it is not reported."""
        if node.op.gradient_is_cloned:
            return
        for i, array in enumerate(in_grad):
            suffix = str(i) if len(in_grad) > 1 else ""
            self.callback(
                f"{node.name}_backward_output{suffix}", NDArray(array, self.ctx, writable=False)
            )

    def after_sum(self, total):
        """A gradient summed from several consumers (MXNet's aggregation node ``sum_grad``)."""
        self.callback("sum_grad_output", NDArray(total, self.ctx, writable=False))


def _norm_stat(array):
    """MXNet's default statistic: ||x|| / sqrt(size)."""
    values = array.asnumpy()
    return NDArray(np.array([np.linalg.norm(values) / np.sqrt(values.size)], values.dtype))


class Monitor:
    """Collect ``stat_func`` of outputs whose names match ``pattern``, every ``interval`` steps."""

    def __init__(self, interval, stat_func=None, pattern=".*", sort=False, monitor_all=False):
        self.interval = interval
        self.stat_func = stat_func or _norm_stat
        self.pattern = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all
        self.exes = []
        self.queue = []
        self.step = 0
        self.activated = False

    def stat_helper(self, name, array):
        """The executor's callback: queue ``stat_func(array)`` when collecting and ``name``
        matches."""
        if self.activated and self.pattern.match(name):
            self.queue.append((self.step, name, self.stat_func(array)))

    def install(self, exe):
        """Watch an Executor."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def tic(self):
        """Start collecting if this step is one to watch."""
        if self.step % self.interval == 0:
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """Stop collecting; ``[(step, name, stat text)]`` for this step (empty if not watched):
        operator outputs, then the arguments and auxiliary states whose names match."""
        if not self.activated:
            return []
        for exe in self.exes:
            for names, arrays in (
                (exe._symbol.list_arguments(), exe.arg_arrays),
                (exe._symbol.list_auxiliary_states(), exe.aux_arrays),
            ):
                self.queue.extend(
                    (self.step, n, self.stat_func(a))
                    for n, a in zip(names, arrays)
                    if self.pattern.match(n)
                )
        self.activated = False
        if self.sort:
            self.queue.sort(key=lambda x: x[1])
        res = [(step, name, _stat_text(value)) for step, name, value in self.queue]
        self.queue = []
        return res

    def toc_print(self):
        """Log what ``toc`` returns (logging.info), one line per statistic."""
        for step, name, text in self.toc():
            logging.info("Batch: %7d %-30s %s", step, name, text)


def _stat_text(value):
    """MXNet's rendering of a statistic: each value then a tab; scalars as plain numbers."""
    values = value if isinstance(value, list) else [value]
    return "".join(
        (str(v.asscalar()) if v.shape == (1,) else str(v.asnumpy())) + "\t" for v in values
    )
