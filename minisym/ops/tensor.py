"""Shape-changing operators: Flatten, Reshape, Concat, transpose, expand_dims, slice_axis,
SliceChannel (split), _split_v2 and the reductions sum / mean / max / min / norm."""
import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .params import Param, boolean, optional, shape_tuple
from .registry import Operator, register
from .rules import fmt, known, merge_known_shape, permute, prod, try_merge, unpermute

__all__ = ["reshape_codes", "split_points"]


class _SameValues(Operator):
    """Base of the operators that only change the shape: the values pass through in order."""

    backward_needs = ("out_grad",)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> the same values in the output's shape (row-major order)."""
        data, = in_data
        assign(out_data[0], req[0], data.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient reshaped back to the data's shape."""
        data, = in_data
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
            raise MXNetValueError(f"{where}: shape={tuple(codes)} uses more input dimensions than "
                                  f"data {fmt(tuple(dshape))} has")
        src += 1
        return dims[src - 1]

    while i < len(codes):
        code = codes[i]
        if code == 0:
            out.append(take())
        elif code == -1:
            if inferred is not None:
                raise MXNetValueError(f"{where}: shape={tuple(codes)}: one and only one dim can "
                                      "be inferred (-1 appears twice)")
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
                raise MXNetValueError(f"{where}: shape={tuple(codes)}: -4 must be followed by "
                                      "two sizes")
            out.extend(_split_dim(take(), codes[i + 1], codes[i + 2], where))
            i += 2
        elif code > 0:
            out.append(code)
            src += 1
        else:
            raise MXNetValueError(f"{where}: shape code {code} is not one of 0, -1, -2, -3, -4 "
                                  "or a positive size")
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
                    "shape (or use shape=, whose codes work with unknown sizes)")
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
                "(MXNet accepts this symbolically and fails later; minisym stops here.)")
        return [data], [out], []


