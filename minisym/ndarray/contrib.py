"""``mx.nd.contrib`` / ``mx.ndarray.contrib``: the ``_contrib_<Name>`` operators run on
NDArrays right away (``mx.nd.contrib.Proposal(cls_prob, bbox_pred, im_info, ...)``)."""

from ..ops.operator_base import namespace_functions
from .imperative import imperative_function

__all__ = []


def install():
    """One ``mx.nd.contrib.<Name>`` function per ``_contrib_<Name>`` operator (called once
    every operator is registered, with the rest of ``mx.nd``)."""
    for short_name, fn in namespace_functions("contrib").items():
        function = imperative_function(fn)
        function.__name__ = function.__qualname__ = short_name
        globals()[short_name] = function
        if short_name not in __all__:
            __all__.append(short_name)
