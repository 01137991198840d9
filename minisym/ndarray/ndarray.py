"""``mx.nd.ndarray``, MXNet's module path of the NDArray class (kept in minisym/arrays/)."""

from ..arrays.ndarray import *  # noqa: F403
from ..arrays.ndarray import __all__  # noqa: F401
