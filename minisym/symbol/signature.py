"""How ``mx.sym.<op>(...)`` and ``mx.nd.<op>(...)`` take their arguments.

As MXNet 1.9.1's generated functions: first every input the operator can have, then its
parameters in their documented order, then ``name, attr, out`` (``out, name`` for ``mx.nd``).
So ``Dropout(data, 0.5)`` sets ``p``, ``Convolution(x, w, None, no_bias=True)`` leaves the bias
out, and a variadic operator (``Concat``, ``Custom``) takes ``(*data, **kwargs)``.
"""

import functools
import inspect

from ..arrays.ndarray import NDArray
from .symbol import Symbol

__all__ = [
    "CallSignature",
    "BoundCall",
    "signature_of",
    "call_inputs",
    "call_params",
    "short_repr",
    "ordinal",
]


class _NullType:
    """MXNet's ``_Null``: a parameter you left out, so the operator's default applies."""

    def __repr__(self):
        return "_Null"


_Null = _NullType()


def call_inputs(op_cls):
    """Every input ``mx.sym.<op>`` takes before its parameters, in order: the operator's
    ``call_inputs`` when it declares them, else its inputs under the default parameters
    (Convolution: data, weight, bias; ``no_bias=True`` only leaves the bias unused)."""
    declared = op_cls.call_inputs
    if declared is not None:
        return tuple(declared)
    return _default_inputs(op_cls)


@functools.lru_cache(maxsize=None)
def _default_inputs(op_cls):
    probe = object.__new__(op_cls)  # no parsing: required parameters have no value yet
    probe.attrs, probe.node_name = {}, None
    for key, param in op_cls.params.items():
        setattr(probe, key, None if param.required else param.default)
    return tuple(probe.list_arguments() + probe.list_auxiliary_states())


def call_params(op_cls):
    """The parameters in positional order (``make_loss`` takes none by position)."""
    declared = op_cls.call_params
    return tuple(op_cls.params if declared is None else declared)


def ordinal(index):
    """0 -> '1st', 1 -> '2nd', 2 -> '3rd', 3 -> '4th', ... (for the learner's positions)."""
    n = index + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def short_repr(value):
    """A value as an error message shows it: Symbols and NDArrays by name and shape."""
    if isinstance(value, Symbol):
        return f"<Symbol {value.name}>"
    if isinstance(value, NDArray):
        return f"<NDArray {'x'.join(map(str, value.shape))}>"
    if type(value).__module__ == "numpy" and hasattr(value, "shape") and value.shape:
        return f"numpy.ndarray of shape {tuple(value.shape)}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class BoundCall:
    """One call bound to its signature: the inputs (by slot), how each arrived, the
    parameters, and ``name`` / ``attr`` / ``out``."""

    def __init__(self):
        self.inputs = {}  # slot -> value, in the order the slots were filled
        self.how = {}  # slot -> ('position', i) or ('keyword', slot)
        self.positional = []  # a variadic operator's inputs, in order
        self.params = {}  # parameter -> value (only those given)
        self.name = self.attr = self.out = None


