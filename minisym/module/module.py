"""``mx.mod.Module``: a symbol bound to one executor per context (``executor_group.py``), with
parameters, an optimizer and data batches. Which arrays get gradients follows MXNet:
parameters always (unless fixed), data only with ``inputs_need_grad``, labels never."""

import errno
import logging
import os
import sys
import warnings

import numpy as np

from .. import ndarray as nd
from .. import optimizer as opt
from .. import optimizer_states
from ..base import MXNetOSError, MXNetValueError
from ..context import cpu
from ..fileio import read_bytes, write_atomically
from ..initializer import InitDesc, Mixed, NoPatternError, Uniform
from ..io import DataDesc
from ..model import _load_checkpoint, split_param_name
from ..optimizer import Optimizer
from .base_module import BaseModule
from .executor_group import ExecutorGroup, check_contexts, check_work_load_list

__all__ = ["Module"]

_PARAM_SUFFIXES = ("_weight", "_bias", "_gamma", "_beta")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _warn(msg):
    """A UserWarning shown at the learner's line: the first caller outside minisym."""
    frame, level = sys._getframe(1), 2  # stacklevel 2 is _warn's caller
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(msg, UserWarning, stacklevel=level)


def _input_candidates(symbol):
    """The arguments whose names do not end like a parameter's: the likely data and labels."""
    return [a for a in symbol.list_arguments() if not a.endswith(_PARAM_SUFFIXES)]


def _check_input_names(symbol, names, typename, throw):
    """Every name in ``names`` must be an argument of ``symbol`` (labels only warn)."""
    args = symbol.list_arguments()
    for name in names:
        if name in args:
            continue
        candidates = "\n\t".join(_input_candidates(symbol))
        if throw:
            raise ValueError(
                f"You created Module with Module(..., {typename}_names="
                f"{list(names)}) but input with name '{name}' is not found in "
                f"symbol.list_arguments(). Did you mean one of:\n\t{candidates}"
            )
        # MXNet's text, colour codes included (the differential tests compare it exactly)
        _warn(
            f"\033[91mYou created Module with Module(..., {typename}_names={names}) but input "
            f"with name '{name}' is not found in symbol.list_arguments(). Did you mean one "
            f"of:\n\t{candidates}\033[0m"
        )


def _descs(names, shapes, kind):
    """DataDesc list from ``[(name, shape)]`` or DataDesc, checked against ``names``: data that
    do not match raise, labels only warn (as in MXNet); None stays None."""
    if shapes is not None and (
        not isinstance(shapes, (list, tuple))
        or not all(
            isinstance(s, DataDesc)
            or (isinstance(s, (list, tuple)) and len(s) == 2 and isinstance(s[0], str))
            for s in shapes
        )
    ):
        raise TypeError(
            f"{kind}_shapes is a list of (name, shape) pairs, e.g. {kind}_shapes="
            f"[({(names or [kind])[0]!r}, (32, 784))] (or an iterator's provide_"
            f"{kind}); got {shapes!r}"
        )
    descs = (
        None if shapes is None else [s if isinstance(s, DataDesc) else DataDesc(*s) for s in shapes]
    )
    given = [d.name for d in descs or []]
    if sorted(given) == sorted(names):
        return descs
    if kind == "data":
        raise ValueError(
            f"Data provided by data_shapes don't match names specified by "
            f"data_names ({given} vs. {list(names)})"
        )
    _warn(
        f"Data provided by {kind}_shapes don't match names specified by {kind}_names "
        f"({descs or []} vs. {names})"
    )
    return descs


_NUMBERS = (
    "learning_rate",
    "wd",
    "momentum",
    "rescale_grad",
    "clip_gradient",
    "beta1",
    "beta2",
    "epsilon",
    "eps",
    "gamma1",
    "gamma2",
    "rho",
    "lamda1",
    "beta",
    "wd_lh",
    "schedule_decay",
    "clip_weights",
    "lower_bound",
    "upper_bound",
)


