"""``mx.callback``: what ``Module.fit`` calls at the end of a batch or an epoch."""

import logging
import math
import time

from .model import save_checkpoint

__all__ = [
    "module_checkpoint",
    "do_checkpoint",
    "log_train_metric",
    "Speedometer",
    "ProgressBar",
    "LogValidationMetricsCallback",
]


def module_checkpoint(mod, prefix, period=1, save_optimizer_states=False):
    """An epoch-end callback saving ``mod``'s checkpoint every ``period`` epochs."""
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            mod.save_checkpoint(prefix, iter_no + 1, save_optimizer_states)

    return _callback


def do_checkpoint(prefix, period=1):
    """An epoch-end callback writing ``prefix-symbol.json`` and ``prefix-%04d.params``."""
    period = int(max(1, period))

    def _callback(iter_no, sym, arg, aux):
        if (iter_no + 1) % period == 0:
            save_checkpoint(prefix, iter_no + 1, sym, arg, aux)

    return _callback


def log_train_metric(period, auto_reset=False):
    """A batch-end callback logging the training metric every ``period`` batches."""

    def _callback(param):
        if param.nbatch % period == 0 and param.eval_metric is not None:
            for name, value in param.eval_metric.get_name_value():
                logging.info(
                    "Iter[%d] Batch[%d] Train-%s=%f", param.epoch, param.nbatch, name, value
                )
            if auto_reset:
                param.eval_metric.reset_local()

    return _callback


class Speedometer:
    """A batch-end callback logging samples per second (and the metric) every ``frequent``."""

    def __init__(self, batch_size, frequent=50, auto_reset=True):
        self.batch_size = batch_size
        self.frequent = frequent
        self.auto_reset = auto_reset
        self.init = False
        self.tic = 0
        self.last_count = 0

    def __call__(self, param):
        count = param.nbatch
        if self.last_count > count:  # a new epoch started
            self.init = False
        self.last_count = count
        if not self.init:
            self.init, self.tic = True, time.time()
            return
        if count % self.frequent:
            return
        elapsed = time.time() - self.tic
        speed = self.frequent * self.batch_size / elapsed if elapsed > 0 else float("inf")
        self._log(param, count, speed)
        self.tic = time.time()

    def _log(self, param, count, speed):
        if param.eval_metric is None:
            logging.info("Iter[%d] Batch [%d]\tSpeed: %.2f samples/sec", param.epoch, count, speed)
            return
        name_value = param.eval_metric.get_name_value()
        first = count - self.frequent if self.auto_reset else 0
        if self.auto_reset:
            param.eval_metric.reset_local()
        msg = "Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec" + "\t%s=%f" * len(name_value)
        logging.info(msg, param.epoch, first, count, speed, *sum(name_value, ()))


class ProgressBar:
    """A batch-end callback logging a text progress bar (``total`` batches per epoch)."""

    def __init__(self, total, length=80):
        self.bar_len = length
        self.total = total

    def __call__(self, param):
        filled = int(round(self.bar_len * param.nbatch / float(self.total)))
        percents = math.ceil(100.0 * param.nbatch / float(self.total))
        logging.info("[%s] %s%s\r", "=" * filled + "-" * (self.bar_len - filled), percents, "%")


class LogValidationMetricsCallback:
    """An eval-end callback logging every validation metric."""

    def __call__(self, param):
        if not param.eval_metric:
            return
        for name, value in param.eval_metric.get_name_value():
            logging.info("Epoch[%d] Validation-%s=%f", param.epoch, name, value)
