"""Building blocks of shape and type rules. A shape is a tuple of ints; ``None`` is an unknown shape
and a 0 inside a tuple an unknown dimension (MXNet 1.x's convention)."""

import math

from ..base import MXNetValueError

__all__ = [
    "known",
    "merge_shape",
    "ShapeConflict",
    "same_shape",
    "same_dtype",
    "fmt",
    "prod",
    "try_merge",
    "channel_first_axes",
    "permute",
    "unpermute",
]


class ShapeConflict(Exception):
    """Two shapes (or dtypes) that cannot both be true."""


def fmt(shape):
    """``(2, 3)`` as text, ``?`` for unknown; 0 dims shown as ``?``."""
    if shape is None:
        return "unknown"
    if not isinstance(shape, tuple):
        return str(shape)
    inner = ", ".join("?" if d == 0 else str(d) for d in shape)
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


def known(shape):
    """True when every dimension of ``shape`` is known."""
    return shape is not None and 0 not in shape


def prod(dims):
    """The product of ``dims`` (1 for none)."""
    return math.prod(dims)


def merge_shape(a, b):
    """The shape both ``a`` and ``b`` describe; raises ShapeConflict when they disagree."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeConflict
    merged = []
    for x, y in zip(a, b):
        if x and y and x != y:
            raise ShapeConflict
        merged.append(x or y)
    return tuple(merged)


def try_merge(a, b):
    """merge_shape, or None when the shapes disagree: for a rule that reads what an output
    already holds, where the conflict itself is reported when the rule's result is merged."""
    try:
        return merge_shape(a, b)
    except ShapeConflict:
        return None


def channel_first_axes(layout, ndim):
    """The axes that put a shape laid out as ``layout`` (``'NHWC'``) in channel-first order
    (batch, channels, spatial...): ``(0, 3, 1, 2)``; ``range(ndim)`` without a layout."""
    if not layout or len(layout) != ndim or "N" not in layout or "C" not in layout:
        return tuple(range(ndim))
    spatial = [i for i, letter in enumerate(layout) if letter not in "NC"]
    return (layout.index("N"), layout.index("C"), *spatial)


def permute(shape, axes):
    """``shape`` read along ``axes``: ``permute((2, 8, 8, 3), (0, 3, 1, 2)) == (2, 3, 8, 8)``."""
    return tuple(shape[a] for a in axes)


def unpermute(shape, axes):
    """The inverse of ``permute``: a channel-first shape back in the layout's order."""
    out = [0] * len(axes)
    for i, a in enumerate(axes):
        out[a] = shape[i]
    return tuple(out)


def merge_value(a, b):
    """The dtype both ``a`` and ``b`` describe (None is unknown)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    raise ShapeConflict


def _unify(op, values, merge, what, fix):
    """One value all of ``values`` agree on; a teaching error naming the first disagreement."""
    names = op.list_arguments()
    common, first = None, None
    for index, value in enumerate(values):
        try:
            common = merge(common, value)
        except ShapeConflict:
            label = lambda i: (
                f"input {i} '{names[i]}'" if i < len(names) else f"output {i - len(names)}"
            )
            raise MXNetValueError(
                f"{op.where}: {what} inconsistent: {label(index)} is {fmt(value)} but "
                f"{label(first)} is {fmt(values[first])}; {op.op_name} needs equal {what}s. {fix}"
            ) from None
        if value is not None and first is None:
            first = index
    return common


def same_shape(op, in_shape, out_shape, fix=""):
    """Every input and output has one shape (elementwise operators)."""
    n_out = len(op.list_outputs())
    common = _unify(op, list(in_shape) + list(out_shape), merge_shape, "shape", fix)
    return [common] * len(in_shape), [common] * n_out, []


def same_dtype(op, in_type, out_type):
    """Every input, output and auxiliary state has one dtype (the usual type rule)."""
    n_args = len(op.list_arguments())
    n_aux = len(op.list_auxiliary_states())
    common = _unify(
        op,
        list(in_type) + list(out_type),
        merge_value,
        "dtype",
        "Cast one of them with mx.sym.cast(x, dtype=...).",
    )
    return [common] * n_args, [common] * len(op.list_outputs()), [common] * n_aux


def merge_known_shape(a, b):
    """merge_shape that raises ValueError (for rules that build their own messages)."""
    try:
        return merge_shape(a, b)
    except ShapeConflict:
        raise ValueError(f"{fmt(a)} and {fmt(b)} disagree") from None
