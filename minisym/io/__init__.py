"""``mx.io``: data iterators (MXNet's ``mxnet/io/``): the base classes and NDArrayIter in
``io.py``, the MNIST reader in ``mnist.py``, the wrappers of another iterator in
``wrappers.py``."""

from .io import CSVIter, DataBatch, DataDesc, DataIter, NDArrayIter
from .mnist import MNISTIter
from .wrappers import PrefetchingIter, ResizeIter

__all__ = [
    "DataDesc",
    "DataBatch",
    "DataIter",
    "NDArrayIter",
    "CSVIter",
    "ResizeIter",
    "PrefetchingIter",
    "MNISTIter",
]
