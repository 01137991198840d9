"""minisym: a small, readable engine that behaves like MXNet 1.9.1's symbolic API.

import minisym as mx
data = mx.sym.Variable('data')
fc = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')
fc.list_arguments()            # ['data', 'fc1_weight', 'fc1_bias']
"""

from . import (
    attribute,
    autograd,
    base,
    callback,
    contrib,
    initializer,
    io,
    lifecycle,
    lr_scheduler,
    metric,
    model,
    module,
    monitor,
    name,
    ndarray,
    operator,
    optimizer,
    random,
    recordio,
    symbol,
    symbol_doc,
    test_utils,
    tracebacks,
    util,
    visualization,
)
from .attribute import AttrScope
from .base import MistakeWarning, MXNetError
from .context import Context, cpu, current_context, gpu
from .util import is_np_shape, np_shape, set_np_shape, use_np_shape

tracebacks.install()  # in IPython / Jupyter: tracebacks without the engine's own frames

sym = symbol
nd = ndarray
mod = module
mon = monitor
init = initializer
viz = visualization

__version__ = "0.1.0"


def __getattr__(name):
    """``mx.gluon``: say why it is not here and what to use instead."""
    if name == "gluon":
        import importlib

        try:
            importlib.import_module(".gluon", __name__)  # always raises, saying why
        except ImportError as exc:
            raise AttributeError(str(exc)) from None
    raise AttributeError(f"module 'minisym' has no attribute {name!r}")


__all__ = [
    "sym",
    "symbol",
    "nd",
    "ndarray",
    "mod",
    "module",
    "mon",
    "monitor",
    "init",
    "initializer",
    "viz",
    "visualization",
    "io",
    "model",
    "metric",
    "optimizer",
    "lr_scheduler",
    "callback",
    "operator",
    "name",
    "attribute",
    "base",
    "random",
    "lifecycle",
    "test_utils",
    "autograd",
    "recordio",
    "contrib",
    "AttrScope",
    "MXNetError",
    "MistakeWarning",
    "util",
    "np_shape",
    "is_np_shape",
    "set_np_shape",
    "use_np_shape",
    "Context",
    "cpu",
    "gpu",
    "current_context",
    "symbol_doc",
]
