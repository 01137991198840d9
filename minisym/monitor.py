"""``mx.mon.Monitor``: print statistics of every operator output while a network runs."""
import re

import numpy as np

from .ndarray import NDArray

__all__ = ["Monitor", "MonitorHook"]


class MonitorHook:
    """What an Executor calls after each operator's forward."""

    def __init__(self, callback, monitor_all, ctx):
        self.callback = callback
        self.monitor_all = monitor_all
        self.ctx = ctx

    def after_forward(self, node, in_data, out_data):
        if self.monitor_all:
            names = node.op.list_arguments()
            for (src, _), name, array in zip(node.inputs, names, in_data):
                self.callback(f"{node.name}_{name}", NDArray(array, self.ctx))
        for name, array in zip(node.op.list_outputs()[: node.num_visible_outputs], out_data):
            self.callback(f"{node.name}_{name}", NDArray(array, self.ctx))


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
        """Stop collecting; ``[(step, name, stat text)]`` for this step (empty if not watched)."""
        if not self.activated:
            return []
        self.activated = False
        res = []
        for step, name, value in (sorted(self.queue, key=lambda x: x[1]) if self.sort
                                  else self.queue):
            values = value if isinstance(value, list) else [value]
            text = "\t".join(str(v.asnumpy()) for v in values)
            res.append((step, name, text))
        self.queue = []
        return res

    def toc_print(self):
        """Print what ``toc`` returns, one line per statistic."""
        for step, name, text in self.toc():
            print(f"Batch: {step:7d} {name:30s} {text}")
