"""What every Module can do once it can forward and backward: score, predict, fit."""

import logging
import time
from collections import namedtuple

import numpy as np

from .. import metric
from ..initializer import Uniform
from ..io import DataBatch, DataIter
from ..ndarray import NDArray, array, concat
from . import progress

__all__ = ["BaseModule", "BatchEndParam"]

_END = object()  # what next() gives at the end of an epoch
BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def _call_each(callbacks, *args):
    """Call each of ``callbacks`` (None, a callable or a list of them) with ``args``."""
    if not callbacks:
        return
    for callback in callbacks if isinstance(callbacks, list) else [callbacks]:
        callback(*args)


def _check_iterator(data, argument, caller):
    """``data`` must be a data iterator (MXNet fails later: "'numpy.ndarray' object has no
    attribute 'provide_data'"): an AttributeError, as there, that says what to pass."""
    if hasattr(data, "provide_data") and hasattr(data, "reset"):
        return
    hint = (
        f" (for arrays: {argument}=mx.io.NDArrayIter(X, y, batch_size=32))"
        if isinstance(data, (np.ndarray, list, tuple)) or hasattr(data, "asnumpy")
        else ""
    )
    raise AttributeError(
        f"{caller}: {argument} must be a data iterator such as "
        f"mx.io.NDArrayIter, got {type(data).__name__}{hint}"
    )