def _check_optimizer_params(name, params):
    """optimizer_params names what the optimizer takes, and its rates are numbers (MXNet fails
    with Optimizer.__init__()'s TypeError, or later inside the update)."""
    import difflib
    import inspect
    import numbers

    cls = Optimizer.opt_registry.get(name.lower())
    if cls is None:
        Optimizer.create_optimizer(name)  # its ValueError lists the optimizers that exist
    known = {
        p.name
        for klass in cls.__mro__
        if "__init__" in vars(klass)
        for p in inspect.signature(klass.__init__).parameters.values()
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    } - {"self", "sym", "param_idx2name", "param_dict"}
    for key, value in params.items():
        if key not in known:
            close = (
                ["learning_rate"]
                if key.lower() in ("lr", "learningrate", "rate")
                else difflib.get_close_matches(key, sorted(known), n=1)
            )
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise TypeError(
                f"Module.init_optimizer: optimizer_params has {key!r}, which the "
                f"{cls.__name__} optimizer does not take.{hint} It takes: "
                f"{', '.join(sorted(known))}"
            )
        is_number = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if key in _NUMBERS and value is not None and not is_number:
            raise TypeError(
                f"Module.init_optimizer: optimizer_params {key}={value!r} must be a "
                f"number, e.g. ('{key}', 0.1)"
            )


class _LocalKVStore:
    """What MXNet's KVStore (``type`` 'local', 'device') is to a Module over several contexts:
    it holds the updater that steps each parameter (``update_on_kvstore``);
    ``ExecutorGroup.update`` sums the contexts' gradients and copies the result back."""

    rank, num_workers = 0, 1

    def __init__(self, kv_type, updater):
        self.type = kv_type
        self._updater = updater


# what bind sets before the executor exists, put back when making it fails
_BIND_STATE = ("for_training", "inputs_need_grad", "_grad_req", "_data_shapes", "_label_shapes")


class _NotGiven(RuntimeError):
    """A parameter missing from the arg_params given (MXNet: RuntimeError 'x is not presented')."""


