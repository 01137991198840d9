"""minisym: a small, readable engine that behaves like MXNet 1.9.1's symbolic API.

    import minisym as mx
    data = mx.sym.Variable('data')
    fc = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')
    fc.list_arguments()            # ['data', 'fc1_weight', 'fc1_bias']
"""
from . import attribute, base, name, random
from . import module, monitor, ndarray, operator, symbol
from .attribute import AttrScope
from .base import MXNetError
from .context import Context, cpu, current_context, gpu
from . import io
from . import model
from . import visualization
from . import initializer, lr_scheduler, metric, optimizer

sym = symbol
ndarray._install_operators()
nd = ndarray
mon = monitor
viz = visualization
init = initializer
mod = module

__version__ = "0.1.0"

__all__ = ["sym", "symbol", "nd", "ndarray", "operator", "mon", "monitor", "name", "attribute", "base", "random", "AttrScope", "MXNetError", "Context",
           "cpu", "gpu", "current_context"]
