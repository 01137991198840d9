"""``assign(dst, req, src)``: the one way every operator writes a result, honouring ``req``.

``req`` says what the executor wants done with an output or gradient buffer:
``'null'`` skip it, ``'write'`` / ``'inplace'`` overwrite it, ``'add'`` accumulate into it.
``CustomOp.assign`` is this same function.
"""

from .base import MXNetValueError

__all__ = ["assign", "REQ_VALUES"]

REQ_VALUES = ("null", "write", "inplace", "add")


def assign(dst, req, src):
    """Write ``src`` into ``dst`` as ``req`` says (arrays or NDArrays; ``src`` may broadcast).

    A ``req`` that is none of REQ_VALUES raises (MXNet ignores it silently, so the output is
    never written); a ``src`` whose shape cannot be broadcast to ``dst``'s raises naming both,
    before anything is written."""
    if req == "null":
        return
    try:
        if req in ("write", "inplace"):
            dst[...] = src
        elif req == "add":
            dst[...] += src
        else:
            raise MXNetValueError(
                f"assign: req={req!r} is not one of {', '.join(map(repr, REQ_VALUES))}, so "
                f"nothing would be written into {_slot(dst)}. Pass the req the engine gave "
                "you for that array: self.assign(out_data[0], req[0], result) in forward, "
                "self.assign(in_grad[0], req[0], grad) in backward."
            )
    except ValueError as exc:
        if not _numpy_broadcast(exc):
            raise
        given = getattr(src, "shape", None)
        raise ValueError(  # MXNet's type (NDArray's broadcast error), with both shapes named
            f"assign: src has shape {tuple(given) if given is not None else '?'} but dst "
            f"{_slot(dst)} has shape {tuple(dst.shape)}; they cannot be broadcast together (on "
            "each axis, counted from the right, src's size must equal dst's or be 1). Nothing "
            "was written. Compute a result of dst's shape (for an output: the shape your "
            "infer_shape returned for it)."
        ) from None


def _numpy_broadcast(exc):
    """Whether ``exc`` is NumPy's (or NDArray's) "cannot broadcast" error."""
    return "broadcast" in str(exc) and "assign:" not in str(exc)


def _slot(dst):
    """How a message names ``dst``: its slot when a custom operator received it."""
    slot = getattr(dst, "slot", None)
    return slot if slot else "the array"
