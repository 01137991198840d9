"""Pad (constant / edge / reflect on the spatial axes). Mirrors MXNet 1.9.1's
src/operator/pad.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from .operator_base import Operator, register
from .params import Param, shape_tuple
from .rules import fmt

__all__ = ["Pad"]


@register("Pad", "pad")
class Pad(Operator):
    """Pad the spatial axes of 4-D or 5-D data: with ``constant_value``, the edge values, or
    the reflection about the edge; ``pad_width`` is (before, after) per axis, flattened."""

    params = {
        "mode": Param(str, choices=("constant", "edge", "reflect")),
        "pad_width": Param(shape_tuple),
        "constant_value": Param(float, 0.0),
    }
    backward_needs = ("out_grad",)

    def validate(self):
        if any(p < 0 for p in self.pad_width):
            raise MXNetValueError(
                f"{self.where}: pad_width={self.pad_width} has a negative "
                "width; each width is a number of cells to add (0 or more)"
            )

    def _widths(self):
        return list(zip(self.pad_width[0::2], self.pad_width[1::2]))

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, *x) with 2 or 3 spatial axes -> (N, C, *x + before + after)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        rank = len(data)
        example = "(0, 0, 0, 0, 1, 1, 1, 1)" if rank != 5 else "(0, 0, 0, 0, 1, 1, 1, 1, 1, 1)"
        if rank not in (4, 5):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {rank} dimensions; Pad pads only 4-D "
                "(N, C, H, W) or 5-D (N, C, D, H, W) data. Reshape it (e.g. mx.sym.expand_dims) "
                "to 4-D first"
            )
        if len(self.pad_width) != 2 * rank:
            raise MXNetValueError(
                f"{self.where}: pad_width={self.pad_width} has {len(self.pad_width)} values but "
                f"{rank}-D data {fmt(data)} needs {2 * rank}: (before, after) for every axis, "
                f"e.g. pad_width={example}"
            )
        if any(self.pad_width[:4]):
            raise MXNetValueError(
                f"{self.where}: pad_width={self.pad_width} pads the batch or channel axis; Pad "
                "pads only the spatial axes, so its first four values must be 0, e.g. "
                f"pad_width={example}"
            )
        if self.mode == "reflect":
            for axis, ((before, after), size) in enumerate(zip(self._widths(), data)):
                if size and max(before, after) >= size:
                    raise MXNetValueError(
                        f"{self.where}: mode='reflect' pads axis {axis} of size {size} by "
                        f"{max(before, after)}, but a reflection can add at most size - 1 = "
                        f"{size - 1} cells per side; pad less or use mode='edge'"
                    )
        out = tuple(
            size + before + after if size else 0
            for size, (before, after) in zip(data, self._widths())
        )
        return [data], [out], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x) -> (N, C, *x padded) as numpy.pad with ``mode``."""
        (data,) = in_data
        if self.mode == "constant":
            out = np.pad(data, self._widths(), constant_values=self.constant_value)
        else:
            out = np.pad(data, self._widths(), mode=self.mode)
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each input cell gets the head gradient of every output cell that copies it."""
        grad = out_grad[0]
        for axis, (before, after) in enumerate(self._widths()):
            if not before and not after:
                continue
            size = grad.shape[axis] - before - after
            if self.mode == "constant":
                grad = np.take(grad, np.arange(before, before + size), axis=axis)
                continue
            source = np.pad(np.arange(size), (before, after), mode=self.mode)
            summed = np.zeros(grad.shape[:axis] + (size,) + grad.shape[axis + 1 :], grad.dtype)
            np.add.at(np.moveaxis(summed, axis, 0), source, np.moveaxis(grad, axis, 0))
            grad = summed
        assign(in_grad[0], req[0], grad)
