"""Flatten, Reshape, transpose, expand_dims, slice_axis, _split_v2, slice (and
_slice_assign / _slice_assign_scalar), clip, tile, repeat, reverse, stack, squeeze and
slice_like. Mirrors MXNet 1.9.1's src/operator/tensor/matrix_op.cc.

Indices of slice arrive as float arrays (MXNet's default dtype) and are read as MXNet reads
them: truncated toward zero (1.7 is 1, -0.5 is 0).
"""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ...kernels import finish, write_target
from ..common import ElemwiseValues, LendsShape, NoGradient, axes_of, axis_in
from ..operator_base import Operator, register
from ..params import Param, boolean, is_int, literal_tuple, optional, shape_tuple
from ..rules import (
    ShapeConflict,
    fmt,
    known,
    merge_shape,
    permute,
    prod,
    same_shape,
    try_merge,
    unpermute,
)

__all__ = ["reshape_codes", "split_points", "index_tuple"]


class _SameValues(Operator):
    """Base of the operators that only change the shape: the values pass through in order."""

    backward_needs = ("out_grad",)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> the same values in the output's shape (row-major order)."""
        (data,) = in_data
        assign(out_data[0], req[0], data.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient reshaped back to the data's shape."""
        (data,) = in_data
        assign(in_grad[0], req[0], out_grad[0].reshape(data.shape))


@register("Flatten", "flatten")
class Flatten(_SameValues):
    """(N, d1, d2, ...) -> (N, d1*d2*...)."""

    def infer_shape(self, in_shape, out_shape):
        """(N, d1, d2, ...) -> (N, d1*d2*...); like MXNet, nothing until data is wholly known,
        and nothing back from the output."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        return [data], [(data[0], prod(data[1:]))], []


def reshape_codes(codes, dshape, where):
    """The output shape of Reshape's special codes 0, -1, -2, -3, -4 applied to ``dshape``."""
    dims = list(dshape)
    out, src, inferred, i = [], 0, None, 0

    def take():
        nonlocal src
        if src >= len(dims):
            raise MXNetValueError(
                f"{where}: shape={tuple(codes)} uses more input dimensions than "
                f"data {fmt(tuple(dshape))} has"
            )
        src += 1
        return dims[src - 1]

    while i < len(codes):
        code = codes[i]
        if code == 0:
            out.append(take())
        elif code == -1:
            if inferred is not None:
                raise MXNetValueError(
                    f"{where}: shape={tuple(codes)}: one and only one dim can "
                    "be inferred (-1 appears twice)"
                )
            inferred = len(out)
            out.append(1)
            src += 1
        elif code == -2:
            out.extend(dims[src:])
            src = len(dims)
        elif code == -3:
            d1, d2 = take(), take()
            out.append(d1 * d2)
        elif code == -4:
            if i + 2 >= len(codes):
                raise MXNetValueError(
                    f"{where}: shape={tuple(codes)}: -4 must be followed by two sizes"
                )
            out.extend(_split_dim(take(), codes[i + 1], codes[i + 2], where))
            i += 2
        elif code > 0:
            out.append(code)
            src += 1
        else:
            raise MXNetValueError(
                f"{where}: shape code {code} is not one of 0, -1, -2, -3, -4 or a positive size"
            )
        i += 1
    if inferred is not None:
        rest = prod(out)
        out[inferred] = prod(dims) // rest if known(tuple(dims)) and rest else 0
    return tuple(out)


def _split_dim(d0, d1, d2, where):
    """Reshape's ``-4, d1, d2``: dimension d0 as (d1, d2), one of them -1 (inferred); an
    unknown d0 (0) leaves an inferred size unknown."""
    if d1 == -1 and d2 == -1:
        raise MXNetValueError(f"{where}: -4 split {d0} into (-1, -1): give one size")
    if d0:
        d1 = d0 // d2 if d1 == -1 else d1
        d2 = d0 // d1 if d2 == -1 else d2
        if d1 * d2 != d0:
            raise MXNetValueError(f"{where}: -4 cannot split dimension {d0} into {d1} x {d2}")
    return [max(d1, 0), max(d2, 0)]


@register("Reshape", "reshape")
class Reshape(_SameValues):
    """Same values, new shape; codes 0 (copy), -1 (infer), -2 (rest), -3 (merge), -4 (split)."""

    params = {
        "shape": Param(shape_tuple, ()),
        "reverse": Param(boolean, False),
        "target_shape": Param(shape_tuple, ()),
        "keep_highest": Param(boolean, False),
    }

    def validate(self):
        """A new shape is given: ``shape`` (or the deprecated ``target_shape``)."""
        if not self.shape and not self.target_shape:
            raise MXNetValueError(f"{self.where}: give the new shape, e.g. shape=(0, -1)")

    def _target(self, data):
        """The output shape for data of shape ``data`` (codes, or the legacy target_shape)."""
        if self.shape:
            if self.reverse:
                return reshape_codes(self.shape[::-1], data[::-1], self.where)[::-1]
            return reshape_codes(self.shape, data, self.where)
        target = list(self.target_shape)
        start = 1 if self.keep_highest else 0
        if self.keep_highest:  # MXNet replaces the first size by data's (it does not prepend)
            target[0] = data[0]
        if 0 in target[start:]:
            if not known(data):
                raise MXNetValueError(
                    f"{self.where}: target_shape={self.target_shape} infers its 0 from data's "
                    f"size, but data {fmt(data)} has unknown dimensions (0); give data's whole "
                    "shape (or use shape=, whose codes work with unknown sizes)"
                )
            rest = prod(d for d in target if d)
            target[target.index(0, start)] = prod(data) // rest
        return tuple(target)

    def infer_shape(self, in_shape, out_shape):
        """data -> the shape the codes give; one unknown dim of data can come from the output."""
        data = in_shape[0]
        if data is None:
            return [None], [out_shape[0]], []
        if data.count(0) == 1 and known(out_shape[0]):  # one unknown input dim, from the output
            rest = prod(d for d in data if d)
            data = tuple(prod(out_shape[0]) // rest if d == 0 else d for d in data)
        out = self._target(data)
        if known(data) and known(out) and prod(data) != prod(out):
            raise MXNetValueError(
                f"{self.where}: cannot reshape data {fmt(data)} ({prod(data)} values) to "
                f"{fmt(out)} ({prod(out)} values) with shape={self.shape or self.target_shape}. "
                "(MXNet accepts this symbolically and fails later; minisym stops here.)"
            )
        return [data], [out], []


@register("transpose")
class Transpose(Operator):
    """Permute axes; ``axes=()`` reverses them."""

    params = {"axes": Param(shape_tuple, ())}
    backward_needs = ("out_grad",)

    def _axes(self, ndim):
        """``axes`` as non-negative ints (reversed order when empty), checked to permute."""
        axes = self.axes or tuple(range(ndim - 1, -1, -1))
        if sorted(a % ndim for a in axes) != list(range(ndim)):
            raise MXNetValueError(
                f"{self.where}: axes={self.axes} is not a permutation of "
                f"the {ndim} axes of the data"
            )
        return tuple(a % ndim for a in axes)

    def infer_shape(self, in_shape, out_shape):
        """data -> (data.shape[axes[0]], data.shape[axes[1]], ...), and data back from what
        the output knows (MXNet too, except with the default axes and data wholly unknown)."""
        data, out = in_shape[0], out_shape[0]
        if data is None and out is None:
            return [None], [None], []
        if data is not None and out is not None and len(data) != len(out):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} and output {fmt(out)} have "
                "different numbers of dimensions; transpose keeps them"
            )
        axes = self._axes(len(data if data is not None else out))
        ins = [data] if out is None else [unpermute(out, axes)]
        outs = [out] if data is None else [permute(data, axes)]
        return ins, outs, []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data with axes permuted: out.shape[i] = data.shape[axes[i]]."""
        (data,) = in_data
        assign(out_data[0], req[0], np.transpose(data, self._axes(data.ndim)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient permuted back by the inverse permutation."""
        grad = out_grad[0]
        assign(in_grad[0], req[0], np.transpose(grad, np.argsort(self._axes(grad.ndim))))


