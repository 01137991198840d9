"""``mx.mod``: the Module API that trains and runs a symbol (on one context or several)."""

from . import progress
from .base_module import BaseModule, BatchEndParam
from .module import Module

__all__ = ["BaseModule", "Module", "BatchEndParam", "progress"]
