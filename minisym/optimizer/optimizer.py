"""The ``Optimizer`` base class of ``mx.optimizer``, its registry, and the gradient preprocessing
every optimizer shares.

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
docstrings say.

Optimizers whose MXNet class calls a fused kernel (``sgd_mom_update``, ``adam_update``,
``rmsprop_update``, ...) clip only when ``clip_gradient`` > 0. Those whose MXNet class computes in
Python (AdaGrad, AdaDelta, Adamax, Nadam, SGLD) clip whenever it is not None, as
``mx.nd.clip(g, -c, c)`` does: ``clip_gradient=0`` zeroes the gradient there.
"""

import os
import sys
import warnings

import numpy as np

from ..arrays.ndarray import NDArray
from ..ndarray import zeros

__all__ = ["Optimizer", "register", "create", "zeros_like"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def learner_warning(message):
    """A UserWarning shown at the learner's line: the first caller outside minisym (Module,
    the Updater and the optimizer itself may stand between)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


class Optimizer:
    """Base class: learning rate, weight decay, gradient rescaling and clipping, update counts."""

    opt_registry = {}

    def __init__(
        self,
        rescale_grad=1.0,
        param_idx2name=None,
        wd=0.0,
        clip_gradient=None,
        learning_rate=None,
        lr_scheduler=None,
        sym=None,
        begin_num_update=0,
        multi_precision=False,
        param_dict=None,
    ):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None:
            if lr_scheduler.base_lr != learning_rate:
                # MXNet prints this warning (to stdout) rather than raising or warning it.
                print(
                    UserWarning(
                        "learning rate from ``lr_scheduler`` has been "
                        "overwritten by ``learning_rate`` in optimizer."
                    )
                )
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
        assert isinstance(param_idx2name, dict), (
            "param_idx2name should be a dict of param indexes to names."
        )
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
            warnings.warn(
                f"WARNING: New optimizer {klass.__module__}.{klass.__name__} is "
                f"overriding existing optimizer {old.__module__}.{old.__name__}",
                stacklevel=2,
            )
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An optimizer by (case-insensitive) name: ``create_optimizer('sgd', momentum=0.9)``."""
        if name.lower() in Optimizer.opt_registry:
            return Optimizer.opt_registry[name.lower()](**kwargs)
        import difflib

        close = difflib.get_close_matches(name.lower(), sorted(Optimizer.opt_registry), n=1)
        hint = f". Did you mean {close[0]!r}?" if close else ""
        raise ValueError(
            f"Cannot find optimizer {name} "
            f"(registered: {', '.join(sorted(Optimizer.opt_registry))}){hint}"
        )

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
            raise UserWarning(
                "LRScheduler of the optimizer has already been defined. Note that "
                "set_learning_rate can mutate the value of the learning rate of the "
                "optimizer only when the LRScheduler of the optimizer is undefined."
            )
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
            learner_warning(
                "Accumulating with float16 in optimizer can lead to poor accuracy "
                "or slow convergence. Consider using multi_precision=True option of "
                "the optimizer"
            )
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Update the NDArray ``weight`` in place from ``grad`` and ``state``."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, going through the float32 master copy for float16 weights."""
        if isinstance(index, (list, tuple)):  # an aggregated call (the Updater's, for LAMB)
            if not (self.multi_precision and weight[0].dtype == np.float16):
                self.update(index, weight, grad, state)
                return
            for one in zip(index, weight, grad, state):
                self.update_multi_precision(*one)
            return
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


def rescaled(grad, rescale_grad, clip_gradient, weight=None, wd=0.0):
    """rescale_grad * grad (+ wd * weight), then clipped to [-c, c] when ``clip_gradient`` > 0."""
    g = rescale_grad * grad._data
    if weight is not None:
        g = g + wd * weight._data
    return fused_clip(g, clip_gradient)


def fused_clip(g, clip_gradient):
    """``g`` clipped to [-c, c] as MXNet's fused kernels do: only when c > 0."""
    if clip_gradient and clip_gradient >= 0:
        return np.clip(g, -clip_gradient, clip_gradient)
    return g


def python_clip(g, clip_gradient):
    """``mx.nd.clip(g, -c, c)`` whenever c is not None (c <= 0 too: 0 zeroes ``g``)."""
    if clip_gradient is None:
        return g
    low, high = -clip_gradient, clip_gradient
    # mx.nd.clip tests the upper bound first, which matters only when low > high (c < 0)
    return np.where(g > high, high, np.where(g < low, low, g)).astype(g.dtype, copy=False)


def zeros_like(weight, dtype="same"):
    """A state buffer of zeros with ``weight``'s shape (and dtype, unless one is given)."""
    return zeros(weight.shape, weight.context, dtype=weight.dtype if dtype == "same" else dtype)


def check_ndarrays(name, weight, grad):
    """AssertionError (MXNet's type) unless ``weight`` and ``grad`` are NDArrays."""
    assert isinstance(weight, NDArray) and isinstance(grad, NDArray), (
        f"{name}.update takes NDArrays: weight is {type(weight).__name__}, grad is "
        f"{type(grad).__name__} (wrap NumPy values in mx.nd.array(...))"
    )


def scalars(weight, *values):
    """``values`` as scalars of ``weight``'s dtype: a fused kernel computes in that type."""
    kind = weight._data.dtype.type
    return tuple(kind(v) for v in values)
