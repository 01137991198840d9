"""A fingerprint of what a check relies on, to tell whether code under test changed it.

A student's code runs in the same process as the check that grades it, so it could rebind
``Check.assert_passed``, ``numpy.allclose`` or a module in ``sys.modules``. The grader takes a
snapshot before the student's code runs and compares after the check: a function, class or module
of a watched package (or a method of one of its classes) rebound or deleted, a watched module
replaced in ``sys.modules``, or a value of the checks' own modules changed (their recorded tables)
voids the verdict. Data of other packages may change as code runs (counters, caches), and new
attributes are allowed (importing a submodule adds one)."""

import importlib
import pkgutil
import sys
import types

WATCHED = (
    "numpy",
    "minisym",
    "minisym_widgets",
    "importlib",
    "builtins",
    "sys",
    "os",
    "json",
    "math",
    "functools",
    "operator",
    "types",
    "inspect",
    "IPython",
    "traitlets",
)
CHECKS = "minisym_widgets.exercises"


EAGER = ("numpy", "numpy.testing", "numpy.linalg", "minisym", "minisym_widgets.exercises")


def import_watched():
    """Import what a check may use, before the snapshot: a module first imported by the
    student's code would have nothing to be compared with (the checks import minisym lazily)."""
    for name in EAGER:
        module = importlib.import_module(name)
        if name.startswith("minisym"):
            for found in pkgutil.walk_packages(module.__path__, name + "."):
                try:
                    importlib.import_module(found.name)
                except ImportError:  # mx.gluon says why it is not there
                    pass


def _under(name, roots):
    return any(name == root or name.startswith(root + ".") for root in roots)


def _fingerprint(value, whole):
    """id() of a callable, class or module; for ``whole`` namespaces (the checks') a data
    value's repr too; None for data that is free to change."""
    if isinstance(value, types.FunctionType):  # its code or defaults can be swapped in place
        return (id(value), id(value.__code__), id(value.__defaults__), id(value.__kwdefaults__))
    if callable(value) or isinstance(value, (type, types.ModuleType)):
        return id(value)
    if whole:
        return (id(value), repr(value)[:2000])
    return None


def _namespaces():
    """(label, namespace dict, whether all of it is watched) per watched module and class."""
    for name, module in list(sys.modules.items()):
        if not _under(name, WATCHED) or not isinstance(module, types.ModuleType):
            continue
        whole = _under(name, (CHECKS,))
        namespace = vars(module)
        yield name, namespace, whole
        for attribute, value in list(namespace.items()):
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                yield f"{name}.{attribute}", vars(value), whole


def snapshot():
    """What a check relies on now: {label: {attribute: fingerprint}}, and sys.modules."""
    held = {
        "sys.modules": {
            name: id(module) for name, module in list(sys.modules.items()) if _under(name, WATCHED)
        }
    }
    for label, namespace, whole in _namespaces():
        prints = {key: _fingerprint(value, whole) for key, value in list(namespace.items())}
        held[label] = {key: mark for key, mark in prints.items() if mark is not None}
    return held


def changed(held):
    """'<namespace>.<attribute>' rebound, changed or deleted since ``held``: the first of each
    namespace, at most eight."""
    now = snapshot()
    found = []
    for label, before in held.items():
        after = now.get(label, {})
        found += [f"{label}.{key}" for key, mark in before.items() if after.get(key) != mark][:1]
    return found[:8]
