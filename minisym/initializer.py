"""``mx.init``: how parameters get their first values.

An initializer is called as ``init(InitDesc(name, attrs), arr)`` and fills ``arr`` in place.
What it writes depends on the parameter, in this order (as in MXNet 1.9.1):

1. the variable's ``__init__`` attribute (``mx.sym.Variable('w', init=mx.init.One())`` stores
   ``'["one", {}]'``): that initializer's ``_init_weight`` runs, whatever the name;
2. otherwise the name's suffix: ``weight`` gets the initializer's own values (Xavier, Uniform,
   ...), ``bias`` 0, ``gamma`` 1, ``beta`` 0, ``min`` 0, ``max`` 1; any other name is an error.

Random initializers draw from ``minisym.random.generator()``, so ``mx.random.seed`` makes them
repeatable (their values cannot match MXNet's bit for bit, only their statistics).
"""

import json
import logging
import re
import warnings

import numpy as np

from .arrays.ndarray import NDArray
from .random import generator
from .registry import Registry

__all__ = [
    "InitDesc",
    "Initializer",
    "NoPatternError",
    "register",
    "alias",
    "create",
    "Mixed",
    "Zero",
    "One",
    "Constant",
    "Uniform",
    "Normal",
    "Orthogonal",
    "Xavier",
    "MSRAPrelu",
    "Bilinear",
    "LSTMBias",
]


class NoPatternError(ValueError):
    """No rule of ``initializer`` covers this name (MXNet raises a plain ValueError here; the
    subclass lets ``Module.init_params`` tell this case from other errors and explain it)."""

    def __init__(self, message, initializer=None):
        super().__init__(message)
        self.initializer = initializer


class InitDesc(str):
    """A parameter's name (it *is* the str) with its symbol ``attrs`` and the ``global_init``."""

    def __new__(cls, name, attrs=None, global_init=None):
        desc = super().__new__(cls, name)
        desc.attrs = attrs or {}
        desc.global_init = global_init
        return desc


# The suffix rules of ``Initializer.__call__``, checked in this order with ``str.endswith``.
_SUFFIX_RULES = (
    ("weight", "_init_weight"),
    ("bias", "_init_bias"),
    ("gamma", "_init_gamma"),
    ("beta", "_init_beta"),
    ("min", "_init_zero"),
    ("max", "_init_one"),
)

# The older rules used when an initializer is called with a plain str instead of an InitDesc.
_LEGACY_SUFFIX_RULES = (
    ("bias", "_init_bias"),
    ("gamma", "_init_gamma"),
    ("beta", "_init_beta"),
    ("weight", "_init_weight"),
    ("moving_mean", "_init_zero"),
    ("moving_var", "_init_one"),
    ("moving_inv_var", "_init_zero"),
    ("moving_avg", "_init_zero"),
    ("min", "_init_zero"),
    ("max", "_init_one"),
)