class Module(BaseModule):
    """Train and run ``symbol``: bind, init_params, init_optimizer, forward, backward, update."""

    def __init__(
        self,
        symbol,
        data_names=("data",),
        label_names=("softmax_label",),
        logger=logging,
        context=None,
        work_load_list=None,
        fixed_param_names=None,
        state_names=None,
        group2ctxs=None,
        compression_params=None,
    ):
        super().__init__(logger=logger)
        self._context = check_contexts(context if context is not None else cpu())
        self._work_load_list = check_work_load_list(self._context, work_load_list)
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        self._data_names = list(data_names or [])
        self._label_names = list(label_names or [])
        self._state_names = list(state_names or [])
        self._fixed_param_names = list(fixed_param_names or [])
        _check_input_names(symbol, self._data_names, "data", True)
        _check_input_names(symbol, self._label_names, "label", False)
        _check_input_names(symbol, self._state_names, "state", True)
        _check_input_names(symbol, self._fixed_param_names, "fixed_param", True)
        inputs = self._data_names + self._label_names + self._state_names
        self._param_names = [a for a in symbol.list_arguments() if a not in inputs]
        self._aux_names = symbol.list_auxiliary_states()
        self._output_names = symbol.list_outputs()
        self._arg_params = self._aux_params = None
        self._params_dirty = False
        self._optimizer = self._updater = None
        self._compression_params = compression_params
        self._kvstore = self._update_on_kvstore = None  # decided by init_optimizer
        self._exec_group = None
        self._data_shapes = self._label_shapes = None
        self._grad_req = None

    # --- names and shapes ------------------------------------------------------------------
    data_names = property(lambda self: self._data_names)
    label_names = property(lambda self: self._label_names)
    output_names = property(lambda self: self._output_names)

    @property
    def data_shapes(self):
        """``[DataDesc]`` of the data inputs, as bound."""
        assert self.binded
        return self._data_shapes

    @property
    def label_shapes(self):
        """``[DataDesc]`` of the labels, as bound (None without labels)."""
        assert self.binded
        return self._label_shapes

    @property
    def output_shapes(self):
        """``[(output name, shape)]``."""
        assert self.binded
        return self._exec_group.output_shapes(self._output_names)

    @property
    def executor(self):
        """The first context's executor (the only one on one context), or None before bind."""
        return self._exec_group.execs[0] if self._exec_group is not None else None

    # --- binding -----------------------------------------------------------------------------
    def bind(
        self,
        data_shapes,
        label_shapes=None,
        for_training=True,
        inputs_need_grad=False,
        force_rebind=False,
        shared_module=None,
        grad_req="write",
    ):
        """Allocate the executor for these data / label shapes. A bind that fails (a shape
        that does not fit the network) leaves the module as it was, bound or not."""
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if not for_training and inputs_need_grad:
            raise AssertionError("inputs_need_grad=True needs for_training=True")
        before = {name: getattr(self, name) for name in _BIND_STATE}
        try:
            self.for_training = for_training
            self.inputs_need_grad = inputs_need_grad
            self._grad_req = grad_req
            self._data_shapes = _descs(self._data_names, data_shapes, "data")
            self._label_shapes = _descs(self._label_names, label_shapes, "label")
            self._check_label_shapes_are_arguments()
            executor = self._make_executor()
        except BaseException:
            vars(self).update(before)
            raise
        if self.binded and self.params_initialized and self._params_dirty:
            self._sync_params_from_devices()  # what the old executor trained is kept
        self._exec_group = executor
        if self.params_initialized:
            self._exec_group.copy_params_from(self._arg_params, self._aux_params)
        else:
            self._arg_params = {n: self.executor.arg_dict[n].copy() * 0 for n in self._param_names}
            self._aux_params = {n: self.executor.aux_dict[n].copy() * 0 for n in self._aux_names}
        self.binded = True

    def _check_label_shapes_are_arguments(self):
        """A label shape must name an argument of the symbol (MXNet: a bare KeyError)."""
        args = self._symbol.list_arguments()
        for desc in self._label_shapes or []:
            if desc.name in args:
                continue
            inputs = _input_candidates(self._symbol)
            labels = [a for a in inputs if a.endswith("label") and a not in self._data_names]
            hint = (
                f" Name it after the symbol's label: label_shapes=[({labels[0]!r}, "
                f"{tuple(desc.shape)})] with label_names={labels[:1]} (an NDArrayIter "
                f"names its label with label_name={labels[0]!r}, its default)."
                if labels
                else ""
            )
            raise KeyError(
                f"Module.bind: label_shapes gives {desc.name!r}, which is not an "
                f"argument of the symbol (its inputs: {', '.join(inputs)}).{hint}"
            )

    def _grad_reqs(self):
        """grad_req per argument: bind's (a str, or a dict by name) for the parameters not
        fixed and, with inputs_need_grad, the data; "null" for the rest and when not training."""
        reqs = dict.fromkeys(self._symbol.list_arguments(), "null")
        if not self.for_training:
            return reqs
        learned = [n for n in self._param_names if n not in self._fixed_param_names]
        if self.inputs_need_grad:
            learned += self._data_names
        given = self._grad_req
        for name in learned:
            reqs[name] = given.get(name, "null") if isinstance(given, dict) else given
        return reqs

    def _make_executor(self):
        """One executor per context for its slice of the batch, with Module's grad_reqs."""
        return ExecutorGroup(
            self._symbol,
            self._context,
            self._work_load_list,
            self._data_shapes,
            self._label_shapes,
            self._grad_reqs(),
            self._group2ctxs,
            param_names=self._param_names,
            for_training=self.for_training,
            inputs_need_grad=self.inputs_need_grad,
            fixed_param_names=self._fixed_param_names,
            state_names=self._state_names,
        )

    def reshape(self, data_shapes, label_shapes=None, _caller="Module.reshape"):
        """Rebind for new data shapes, keeping the parameters. A shape that would change a
        parameter's (a new feature size) raises, and the module stays as it was."""
        assert self.binded, f"{_caller}: the module is not bound yet: call bind(...) first"
        data_descs = _descs(self._data_names, data_shapes, "data")
        label_descs = _descs(self._label_names, label_shapes, "label")
        reshaped = self._exec_group.reshape(data_descs, label_descs, _caller)
        self._check_parameter_shapes_kept(reshaped.execs[0], data_descs, _caller)
        self._exec_group = reshaped
        self._data_shapes, self._label_shapes = data_descs, label_descs

    def _check_parameter_shapes_kept(self, reshaped, data_descs, caller):
        """New data shapes may change the batch size, never a parameter's shape (MXNet: 'Shape
        of unspecified arg: fc1_weight changed')."""
        names = self._symbol.list_arguments() + self._symbol.list_auxiliary_states()
        old = dict(zip(names, self.executor.arg_arrays + self.executor.aux_arrays))
        new = dict(zip(names, reshaped.arg_arrays + reshaped.aux_arrays))
        changed = [n for n in self._param_names + self._aux_names if old[n].shape != new[n].shape]
        if not changed:
            return
        name = changed[0]
        bound = ", ".join(f"{d.name!r} {tuple(d.shape)}" for d in self._data_shapes)
        given = ", ".join(f"{d.name!r} {tuple(d.shape)}" for d in data_descs)
        others = f" (and {', '.join(map(repr, changed[1:]))})" if changed[1:] else ""
        raise MXNetValueError(
            f"{caller}: the data has shape {given}, but the module was bound for {bound}: with "
            f"it the parameter {name!r} would need the shape {tuple(new[name].shape)} instead of "
            f"its {tuple(old[name].shape)}{others}, and its values would be lost. Only the "
            "batch size may change from batch to batch: check the data (every example needs the "
            "same size as when you bound), or bind a new Module for the new size. The module is "
            "unchanged."
        )

    # --- parameters ----------------------------------------------------------------------------
    def init_params(
        self,
        initializer=None,
        arg_params=None,
        aux_params=None,
        allow_missing=False,
        force_init=False,
        allow_extra=False,
        _caller="Module.init_params",
    ):
        """Fill parameters with ``initializer`` (Uniform(0.01) by default) or given values."""
        if self.params_initialized and not force_init:
            warnings.warn(
                "Parameters already initialized and force_init=False. init_params call ignored.",
                stacklevel=2,
            )
            return
        assert self.binded, "call bind before initializing the parameters"
        initializer = Uniform(0.01) if initializer is None else initializer
        if not callable(initializer):
            raise TypeError(
                f"Module.init_params: initializer must be an mx.init.Initializer such as "
                f"mx.init.Xavier(), got the {type(initializer).__name__} {initializer!r}"
                + (
                    f" (write initializer=mx.init.create({initializer!r}))"
                    if isinstance(initializer, str)
                    else ""
                )
            )
        self._check_given_shapes(arg_params, aux_params, _caller)
        attrs = self._symbol.attr_dict()
        # a failure half-way (an initializer that does not cover a name) leaves the values
        # the module had: they are put back
        backup = self._parameter_values() if self.params_initialized else None
        try:
            for params, given in ((self._arg_params, arg_params), (self._aux_params, aux_params)):
                for name, arr in sorted(params.items()):
                    desc = InitDesc(name, attrs.get(name))
                    try:
                        self._init_one(desc, arr, given, initializer, allow_missing)
                    except (NoPatternError, _NotGiven) as exc:
                        self._explain_uninitialized(name, exc)
        except BaseException:
            if backup is not None:
                for params in (self._arg_params, self._aux_params):
                    for name, arr in params.items():
                        arr[:] = backup[name]
            raise
        self.params_initialized = True
        self._params_dirty = False
        self._exec_group.copy_params_from(
            self._arg_params, self._aux_params, allow_extra_params=allow_extra
        )

    def _parameter_values(self):
        """{name: copy of the values} of every parameter and auxiliary state."""
        arg_params, aux_params = self.get_params()
        return {
            n: a.asnumpy().copy() for params in (arg_params, aux_params) for n, a in params.items()
        }

    def _check_given_shapes(self, arg_params, aux_params, caller="Module.set_params"):
        """Every given value of a parameter has its shape (checked before anything is copied,
        so that a wrong one leaves the module as it was)."""
        for kind, given, own in (
            ("arg_params", arg_params, self._arg_params),
            ("aux_params", aux_params, self._aux_params),
        ):
            for name, value in (given or {}).items():
                if name not in own or not hasattr(value, "shape"):
                    continue
                if tuple(value.shape) != tuple(own[name].shape):
                    raise MXNetValueError(
                        f"{caller}: {kind}[{name!r}] has shape {tuple(value.shape)}, but the "
                        f"module's {name!r} has shape {tuple(own[name].shape)} (bound for data "
                        + ", ".join(f"{d.name!r} {tuple(d.shape)}" for d in self._data_shapes)
                        + "). Give a value of that shape, e.g. from a checkpoint of this same "
                        "network; nothing was changed."
                    )

    @staticmethod
    def _init_one(desc, arr, cache, initializer, allow_missing):
        """Fill ``arr`` from ``cache`` (given values) when it has the name, else initialize it."""
        if cache is None:
            initializer(desc, arr)
        elif desc in cache:
            if cache[desc] is not arr:
                arr[:] = np.asarray(cache[desc]).astype(arr.dtype)
        elif not allow_missing:
            raise _NotGiven(f"{desc} is not presented")
        elif initializer is not None:
            initializer(desc, arr)

    def _explain_uninitialized(self, name, exc):
        """Re-raise ``exc`` as MXNet's type (ValueError from the initializer, RuntimeError for a
        value missing from the given params) saying why ``name`` got no value."""
        kind = "arg" if name in self._arg_params else "aux"
        error = RuntimeError if isinstance(exc, _NotGiven) else ValueError
        if isinstance(exc, _NotGiven):
            why = f"the {kind}_params given have no value for it (and allow_missing=False)"
        elif isinstance(exc.initializer, Mixed):
            why = "no pattern of the Mixed initializer matches it"
        else:
            why = (
                f"{type(exc.initializer).__name__} fills only names ending in weight, bias, "
                "gamma, beta, min or max, and Variables made with an init= argument"
            )
        if kind == "aux" or name.endswith(_PARAM_SUFFIXES):  # a real parameter, not an input
            if not isinstance(exc, _NotGiven):
                raise exc
            raise error(
                f"{exc}: {why}; give it, or pass allow_missing=True to let the initializer fill it"
            ) from None
        raise error(
            f"Module.init_params: the symbol's argument {name!r} is in neither "
            f"data_names={self._data_names} nor label_names={self._label_names}, so "
            f"Module took it for a parameter to learn, and nothing gives it a value: "
            f"{why}.\n{self._likely_input_fix(name)}"
        ) from None

    def _likely_input_fix(self, name):
        """'It is probably a label input: did you mean label_names=[...]?' and what to do."""
        args = self._symbol.list_arguments()
        unclaimed = [a for a in self._param_names if not a.endswith(_PARAM_SUFFIXES)]
        missing = [n for n in self._label_names if n not in args]
        has_label_like = any(a.endswith("label") for a in unclaimed)

        def role(arg):
            return "label" if arg.endswith("label") or (missing and not has_label_like) else "data"

        data = self._data_names + [a for a in unclaimed if role(a) == "data"]
        labels = [n for n in self._label_names if n in args] + [
            a for a in unclaimed if role(a) == "label"
        ]
        fix = f"label_names={labels}" if role(name) == "label" else f"data_names={data}"
        text = f"It is probably a {role(name)} input: did you mean {fix}?"
        if missing:
            text += (
                f" label_names={self._label_names} names {', '.join(map(repr, missing))}, "
                f"which the symbol does not have (its inputs: "
                f"{', '.join(_input_candidates(self._symbol))})."
            )
        return text + (
            f"\nCreate the Module again: mx.mod.Module(symbol, data_names={data}, "
            f"label_names={labels})."
        )

    def set_params(
        self, arg_params, aux_params, allow_missing=False, force_init=True, allow_extra=False
    ):
        """Copy given parameter values in."""
        if not allow_missing:
            self.init_params(
                initializer=None,
                arg_params=arg_params,
                aux_params=aux_params,
                allow_missing=allow_missing,
                force_init=force_init,
                allow_extra=allow_extra,
                _caller="Module.set_params",
            )
            return
        if self.params_initialized and not force_init:
            warnings.warn(
                "Parameters already initialized and force_init=False. set_params call ignored.",
                stacklevel=2,
            )
            return
        self._check_given_shapes(arg_params, aux_params)
        self._exec_group.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def get_params(self):
        """``(arg_params, aux_params)``: copies of the current values."""
        assert self.params_initialized
        if self._params_dirty:
            self._sync_params_from_devices()
        return self._arg_params, self._aux_params

    def _sync_params_from_devices(self):
        """Copy the executor's current parameter values into the arg / aux dicts."""
        for name in self._param_names:
            self._arg_params[name][:] = self._exec_group.mean_over_contexts(name)
        for name in self._aux_names:
            self._aux_params[name][:] = self._exec_group.mean_over_contexts(name, aux=True)
        self._params_dirty = False

    def save_params(self, fname):
        """Save ``arg:``/``aux:`` parameters in MXNet's .params format."""
        arg_params, aux_params = self.get_params()
        save = {f"arg:{k}": v for k, v in arg_params.items()}
        save.update({f"aux:{k}": v for k, v in aux_params.items()})
        nd.save(fname, save)

    def load_params(self, fname):
        """Load parameters saved by ``save_params`` (or by MXNet)."""
        arg_params, aux_params = {}, {}
        loaded = nd.load(fname)
        if not isinstance(loaded, dict):
            # MXNet: "'list' object has no attribute 'items'"; same type, clearer text
            raise AttributeError(
                f"Module.load_params: {fname} holds a list of arrays without "
                "names; parameters need names like 'arg:fc1_weight' (write "
                "them with Module.save_params or save_checkpoint)"
            )
        for key, value in loaded.items():
            kind, name = split_param_name(key, fname)
            (arg_params if kind == "arg" else aux_params)[name] = value
        self.set_params(arg_params, aux_params)

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False, remove_amp_cast=True):
        """Write ``prefix-symbol.json``, ``prefix-%04d.params`` and, with ``save_optimizer_states``,
        the optimizer's states (momentum, ...) in ``prefix-%04d.states``."""
        self._symbol.save(f"{prefix}-symbol.json")
        param_name = f"{prefix}-{epoch:04d}.params"
        self.save_params(param_name)
        logging.info('Saved checkpoint to "%s"', param_name)
        if save_optimizer_states:
            state_name = f"{prefix}-{epoch:04d}.states"
            self.save_optimizer_states(state_name)
            logging.info('Saved optimizer state to "%s"', state_name)

    # The states file Module.load(..., load_optimizer_states=True) named: init_optimizer reads it.
    _preload_opt_states = None

    @staticmethod
    def load(prefix, epoch, load_optimizer_states=False, **kwargs):
        """A Module with the symbol and parameters of a checkpoint; with
        ``load_optimizer_states``, ``init_optimizer`` then restores ``prefix-%04d.states``."""
        sym, args, auxs = _load_checkpoint(prefix, epoch, "Module.load")
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params, mod._aux_params = args, auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = "%s-%04d.states" % (prefix, epoch)
        return mod

    def save_optimizer_states(self, fname):
        """Write the optimizer's states (one per parameter: momentum, Adam's moments, ...) to
        ``fname`` in MXNet's format, which MXNet's ``load_optimizer_states`` reads too."""
        self._assert_optimizer_ready("save_optimizer_states")
        write_atomically(fname, self._stepper().get_states(), "Module.save_optimizer_states")

    def load_optimizer_states(self, fname):
        """Restore the states ``save_optimizer_states`` (minisym's or MXNet's) wrote; the file
        is parsed, never unpickled."""
        self._assert_optimizer_ready("load_optimizer_states")
        payload = read_bytes(fname, "Module.load_optimizer_states")
        states, _ = optimizer_states.loads(payload, where=f"Module.load_optimizer_states ({fname})")
        # the states the optimizer would create, by the updater's index (MXNet's i*devices+k)
        idx2name = dict(self._optimizer.idx2name or enumerate(self._param_names))
        # a kvstore keys its updater by name (several contexts): such a file loads too
        idx2name.update({n: n for n in self._param_names if n in states})
        expected = {
            i: self._optimizer.create_state_multi_precision(i, self._arg_params[n])
            for i, n in idx2name.items()
            if n in self._arg_params
        }
        optimizer_states.check_fit(states, expected, idx2name, self._optimizer, fname, _warn)
        self._stepper().set_loaded_states(states)

    def _assert_optimizer_ready(self, what):
        """AssertionError (MXNet's type) saying that ``what`` needs init_optimizer first."""
        if not self.optimizer_initialized:
            raise AssertionError(
                f"Module.{what} needs the optimizer: call mod.init_optimizer(optimizer='sgd', "
                "optimizer_params=(('learning_rate', 0.1), ('momentum', 0.9))) first (after "
                "bind and init_params), or mod.fit(...)"
            )

    # --- optimizer ---------------------------------------------------------------------------
    def init_optimizer(
        self,
        kvstore="local",
        optimizer="sgd",
        optimizer_params=(("learning_rate", 0.01),),
        force_init=False,
    ):
        """Create the optimizer; ``rescale_grad`` defaults to 1 / batch size, as in MXNet."""
        assert self.binded and self.params_initialized
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring...")
            return
        if self._params_dirty:
            self._sync_params_from_devices()
        rescale_grad = 1.0 / self._data_shapes[0].shape[0]
        idx2name = self._idx2name(self._make_kvstore(kvstore, None)[1])
        if isinstance(optimizer, str):
            params = dict(optimizer_params)
            _check_optimizer_params(optimizer, params)
            params.setdefault("rescale_grad", rescale_grad)
            optimizer = opt.create(optimizer, sym=self._symbol, param_idx2name=idx2name, **params)
        else:
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn(
                    "Optimizer created manually outside Module but rescale_grad is "
                    "not normalized to 1.0/batch_size/num_workers "
                    f"({optimizer.rescale_grad} vs. {rescale_grad}). Is this "
                    "intended?",
                    stacklevel=2,
                )
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        updater = opt.get_updater(optimizer)
        self._kvstore, self._update_on_kvstore = self._make_kvstore(kvstore, updater)
        self._updater = None if self._update_on_kvstore else updater
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self._load_preloaded_states()

    def _idx2name(self, on_kvstore):
        """The updater's keys: a parameter's index, or over n contexts without the kvstore
        updating ``index * n + context`` for each context (MXNet's init_optimizer)."""
        count = 1 if on_kvstore else len(self._context)
        return {
            i * count + k: name for k in range(count) for i, name in enumerate(self._param_names)
        }

    def _make_kvstore(self, kvstore, updater):
        """``(kvstore, update_on_kvstore)`` as MXNet's ``_create_kvstore`` decides them."""
        if len(self._context) == 1 or not isinstance(kvstore, str):
            return None, False
        on_kvstore = bool(int(os.environ.get("MXNET_UPDATE_ON_KVSTORE", "1")))
        return _LocalKVStore(kvstore, updater if on_kvstore else None), on_kvstore

    def _stepper(self):
        """The updater that steps the parameters: the Module's, or its kvstore's."""
        return self._updater if self._updater is not None else self._kvstore._updater

    def _load_preloaded_states(self):
        """Load the states Module.load(..., load_optimizer_states=True) named."""
        fname, self._preload_opt_states = self._preload_opt_states, None
        if not os.path.isfile(fname):
            raise MXNetOSError(
                f"Module.init_optimizer: Module.load(..., load_optimizer_states=True) asked for "
                f'the optimizer states "{fname}", which does not exist. Save them with '
                "mod.save_checkpoint(prefix, epoch, save_optimizer_states=True) (or "
                "mx.callback.module_checkpoint(mod, prefix, save_optimizer_states=True)), or "
                "load with load_optimizer_states=False to start the optimizer afresh",
                errno.ENOENT,
                fname,
            )
        self.load_optimizer_states(fname)

    # --- running -------------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Copy the batch in (rebinding if its shapes changed) and run forward."""
        self._assert_ready("forward")
        if not hasattr(data_batch, "data"):
            raise AttributeError(
                f"Module.forward takes a DataBatch, got {type(data_batch).__name__}: wrap the "
                "arrays in one, mod.forward(mx.io.DataBatch(data=[x], label=[y])), or iterate "
                "over an mx.io.NDArrayIter, whose batches are DataBatches"
            )
        new_shapes = tuple(tuple(d.shape) for d in data_batch.data)
        if new_shapes != tuple(tuple(d.shape) for d in self._data_shapes):
            self._reshape_for(data_batch, new_shapes)
        self._exec_group.forward(
            data_batch,
            self.for_training if is_train is None else is_train,
            self._data_names,
            self._label_names,
        )

    def _reshape_for(self, data_batch, new_shapes):
        """Rebind for a batch whose data shapes differ from the bound ones."""
        data = getattr(data_batch, "provide_data", None) or [
            DataDesc(d.name, s, d.dtype, d.layout) for d, s in zip(self._data_shapes, new_shapes)
        ]
        label = getattr(data_batch, "provide_label", None)
        if not label and getattr(data_batch, "label", None) and self._label_shapes:
            label = [
                DataDesc(d.name, tuple(a.shape), d.dtype, d.layout)
                for d, a in zip(self._label_shapes, data_batch.label)
            ]
        if not label and self._label_shapes:
            label = self._labels_following(data)  # a batch without labels (inference)
        self.reshape(data, label or self._label_shapes, _caller="Module.forward")

    def _labels_following(self, data):
        """The bound label descs with the shapes the new data implies (a new batch size)."""
        try:
            arg_shapes, _, _ = self._symbol.infer_shape_partial(
                **{d.name: tuple(d.shape) for d in data}
            )
        except Exception:  # noqa: BLE001 -- the reshape that follows says what is wrong
            return self._label_shapes
        inferred = dict(zip(self._symbol.list_arguments(), arg_shapes or []))
        return [
            DataDesc(d.name, tuple(inferred[d.name]), d.dtype, d.layout)
            if inferred.get(d.name) and all(inferred[d.name])
            else d
            for d in self._label_shapes
        ]

    def _assert_ready(self, what, optimizer=False):
        """AssertionError (MXNet's type) naming the step that is missing before ``what``."""
        steps = [
            ("bind", self.binded, "mod.bind(data_shapes=..., label_shapes=...)"),
            ("init_params", self.params_initialized, "mod.init_params()"),
            (
                "init_optimizer",
                self.optimizer_initialized or not optimizer,
                "mod.init_optimizer(optimizer='sgd', optimizer_params=(('learning_rate', 0.1),))",
            ),
        ]
        missing = [(step, call) for step, done, call in steps if not done]
        if missing:
            calls = "; then ".join(call for _, call in missing)
            raise AssertionError(
                f"Module.{what}: call {missing[0][0]} first: {calls} (or "
                "mod.fit(...), which does every step)"
            )

    def backward(self, out_grads=None):
        """Backward through the executor (head gradients only for non-loss outputs)."""
        self._assert_ready("backward")
        if not self.for_training:
            raise AssertionError("backward needs a module bound with for_training=True")
        self._exec_group.backward(out_grads=out_grads)

    def update(self):
        """One optimizer step on every parameter that has a gradient."""
        self._assert_ready("update", optimizer=True)
        self._params_dirty = True
        self._exec_group.update(
            self._stepper(),
            self._param_names,
            kvstore=self._kvstore is not None,
            on_kvstore=self._update_on_kvstore,
        )

    def get_outputs(self, merge_multi_context=True):
        """The outputs of the last forward, merged over the contexts (``[[per context]]``
        with ``merge_multi_context=False``)."""
        assert self.binded and self.params_initialized
        return self._exec_group.get_outputs(merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (needs ``inputs_need_grad=True`` at bind)."""
        assert self.binded and self.params_initialized and self.inputs_need_grad
        return self._exec_group.get_input_grads(self._data_names, merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Feed each context's outputs and its slice of ``labels`` to ``eval_metric``
        (``pre_sliced``: ``labels`` is already one list per context)."""
        self._exec_group.update_metric(
            eval_metric, labels, pre_sliced, self._label_names, self._output_names
        )

    def install_monitor(self, mon):
        """Watch the executor with ``mon`` (an mx.mon.Monitor)."""
        assert self.binded
        self._exec_group.install_monitor(mon)
