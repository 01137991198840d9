"""``assign(dst, req, src)``: the one way every operator writes a result, honouring ``req``.

``req`` says what the executor wants done with an output or gradient buffer:
``'null'`` skip it, ``'write'`` / ``'inplace'`` overwrite it, ``'add'`` accumulate into it.
``CustomOp.assign`` is this same function.
"""
__all__ = ["assign", "REQ_VALUES"]

REQ_VALUES = ("null", "write", "inplace", "add")


def assign(dst, req, src):
    """Write ``src`` into ``dst`` as ``req`` says (arrays or NDArrays; ``src`` may broadcast)."""
    if req == "null":
        return
    if req in ("write", "inplace"):
        dst[...] = src
    elif req == "add":
        dst[...] += src
    # MXNet ignores any other req silently; so do we (CustomOp code relies on it).
