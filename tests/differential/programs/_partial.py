"""What the partial-inference programs (p550-p557) share: both inference calls on one symbol."""
from _common import _builtin_name


def inferred(mx, sym, **shapes):
    """{"partial": ..., "full": ...}: what ``infer_shape_partial`` and ``infer_shape`` give for
    ``shapes`` (by keyword, 0 = unknown size), each as named shapes, None for MXNet's
    ``(None, None, None)``, or the category of the exception raised."""
    return {"partial": _named(mx, sym, sym.infer_shape_partial, shapes),
            "full": _named(mx, sym, sym.infer_shape, shapes)}


def _named(mx, sym, fn, shapes):
    """``fn(**shapes)`` as {"arguments": {name: shape}, "outputs": [...], "aux": {...}}."""
    try:
        args, outs, aux = fn(**shapes)
    except Exception as e:  # noqa: BLE001 - the category is the point
        return {"raised": "MXNetError" if isinstance(e, mx.base.MXNetError) else _builtin_name(e)}
    if args is None:
        return None
    return {"arguments": dict(zip(sym.list_arguments(), args)), "outputs": outs,
            "aux": dict(zip(sym.list_auxiliary_states(), aux))}
