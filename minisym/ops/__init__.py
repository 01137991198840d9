"""Every built-in operator, one class each (importing the families registers them)."""
from . import custom, elemwise, loss, nn, tensor  # noqa: F401  (registration on import)
from .registry import Operator, all_ops, functions, get_op, register

__all__ = ["Operator", "all_ops", "functions", "get_op", "register"]
