"""Operators that rearrange or repeat data: SwapAxis, reshape_like, broadcast_axis /
broadcast_to, tile, repeat, reverse, stack, squeeze."""
import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .params import Param, optional, shape_tuple
from .registry import Operator, register
from .rules import ShapeConflict, fmt, known, merge_shape, prod, same_shape
from .tensor import _SameValues

__all__ = []


def _axis_in(op, axis, ndim, what="axis"):
    """``axis`` as a non-negative int, or a teaching error naming the range."""
    if not -ndim <= axis < ndim:
        raise MXNetValueError(f"{op.where}: {what}={axis} is out of range for data with {ndim} "
                              f"dimensions; use an axis in [{-ndim}, {ndim - 1}]")
    return axis % ndim


def _at_least(low):
    return lambda v: None if v >= low else f"must be >= {low}"


def _sum_to(grad, shape):
    """``grad`` summed over the axes where ``shape`` has a 1 (and grad does not)."""
    axes = tuple(i for i, (g, s) in enumerate(zip(grad.shape, shape)) if s == 1 and g != 1)
    return grad.sum(axis=axes, keepdims=True) if axes else grad


@register("SwapAxis", "swapaxes")
class SwapAxis(Operator):
    """Exchange axes dim1 and dim2 (the default 0, 0 changes nothing)."""

    params = {"dim1": Param(int, 0), "dim2": Param(int, 0)}
    backward_needs = ("out_grad",)

    def infer_shape(self, in_shape, out_shape):
        """data -> data with sizes dim1 and dim2 exchanged; nothing back from the output."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        a = _axis_in(self, self.dim1, len(data), "dim1")
        b = _axis_in(self, self.dim2, len(data), "dim2")
        out = list(data)
        out[a], out[b] = out[b], out[a]
        return [data], [tuple(out)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.swapaxes(data, dim1, dim2)."""
        assign(out_data[0], req[0], np.swapaxes(in_data[0], self.dim1, self.dim2))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient with the same two axes exchanged back."""
        assign(in_grad[0], req[0], np.swapaxes(out_grad[0], self.dim1, self.dim2))


@register("reshape_like")
class ReshapeLike(Operator):
    """lhs's values in the shape of rhs (or lhs's axes lhs_begin:lhs_end replaced by rhs's
    axes rhs_begin:rhs_end); rhs only lends its shape."""

    params = {"lhs_begin": Param(optional(int), None), "lhs_end": Param(optional(int), None),
              "rhs_begin": Param(optional(int), None), "rhs_end": Param(optional(int), None)}
    backward_needs = ("out_grad",)
    no_gradient_inputs = ("rhs",)

    def list_arguments(self):
        return ["lhs", "rhs"]

    def _range(self, side, ndim):
        begin, end = getattr(self, f"{side}_begin"), getattr(self, f"{side}_end")
        b = 0 if begin is None else (begin + ndim if begin < 0 else begin)
        e = ndim if end is None else (end + ndim if end < 0 else end)
        if not 0 <= b < e <= ndim:
            raise MXNetValueError(
                f"{self.where}: {side}_begin={begin}, {side}_end={end} is not a non-empty range "
                f"of the {ndim} axes of {side}; give 0 <= begin < end <= {ndim} (negative "
                "values count from the end)")
        return b, e

    def infer_shape(self, in_shape, out_shape):
        """lhs, rhs -> lhs[:lhs_begin] + rhs[rhs_begin:rhs_end] + lhs[lhs_end:]; as in MXNet,
        both shapes must be wholly known, and nothing comes back from the output."""
        lhs, rhs = in_shape
        for i, (name, shape) in enumerate((("lhs", lhs), ("rhs", rhs))):
            if not known(shape):
                raise MXNetValueError(
                    f"{self.where}: the shape of input {i} '{name}' is "
                    f"{'unknown' if shape is None else fmt(shape)}; reshape_like needs both "
                    "shapes wholly known to infer anything (MXNet fails here too). Give "
                    f"{name}'s shape, or use Reshape with 0 / -1 codes")
        lb, le = self._range("lhs", len(lhs))
        rb, re = self._range("rhs", len(rhs))
        out = lhs[:lb] + rhs[rb:re] + lhs[le:]
        if prod(out) != prod(lhs):
            raise MXNetValueError(
                f"{self.where}: cannot reshape lhs {fmt(lhs)} ({prod(lhs)} values) to "
                f"{fmt(out)} ({prod(out)} values) taken from rhs {fmt(rhs)}; the sizes must "
                "multiply to the same number")
        return [lhs, rhs], [out], []

    def infer_type(self, in_type, out_type):
        """The output has lhs's dtype; rhs keeps its own."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        return [dtype, in_type[1]], [dtype], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs -> lhs's values in the output's shape (row-major order)."""
        assign(out_data[0], req[0], in_data[0].reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """lhs gets the head gradient reshaped back; rhs gets zeros (as MXNet writes them)."""
        assign(in_grad[0], req[0], out_grad[0].reshape(in_grad[0].shape))
        assign(in_grad[1], req[1], 0)


class _Broadcast(Operator):
    """Stretch axes of size 1; backward sums the head gradient back over them."""

    backward_needs = ("out_grad",)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.broadcast_to(data, output shape)."""
        assign(out_data[0], req[0], np.broadcast_to(in_data[0], out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient summed over every stretched axis."""
        assign(in_grad[0], req[0], _sum_to(out_grad[0], in_grad[0].shape))


@register("broadcast_axis", "broadcast_axes")
class BroadcastAxis(_Broadcast):
    """Stretch each axis in ``axis`` (of size 1) to the matching entry of ``size``."""

    params = {"axis": Param(shape_tuple, ()), "size": Param(shape_tuple, ())}

    def validate(self):
        """One size per axis."""
        if len(self.axis) != len(self.size):
            raise MXNetValueError(f"{self.where}: axis={self.axis} and size={self.size} need one "
                                  "size per axis")

    def infer_shape(self, in_shape, out_shape):
        """data (.., 1 at each axis, ..) -> that axis of the given size; as in MXNet, nothing
        until data is wholly known, and axes count from 0 (no negative axes)."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        out = list(data)
        for axis, size in zip(self.axis, self.size):
            if not 0 <= axis < len(data):
                fix = (f": write axis={axis % len(data)}" if -len(data) <= axis < 0 else "")
                raise MXNetValueError(
                    f"{self.where}: axis={axis} is out of range for data {fmt(data)}; "
                    f"broadcast_axis takes 0..{len(data) - 1} (MXNet 1.9.1 refuses negative "
                    f"axes here{fix})")
            if data[axis] != 1:
                raise MXNetValueError(
                    f"{self.where}: axis {axis} of data {fmt(data)} has size {data[axis]}; only "
                    "an axis of size 1 can be broadcast. Use tile or repeat to copy a larger one")
            out[axis] = size
        return [data], [tuple(out)], []


@register("broadcast_to")
class BroadcastTo(_Broadcast):
    """Stretch data's axes of size 1 to ``shape`` (a 0 in shape keeps data's size)."""

    params = {"shape": Param(shape_tuple, ())}

    def infer_shape(self, in_shape, out_shape):
        """data -> shape, with 0 entries taken from data; nothing back from the output."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        if len(data) != len(self.shape):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} cannot be broadcast to shape={self.shape}: "
                f"they have {len(data)} and {len(self.shape)} dimensions. Give one size per "
                "axis of data (0 keeps data's size); add axes first with expand_dims or Reshape")
        out = []
        for i, (d, s) in enumerate(zip(data, self.shape)):
            if s and d != s and d != 1:
                reason = ("is unknown (0), and MXNet cannot check it against the target"
                          if d == 0 else f"has size {d}")
                raise MXNetValueError(
                    f"{self.where}: data {fmt(data)} cannot be broadcast to shape={self.shape}: "
                    f"axis {i} {reason}; only axes of size 1 stretch (a 0 in shape keeps data's "
                    "size)")
            out.append(s or d)
        return [data], [tuple(out)], []


