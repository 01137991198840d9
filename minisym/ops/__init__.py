"""Every built-in operator, one class each (importing the families registers them)."""
from . import activation, argmax, custom, elemwise, loss, nn, norm, spatial, tensor  # noqa: F401
from .registry import Operator, all_ops, functions, get_op, register

__all__ = ["Operator", "all_ops", "functions", "get_op", "register"]