@register("expand_dims")
class ExpandDims(_SameValues):
    """Insert a dimension of size 1 at ``axis``."""

    params = {"axis": Param(int)}

    def infer_shape(self, in_shape, out_shape):
        """data (d0, d1, ..) -> a 1 inserted at position ``axis``; and data back from what the
        output knows."""
        data, out = in_shape[0], out_shape[0]
        if data is None and out is None:
            return [None], [None], []
        ndim = len(data) if data is not None else len(out) - 1
        axis = self.axis + ndim + 1 if self.axis < 0 else self.axis
        if not 0 <= axis <= ndim:
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data "
                f"with {ndim} dimensions; use -{ndim + 1}..{ndim}"
            )
        ins = [data] if out is None else [out[:axis] + out[axis + 1 :]]
        dims = data if data is not None else (0,) * ndim  # unknown data: unknown sizes
        return ins, [dims[:axis] + (1,) + dims[axis:]], []


@register("slice_axis")
class SliceAxis(Operator):
    """data[..., begin:end, ...] along ``axis`` (end=None means to the end)."""

    params = {"axis": Param(int), "begin": Param(int), "end": Param(optional(int))}
    backward_needs = ("out_grad",)

    def _bounds(self, size):
        """(begin, end) as non-negative positions along an axis of ``size``."""
        begin = self.begin + size if self.begin < 0 else self.begin
        end = size if self.end is None else (self.end + size if self.end < 0 else self.end)
        return begin, end

    def _index(self, shape):
        """The NumPy index selecting the slice from an array of ``shape``."""
        axis = self.axis % len(shape)
        begin, end = self._bounds(shape[axis])
        return (slice(None),) * axis + (slice(begin, end),)

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> (.., end - begin, ..)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data {fmt(data)}"
            )
        size = data[axis]
        if not size:
            return [data], [data[:axis] + (0,) + data[axis + 1 :]], []
        begin, end = self._bounds(size)
        if not 0 <= begin < end <= size:
            raise MXNetValueError(
                f"{self.where}: begin={self.begin}, end={self.end} is not a "
                f"non-empty range inside axis {self.axis} of size {size}"
            )
        return [data], [data[:axis] + (end - begin,) + data[axis + 1 :]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., n, ...) -> data[..., begin:end, ...] along axis."""
        assign(out_data[0], req[0], in_data[0][self._index(in_data[0].shape)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient placed in the sliced window, zeros elsewhere."""
        grad = np.zeros(in_grad[0].shape, out_grad[0].dtype)
        grad[self._index(grad.shape)] = out_grad[0]
        assign(in_grad[0], req[0], grad)


