"""broadcast_axis, broadcast_to and broadcast_like. Mirrors MXNet 1.9.1's
src/operator/tensor/broadcast_reduce_op_value.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..common import LendsShape, axes_of, sum_to_shape
from ..operator_base import Operator, register
from ..params import Param, optional, shape_tuple
from ..rules import fmt, known

__all__ = []


class _Broadcast(Operator):
    """Stretch axes of size 1; backward sums the head gradient back over them."""

    backward_needs = ("out_grad",)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> np.broadcast_to(data, output shape)."""
        assign(out_data[0], req[0], np.broadcast_to(in_data[0], out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient summed over every stretched axis."""
        assign(in_grad[0], req[0], sum_to_shape(out_grad[0], in_grad[0].shape))


@register("broadcast_axis", "broadcast_axes")
class BroadcastAxis(_Broadcast):
    """Stretch each axis in ``axis`` (of size 1) to the matching entry of ``size``."""

    params = {"axis": Param(shape_tuple, ()), "size": Param(shape_tuple, ())}

    def validate(self):
        """One size per axis."""
        if len(self.axis) != len(self.size):
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} and size={self.size} need one size per axis"
            )

    def infer_shape(self, in_shape, out_shape):
        """data (.., 1 at each axis, ..) -> that axis of the given size; as in MXNet, nothing
        until data is wholly known, and axes count from 0 (no negative axes)."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        out = list(data)
        for axis, size in zip(self.axis, self.size):
            if not 0 <= axis < len(data):
                fix = f": write axis={axis % len(data)}" if -len(data) <= axis < 0 else ""
                raise MXNetValueError(
                    f"{self.where}: axis={axis} is out of range for data {fmt(data)}; "
                    f"broadcast_axis takes 0..{len(data) - 1} (MXNet 1.9.1 refuses negative "
                    f"axes here{fix})"
                )
            if data[axis] != 1:
                raise MXNetValueError(
                    f"{self.where}: axis {axis} of data {fmt(data)} has size {data[axis]}; only "
                    "an axis of size 1 can be broadcast. Use tile or repeat to copy a larger one"
                )
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
                "axis of data (0 keeps data's size); add axes first with expand_dims or Reshape"
            )
        out = []
        for i, (d, s) in enumerate(zip(data, self.shape)):
            if s and d != s and d != 1:
                reason = (
                    "is unknown (0), and MXNet cannot check it against the target"
                    if d == 0
                    else f"has size {d}"
                )
                raise MXNetValueError(
                    f"{self.where}: data {fmt(data)} cannot be broadcast to shape={self.shape}: "
                    f"axis {i} {reason}; only axes of size 1 stretch (a 0 in shape keeps data's "
                    "size)"
                )
            out.append(s or d)
        return [data], [tuple(out)], []


@register("broadcast_like")
class BroadcastLike(LendsShape, _Broadcast):
    """lhs stretched to rhs's shape (or lhs's ``lhs_axes`` to the sizes of rhs's ``rhs_axes``);
    rhs only lends its shape."""

    params = {
        "lhs_axes": Param(optional(shape_tuple), None),
        "rhs_axes": Param(optional(shape_tuple), None),
    }
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
                raise MXNetValueError(
                    f"{self.where}: lhs {fmt(lhs)} and rhs {fmt(rhs)} have "
                    "different numbers of axes; give lhs_axes and rhs_axes"
                )
            pairs = [(axis, axis) for axis in range(len(lhs))]
        else:
            left = axes_of(self.lhs_axes, len(lhs), self.where, "lhs_axes")
            right = axes_of(self.rhs_axes or (), len(rhs), self.where, "rhs_axes")
            pairs = list(zip(left, right))
        out = list(lhs)
        for left, right in pairs:
            if lhs[left] not in (1, rhs[right]):
                raise MXNetValueError(
                    f"{self.where}: lhs {fmt(lhs)} axis {left} has size {lhs[left]}, rhs "
                    f"{fmt(rhs)} axis {right} has {rhs[right]}; only a size 1 stretches"
                )
            out[left] = rhs[right]
        return [lhs, rhs], [tuple(out)], []

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """lhs: the head gradient summed over the stretched axes; rhs: zeros."""
        super().backward(req, out_grad, in_data, out_data, in_grad, aux)
        assign(in_grad[1], req[1], 0)