class Initializer:
    """Base class: subclasses define ``_init_weight(name, arr)``; the rest follows the name."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Log every initialized array with ``print_func(arr)`` (default: its RMS value)."""
        self._verbose = verbose
        self._print_func = print_func or _root_mean_square
        return self

    def _verbose_print(self, desc, pattern, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, pattern, self._print_func(arr))

    def dumps(self):
        """The initializer as a JSON string: ``'["normal", {"sigma": 0.5}]'``."""
        return json.dumps([type(self).__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        """Fill the NDArray ``arr`` in place, as the InitDesc ``desc`` asks (see the module doc)."""
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get("__init__", "")
        if init:
            create(init)._init_weight(desc, arr)
            self._verbose_print(desc, init, arr)
            return
        for suffix, method in _SUFFIX_RULES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        self._init_default(desc, arr)

    def _legacy_init(self, name, arr):
        """``init('fc1_weight', arr)``: the pre-InitDesc rules (deprecated in MXNet too)."""
        warnings.warn(
            "Calling initializer with init(str, NDArray) has been deprecated. "
            "Please use init(mx.init.InitDesc(...), NDArray) instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        if not isinstance(name, str):
            raise TypeError(f"name must be string, got {type(name).__name__}")
        if not isinstance(arr, NDArray):
            raise TypeError(f"arr must be NDArray, got {type(arr).__name__}")
        if name.startswith("upsampling"):
            self._init_bilinear(name, arr)
        elif name.startswith("stn_loc") and name.endswith("weight"):
            self._init_zero(name, arr)
        elif name.startswith("stn_loc") and name.endswith("bias"):
            self._init_loc_bias(name, arr)
        else:
            for suffix, method in _LEGACY_SUFFIX_RULES:
                if name.endswith(suffix):
                    getattr(self, method)(name, arr)
                    return
            self._init_default(name, arr)

    # --- what each kind of parameter gets ----------------------------------------------------
    def _init_weight(self, name, arr):
        raise NotImplementedError(f"{type(self).__name__} must define _init_weight(name, arr)")

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    _init_bias = _init_zero
    _init_beta = _init_zero
    _init_gamma = _init_one

    def _init_bilinear(self, _, arr):
        arr[:] = _bilinear_kernel(arr.shape)

    def _init_loc_bias(self, _, arr):
        assert arr.shape[0] == 6, f"stn_loc bias needs 6 values, got shape {arr.shape}"
        arr[:] = np.array([1.0, 0, 0, 0, 1.0, 0])

    def _init_default(self, name, _):
        raise NoPatternError(
            f"Unknown initialization pattern for {name}. Default initialization is now limited "
            'to "weight", "bias", "gamma" (1.0), and "beta" (0.0). Please use '
            "mx.sym.Variable(init=mx.init.*) to set initialization pattern",
            self,
        )

    def __eq__(self, other):
        if not isinstance(other, Initializer):
            return NotImplemented
        return type(self) is type(other) and self._kwargs == other._kwargs

    __hash__ = object.__hash__


def _root_mean_square(arr):
    values = np.asarray(arr, dtype=np.float64)
    return str(np.sqrt(np.sum(values * values) / max(values.size, 1)))


def _bilinear_kernel(shape):
    """The upsampling filter of ``Bilinear``: each (y, x) of the last two axes weighted."""
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    x = np.arange(shape[3])
    y = np.arange(shape[2])[:, None]
    plane = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
    return np.broadcast_to(plane, shape).astype(np.float32)


# --- registry: mx.init.create('xavier') --------------------------------------------------------
_REGISTRY = Registry(Initializer, "initializer")
register = _REGISTRY.register
alias = _REGISTRY.alias
create = _REGISTRY.create


# --- the initializers --------------------------------------------------------------------------
class Mixed:
    """Use the first initializer whose regex pattern matches the name (``re.match``)."""

    def __init__(self, patterns, initializers):
        assert len(patterns) == len(initializers), "Mixed needs one initializer per pattern"
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        """Initialize ``arr`` with the initializer of the first pattern matching ``name``."""
        for pattern, init in self.map:
            if pattern.match(name):
                init(name, arr)
                return
        raise NoPatternError(
            f"Parameter name {name} did not match any pattern. Consider adding "
            'a ".*" pattern at the end with a default Initializer.',
            self,
        )


@register
@alias("zeros")
class Zero(Initializer):
    """Weights (and ``init=`` variables) get 0."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = 0


@register
@alias("ones")
class One(Initializer):
    """Weights (and ``init=`` variables) get 1."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = 1


@register
class Constant(Initializer):
    """Weights get ``value`` (a scalar, or an array that broadcasts to the weight's shape)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        arr[:] = self.value

    def dumps(self):
        """The initializer as JSON; an array ``value`` is written as nested lists."""
        value = self._kwargs["value"]
        if not np.isscalar(value):
            self._kwargs["value"] = np.asarray(value).tolist()
        return json.dumps([type(self).__name__.lower(), self._kwargs])


@register
class Uniform(Initializer):
    """Weights drawn from U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        arr[:] = generator().uniform(-self.scale, self.scale, arr.shape)


@register
class Normal(Initializer):
    """Weights drawn from N(0, sigma²)."""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        arr[:] = generator().normal(0.0, self.sigma, arr.shape)


@register
class Orthogonal(Initializer):
    """Weights (out, in...) with orthonormal rows or columns, times ``scale``."""

    def __init__(self, scale=1.414, rand_type="uniform"):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        nout, nin = arr.shape[0], int(np.prod(arr.shape[1:]))
        if self.rand_type == "uniform":
            draw = generator().uniform(-1.0, 1.0, (nout, nin))
        elif self.rand_type == "normal":
            draw = generator().normal(0.0, 1.0, (nout, nin))
        else:
            raise ValueError(
                f"Orthogonal rand_type must be 'uniform' or 'normal', got {self.rand_type!r}"
            )
        u, _, v = np.linalg.svd(draw, full_matrices=False)
        basis = u if u.shape == draw.shape else v
        arr[:] = self.scale * basis.reshape(arr.shape)


@register
class Xavier(Initializer):
    """Weights of shape (out, in, k...) with scale sqrt(magnitude / factor) (see xavier_factor)."""

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        scale = np.sqrt(self.magnitude / xavier_factor(arr.shape, self.factor_type, name))
        if self.rnd_type == "uniform":
            arr[:] = generator().uniform(-scale, scale, arr.shape)
        elif self.rnd_type == "gaussian":
            arr[:] = generator().normal(0.0, scale, arr.shape)
        else:
            raise ValueError(
                f"Unknown random type {self.rnd_type!r}: Xavier's rnd_type is "
                "'uniform' or 'gaussian'"
            )


def xavier_factor(shape, factor_type, name=""):
    """Xavier's divisor for ``shape``: (fan_in + fan_out) / 2 ("avg"), fan_in or fan_out."""
    if len(shape) < 2:
        raise ValueError(
            f"Xavier initializer cannot be applied to vector {name}. It requires at "
            f"least 2D (got shape {tuple(shape)}); give it init=mx.init.Zero() or "
            "another initializer"
        )
    receptive_field = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
    fan_in, fan_out = shape[1] * receptive_field, shape[0] * receptive_field
    factors = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}
    if factor_type not in factors:
        raise ValueError(f"Incorrect factor type {factor_type!r}: use 'avg', 'in' or 'out'")
    return factors[factor_type]


@register
class MSRAPrelu(Xavier):
    """Xavier('gaussian', factor_type, magnitude=2 / (1 + slope²)), for (P)ReLU networks."""

    def __init__(self, factor_type="avg", slope=0.25):
        super().__init__("gaussian", factor_type, 2.0 / (1 + slope**2))
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """Weights of shape (c_out, c_in, h, w) set to a bilinear upsampling filter."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = _bilinear_kernel(arr.shape)


@register
class LSTMBias(Initializer):
    """An LSTM bias (4 gates stacked): 0 except the forget gate (the second quarter)."""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        arr[:] = 0.0
        num_hidden = int(arr.shape[0] / 4)
        arr[num_hidden : 2 * num_hidden] = self.forget_bias
