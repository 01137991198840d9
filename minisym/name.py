"""Automatic naming of operators: ``fullyconnected0``, ``_plus1`` (MXNet's ``mx.name``)."""

import copy
import threading

__all__ = ["NameManager", "Prefix", "current"]


class NameManager:
    """Hands out ``hint + counter`` names; one counter per hint, starting at 0.

    ``with mx.name.NameManager():`` starts fresh counters for the block.
    """

    _current = threading.local()

    def __init__(self):
        self._counter = {}
        self._old_manager = None

    def get(self, name, hint):
        """Return ``name`` when given, else the next ``'%s%d' % (hint, counter)``."""
        if name:
            return name
        count = self._counter.get(hint, 0)
        self._counter[hint] = count + 1
        return f"{hint}{count}"

    def copy(self):
        """A manager of the same kind whose counters are a copy (not in MXNet: what a widget
        names a scratch symbol with, leaving your counters as they are)."""
        twin = copy.copy(self)
        twin._counter = dict(self._counter)
        twin._old_manager = None
        return twin

    def __enter__(self):
        self._old_manager = current()
        NameManager._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        NameManager._current.value = self._old_manager


class Prefix(NameManager):
    """A NameManager that puts ``prefix`` in front of every operator name, given or generated."""

    def __init__(self, prefix):
        super().__init__()
        self._prefix = prefix

    def get(self, name, hint):
        """``prefix`` + the name a NameManager gives."""
        return self._prefix + super().get(name, hint)


def current():
    """The NameManager in force in this thread."""
    if not hasattr(NameManager._current, "value"):
        NameManager._current.value = NameManager()
    return NameManager._current.value
