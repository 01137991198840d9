"""``mx.mod``: the Module API that trains and runs a symbol (one device)."""
from . import progress
from .base_module import BaseModule, BatchEndParam
from .module import Module

__all__ = ["BaseModule", "Module", "BatchEndParam", "progress"]