@register("tile")
class Tile(Operator):
    """Repeat the whole array reps[i] times along axis i (reps and data aligned on the right)."""

    params = {"reps": Param(shape_tuple, check=lambda v: None if min(v, default=0) >= 0
                            else "every entry of reps must be >= 0")}
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
        if not self.reps:
            return [data], [data], []
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
        axis = None if self.axis is None else _axis_in(self, self.axis, len(data))
        if self.repeats == 0:
            return [data], [(0,)], []
        where = "data" if axis is None else f"axis {axis} of data"
        if (0 in data if axis is None else data[axis] == 0 and self.repeats != 1):
            raise MXNetValueError(
                f"{self.where}: {where} {fmt(data)} is unknown (0), so the repeated size "
                "cannot be inferred (MXNet fails here too); give that size")
        if axis is None:
            return [data], [(prod(data) * self.repeats,)], []
        return [data], [data[:axis] + (data[axis] * self.repeats,) + data[axis + 1:]], []

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
            split = shape[:axis] + (shape[axis], self.repeats) + shape[axis + 1:]
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
                        "when it runs)")
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
                    "stops here.)") from None
        if not known(common):
            return list(in_shape), [None], []
        axis = _axis_in(self, self.axis, len(common) + 1)
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
                axis = _axis_in(self, a, len(data))
                if data[axis] != 1:
                    raise MXNetValueError(
                        f"{self.where}: axis {a} of data {fmt(data)} has size {data[axis]}; "
                        "squeeze removes only axes of size 1")
                if axis in drop:
                    raise MXNetValueError(f"{self.where}: axis={self.axis} names axis {axis} "
                                          "twice; give each axis once")
                drop.add(axis)
        return [data], [tuple(d for i, d in enumerate(data) if i not in drop) or (1,)], []


