"""``mx.contrib.sym`` / ``mx.contrib.symbol`` and ``mx.contrib.nd`` / ``mx.contrib.ndarray``:
MXNet's other names for ``mx.sym.contrib`` and ``mx.nd.contrib`` (``mx.contrib.sym.Proposal``).
Here they are the very same modules."""

from .ndarray import contrib as ndarray
from .symbol import contrib as symbol

sym = symbol
nd = ndarray

__all__ = ["sym", "symbol", "nd", "ndarray"]