def split_points(size, sections, indices):
    """MXNet's GetSplitIndices: the start of each part of an axis of ``size``; with ``sections``
    the first ``size % sections`` parts are one longer (7 in 3: starts 0, 3, 5)."""
    if sections <= 0:
        return list(indices)
    short, longer = divmod(size, sections)
    starts = [0]
    for i in range(sections - 1):
        starts.append(starts[-1] + short + (1 if i < longer else 0))
    return starts


@register("_split_v2")
class SplitV2(Operator):
    """Split ``axis`` at ``indices`` (the starts of the parts, the first 0), or into
    ``sections`` parts of nearly equal size; ``squeeze_axis`` drops the axis of size-1 parts.
    mx.sym.split_v2 / mx.nd.split_v2 take numpy's indices_or_sections."""

    params = {
        "indices": Param(shape_tuple),
        "axis": Param(int, 1),
        "squeeze_axis": Param(boolean, False),
        "sections": Param(int, 0),
    }
    backward_needs = ("out_grad",)

    def validate(self):
        """At least one part (MXNet 1.9.1 crashes the process on none)."""
        if self.sections < 0 or (self.sections == 0 and not self.indices):
            raise MXNetValueError(
                f"{self.where}: sections={self.sections}, indices={self.indices} make no part "
                "(MXNet 1.9.1 crashes on this); give sections >= 1, e.g. "
                "mx.sym.split_v2(x, 2), or split points, e.g. mx.sym.split_v2(x, (2, 5))"
            )

    @property
    def num_parts(self):
        """How many outputs: ``sections``, or one per split point."""
        return self.sections if self.sections > 0 else len(self.indices)

    def list_outputs(self):
        n = self.num_parts
        return ["output"] if n == 1 else [f"output{i}" for i in range(n)]

    def _parts(self, size):
        """[(start, end)] of every part along an axis of ``size``, checked as MXNet checks."""
        starts = split_points(size, self.sections, self.indices)
        parts = []
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else size
            if start > end:
                raise MXNetValueError(
                    f"{self.where}: part {i} would run from {start} to {end}: the split points "
                    f"{tuple(starts[1:])} must not decrease; sort them, e.g. "
                    f"{tuple(sorted(starts[1:]))}"
                )
            if end > size:
                raise MXNetValueError(
                    f"{self.where}: split point {end} is past the end of the axis (size {size}); "
                    f"give points between 0 and {size}"
                )
            if self.squeeze_axis and end - start != 1:
                raise MXNetValueError(
                    f"{self.where}: squeeze_axis=True needs parts of size 1, but part {i} has "
                    f"size {end - start}; split into {size} parts or leave squeeze_axis out"
                )
            if start == end:
                raise MXNetValueError(
                    f"{self.where}: part {i} would be empty (it starts and ends at {start}); "
                    "MXNet 1.9.1 gives a part of size 0 here, but a 0 size means 'unknown' to "
                    "minisym's shapes, so no graph can hold it. Give split points that leave "
                    f"every part at least one element (at most {size} parts)"
                )
            parts.append((start, end))
        return parts

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> one output per part (.., end - start, ..), the axis
        dropped with squeeze_axis; data comes back from the outputs (its axis as their sum, the
        other sizes from output 0), as in MXNet. Data's axis must be known."""
        data = in_shape[0]
        if data is None:
            return [None], [None] * self.num_parts, []
        axis = axis_in(self, self.axis, len(data))  # MXNet checks it the same
        if not data[axis]:
            raise MXNetValueError(
                f"{self.where}: axis {self.axis} of data {fmt(data)} is unknown (0), and "
                "split_v2 needs its size to place the parts (MXNet fails here too); give that "
                "size in the data's shape"
            )
        outs = []
        for j, (start, end) in enumerate(self._parts(data[axis])):
            part = data[:axis] + (end - start,) + data[axis + 1 :]
            if self.squeeze_axis:
                part = data[:axis] + data[axis + 1 :]
            merged = try_merge(part, out_shape[j])  # a disagreeing output is reported later
            outs.append(part if merged is None else merged)
        return [self._data_from_outputs(data, axis, outs)], outs, []

    def infer_type(self, in_type, out_type):
        """Every output has data's dtype, which must be known (MXNet: 'First input must have
        specified type'; nothing comes back from the outputs)."""
        if in_type[0] is None:
            raise MXNetValueError(
                f"{self.where}: the dtype of input 0 'data' is unknown, and split_v2 needs it "
                "(MXNet: 'First input must have specified type'). Give the dtype of the variable "
                "that feeds 'data' (infer_type(<its name>='float32')), or bind it to an array"
            )
        return [in_type[0]], [in_type[0]] * self.num_parts, []

    def _data_from_outputs(self, data, axis, outs):
        """MXNet's back-calculation: other sizes from output 0, the axis summed over parts."""
        first = outs[0]
        if self.squeeze_axis:
            middle = len(outs)
            first = first[:axis] + (0,) + first[axis:]
        else:
            middle = sum(o[axis] for o in outs)
        return first[:axis] + (middle,) + first[axis + 1 :]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (.., n, ..) -> data[.., start:end, ..] for every part, in the outputs' shapes."""
        (data,) = in_data
        axis = self.axis % data.ndim
        for j, (start, end) in enumerate(self._parts(data.shape[axis])):
            part = np.take(data, np.arange(start, end), axis=axis)
            assign(out_data[j], req[j], part.reshape(out_data[j].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradients of every part joined back along axis."""
        (data,) = in_data
        axis = self.axis % data.ndim
        parts = self._parts(data.shape[axis])
        grads = [
            g.reshape(data.shape[:axis] + (end - start,) + data.shape[axis + 1 :])
            for g, (start, end) in zip(out_grad, parts)
        ]
        assign(in_grad[0], req[0], np.concatenate(grads, axis=axis))


def index_tuple(text):
    """'(0, None, -1)', '[1, 2]' or '1' -> a tuple of ints and Nones (slice's begin/end/step)."""
    index = literal_tuple(text, lambda v: v is None or is_int(v))
    if index is None:
        raise ValueError(f"expected a tuple of ints or None such as (0, None), got {text!r}")
    return index


@register("slice")
class Slice(Operator):
    """data[begin[0]:end[0]:step[0], begin[1]:end[1]:step[1], ...]; None means the default."""

    params = {
        "begin": Param(index_tuple),
        "end": Param(index_tuple),
        "step": Param(index_tuple, ()),
    }
    backward_needs = ("out_grad",)

    def validate(self):
        """begin, end (and step, when given) have one entry per sliced axis; no step is 0."""
        if len(self.begin) != len(self.end):
            raise MXNetValueError(
                f"{self.where}: begin={self.begin} and end={self.end} must have the same length "
                "(one entry per sliced axis; use None for 'from the start' / 'to the end')"
            )
        if self.step and len(self.step) != len(self.begin):
            raise MXNetValueError(
                f"{self.where}: step={self.step} must have one entry per "
                f"entry of begin={self.begin} (or be left out)"
            )
        if 0 in self.step:
            raise MXNetValueError(
                f"{self.where}: step={self.step}: a step cannot be 0; use 1 "
                "(or None) to take every element"
            )

    def _ranges(self, dshape):
        """(begin, end, step) per sliced axis after MXNet's clamping; begin -1 means empty."""
        if len(self.begin) > len(dshape):
            raise MXNetValueError(
                f"{self.where}: begin={self.begin} slices {len(self.begin)} axes but data "
                f"{fmt(dshape)} has only {len(dshape)}"
            )
        ranges = []
        for i, (b, e) in enumerate(zip(self.begin, self.end)):
            s = self.step[i] if self.step and self.step[i] is not None else 1
            size = dshape[i]
            if not size:
                ranges.append(None)  # unknown size: unknown result
                continue
            b = (size - 1 if s < 0 else 0) if b is None else (b + size if b < 0 else b)
            e = (-1 if s < 0 else size) if e is None else (e + size if e < 0 else e)
            b = 0 if b < 0 and s > 0 else b
            b = size - 1 if b > size - 1 and s < 0 else b
            b = -1 if b < 0 or b > size - 1 else b
            ranges.append((b, min(max(e, -1), size), s))
        return ranges

    @staticmethod
    def _length(b, e, s):
        if b < 0 or b == e:
            return 0
        if s > 0:
            return (e - b - 1) // s + 1 if e > b else 0
        return (b - e - 1) // (-s) + 1 if e < b else 0

    def infer_shape(self, in_shape, out_shape):
        """data (d0, d1, ...) -> the sliced sizes on the first len(begin) axes, the rest kept;
        an unknown size stays unknown, nothing comes back from the output (as in MXNet)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        out = list(data)
        for i, r in enumerate(self._ranges(data)):
            out[i] = 0 if r is None else self._length(*r)
        return [data], [tuple(out)], []

    def _index(self, dshape):
        """The NumPy index of the slice."""
        index = []
        for b, e, s in self._ranges(dshape):
            if b < 0:
                index.append(slice(0, 0))
            else:
                index.append(slice(b, e if e >= 0 else None, s))
        return tuple(index)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> data[index], shaped as infer_shape says."""
        (data,) = in_data
        assign(out_data[0], req[0], data[self._index(data.shape)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient placed where the slice took its elements, zeros elsewhere."""
        grad = np.zeros(in_grad[0].shape, out_grad[0].dtype)
        grad[self._index(grad.shape)] = out_grad[0]
        assign(in_grad[0], req[0], grad)


@register("_slice_assign", "_crop_assign")
class SliceAssign(NoGradient, Slice):
    """lhs with the slice lhs[begin:end:step] replaced by rhs (which has the slice's shape);
    no gradient. NDArray.slice_assign(rhs, begin, end, step) writes into the array itself."""

    instead = "mx.sym.where or a multiplication by a mask"

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape, out_shape):
        """lhs (d0, d1, ..), rhs -> rhs is the slice's shape (unknown sizes stay unknown), the
        output lhs's; nothing until lhs is known (as in MXNet)."""
        lhs = in_shape[0]
        if lhs is None:
            return list(in_shape), [None], []
        _, (rhs,), _ = super().infer_shape([lhs], [None])
        return [lhs, rhs], [lhs], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs, rhs -> a copy of lhs with rhs written into the slice."""
        lhs, rhs = in_data
        result = lhs.copy()
        result[self._index(lhs.shape)] = rhs
        assign(out_data[0], req[0], result)


@register("_slice_assign_scalar", "_crop_assign_scalar")
class SliceAssignScalar(NoGradient, Slice):
    """data with every element of the slice data[begin:end:step] set to ``scalar`` (in data's
    dtype: 2.7 is 2 for int32); no gradient."""

    params = {"scalar": Param(float, 0.0), **Slice.params}
    instead = "mx.sym.where or a multiplication by a mask"

    def infer_shape(self, in_shape, out_shape):
        """data -> the same shape, once data is wholly known (MXNet checks begin / end only when
        it runs)."""
        data = in_shape[0]
        return [data], [data if known(data) else None], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> a copy of data with the slice set to scalar."""
        (data,) = in_data
        result = data.copy()
        result[self._index(data.shape)] = np.array(self.scalar).astype(data.dtype)
        assign(out_data[0], req[0], result)


def _at_least(low):
    return lambda v: None if v >= low else f"must be >= {low}"


@register("tile")
class Tile(Operator):
    """Repeat the whole array reps[i] times along axis i (reps and data aligned on the right)."""

    params = {
        "reps": Param(
            shape_tuple,
            check=lambda v: None if min(v, default=0) >= 0 else "every entry of reps must be >= 0",
        )
    }
    backward_needs = ("out_grad",)

    def _aligned(self, shape):
        """(data shape, reps), both padded with 1s on the left to the same length."""
        n = max(len(shape), len(self.reps))
        return (1,) * (n - len(shape)) + tuple(shape), (1,) * (n - len(self.reps)) + self.reps

    def infer_shape(self, in_shape, out_shape):
        """data -> data size * reps per axis; as in MXNet, nothing until data is wholly known."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        dims, reps = self._aligned(data)
        return [data], [tuple(d * r for d, r in zip(dims, reps))], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.tile(data, reps)."""
        assign(out_data[0], req[0], np.tile(in_data[0], self.reps or 1))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient summed over every copy."""
        dims, reps = self._aligned(in_grad[0].shape)
        pairs = tuple(x for r, d in zip(reps, dims) for x in (r, d))
        grad = out_grad[0].reshape(pairs).sum(axis=tuple(range(0, len(pairs), 2)))
        assign(in_grad[0], req[0], grad.reshape(in_grad[0].shape))


@register("repeat")
class Repeat(Operator):
    """Repeat each element ``repeats`` times along ``axis`` (of the flattened data if None)."""

    params = {"repeats": Param(int, check=_at_least(0)), "axis": Param(optional(int), None)}
    backward_needs = ("out_grad",)

    def infer_shape(self, in_shape, out_shape):
        """data -> axis size times repeats ((size * repeats,) flattened; (0,) for repeats=0)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        axis = None if self.axis is None else axis_in(self, self.axis, len(data))
        if self.repeats == 0:
            return [data], [(0,)], []
        where = "data" if axis is None else f"axis {axis} of data"
        if 0 in data if axis is None else data[axis] == 0 and self.repeats != 1:
            raise MXNetValueError(
                f"{self.where}: {where} {fmt(data)} is unknown (0), so the repeated size "
                "cannot be inferred (MXNet fails here too); give that size"
            )
        if axis is None:
            return [data], [(prod(data) * self.repeats,)], []
        return [data], [data[:axis] + (data[axis] * self.repeats,) + data[axis + 1 :]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.repeat(data, repeats, axis)."""
        result = np.repeat(in_data[0], self.repeats, axis=self.axis)
        assign(out_data[0], req[0], result.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each element gets the sum of the head gradients of its copies."""
        shape = in_grad[0].shape
        if self.repeats == 0:
            assign(in_grad[0], req[0], 0)
            return
        if self.axis is None:
            grad = out_grad[0].reshape(-1, self.repeats).sum(axis=1)
        else:
            axis = self.axis % len(shape)
            split = shape[:axis] + (shape[axis], self.repeats) + shape[axis + 1 :]
            grad = out_grad[0].reshape(split).sum(axis=axis + 1)
        assign(in_grad[0], req[0], grad.reshape(shape))


@register("reverse", "flip")
class Reverse(Operator):
    """Reverse the order of elements along each axis in ``axis``."""

    params = {"axis": Param(shape_tuple)}
    backward_needs = ("out_grad",)

    def infer_shape(self, in_shape, out_shape):
        """Same shape in and out (either way); every axis must be one of data's."""
        ins, outs, _ = same_shape(self, in_shape, out_shape)
        data = ins[0]
        if data is not None:
            for axis in self.axis:
                if not 0 <= axis < len(data):
                    raise MXNetValueError(
                        f"{self.where}: axis={axis} is out of range for data {fmt(data)}; "
                        f"reverse takes 0..{len(data) - 1} (MXNet 1.9.1 refuses negative axes "
                        "when it runs)"
                    )
        return ins, outs, []

    def _flip(self, array):
        for axis in self.axis:  # an axis given twice is reversed twice (as in MXNet)
            array = np.flip(array, axis)
        return array

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> data read backwards along every axis in ``axis``."""
        assign(out_data[0], req[0], self._flip(in_data[0]))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient reversed the same way."""
        assign(in_grad[0], req[0], self._flip(out_grad[0]))


@register("stack")
class Stack(Operator):
    """Join num_args arrays of one shape along a new axis ``axis``."""

    params = {"axis": Param(int, 0), "num_args": Param(int, check=_at_least(1))}
    key_var_num_args = "num_args"
    backward_needs = ("out_grad",)

    def list_arguments(self):
        return [f"arg{i}" for i in range(self.num_args)]

    def infer_shape(self, in_shape, out_shape):
        """arg_i (all one shape) -> that shape with num_args inserted at ``axis``; as in MXNet,
        the inputs' sizes are pooled but not filled in, and nothing comes back from the
        output."""
        common = None
        for i, shape in enumerate(in_shape):
            try:
                common = merge_shape(common, shape)
            except ShapeConflict:
                first = next(j for j, s in enumerate(in_shape) if s is not None)
                raise MXNetValueError(
                    f"{self.where}: input {i} 'arg{i}' has shape {fmt(shape)} but input {first} "
                    f"'arg{first}' has {fmt(in_shape[first])}; stack needs every input of one "
                    "shape. (MXNet 1.9.1 does not check this and runs on wrong memory; minisym "
                    "stops here.)"
                ) from None
        if not known(common):
            return list(in_shape), [None], []
        axis = axis_in(self, self.axis, len(common) + 1)
        return list(in_shape), [common[:axis] + (self.num_args,) + common[axis:]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """arg0, arg1, ... -> np.stack(args, axis)."""
        assign(out_data[0], req[0], np.stack(in_data, axis=self.axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Input i gets the head gradient's slice i along axis."""
        axis = self.axis % out_grad[0].ndim
        for i in range(self.num_args):
            assign(in_grad[i], req[i], np.take(out_grad[0], i, axis=axis))


@register("squeeze")
class Squeeze(_SameValues):
    """Drop axes of size 1 (all of them, or those in ``axis``)."""

    params = {"axis": Param(optional(shape_tuple), None)}

    def infer_shape(self, in_shape, out_shape):
        """data -> data without the size-1 axes ((1,) if none is left); as in MXNet, nothing
        until data is wholly known, and nothing back from the output."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        if self.axis is None:
            drop = {i for i, d in enumerate(data) if d == 1}
        else:
            drop = set()
            for a in self.axis:
                axis = axis_in(self, a, len(data))
                if data[axis] != 1:
                    raise MXNetValueError(
                        f"{self.where}: axis {a} of data {fmt(data)} has size {data[axis]}; "
                        "squeeze removes only axes of size 1"
                    )
                if axis in drop:
                    raise MXNetValueError(
                        f"{self.where}: axis={self.axis} names axis {axis} "
                        "twice; give each axis once"
                    )
                drop.add(axis)
        return [data], [tuple(d for i, d in enumerate(data) if i not in drop) or (1,)], []


@register("slice_like")
class SliceLike(LendsShape):
    """data's leading block in the shape of shape_like (on ``axes``, all if empty), starting at
    index 0 of each axis; shape_like only lends its shape."""

    params = {"axes": Param(shape_tuple, ())}
    no_gradient_inputs = ("shape_like",)

    def list_arguments(self):
        return ["data", "shape_like"]

    def infer_shape(self, in_shape, out_shape):
        """data, shape_like -> data with each chosen axis cut to shape_like's size."""
        data, like = in_shape
        if not (known(data) and known(like)):
            return list(in_shape), [out_shape[0]], []
        axes = axes_of(self.axes, len(data), self.where, "axes") if self.axes else range(len(data))
        out = list(data)
        for axis in axes:
            if axis >= len(like) or like[axis] > data[axis]:
                raise MXNetValueError(
                    f"{self.where}: cannot cut data {fmt(data)} to shape_like {fmt(like)} on "
                    f"axis {axis}; shape_like must have that axis, no larger than data's"
                )
            out[axis] = like[axis]
        return [data, like], [tuple(out)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> data[:n0, :n1, ...] in the output's shape."""
        assign(out_data[0], req[0], in_data[0][self._block(out_data[0].shape)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """data: the head gradient in the cut block, zeros elsewhere; shape_like: zeros."""
        grad = np.zeros(in_grad[0].shape, out_grad[0].dtype)
        grad[self._block(out_grad[0].shape)] = out_grad[0]
        assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)

    @staticmethod
    def _block(shape):
        return tuple(slice(0, n) for n in shape)


@register("clip")
class Clip(ElemwiseValues):
    """data limited to [a_min, a_max]; the gradient passes where a_min <= data <= a_max."""

    params = {"a_min": Param(float), "a_max": Param(float)}
    backward_needs = ("out_grad", "in_data")

    @property
    def clip_bounds(self):
        """(a_min, a_max) for a BatchNorm before it to apply in its own pass (ReLU6), when the
        order of the tests cannot matter (a_min <= a_max)."""
        return (self.a_min, self.a_max) if self.a_min <= self.a_max else None

    def _bounds(self, dtype):
        """a_min, a_max in data's dtype (as MXNet: int32 data clips at int(a_min))."""
        return dtype.type(self.a_min), dtype.type(self.a_max)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> a_max above a_max, a_min below a_min (tested in that order), data between."""
        (data,) = in_data
        low, high = self._bounds(data.dtype)
        if low > high:  # the order of the tests decides: MXNet's where(where(...))
            assign(out_data[0], req[0], np.where(data > high, high, np.maximum(data, low)))
            return
        # two passes over the data instead of four (ReLU6 is a quarter of MobileNetV2's time)
        target = write_target(out_data[0], req[0])
        np.minimum(np.maximum(data, low, out=target), high, out=target)
        finish(out_data[0], req[0], target)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = dL/dout where a_min <= data <= a_max (the bounds included), else 0."""
        (data,) = in_data
        low, high = self._bounds(data.dtype)
        inside = (data <= high) & (data >= low)
        assign(in_grad[0], req[0], np.where(inside, out_grad[0], 0))
