"""The engine's random numbers: one NumPy generator, reset by ``mx.random.seed``.

Dropout masks, ``mx.nd.random.*`` and the initializers all draw from ``generator()``, so the
same seed gives the same results twice (they cannot match MXNet's bit for bit).
"""

import numpy as np

__all__ = ["seed", "generator"]

_state = {"generator": np.random.default_rng(0)}


def seed(seed_state, ctx="all"):
    """Reset the random state: ``mx.random.seed(42)`` makes what follows repeatable."""
    if not isinstance(seed_state, (int, np.integer)):
        raise ValueError(f"seed_state must be an int, got {type(seed_state).__name__}")
    _state["generator"] = np.random.default_rng(int(seed_state))


def generator():
    """The current numpy Generator."""
    return _state["generator"]


def __getattr__(name):
    """``mx.random.uniform`` / ``normal`` are ``mx.nd.random``'s, as in MXNet (imported late:
    the arrays draw from this module's generator)."""
    if name in ("uniform", "normal"):
        # deferred: mx.nd.random is a front end, and it draws from this module's generator
        from .ndarray import random as nd_random

        return getattr(nd_random, name)
    raise AttributeError(f"module 'mx.random' has no attribute {name!r}")