def _axes_of(axes, ndim, where, name):
    """``axes`` (negative counting from the end) as non-negative axes of an ndim-array."""
    found = []
    for axis in axes:
        if not -ndim <= axis < ndim:
            raise MXNetValueError(f"{where}: {name} has axis {axis}, but the input has {ndim} "
                                  f"axes; give axes in -{ndim}..{ndim - 1}")
        found.append(axis % ndim)
    return found


@register("broadcast_like")
class BroadcastLike(_Broadcast):
    """lhs stretched to rhs's shape (or lhs's ``lhs_axes`` to the sizes of rhs's ``rhs_axes``);
    rhs only lends its shape."""

    params = {"lhs_axes": Param(optional(shape_tuple), None),
              "rhs_axes": Param(optional(shape_tuple), None)}
    no_gradient_inputs = ("rhs",)

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape, out_shape):
        """lhs (1 on each stretched axis), rhs -> rhs's shape, or lhs with the chosen axes
        taken from rhs; nothing is known until both shapes are."""
        lhs, rhs = in_shape
        if not (known(lhs) and known(rhs)):
            return list(in_shape), [out_shape[0]], []
        if self.lhs_axes is None:
            if len(lhs) != len(rhs):
                raise MXNetValueError(f"{self.where}: lhs {fmt(lhs)} and rhs {fmt(rhs)} have "
                                      "different numbers of axes; give lhs_axes and rhs_axes")
            pairs = list(zip(range(len(lhs)), range(len(rhs))))
        else:
            pairs = list(zip(_axes_of(self.lhs_axes, len(lhs), self.where, "lhs_axes"),
                             _axes_of(self.rhs_axes or (), len(rhs), self.where, "rhs_axes")))
        out = list(lhs)
        for left, right in pairs:
            if lhs[left] not in (1, rhs[right]):
                raise MXNetValueError(
                    f"{self.where}: lhs {fmt(lhs)} axis {left} has size {lhs[left]}, rhs "
                    f"{fmt(rhs)} axis {right} has {rhs[right]}; only a size 1 stretches")
            out[left] = rhs[right]
        return [lhs, rhs], [tuple(out)], []

    def infer_type(self, in_type, out_type):
        """The output has lhs's dtype; rhs keeps its own (MXNet's test_broadcast_like_different_
        types)."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        return [dtype, in_type[1]], [dtype], []

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """lhs: the head gradient summed over the stretched axes; rhs: zeros."""
        super().backward(req, out_grad, in_data, out_data, in_grad, aux)
        assign(in_grad[1], req[1], 0)


@register("slice_like")
class SliceLike(Operator):
    """data's leading block in the shape of shape_like (on ``axes``, all if empty), starting at
    index 0 of each axis; shape_like only lends its shape."""

    params = {"axes": Param(shape_tuple, ())}
    backward_needs = ("out_grad",)
    no_gradient_inputs = ("shape_like",)

    def list_arguments(self):
        return ["data", "shape_like"]

    def infer_shape(self, in_shape, out_shape):
        """data, shape_like -> data with each chosen axis cut to shape_like's size."""
        data, like = in_shape
        if not (known(data) and known(like)):
            return list(in_shape), [out_shape[0]], []
        axes = (_axes_of(self.axes, len(data), self.where, "axes") if self.axes
                else range(len(data)))
        out = list(data)
        for axis in axes:
            if axis >= len(like) or like[axis] > data[axis]:
                raise MXNetValueError(
                    f"{self.where}: cannot cut data {fmt(data)} to shape_like {fmt(like)} on "
                    f"axis {axis}; shape_like must have that axis, no larger than data's")
            out[axis] = like[axis]
        return [data, like], [tuple(out)], []

    def infer_type(self, in_type, out_type):
        """The output has data's dtype; shape_like keeps its own."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        return [dtype, in_type[1]], [dtype], []

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
