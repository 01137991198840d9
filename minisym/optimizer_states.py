"""``Updater.get_states(dump_optimizer=True)`` / ``set_states`` without pickle: the optimizer's
states and the optimizer itself as bytes that loading only parses. (The states alone, as
``.states`` files hold them, are in MXNet's format: ``minisym.mxnet_states``.)

MXNet pickles the optimizer object, and unpickling runs whatever code the bytes name; these
bytes are an MXNet ``.params`` list (``mx.nd.save``'s format) holding every array, plus one
``uint8`` array ``__layout__`` with the JSON that says where each array goes::

    {"format": "minisym-updater-states", "version": 1, "states": <value>, "optimizer": <value>}

where a <value> is a JSON number, string, bool or null, or one of
``{"array": i}`` (the i-th array), ``{"tuple": [...]}``, ``{"list": [...]}``,
``{"dict": [[key, value], ...]}`` (keys keep their type: an int index stays an int) and
``{"object": "SGD", "attrs": <dict value>}`` for an optimizer or learning-rate scheduler of
minisym (only those classes are ever built, by name, and their ``__init__`` is not run).
"""

import json
import numbers

import numpy as np

from . import lr_scheduler
from .arrays.ndarray import NDArray
from .arrays.serialization import load_from_bytes, save_to_bytes
from .base import MXNetValueError
from .fileio import describe
from .mxnet_states import parse_states
from .optimizer import Optimizer

__all__ = ["dumps", "loads"]

FORMAT = "minisym-updater-states"
LAYOUT = "__layout__"


def dumps(states, optimizer=None):
    """The bytes of ``states`` ({index: state}) and, when given, ``optimizer``."""
    arrays = []
    layout = {
        "format": FORMAT,
        "version": 1,
        "states": _encode(states, arrays),
        "optimizer": None if optimizer is None else _encode(optimizer, arrays),
    }
    text = json.dumps(layout, allow_nan=True).encode("utf-8")
    named = {f"{i}": a for i, a in enumerate(arrays)}
    named[LAYOUT] = NDArray(np.frombuffer(text, dtype=np.uint8).copy())
    return save_to_bytes(named)


def loads(payload, where="Updater.set_states"):
    """``(states, optimizer or None)`` from the bytes ``dumps`` made, or from MXNet's pickled
    states (arrays only: read by ``minisym.mxnet_states`` without unpickling)."""
    if not isinstance(payload, (bytes, bytearray)):
        raise TypeError(
            f"{where} takes the bytes get_states() returned, got {type(payload).__name__}"
        )
    what = describe(bytes(payload[:16]))
    if what and "pickle" in what:
        return parse_states(payload, where), None
    named = load_from_bytes(bytes(payload), where)
    if not isinstance(named, dict) or LAYOUT not in named:
        raise MXNetValueError(
            f"{where}: these bytes hold no optimizer states (no "
            f"{LAYOUT!r} entry): give what Updater.get_states() or "
            "Module.save_optimizer_states wrote"
        )
    try:
        layout = json.loads(named[LAYOUT].asnumpy().tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise MXNetValueError("Updater.set_states: the states' layout is damaged") from None
    if not isinstance(layout, dict) or layout.get("format") != FORMAT:
        raise MXNetValueError("Updater.set_states: these bytes are not minisym updater states")
    arrays = [named.get(f"{i}") for i in range(len(named) - 1)]
    states = _decode(layout.get("states"), arrays)
    if not isinstance(states, dict):
        raise MXNetValueError("Updater.set_states: the states are not {index: state}")
    optimizer = layout.get("optimizer")
    return states, None if optimizer is None else _decode(optimizer, arrays)


def _encode(value, arrays):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value.item() if isinstance(value, np.generic) else value
    if isinstance(value, NDArray):
        arrays.append(value)
        return {"array": len(arrays) - 1}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v, arrays) for v in value]}
    if isinstance(value, list):
        return {"list": [_encode(v, arrays) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[_encode(k, arrays), _encode(v, arrays)] for k, v in value.items()]}
    cls = type(value)
    if cls in _classes().values():
        return {"object": cls.__name__, "attrs": _encode(dict(vars(value)), arrays)}
    raise TypeError(
        f"Updater.get_states: cannot save a {cls.__name__} (only numbers, "
        "strings, arrays, lists, tuples, dicts and minisym's optimizers and "
        "learning-rate schedulers)"
    )


