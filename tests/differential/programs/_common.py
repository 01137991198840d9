"""Utilities shared by the differential programs (imported as ``from _common import err``)."""


def err(mx, fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)`` and describe what happened, without any message text.

    Returns ``{"raised": "MXNetError"}`` for an ``mx.base.MXNetError`` (subclasses included),
    ``{"raised": <built-in class name>}`` for any other exception (``"ValueError"``,
    ``"TypeError"``, ``"IndexError"``, ...), or ``{"returned": None}`` if nothing was raised.
    """
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the category is the point
        if isinstance(e, mx.base.MXNetError):
            return {"raised": "MXNetError"}
        return {"raised": _builtin_name(e)}
    return {"returned": None}


def _builtin_name(e):
    """Name of the nearest built-in exception class of ``e``."""
    for cls in type(e).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(e).__name__


def dtype_name(t):
    """numpy type class (as returned by infer_type) -> 'float32'; None stays None."""
    import numpy as np
    return None if t is None else np.dtype(t).name


def types(res):
    """Convert an infer_type / infer_type_partial result into dtype names."""
    if res is None:
        return None
    return [None if part is None else [dtype_name(t) for t in part] for part in res]


def names(sym):
    """The four listings of a symbol, in one dict."""
    return {
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "auxiliary_states": sym.list_auxiliary_states(),
        "inputs": sym.list_inputs(),
    }


def node_ops(sym):
    """[(op, name, attrs-or-None)] of every node of ``sym``, read from its JSON."""
    import json
    return [[n["op"], n["name"], n.get("attrs")] for n in json.loads(sym.tojson())["nodes"]]