class CallSignature:
    """The positional order of one operator function, and how a call binds to it."""

    def __init__(self, fn, imperative=False):
        op_cls = fn.op_cls
        self.fn = fn
        self.prefix = "mx.nd" if imperative else "mx.sym"
        self.kind = "NDArray" if imperative else "Symbol"
        self.variadic = op_cls.key_var_num_args is not None or op_cls.inputs_by_position_or_name
        self.inputs = () if self.variadic else call_inputs(op_cls)
        self.params = () if self.variadic else call_params(op_cls)
        self.tail = ("out", "name") if imperative else ("name", "attr", "out")

    @property
    def where(self):
        """``mx.sym.Dropout``."""
        return f"{self.prefix}.{self.fn.func_name}"

    def python_signature(self):
        """The ``inspect.Signature`` MXNet's generated function has (``help()`` shows it)."""
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        if self.variadic:
            return inspect.Signature(
                [
                    inspect.Parameter("data", inspect.Parameter.VAR_POSITIONAL),
                    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
                ]
            )
        parameters = [inspect.Parameter(n, kind, default=None) for n in self.inputs]
        parameters += [inspect.Parameter(n, kind, default=_Null) for n in self.params]
        parameters += [inspect.Parameter(n, kind, default=None) for n in self.tail]
        parameters.append(inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD))
        return inspect.Signature(parameters)

    def order_text(self):
        """'the input data, then the parameters p, mode, axes, cudnn_off, then name, attr, out'."""
        parts = []
        if self.inputs:
            word = "input" if len(self.inputs) == 1 else "inputs"
            parts.append(f"the {word} {', '.join(self.inputs)}")
        if self.params:
            word = "parameter" if len(self.params) == 1 else "parameters"
            parts.append(f"the {word} {', '.join(self.params)}")
        parts.append(", ".join(self.tail))
        return ", then ".join(parts)

    def bind(self, args, kwargs, is_array):
        """A BoundCall for ``fn(*args, **kwargs)``; ``is_array(v)`` tells an input (a Symbol,
        or an NDArray for mx.nd) from a parameter among keywords not in the signature."""
        call = BoundCall()
        by_position = {}
        if self.variadic:
            call.positional = list(args)
        else:
            by_position = self._bind_positions(call, args)
        for key, value in kwargs.items():
            if key in by_position:
                raise TypeError(self._twice_message(key, by_position[key], value))
            if key in self.inputs or key in self.params or key in self.tail:
                self._put(call, key, value, ("keyword", key))
            elif is_array(value):
                call.inputs[key] = value
                call.how[key] = ("keyword", key)
            else:
                call.params[key] = value
        return call

    def _bind_positions(self, call, args):
        """Fill slots from ``args``; returns {slot: (position, value)}."""
        slots = self.inputs + self.params + self.tail
        if len(args) > len(slots):
            raise TypeError(self._too_many_message(args))
        for position, (slot, value) in enumerate(zip(slots, args)):
            self._put(call, slot, value, ("position", position))
        return {slot: (i, value) for i, (slot, value) in enumerate(zip(slots, args))}

    def _put(self, call, slot, value, how):
        if slot in self.inputs:
            if value is not None:  # None: an absent input, created for you (or an error)
                call.inputs[slot] = value
                call.how[slot] = how
        elif slot in self.params:
            if value is not _Null:
                call.params[slot] = value
        else:
            setattr(call, slot, value)

    def _too_many_message(self, args):
        slots = self.inputs + self.params + self.tail
        fname = self.fn.func_name
        given = ", ".join(f"{s}={short_repr(v)}" for s, v in zip(slots, args))
        extra = ", ".join(short_repr(v) for v in args[len(slots) :])
        example = ", ".join(list(self.inputs[:1]) + [f"{p}=..." for p in self.params[:2]])
        fix = (
            f"Give the parameters by keyword, e.g. {self.where}({example})"
            if self.params
            else f"{self.where} has no parameters to give by position"
        )
        return (
            f"{fname}() takes from 0 to {len(slots)} positional arguments but {len(args)} "
            f"were given. {self.where} takes, in this order: {self.order_text()}. "
            f"Yours fill {given}, and {extra} is left over. {fix}."
        )

    def _twice_message(self, key, first, value):
        position, first_value = first
        return (
            f"{self.fn.func_name}() got multiple values for argument '{key}': "
            f"{short_repr(first_value)} by position (the {ordinal(position)} argument) and "
            f"{short_repr(value)} by keyword. {self.where} takes, in this order: "
            f"{self.order_text()}. Give {key} once."
        )


@functools.lru_cache(maxsize=None)
def _cached(fn, imperative):
    return CallSignature(fn, imperative)


def signature_of(fn, imperative=False):
    """The CallSignature of operator function ``fn`` (an OpFunction), made once."""
    return _cached(fn, imperative)