@register("Concat", "concat")
class Concat(Operator):
    """Join inputs along ``dim``; every other dimension must match."""

    params = {"num_args": Param(int, check=lambda v: None if v >= 1 else "needs at least 1 input"),
              "dim": Param(int, 1)}
    key_var_num_args = "num_args"
    backward_needs = ("out_grad",)

    def list_arguments(self):
        return [f"arg{i}" for i in range(self.num_args)]

    def infer_shape(self, in_shape, out_shape):
        """arg_i (.., a_i at dim, ..) -> (.., sum of a_i, ..); one unknown a_i comes from the
        output."""
        ref = next((s for s in list(in_shape) + list(out_shape) if s is not None), None)
        if ref is None:
            return list(in_shape), [None], []
        axis = self.dim + len(ref) if self.dim < 0 else self.dim
        if not 0 <= axis < len(ref):
            raise MXNetValueError(f"{self.where}: dim={self.dim} is out of range for inputs with "
                                  f"{len(ref)} dimensions")
        others = None
        for i, s in enumerate(list(in_shape) + list(out_shape)):
            if s is None:
                continue
            which = f"input {i} 'arg{i}'" if i < self.num_args else "the output"
            if len(s) != len(ref):
                raise MXNetValueError(f"{self.where}: {which} has {len(s)} dimensions, "
                                      f"the others {len(ref)}; every input needs as many")
            rest = s[:axis] + (0,) + s[axis + 1:]
            try:
                others = merge_known_shape(others, rest)
            except ValueError:
                raise MXNetValueError(
                    f"{self.where}: {which} has shape {fmt(s)} which does not match "
                    f"{fmt(others)} outside dim={self.dim}; only dimension {axis} may differ"
                ) from None
        sizes = [s[axis] if s is not None else 0 for s in in_shape]
        out = out_shape[0][axis] if out_shape[0] is not None else 0
        unknown = [i for i, d in enumerate(sizes) if d == 0]
        if not unknown:
            out = sum(sizes)
        elif len(unknown) == 1 and out:
            sizes[unknown[0]] = out - sum(sizes)
        ins = [others[:axis] + (d,) + others[axis + 1:] for d in sizes]
        return ins, [others[:axis] + (out,) + others[axis + 1:]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """arg0 (..., a0, ...), arg1 (..., a1, ...), ... -> (..., a0+a1+..., ...) along dim."""
        assign(out_data[0], req[0], np.concatenate(in_data, axis=self.dim))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient cut back into one piece per input along dim."""
        axis = self.dim % out_grad[0].ndim
        ends = np.cumsum([x.shape[axis] for x in in_data])[:-1]
        for i, piece in enumerate(np.split(out_grad[0], ends, axis=axis)):
            assign(in_grad[i], req[i], piece)


@register("transpose")
class Transpose(Operator):
    """Permute axes; ``axes=()`` reverses them."""

    params = {"axes": Param(shape_tuple, ())}
    backward_needs = ("out_grad",)

    def _axes(self, ndim):
        """``axes`` as non-negative ints (reversed order when empty), checked to permute."""
        axes = self.axes or tuple(range(ndim - 1, -1, -1))
        if sorted(a % ndim for a in axes) != list(range(ndim)):
            raise MXNetValueError(f"{self.where}: axes={self.axes} is not a permutation of "
                                  f"the {ndim} axes of the data")
        return tuple(a % ndim for a in axes)

    def infer_shape(self, in_shape, out_shape):
        """data -> (data.shape[axes[0]], data.shape[axes[1]], ...), and data back from what
        the output knows (MXNet too, except with the default axes and data wholly unknown)."""
        data, out = in_shape[0], out_shape[0]
        if data is None and out is None:
            return [None], [None], []
        if data is not None and out is not None and len(data) != len(out):
            raise MXNetValueError(f"{self.where}: data {fmt(data)} and output {fmt(out)} have "
                                  "different numbers of dimensions; transpose keeps them")
        axes = self._axes(len(data if data is not None else out))
        ins = [data] if out is None else [unpermute(out, axes)]
        outs = [out] if data is None else [permute(data, axes)]
        return ins, outs, []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data with axes permuted: out.shape[i] = data.shape[axes[i]]."""
        data, = in_data
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
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"with {ndim} dimensions; use -{ndim + 1}..{ndim}")
        ins = [data] if out is None else [out[:axis] + out[axis + 1:]]
        outs = [(0,) * axis + (1,) + (0,) * (ndim - axis) if data is None
                else data[:axis] + (1,) + data[axis:]]
        return ins, outs, []


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

    def _index(self, ndim, size):
        """The NumPy index selecting the slice from an array with ``ndim`` axes."""
        begin, end = self._bounds(size)
        return (slice(None),) * (self.axis % ndim) + (slice(begin, end),)

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> (.., end - begin, ..)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)}")
        size = data[axis]
        if not size:
            return [data], [data[:axis] + (0,) + data[axis + 1:]], []
        begin, end = self._bounds(size)
        if not 0 <= begin < end <= size:
            raise MXNetValueError(f"{self.where}: begin={self.begin}, end={self.end} is not a "
                                  f"non-empty range inside axis {self.axis} of size {size}")
        return [data], [data[:axis] + (end - begin,) + data[axis + 1:]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., n, ...) -> data[..., begin:end, ...] along axis."""
        data, = in_data
        index = self._index(data.ndim, data.shape[self.axis % data.ndim])
        assign(out_data[0], req[0], data[index])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient placed in the sliced window, zeros elsewhere."""
        data, = in_data
        grad = np.zeros(data.shape, out_grad[0].dtype)
        grad[self._index(data.ndim, data.shape[self.axis % data.ndim])] = out_grad[0]
        assign(in_grad[0], req[0], grad)


