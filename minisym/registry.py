"""Name registries behind ``mx.init.create`` and ``mx.metric.create`` (MXNet's ``mxnet.registry``).

A ``Registry`` maps lower-case names to subclasses of one base class. Its ``register``, ``alias``
and ``create`` are what a module exports; ``nickname`` ('initializer', 'metric') words their
messages and is the keyword ``create`` reads when no positional argument is given.
"""

import json
import warnings

__all__ = ["Registry"]


class Registry:
    """Subclasses of ``base`` by lower-case name, created from names, JSON, dicts or instances."""

    def __init__(self, base, nickname):
        self.base = base
        self.nickname = nickname
        self.classes = {}

    def register(self, klass, name=None):
        """Make ``klass`` creatable by ``name`` (default: its class name), lower-cased."""
        assert isinstance(klass, type) and issubclass(klass, self.base), (
            f"Can only register subclass of {self.base.__name__}"
        )
        name = (name or klass.__name__).lower()
        if name in self.classes:
            old = self.classes[name]
            warnings.warn(
                f"New {self.nickname} {klass.__module__}.{klass.__name__} registered "
                f"with name {name} is overriding existing {self.nickname} "
                f"{old.__module__}.{old.__name__}",
                UserWarning,
                stacklevel=2,
            )
        self.classes[name] = klass
        return klass

    def alias(self, *aliases):
        """Decorator: also register the class under each of ``aliases``."""

        def register_aliases(klass):
            for name in aliases:
                self.register(klass, name)
            return klass

        return register_aliases

    def create(self, *args, **kwargs):
        """An instance from a registered name, a JSON string, a config dict or an instance."""
        if args:
            spec, args = args[0], args[1:]
        else:
            spec = kwargs.pop(self.nickname)
        if isinstance(spec, self.base):
            assert not args and not kwargs, (
                f"{self.nickname} is already an instance. Additional arguments are invalid"
            )
            return spec
        if isinstance(spec, dict):
            return self.create(**spec)
        assert isinstance(spec, str), (
            f"{self.nickname} must be of string type, got {type(spec).__name__}"
        )
        if spec.startswith("["):
            assert not args and not kwargs
            name, params = json.loads(spec)
            return self.create(name, **params)
        if spec.startswith("{"):
            assert not args and not kwargs
            return self.create(**json.loads(spec))
        name = spec.lower()
        assert name in self.classes, (
            f"{name} is not registered. Please register with "
            f"{self.nickname}.register first "
            f"(known: {sorted(self.classes)})"
        )
        return self.classes[name](*args, **kwargs)
