"""Concat (concat). Mirrors MXNet 1.9.1's src/operator/nn/concat.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..operator_base import Operator, register
from ..params import Param
from ..rules import fmt, merge_known_shape

__all__ = []


@register("Concat", "concat")
class Concat(Operator):
    """Join inputs along ``dim``; every other dimension must match."""

    params = {
        "num_args": Param(int, check=lambda v: None if v >= 1 else "needs at least 1 input"),
        "dim": Param(int, 1),
    }
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
            raise MXNetValueError(
                f"{self.where}: dim={self.dim} is out of range for inputs with "
                f"{len(ref)} dimensions"
            )
        others = None
        for i, s in enumerate(list(in_shape) + list(out_shape)):
            if s is None:
                continue
            which = f"input {i} 'arg{i}'" if i < self.num_args else "the output"
            if len(s) != len(ref):
                raise MXNetValueError(
                    f"{self.where}: {which} has {len(s)} dimensions, "
                    f"the others {len(ref)}; every input needs as many"
                )
            rest = s[:axis] + (0,) + s[axis + 1 :]
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
        ins = [others[:axis] + (d,) + others[axis + 1 :] for d in sizes]
        return ins, [others[:axis] + (out,) + others[axis + 1 :]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """arg0 (..., a0, ...), arg1 (..., a1, ...), ... -> (..., a0+a1+..., ...) along dim."""
        out = out_data[0]
        if req[0] == "write" and all(x.dtype == out.dtype for x in in_data):
            np.concatenate(in_data, axis=self.dim, out=out)  # one copy, not two
            return
        assign(out, req[0], np.concatenate(in_data, axis=self.dim))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient cut back into one piece per input along dim."""
        axis = self.dim % out_grad[0].ndim
        ends = np.cumsum([x.shape[axis] for x in in_data])[:-1]
        for i, piece in enumerate(np.split(out_grad[0], ends, axis=axis)):
            assign(in_grad[i], req[i], piece)
