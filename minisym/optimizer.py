"""``mx.optimizer``: how a weight moves given its gradient (SGD and Adam, as in MXNet 1.9.1).

Every update works in place on the NDArrays it is given (``weight[:] = ...``). The rules that
decide a parameter's effective learning rate and weight decay:

- ``lr``: the scheduler's rate at ``num_update`` if there is a scheduler, else ``learning_rate``;
  times the parameter's ``lr_mult`` (``set_lr_mult``, or the ``__lr_mult__`` attribute of the
  variable in ``sym``).
- ``wd``: ``wd`` times the parameter's ``wd_mult``. Given ``param_idx2name``, every name not
  ending in ``_weight`` or ``_gamma`` starts with ``wd_mult = 0`` (biases, betas, ... are not
  decayed); ``__wd_mult__`` attributes and ``set_wd_mult`` override that.

The gradient is rescaled *before* it is clipped: SGD uses ``clip(rescale_grad * grad, c)`` and
Adam ``clip(rescale_grad * grad + wd * weight, c)`` — MXNet's kernels do this, whatever its
docstrings say. ``clip_gradient`` of None, 0 or less means no clipping.
"""
import math
import os
import warnings

import numpy as np

from .ndarray import zeros
from .ndarray.ndarray import NDArray

__all__ = ["Optimizer", "SGD", "Adam", "Updater", "create", "register", "get_updater"]


class Optimizer:
    """Base class: learning rate, weight decay, gradient rescaling and clipping, update counts."""

    opt_registry = {}

    def __init__(self, rescale_grad=1., param_idx2name=None, wd=0., clip_gradient=None,
                 learning_rate=None, lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None:
            if lr_scheduler.base_lr != learning_rate:
                # MXNet prints this warning (to stdout) rather than raising or warning it.
                print(UserWarning("learning rate from ``lr_scheduler`` has been "
                                  "overwritten by ``learning_rate`` in optimizer."))
                lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        assert isinstance(param_idx2name, dict), \
            "param_idx2name should be a dict of param indexes to names."
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.set_lr_mult({})
        self.set_wd_mult({})

    # --- registry ----------------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Make ``klass`` creatable by its lower-case class name: ``@mx.optimizer.register``."""
        assert isinstance(klass, type), "register decorates an Optimizer class"
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry:
            old = Optimizer.opt_registry[name]
            warnings.warn(f"WARNING: New optimizer {klass.__module__}.{klass.__name__} is "
                          f"overriding existing optimizer {old.__module__}.{old.__name__}",
                          stacklevel=2)
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An optimizer by (case-insensitive) name: ``create_optimizer('sgd', momentum=0.9)``."""
        if name.lower() in Optimizer.opt_registry:
            return Optimizer.opt_registry[name.lower()](**kwargs)
        raise ValueError(f"Cannot find optimizer {name} "
                         f"(registered: {', '.join(sorted(Optimizer.opt_registry))})")

    # --- learning rate -----------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current global learning rate (the scheduler's, when there is one)."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Set the global learning rate (not allowed when a scheduler sets it)."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that "
                              "set_learning_rate can mutate the value of the learning rate of the "
                              "optimizer only when the LRScheduler of the optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):
        """Removed in MXNet: use ``set_lr_mult``."""
        raise DeprecationWarning("set_lr_scale is deprecated; use set_lr_mult")

    def set_lr_mult(self, args_lr_mult):
        """Per-parameter lr multipliers {name or index: mult}, on top of ``__lr_mult__`` attrs."""
        self.lr_mult = {}
        for name, attrs in self._symbol_attrs():
            if "__lr_mult__" in attrs:
                self.lr_mult[name] = float(attrs["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Per-parameter wd multipliers: 0 unless _weight/_gamma, then attrs, then these."""
        self.wd_mult = {}
        for name in self.idx2name.values():
            if not (name.endswith("_weight") or name.endswith("_gamma")):
                self.wd_mult[name] = 0.0
        for name, attrs in self._symbol_attrs():
            if "__wd_mult__" in attrs:
                self.wd_mult[name] = float(attrs["__wd_mult__"])
        self.wd_mult.update(args_wd_mult)

    def _symbol_attrs(self):
        """(argument name, its attrs) for every argument of ``sym`` that has attributes."""
        if not self.sym_info:
            return []
        attr_dict, arg_names = self.sym_info
        return [(name, attr_dict[name]) for name in arg_names if name in attr_dict]

    # --- update counts and per-index rates ----------------------------------------------------
    def _set_current_context(self, device_id):
        """Keep separate update counts per device (one device here: cpu(0))."""
        self._index_update_count = self._all_index_update_counts.setdefault(device_id, {})

    def _update_count(self, index):
        """Count one more update of ``index`` (int or list); ``num_update`` is the max count."""
        for idx in index if isinstance(index, (list, tuple)) else [index]:
            count = self._index_update_count.get(idx, self.begin_num_update) + 1
            self._index_update_count[idx] = count
            self.num_update = max(count, self.num_update)

    def _get_lrs(self, indices):
        """The learning rate of each index: global rate times its lr_mult."""
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        return [lr * self._multiplier(index, self.lr_mult, "lr_mult") for index in indices]

    def _get_lr(self, index):
        """The learning rate of one index."""
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        """The weight decay of each index: ``wd`` times its wd_mult."""
        return [self.wd * self._multiplier(index, self.wd_mult, "wd_mult") for index in indices]

    def _get_wd(self, index):
        """The weight decay of one index."""
        return self._get_wds([index])[0]

    def _multiplier(self, index, mults, attr):
        """A multiplier looked up by the index itself, then by the index's name (default 1)."""
        if index in self.param_dict:
            return getattr(self.param_dict[index], attr)
        if index in mults:
            return mults[index]
        if index in self.idx2name:
            return mults.get(self.idx2name[index], 1.0)
        return 1.0

    # --- states and updates ------------------------------------------------------------------
    def create_state(self, index, weight):
        """The extra state kept for one weight (None for plain SGD)."""
        return None

    def create_state_multi_precision(self, index, weight):
        """``create_state``, plus a float32 master copy of a float16 weight (multi_precision)."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (master,) + (self.create_state(index, master),)
        if weight.dtype == np.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or "
                          "slow convergence. Consider using multi_precision=True option of the "
                          "optimizer", stacklevel=2)
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Update the NDArray ``weight`` in place from ``grad`` and ``state``."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, going through the float32 master copy for float16 weights."""
        if self.multi_precision and weight.dtype == np.float16:
            master, inner_state = state
            self.update(index, master, grad.astype(np.float32), inner_state)
            weight[:] = master.asnumpy().astype(weight.dtype)
        else:
            self.update(index, weight, grad, state)

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["param_dict"]
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}


