"""Every built-in operator, one class each (importing the families registers them)."""
from . import (  # noqa: F401
    activation,
    argmax,
    custom,
    deconvolution,
    elemwise,
    image,
    indexing,
    layout,
    loss,
    matmul,
    nn,
    norm,
    proposal,
    roi,
    spatial,
    spatial_transformer,
    tensor,
    values,
)
from .registry import Operator, all_ops, functions, get_op, register

__all__ = ["Operator", "all_ops", "functions", "get_op", "register"]