class BaseModule:
    """The training loop (``fit``), evaluation (``score``) and inference (``predict``)."""

    def __init__(self, logger=logging):
        self.logger = logger
        self.binded = False
        self.for_training = False
        self.inputs_need_grad = False
        self.params_initialized = False
        self.optimizer_initialized = False
        self._symbol = None
        self._total_exec_bytes = 0

    def forward_backward(self, data_batch):
        """forward(is_train=True) then backward()."""
        self.forward(data_batch, is_train=True)
        self.backward()

    def score(
        self,
        eval_data,
        eval_metric,
        num_batch=None,
        batch_end_callback=None,
        score_end_callback=None,
        reset=True,
        epoch=0,
        sparse_row_id_fn=None,
    ):
        """Run ``eval_data`` forward (is_train=False); the metric's ``[(name, value)]``."""
        assert self.binded and self.params_initialized
        _check_iterator(eval_data, "eval_data", "score")
        if reset:
            eval_data.reset()
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        eval_metric.reset()
        actual_num_batch = 0
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.forward(eval_batch, is_train=False)
            self.update_metric(eval_metric, eval_batch.label)
            _call_each(batch_end_callback, BatchEndParam(epoch, nbatch, eval_metric, locals()))
            actual_num_batch += 1
        _call_each(
            score_end_callback, BatchEndParam(epoch, actual_num_batch, eval_metric, locals())
        )
        return eval_metric.get_name_value()

    def iter_predict(self, eval_data, num_batch=None, reset=True, sparse_row_id_fn=None):
        """Yield ``(outputs without padding, nbatch, batch)`` for each batch."""
        assert self.binded and self.params_initialized
        if reset:
            eval_data.reset()
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            yield ([out[0 : out.shape[0] - pad] for out in self.get_outputs()], nbatch, eval_batch)

    def predict(
        self,
        eval_data,
        num_batch=None,
        merge_batches=True,
        reset=True,
        always_output_list=False,
        sparse_row_id_fn=None,
    ):
        """Outputs for every batch of ``eval_data`` (padding removed), concatenated."""
        assert self.binded and self.params_initialized
        if isinstance(eval_data, (NDArray, np.ndarray)):
            if isinstance(eval_data, np.ndarray):
                eval_data = array(eval_data)
            self.forward(DataBatch([eval_data]))
            return self.get_outputs()[0]
        if not isinstance(eval_data, DataIter):
            raise ValueError("eval_data must be of type NDArray or DataIter")
        output_list = [
            [out.copy() for out in outputs]
            for outputs, _, _ in self.iter_predict(eval_data, num_batch, reset)
        ]
        if not output_list or not merge_batches:
            return output_list
        merged = [concat(*outputs, dim=0) for outputs in zip(*output_list)]
        return merged[0] if len(merged) == 1 and not always_output_list else merged

    def fit(
        self,
        train_data,
        eval_data=None,
        eval_metric="acc",
        epoch_end_callback=None,
        batch_end_callback=None,
        kvstore="local",
        optimizer="sgd",
        optimizer_params=(("learning_rate", 0.01),),
        eval_end_callback=None,
        eval_batch_end_callback=None,
        initializer=None,
        arg_params=None,
        aux_params=None,
        allow_missing=False,
        force_rebind=False,
        force_init=False,
        begin_epoch=0,
        num_epoch=None,
        validation_metric=None,
        monitor=None,
        sparse_row_id_fn=None,
        progress_bar=True,
    ):
        """Train for ``num_epoch`` epochs: bind, init_params, init_optimizer, then per batch
        forward_backward, update, update_metric.

        ``progress_bar`` (minisym's, MXNet has none) draws one line per epoch on stderr,
        ``Epoch[0] [####------] batch 2/4  loss=1.0986  accuracy=0.5000``: True uses
        ``mx.mod.progress.mode`` (``MINISYM_PROGRESS``, default ``'auto'``: with times on a
        terminal, without them elsewhere), or nothing when logging shows INFO records (then
        MXNet's log lines, ``Epoch[0] Train-accuracy=...``, ``Epoch[0] Time cost=...``, are
        the progress, as in MXNet); ``'stable'`` never shows times or rates (stored notebook
        outputs stay the same); ``'live'`` always does; False or ``'off'`` draws nothing.
        See ``minisym.module.progress``."""
        assert num_epoch is not None, "please specify number of epochs"
        if isinstance(num_epoch, bool) or not isinstance(num_epoch, (int, np.integer)):
            raise TypeError(
                f"fit: num_epoch is how many epochs to train, a whole number such "
                f"as num_epoch=10; got {num_epoch!r}"
            )
        _check_iterator(train_data, "train_data", "fit")
        if eval_data is not None:
            _check_iterator(eval_data, "eval_data", "fit")
        stream = progress.default_stream()
        form = progress.resolve(progress_bar, stream)
        if progress_bar is True and progress.logs_info(self.logger):
            form = "off"  # MXNet's log lines say it, not both
        # what can be checked without touching the module is checked first: a mistake there
        # leaves the module as it was (validation gets its own metric from a name, as in MXNet)
        validation_metric = validation_metric if validation_metric is not None else eval_metric
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        if isinstance(optimizer, str) and not self.optimizer_initialized:
            # deferred: Module (module.py) is built on this base class
            from .module import _check_optimizer_params

            _check_optimizer_params(optimizer, dict(optimizer_params))
        self.bind(
            data_shapes=train_data.provide_data,
            label_shapes=train_data.provide_label,
            for_training=True,
            force_rebind=force_rebind,
        )
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(
            initializer=initializer if initializer is not None else Uniform(0.01),
            arg_params=arg_params,
            aux_params=aux_params,
            allow_missing=allow_missing,
            force_init=force_init,
        )
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params)
        loss = progress.HeadLoss(self.symbol) if form != "off" and self.symbol is not None else None
        learned_total = None  # batches per epoch, counted once when the iterator cannot say
        for epoch in range(begin_epoch, num_epoch):
            total = progress.batches_per_epoch(train_data) or learned_total
            bar = progress.epoch_bar(epoch, total, form, stream)
            try:
                done = self._fit_epoch(
                    epoch, train_data, eval_metric, batch_end_callback, monitor, bar, loss
                )
            except KeyboardInterrupt:
                self._interrupted(epoch, bar, train_data)
                raise
            learned_total = learned_total or done
            arg_params, aux_params = self.get_params()
            self.set_params(arg_params, aux_params)
            _call_each(epoch_end_callback, epoch, self.symbol, arg_params, aux_params)
            if eval_data is not None:
                res = self.score(
                    eval_data,
                    validation_metric,
                    score_end_callback=eval_end_callback,
                    batch_end_callback=eval_batch_end_callback,
                    epoch=epoch,
                )
                for name, val in res:
                    self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)
            train_data.reset()

    def _interrupted(self, epoch, bar, train_data):
        """After a KeyboardInterrupt: rewind the data for the next fit; log what it keeps."""
        try:
            train_data.reset()
        except Exception:  # noqa: BLE001 -- the interrupt is what the learner must see
            pass
        self.logger.info(
            "Epoch[%d] interrupted after %d batch(es): the module keeps the "
            "parameters trained so far; fit(..., begin_epoch=%d) goes on from them",
            epoch,
            bar.done,
            epoch,
        )

    def _fit_epoch(self, epoch, train_data, eval_metric, batch_end_callback, monitor, bar, loss):
        """One epoch of training; the number of batches it had."""
        tic = time.time()
        eval_metric.reset()
        if loss is not None:
            loss.reset()
        nbatch, eval_name_vals = -1, eval_metric.get_global_name_value()
        with bar.around_logs(self.logger):
            try:
                data_iter = iter(train_data)
                next_data_batch = next(data_iter, _END)
                end_of_batch = next_data_batch is _END
                while not end_of_batch:
                    nbatch, data_batch = nbatch + 1, next_data_batch
                    self._fit_batch(data_batch, eval_metric, monitor, loss)
                    # as MXNet: the next batch is fetched before the callbacks see this one
                    # (their locals() hold both; after the last, next_data_batch is the last)
                    fetched = next(data_iter, _END)
                    end_of_batch = fetched is _END
                    if not end_of_batch:
                        next_data_batch = fetched
                        self.prepare(next_data_batch)
                    # read before the callbacks, which may reset the metric (Speedometer)
                    eval_name_vals = eval_metric.get_global_name_value()
                    params = BatchEndParam(epoch, nbatch, eval_metric, locals())
                    _call_each(batch_end_callback, params)
                    bar.update(
                        nbatch + 1, eval_name_vals if loss is None else loss.get() + eval_name_vals
                    )
            finally:
                bar.close()  # ends the line, so that what follows starts on its own
        for name, val in eval_name_vals:
            self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
        self.logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
        return nbatch + 1

    def _fit_batch(self, data_batch, eval_metric, monitor, loss):
        """forward_backward, update and update_metric on one batch (and the bar's loss)."""
        if monitor is not None:
            monitor.tic()
        self.forward_backward(data_batch)
        self.update()
        labels = data_batch.label  # read once, while the iterator still holds this batch
        self.update_metric(eval_metric, labels)
        if loss is not None:
            loss.update(self.get_outputs(), dict(zip(self.label_names, labels or [])))
        if monitor is not None:
            monitor.toc_print()

    def set_params(
        self, arg_params, aux_params, allow_missing=False, force_init=True, allow_extra=False
    ):
        """Copy given parameter values in (``init_params`` with no initializer)."""
        self.init_params(
            initializer=None,
            arg_params=arg_params,
            aux_params=aux_params,
            allow_missing=allow_missing,
            force_init=force_init,
            allow_extra=allow_extra,
        )

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Get ready for ``data_batch`` (nothing to do on dense arrays)."""

    @property
    def symbol(self):
        """The symbol this module runs."""
        return self._symbol
