"""``mx.sym`` / ``mx.symbol``: Variable, Group, load, and one function per operator."""

from .. import ops as _ops
from ..fluent import install_fluent

# create_op is unused here but re-exported: mx.nd's imperative calls use sym.create_op.
from .creation import Group, Variable, create_op, make_function, var  # noqa: F401
from .overload import install_operators
from .symbol import Symbol, load, load_json

install_operators()


def _install_functions(namespace):
    """Put ``FullyConnected``, ``_Plus``, ... into ``namespace`` (and ``_internal``)."""
    for func_name, fn in _ops.functions().items():
        if fn.namespace is None:  # _contrib_X is mx.sym.contrib.X (symbol/contrib.py)
            namespace[func_name] = make_function(fn)


_install_functions(globals())
from . import contrib, dispatch  # noqa: E402,F401  (mx.sym.contrib.Proposal: after the functions)
from .dispatch import *  # noqa: E402,F403  (maximum, pow, zeros, ...: dispatch.__all__)

install_fluent(Symbol, make_function, "Symbol")  # x.sum(axis=1), x.flatten(), ... (MXNet's names)


def _split_v2_method(self, *args, **kwargs):
    """Convenience fluent method for mx.sym.split_v2: x.split_v2(2, axis=1)."""
    return dispatch.split_v2(self, *args, **kwargs)


Symbol.split_v2 = _split_v2_method


class _Internal:
    """``mx.sym._internal``: the underscore functions operator overloading uses."""


_internal = _Internal()
for _name, _value in list(globals().items()):
    if (
        _name.startswith("_")
        and callable(_value)
        and _name[1:2].isalpha()
        and _name in _ops.functions()
    ):
        setattr(_internal, _name, _value)

__all__ = (
    ["Symbol", "Variable", "var", "Group", "load", "load_json"]
    + dispatch.__all__
    + sorted(name for name in _ops.functions() if not name.startswith("_"))
)