register = Optimizer.register
create = Optimizer.create_optimizer


def _rescaled(grad, rescale_grad, clip_gradient, weight=None, wd=0.0):
    """rescale_grad * grad (+ wd * weight), then clipped to [-c, c] when ``clip_gradient`` > 0."""
    g = rescale_grad * grad._data
    if weight is not None:
        g = g + wd * weight._data
    if clip_gradient and clip_gradient >= 0:
        g = np.clip(g, -clip_gradient, clip_gradient)
    return g


@register
class SGD(Optimizer):
    """SGD: ``state = momentum*state - lr*(g + wd*w); w += state`` (state starts at 0)."""

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))

    def create_state(self, index, weight):
        """The momentum buffer (zeros like ``weight``), or None without momentum."""
        if self.momentum == 0.0:
            return None
        return zeros(weight.shape, weight.context, dtype=weight.dtype)

    def create_state_multi_precision(self, index, weight):
        """``create_state``; under multi_precision, (state, float32 master copy) for float16."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)
        if weight.dtype == np.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or "
                          "slow convergence. Consider using multi_precision=True option of the "
                          "SGD optimizer", stacklevel=2)
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """One SGD step on ``weight`` (or on lists of indices, weights, grads and states)."""
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, through float32 master copies for float16 weights under multi_precision."""
        first = weight[0] if isinstance(index, (list, tuple)) else weight
        self._update_impl(index, weight, grad, state,
                          multi_precision=self.multi_precision and first.dtype == np.float16)

    def _update_impl(self, indices, weights, grads, states, multi_precision):
        if not isinstance(indices, (list, tuple)):
            indices, weights, grads, states = [indices], [weights], [grads], [states]
        for weight, grad in zip(weights, grads):
            assert isinstance(weight, NDArray) and isinstance(grad, NDArray), \
                "SGD updates NDArrays: weight and grad must be NDArray"
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
            if multi_precision:
                momentum, master = state
                self._step(master, grad.astype(np.float32), momentum, lr, wd)
                weight[:] = master.asnumpy().astype(weight.dtype)
            else:
                self._step(weight, grad, state, lr, wd)

    def _step(self, weight, grad, momentum, lr, wd):
        g = _rescaled(grad, self.rescale_grad, self.clip_gradient)
        if momentum is None:
            weight[:] = (1 - lr * wd) * weight._data - lr * g
        else:
            mom = self.momentum if self.momentum > 0 else 0.0
            momentum[:] = mom * momentum._data - lr * wd * weight._data - lr * g
            weight[:] = weight._data + momentum._data