@register("SliceChannel", "split")
class SliceChannel(Operator):
    """Split ``axis`` into ``num_outputs`` equal parts (``squeeze_axis`` drops a size-1 axis)."""

    params = {"num_outputs": Param(int, check=lambda v: None if v >= 1 else "must be >= 1"),
              "axis": Param(int, 1), "squeeze_axis": Param(boolean, False)}
    backward_needs = ("out_grad",)

    def list_outputs(self):
        return [f"output{i}" for i in range(self.num_outputs)]

    def infer_shape(self, in_shape, out_shape):
        """data (.., n*k at axis, ..) -> n = num_outputs parts (.., k, ..); squeeze_axis drops
        the axis (k must be 1). Data's other sizes also come back from the outputs (MXNet)."""
        data = in_shape[0]
        n = self.num_outputs
        if data is None:
            return [None], [None] * n, []
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)}")
        size = data[axis]
        if not size and n > 1:
            raise MXNetValueError(f"{self.where}: axis {self.axis} of data {fmt(data)} is "
                                  f"unknown (0), so it cannot be cut into num_outputs={n} "
                                  f"equal parts; give that size (a multiple of {n})")
        if size % n:
            raise MXNetValueError(f"{self.where}: axis {self.axis} has size {size}, which "
                                  f"num_outputs={n} does not divide")
        if self.squeeze_axis and size and size != n:
            raise MXNetValueError(f"{self.where}: squeeze_axis=True needs each part to have "
                                  f"size 1, but {size} / {n} = {size // n}")
        part = data[:axis] + (size // n,) + data[axis + 1:]
        if self.squeeze_axis:
            part = data[:axis] + data[axis + 1:]
        for given in out_shape:
            output = try_merge(part, given)
            if output is not None:  # a disagreeing output is reported when it is merged
                data = try_merge(data, self._data_from_part(output, axis)) or data
        return [data], [part] * n, []

    def _data_from_part(self, part, axis):
        """The data shape one output part describes (its axis times num_outputs)."""
        if self.squeeze_axis:
            return part[:axis] + (self.num_outputs,) + part[axis:]
        return part[:axis] + (part[axis] * self.num_outputs,) + part[axis + 1:]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., n*k, ...) -> num_outputs arrays (..., k, ...) (squeezed when k == 1)."""
        data, = in_data
        parts = np.split(data, self.num_outputs, axis=self.axis % data.ndim)
        for j, part in enumerate(parts):
            assign(out_data[j], req[j], part.reshape(out_data[j].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradients of every part joined back along axis."""
        data, = in_data
        axis = self.axis % data.ndim
        part = data.shape[:axis] + (data.shape[axis] // self.num_outputs,) + data.shape[axis + 1:]
        grads = [g.reshape(part) for g in out_grad]
        assign(in_grad[0], req[0], np.concatenate(grads, axis=axis))


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

    params = {"indices": Param(shape_tuple), "axis": Param(int, 1),
              "squeeze_axis": Param(boolean, False), "sections": Param(int, 0)}
    backward_needs = ("out_grad",)

    def validate(self):
        """At least one part (MXNet 1.9.1 crashes the process on none)."""
        if self.sections < 0 or (self.sections == 0 and not self.indices):
            raise MXNetValueError(
                f"{self.where}: sections={self.sections}, indices={self.indices} make no part "
                "(MXNet 1.9.1 crashes on this); give sections >= 1, e.g. "
                "mx.sym.split_v2(x, 2), or split points, e.g. mx.sym.split_v2(x, (2, 5))")

    @property
    def num_parts(self):
        """How many outputs: ``sections``, or one per split point."""
        return self.sections if self.sections > 0 else len(self.indices)

    def list_outputs(self):
        n = self.num_parts
        return ["output"] if n == 1 else [f"output{i}" for i in range(n)]

    def _axis(self, ndim):
        """``axis`` as a non-negative int, or a teaching error (MXNet checks it the same)."""
        if not -ndim <= self.axis < ndim:
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"with {ndim} dimensions; use an axis in [{-ndim}, {ndim - 1}]")
        return self.axis % ndim

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
                    f"{tuple(sorted(starts[1:]))}")
            if end > size:
                raise MXNetValueError(
                    f"{self.where}: split point {end} is past the end of the axis (size {size}); "
                    f"give points between 0 and {size}")
            if self.squeeze_axis and end - start != 1:
                raise MXNetValueError(
                    f"{self.where}: squeeze_axis=True needs parts of size 1, but part {i} has "
                    f"size {end - start}; split into {size} parts or leave squeeze_axis out")
            if start == end:
                raise MXNetValueError(
                    f"{self.where}: part {i} would be empty (it starts and ends at {start}); "
                    "MXNet 1.9.1 gives a part of size 0 here, but a 0 size means 'unknown' to "
                    "minisym's shapes, so no graph can hold it. Give split points that leave "
                    f"every part at least one element (at most {size} parts)")
            parts.append((start, end))
        return parts

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> one output per part (.., end - start, ..), the axis
        dropped with squeeze_axis; data comes back from the outputs (its axis as their sum, the
        other sizes from output 0), as in MXNet. Data's axis must be known."""
        data = in_shape[0]
        if data is None:
            return [None], [None] * self.num_parts, []
        axis = self._axis(len(data))
        if not data[axis]:
            raise MXNetValueError(
                f"{self.where}: axis {self.axis} of data {fmt(data)} is unknown (0), and "
                "split_v2 needs its size to place the parts (MXNet fails here too); give that "
                "size in the data's shape")
        outs = []
        for j, (start, end) in enumerate(self._parts(data[axis])):
            part = data[:axis] + (end - start,) + data[axis + 1:]
            if self.squeeze_axis:
                part = data[:axis] + data[axis + 1:]
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
                "that feeds 'data' (infer_type(<its name>='float32')), or bind it to an array")
        return [in_type[0]], [in_type[0]] * self.num_parts, []

    def _data_from_outputs(self, data, axis, outs):
        """MXNet's back-calculation: other sizes from output 0, the axis summed over parts."""
        first = outs[0]
        if self.squeeze_axis:
            middle = len(outs)
            first = first[:axis] + (0,) + first[axis:]
        else:
            middle = sum(o[axis] for o in outs)
        return first[:axis] + (middle,) + first[axis + 1:]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (.., n, ..) -> data[.., start:end, ..] for every part, in the outputs' shapes."""
        data, = in_data
        axis = self.axis % data.ndim
        for j, (start, end) in enumerate(self._parts(data.shape[axis])):
            part = np.take(data, np.arange(start, end), axis=axis)
            assign(out_data[j], req[j], part.reshape(out_data[j].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradients of every part joined back along axis."""
        data, = in_data
        axis = self.axis % data.ndim
        parts = self._parts(data.shape[axis])
        grads = [g.reshape(data.shape[:axis] + (end - start,) + data.shape[axis + 1:])
                 for g, (start, end) in zip(out_grad, parts)]
        assign(in_grad[0], req[0], np.concatenate(grads, axis=axis))


class _Reduce(Operator):
    """Reduce over ``axis`` (all when None); ``keepdims`` keeps size-1 axes; ``exclude`` inverts."""

    params = {"axis": Param(optional(shape_tuple), None), "keepdims": Param(boolean, False),
              "exclude": Param(boolean, False)}
    backward_needs = ("out_grad", "in_data", "out_data")

    def reduced_axes(self, ndim):
        """The axes that are reduced, as non-negative ints."""
        if self.axis is None or (self.axis == () and not self.exclude):
            return tuple(range(ndim))
        axes = []
        for a in self.axis:
            if not -ndim <= a < ndim:
                raise MXNetValueError(f"{self.where}: axis {a} is out of range for data with "
                                      f"{ndim} dimensions")
            axes.append(a % ndim)
        if self.exclude:
            return tuple(i for i in range(ndim) if i not in axes)
        return tuple(sorted(set(axes)))

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        axes = self.reduced_axes(len(data))
        if self.keepdims:
            out = tuple(1 if i in axes else d for i, d in enumerate(data))
        else:
            out = tuple(d for i, d in enumerate(data) if i not in axes) or (1,)
        return [data], [out], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> reduce(data) over the reduced axes, in the inferred output shape."""
        data, = in_data
        result = self.reduce(data, axis=self.reduced_axes(data.ndim), keepdims=True)
        assign(out_data[0], req[0], result.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient spread back over the reduced axes, times d reduce / d data."""
        data, = in_data
        kept = _keepdims_shape(data.shape, self.reduced_axes(data.ndim))
        grad = np.broadcast_to(out_grad[0].reshape(kept), data.shape)
        assign(in_grad[0], req[0], self.local_gradient(grad, data, out_data[0].reshape(kept)))


def _keepdims_shape(shape, axes):
    """``shape`` with every axis in ``axes`` set to 1 (the keepdims=True output shape)."""
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


@register("sum", "sum_axis")
class Sum(_Reduce):
    """Sum over axes."""
    backward_needs = ("out_grad",)
    reduce = staticmethod(np.sum)

    def local_gradient(self, grad, data, out):
        """Every summed value gets the head gradient unchanged."""
        return grad


@register("mean")
class Mean(_Reduce):
    """Mean over axes."""
    backward_needs = ("out_grad",)
    reduce = staticmethod(np.mean)

    def local_gradient(self, grad, data, out):
        """Every averaged value gets the head gradient divided by how many were averaged."""
        return grad / (data.size // out.size)


@register("max", "max_axis")
class Max(_Reduce):
    """Maximum over axes (the gradient goes to every position equal to the maximum)."""
    reduce = staticmethod(np.max)

    def local_gradient(self, grad, data, out):
        """MXNet sends the full head gradient to EVERY tied maximum, not only the first."""
        return grad * (data == out)


@register("min", "min_axis")
class Min(_Reduce):
    """Minimum over axes (the gradient goes to every position equal to the minimum)."""
    reduce = staticmethod(np.min)

    def local_gradient(self, grad, data, out):
        """MXNet sends the full head gradient to EVERY tied minimum, not only the first."""
        return grad * (data == out)


def _norm_dtype(text):
    """norm's out_dtype: None or a dtype name MXNet allows there."""
    value = text.strip()
    if value == "None":
        return None
    if value not in _NORM_DTYPES:
        raise ValueError(f"expected None or one of {', '.join(_NORM_DTYPES)}, got {text!r}")
    return value


_NORM_DTYPES = ("float16", "float32", "float64", "int32", "int64", "int8")
_norm_dtype.__name__ = "{None, " + ", ".join(repr(t) for t in _NORM_DTYPES) + "}"


@register("norm")
class Norm(_Reduce):
    """The L1 (ord=1) or L2 (ord=2) norm over ``axis`` (all axes when None)."""

    params = {"ord": Param(int, 2, check=lambda v: None if v in (1, 2) else
                           "norm supports only ord=1 (sum of |x|) and ord=2 (Euclidean)"),
              "axis": Param(optional(shape_tuple), None),
              "out_dtype": Param(_norm_dtype, None), "keepdims": Param(boolean, False)}
    exclude = False

    def validate(self):
        """ord=1 reads only the data in backward; ord=2 also its own output (x / norm)."""
        self.backward_needs = (("out_grad", "in_data") if self.ord == 1
                               else ("out_grad", "in_data", "out_data"))

    def infer_shape(self, in_shape, out_shape):
        """data -> data without the reduced axes ((1,) for all); as in MXNet, nothing until
        data is wholly known."""
        if not known(in_shape[0]):
            return [in_shape[0]], [None], []
        return super().infer_shape(in_shape, out_shape)

    def infer_type(self, in_type, out_type):
        """The output has out_dtype (data's dtype must then be known) or data's dtype."""
        if self.out_dtype is None:
            return super().infer_type(in_type, out_type)
        if in_type[0] is None:
            raise MXNetValueError(f"{self.where}: out_dtype={self.out_dtype} is given, so the "
                                  "data's dtype must be known too (as MXNet requires); give it")
        return [in_type[0]], [np.dtype(self.out_dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> the norm over the reduced axes, in the inferred output shape."""
        data, = in_data
        if out_data[0].dtype != data.dtype:
            raise MXNetValueError(
                f"{self.where}: out_dtype={self.out_dtype} differs from the data's dtype "
                f"{data.dtype.name}, and MXNet 1.9.1 cannot compute that (its forward fails: "
                "'data type do not match'). Cast first: mx.sym.norm(mx.sym.cast(x, "
                f"dtype='{self.out_dtype}'))")
        axes = self.reduced_axes(data.ndim)
        if self.ord == 1:
            result = np.sum(np.abs(data), axis=axes, keepdims=True)
        else:
            result = np.sqrt(np.sum(np.square(data), axis=axes, keepdims=True))
        assign(out_data[0], req[0], result.reshape(out_data[0].shape))

    def local_gradient(self, grad, data, out):
        """d|x|/dx = sign(x) (0 at 0); d||x||/dx = x / ||x|| (NaN where the norm is 0, as
        MXNet gives)."""
        if self.ord == 1:
            return grad * np.sign(data)
        with np.errstate(invalid="ignore", divide="ignore"):
            return grad * data / out
