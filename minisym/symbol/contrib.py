"""``mx.sym.contrib`` / ``mx.symbol.contrib``: the operators MXNet registers as
``_contrib_<Name>`` (``Proposal``, ``MultiProposal``, ...), without the prefix, as in MXNet."""

from ..ops.operator_base import namespace_functions
from .creation import make_function


def _install(namespace):
    """One ``mx.sym.contrib.<Name>`` function per ``_contrib_<Name>`` operator."""
    for short_name, fn in namespace_functions("contrib").items():
        function = make_function(fn)
        function.__name__ = function.__qualname__ = short_name  # MXNet's __name__: 'Proposal'
        namespace[short_name] = function


_install(globals())

__all__ = sorted(namespace_functions("contrib"))