@register
class Adam(Optimizer):
    """Adam, bias correction folded into the rate: lr_t = lr * sqrt(1-beta2^t) / (1-beta1^t)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        """(mean, variance), both zeros like ``weight``."""
        return (zeros(weight.shape, weight.context, dtype=weight.dtype),
                zeros(weight.shape, weight.context, dtype=weight.dtype))

    def update(self, index, weight, grad, state):
        """One Adam step on ``weight``; t is this index's own update count."""
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray), \
            "Adam updates NDArrays: weight and grad must be NDArray"
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        lr *= math.sqrt(1. - self.beta2 ** t) / (1. - self.beta1 ** t)
        mean, var = state
        g = _rescaled(grad, self.rescale_grad, self.clip_gradient, weight, wd)
        mean[:] = self.beta1 * mean._data + (1. - self.beta1) * g
        var[:] = self.beta2 * var._data + (1. - self.beta2) * g * g
        weight[:] = weight._data - lr * mean._data / (np.sqrt(var._data) + self.epsilon)


class Updater:
    """``updater(index, grad, weight)``: what Module calls; keeps one optimizer state per index."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        """Update ``weight`` (or a list) in place, creating each index's state on first use."""
        if isinstance(index, (list, tuple)):
            indices, grads, weights = list(index), list(grad), list(weight)
        else:
            indices, grads, weights = [index], [grad], [weight]
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        for idx, w in zip(indices, weights):
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, w)
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                self.states_synced[idx] = True  # one device: nothing to move
        if self.aggregate_updates:
            self._update_aggregated(indices, weights, grads)
        else:
            for idx, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(idx, w, g, self.states[idx])

    def _update_aggregated(self, indices, weights, grads):
        """Update in groups of ``aggregate_num`` weights of one dtype, as MXNet's SGD does."""
        by_dtype = {}
        for item in zip(indices, weights, grads):
            by_dtype.setdefault(item[1].dtype, []).append(item)
        size = self.optimizer.aggregate_num
        for items in by_dtype.values():
            for start in range(0, len(items), size):
                idxs, ws, gs = zip(*items[start:start + size])
                self.optimizer.update_multi_precision(
                    list(idxs), list(ws), list(gs), [self.states[i] for i in idxs])

    def set_states(self, states):
        """Restore the states (and maybe the optimizer) written by ``get_states``. The bytes
        are parsed, never unpickled (``minisym.optimizer_states``)."""
        from . import optimizer_states
        states, optimizer = optimizer_states.loads(states)
        self.states = states
        if optimizer is not None:
            self.optimizer = optimizer
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """The states as bytes (with the optimizer too if ``dump_optimizer``). MXNet pickles
        them; minisym writes arrays and a JSON layout that loading only parses."""
        from . import optimizer_states
        return optimizer_states.dumps(self.states, self.optimizer if dump_optimizer else None)


def get_updater(optimizer):
    """The Updater that applies ``optimizer`` and keeps its states."""
    return Updater(optimizer)
