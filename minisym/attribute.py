"""Attribute scopes: ``with mx.AttrScope(ctx_group='dev1'):`` tags every symbol made inside."""

import threading

__all__ = ["AttrScope", "current"]


class AttrScope:
    """Attributes (strings) merged into every Variable and operator created inside the block."""

    _current = threading.local()

    def __init__(self, **kwargs):
        self._old_scope = None
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError(
                    f"Attributes need to be string: AttrScope got {key}={value!r} "
                    f"({type(value).__name__}); pass {key}={str(value)!r}"
                )
        self._attr = kwargs

    def get(self, attr):
        """The scope's attributes updated with ``attr`` (explicit ones win)."""
        merged = dict(self._attr)
        merged.update(attr or {})
        return merged

    def __enter__(self):
        self._old_scope = current()
        merged = dict(self._old_scope._attr)
        merged.update(self._attr)
        self._attr = merged
        AttrScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        AttrScope._current.value = self._old_scope


def current():
    """The AttrScope in force in this thread."""
    if not hasattr(AttrScope._current, "value"):
        AttrScope._current.value = AttrScope()
    return AttrScope._current.value