def _decode(value, arrays):
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if not isinstance(value, dict) or len(value) not in (1, 2):
        raise MXNetValueError(f"Updater.set_states: a damaged entry {str(value)[:60]}")
    if "array" in value:
        index = value["array"]
        if not isinstance(index, int) or not 0 <= index < len(arrays) or arrays[index] is None:
            raise MXNetValueError(f"Updater.set_states: no array {index!r} in the states")
        return arrays[index]
    if "tuple" in value:
        return tuple(_decode(v, arrays) for v in _items(value["tuple"]))
    if "list" in value:
        return [_decode(v, arrays) for v in _items(value["list"])]
    if "dict" in value:
        pairs = [_items(p) for p in _items(value["dict"])]
        if any(len(p) != 2 for p in pairs):
            raise MXNetValueError("Updater.set_states: a damaged dict entry")
        return {_decode(k, arrays): _decode(v, arrays) for k, v in pairs}
    if "object" in value:
        cls = _classes().get(value["object"])
        if cls is None:
            raise MXNetValueError(
                f"Updater.set_states: {value['object']!r} is not an optimizer "
                "or scheduler of minisym"
            )
        attrs = _decode(value.get("attrs"), arrays)
        if not isinstance(attrs, dict) or not all(isinstance(k, str) for k in attrs):
            raise MXNetValueError("Updater.set_states: a damaged object entry")
        obj = cls.__new__(cls)
        obj.__dict__.update(attrs)
        return obj
    raise MXNetValueError(f"Updater.set_states: a damaged entry {str(value)[:60]}")


def _items(value):
    if not isinstance(value, list):
        raise MXNetValueError("Updater.set_states: a damaged entry (a list was expected)")
    return value


def _classes():
    """{class name: class} of the objects states may hold: optimizers and LR schedulers."""
    found = {c.__name__: c for c in Optimizer.opt_registry.values()}
    for name in dir(lr_scheduler):
        obj = getattr(lr_scheduler, name)
        if isinstance(obj, type) and issubclass(obj, lr_scheduler.LRScheduler):
            found[obj.__name__] = obj
    return found


def check_fit(states, expected, names, optimizer, fname, warn):
    """MXNetValueError unless every loaded state has the structure and shapes the optimizer
    would create for that parameter (``expected`` and ``names`` are by updater index; MXNet
    fails later, inside the update); ``warn`` (once per file) where one side has no state,
    which MXNet accepts silently."""
    name = type(optimizer).__name__
    unused, missing = [], []
    for index in states:
        if index not in expected:
            raise MXNetValueError(
                f"Module.load_optimizer_states ({fname}): the file has a state for parameter "
                f"index {index!r}, but this module has {len(expected)} parameters (indices "
                f"{_index_range(expected)}): were the states saved from a different network?"
            )
    for index, state in states.items():
        want, got = _structure(expected[index]), _structure(state)
        if got == want:
            continue
        if _kinds(got) == _kinds(want):
            raise MXNetValueError(
                f"Module.load_optimizer_states ({fname}): parameter {index} "
                f"({names[index]!r}) has a saved state of {_describe(got)}, but its weight "
                f"needs {_describe(want)}: were the states saved from a different network? "
                "Load the states saved with this network, or load with "
                "load_optimizer_states=False"
            )
        if want == ("none",):
            unused.append(names[index])
        elif got == ("none",):
            missing.append(names[index])
        else:
            raise MXNetValueError(
                f"Module.load_optimizer_states ({fname}): parameter {index} "
                f"({names[index]!r}) has a saved state of {_describe(got)}, but {name} keeps "
                f"{_describe(want)} for it. Initialize the optimizer the states were saved "
                "with (the same name and options, e.g. the same momentum or centered), or "
                "load with load_optimizer_states=False to start the optimizer afresh"
            )
    if unused:
        warn(
            f"Module.load_optimizer_states ({fname}): the saved states of {_names(unused)} "
            f"are not used: {name} keeps no state with these options (momentum=0?), so the "
            "saved momentum is dropped. Pass the options the states were saved with, e.g. "
            "optimizer_params=(('learning_rate', 0.1), ('momentum', 0.9))"
        )
    if missing:
        warn(
            f"Module.load_optimizer_states ({fname}): {_names(missing)} had no saved state "
            f"(saved without momentum?), and {name} keeps none for them from now on, as "
            "MXNet does: they train without momentum. To start a momentum afresh, load "
            "with load_optimizer_states=False"
        )


def _index_range(expected):
    indices = sorted(i for i in expected if isinstance(i, int))
    return f"0 to {indices[-1]}" if indices else "none"


def _names(names):
    shown = ", ".join(repr(n) for n in names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _structure(state):
    """None, a shape, or a tuple / list of structures: what a state looks like."""
    if isinstance(state, NDArray):
        return ("array", tuple(state.shape))
    if isinstance(state, (tuple, list)):
        return ("several", tuple(_structure(s) for s in state))
    return ("none" if state is None else type(state).__name__,)


def _kinds(structure):
    """``structure`` without its shapes."""
    if structure[0] == "array":
        return ("array",)
    if structure[0] == "several":
        return ("several", tuple(_kinds(s) for s in structure[1]))
    return structure


def _describe(structure):
    kind = structure[0]
    if kind == "array":
        return f"one array of shape {structure[1]}"
    if kind == "several":
        parts = structure[1]
        if not parts:
            return "an empty tuple"
        return f"{len(parts)} parts (" + "; ".join(_describe(p) for p in parts) + ")"
    return "no state (None)" if kind == "none" else f"a {kind}"
