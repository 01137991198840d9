"""MXNet's fluent methods: ``x.sum(axis=1)`` is ``mx.sym.sum(x, axis=1)`` for a Symbol and
``mx.nd.sum(x, axis=1)`` for an NDArray.

The names are MXNet 1.9.1's (the "Convenience fluent method" lists of python/mxnet/symbol/
symbol.py and arrays/ndarray.py). A name becomes a method only when minisym's registry has
its operator: a missing operator is a missing method (AttributeError), never a stub.
"""

import inspect

from .ops.operator_base import functions

__all__ = ["FLUENT_NAMES", "install_fluent"]

FLUENT_NAMES = (
    "reshape reshape_like astype zeros_like ones_like broadcast_axes repeat pad swapaxes split "
    "slice slice_axis slice_like take one_hot pick sort topk argsort argmax argmax_channel argmin "
    "clip abs sign flatten shape_array size_array expand_dims broadcast_to broadcast_like tile "
    "transpose flip depth_to_space space_to_depth diag sum nansum prod nanprod mean max min norm "
    "round rint fix floor ceil trunc sin cos tan arcsin arccos arctan degrees radians sinh cosh "
    "tanh arcsinh arccosh arctanh exp expm1 log log10 log2 log1p sqrt rsqrt cbrt rcbrt square "
    "reciprocal relu sigmoid softmax log_softmax softmin squeeze"
).split()

_OPERATOR_OF = {"astype": "cast"}  # MXNet's Symbol.astype calls the cast operator
_INPLACE = ("flatten", "expand_dims", "squeeze")  # MXNet's `inplace` flag: a view for NDArray


def install_fluent(cls, function_for, kind):
    """Give ``cls`` (Symbol or NDArray) one method per fluent name whose operator is
    registered; ``function_for(fn)`` is the mx.sym / mx.nd function of an OpFunction.
    Methods ``cls`` already defines are kept."""
    registered = functions()
    for name in FLUENT_NAMES:
        fn = registered.get(_OPERATOR_OF.get(name, name))
        if fn is not None and name not in vars(cls):
            setattr(cls, name, _method(name, function_for(fn), kind))


def _method(name, function, kind):
    """``self.name(*args, **kwargs)`` = ``function(self, *args, **kwargs)``."""

    def method(self, *args, **kwargs):
        if name in _INPLACE:
            kwargs.pop("inplace", None)  # a Symbol has no memory to share
        return function(self, *args, **kwargs)

    prefix = "mx.sym" if kind == "Symbol" else "mx.nd"
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (
        f"Convenience fluent method for {prefix}.{function.__name__}: "
        f"x.{name}(...) is {prefix}.{function.__name__}(x, ...), with this "
        f"{kind} as its first input."
    )
    method.__signature__ = _self_first(inspect.signature(function))
    return method


def _self_first(signature):
    """The function's signature with its first input renamed ``self``."""
    parameters = list(signature.parameters.values())
    first = parameters[0].replace(name="self", default=inspect.Parameter.empty)
    return signature.replace(parameters=[first] + parameters[1:])
