"""where. Mirrors MXNet 1.9.1's src/operator/tensor/control_flow_op.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..operator_base import Operator, register
from ..rules import ShapeConflict, fmt, known, merge_shape, try_merge

__all__ = []


@register("where")
class Where(Operator):
    """x where condition is not 0, else y; a 1-D condition picks whole rows (x.shape[0] of them)."""

    def list_arguments(self):
        return ["condition", "x", "y"]

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """Backward reads the head gradient and the condition only (as MXNet's _backward_where)."""
        return list(out_grad) + [in_data[0]]

    def infer_shape(self, in_shape, out_shape):
        """condition, x, y -> output like x; x, y and the output share one shape. As in MXNet,
        nothing is inferred until condition's shape is wholly known."""
        cond = in_shape[0]
        if not known(cond):
            return list(in_shape), list(out_shape), []
        try:
            common = merge_shape(merge_shape(in_shape[1], in_shape[2]), out_shape[0])
        except ShapeConflict:
            given = [
                f"{label} {fmt(shape)}"
                for label, shape in (
                    ("x", in_shape[1]),
                    ("y", in_shape[2]),
                    ("the output", out_shape[0]),
                )
                if shape is not None
            ]
            raise MXNetValueError(
                f"{self.where}: {', '.join(given[:-1])} and {given[-1]} must have one shape: "
                "where takes each element from x or from y. Give x and y the same shape "
                "(mx.sym.broadcast_to can stretch one). (MXNet 1.9.1 leaves the shapes "
                "unknown here.)"
            ) from None
        if common is not None:
            self._check_condition(cond, common)
        # As MXNet's WhereOpShape: x, y and the output never take sizes from the condition.
        return [cond, common, common], [common], []

    def _check_condition(self, cond, common):
        """condition has x's shape, or is 1-D with x.shape[0] entries (one per row)."""
        if len(cond) == len(common):
            if try_merge(cond, common) is None:
                raise MXNetValueError(
                    f"{self.where}: condition {fmt(cond)} must have x's shape {fmt(common)} (one "
                    f"flag per element) or be 1-D with {common[0] or '?'} entries (one per row "
                    "of x). (MXNet 1.9.1 accepts this shape here and fails or reads past the "
                    "condition when it runs.)"
                )
        elif len(cond) != 1:
            raise MXNetValueError(
                f"{self.where}: condition {fmt(cond)} has {len(cond)} dimensions but x "
                f"{fmt(common)} has {len(common)}; give condition x's shape, or a 1-D condition "
                f"of {common[0] or '?'} entries to pick whole rows"
            )
        elif common[0] and cond[0] != common[0]:
            raise MXNetValueError(
                f"{self.where}: a 1-D condition picks whole rows, so it needs one entry per row "
                f"of x {fmt(common)}: shape ({common[0]},), but it has {fmt(cond)}"
            )

    def infer_type(self, in_type, out_type):
        """x, y and the output share one dtype; condition keeps its own (any dtype)."""
        first = None
        for label, dtype in (
            ("input 1 'x'", in_type[1]),
            ("input 2 'y'", in_type[2]),
            ("the output", out_type[0]),
        ):
            if dtype is None:
                continue
            if first is not None and dtype != first[1]:
                raise MXNetValueError(
                    f"{self.where}: dtype inconsistent: {label} is {np.dtype(dtype).name} but "
                    f"{first[0]} is {np.dtype(first[1]).name}; where takes each element from x "
                    "or from y, so x, y and the output need one dtype (the condition may have "
                    "any). Cast one of them with mx.sym.cast(..., dtype=...)."
                )
            first = first or (label, dtype)
        common = first[1] if first else None
        return [in_type[0], common, common], [common], []

    def _picked(self, cond, like):
        """condition != 0 shaped to broadcast against ``like`` (rows for a 1-D condition)."""
        flags = cond != 0
        if flags.shape != like.shape:
            flags = flags.reshape((-1,) + (1,) * (like.ndim - 1))
        return flags

    def forward(self, is_train, req, in_data, out_data, aux):
        """condition (x's shape, or (x.shape[0],)), x, y (one shape) -> output like x."""
        cond, x, y = in_data
        assign(out_data[0], req[0], np.where(self._picked(cond, x), x, y))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/dx = dL/dout where condition holds, dL/dy where it does not; condition gets 0."""
        cond = in_data[0]
        grad = out_grad[0]
        flags = self._picked(cond, grad)
        assign(in_grad[0], req[0], 0)
        assign(in_grad[1], req[1], np.where(flags, grad, 0))
        assign(in_grad[2], req[2], np.where(flags, 0, grad))
