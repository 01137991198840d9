"""zeros_like / ones_like, _zeros / _ones, _eye, _linspace, _arange and
_contrib_arange_like. Mirrors MXNet 1.9.1's src/operator/tensor/init_op.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..common import ElemwiseValues, check_dtype, dtype_param
from ..operator_base import Operator, register
from ..params import Param, boolean, optional, shape_tuple
from ..rules import ShapeConflict, fmt, known, merge_shape

__all__ = ["arange_values"]


@register("zeros_like")
class ZerosLike(ElemwiseValues):
    """Zeros of data's shape and dtype (data's values are never read)."""

    backward_needs = ()
    fill = 0

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> zeros (ones for ones_like) of that shape."""
        assign(out_data[0], req[0], self.fill)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 0: the output does not depend on data's values."""
        assign(in_grad[0], req[0], 0)


@register("ones_like")
class OnesLike(ZerosLike):
    """Ones of data's shape and dtype (data's values are never read)."""

    fill = 1


class _Generated(Operator):
    """No inputs: an array computed from the parameters alone (its shape too)."""

    params = {"ctx": Param(str, ""), "dtype": dtype_param("float32")}
    backward_needs = ()

    def list_arguments(self):
        return []

    def validate(self):
        check_dtype(self, self.dtype)

    def infer_shape(self, in_shape, out_shape):
        """() -> the shape the parameters give."""
        return [], [self.result_shape()], []

    def infer_type(self, in_type, out_type):
        """The output is ``dtype`` (float32 unless given)."""
        return [], [np.dtype(self.dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """() -> the array, cast to ``dtype``."""
        assign(out_data[0], req[0], self.values().astype(out_data[0].dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """No inputs, so no gradients."""


class _Fill(_Generated):
    """No inputs: an array of ``shape`` and ``dtype`` filled with ``fill``."""

    params = {"shape": Param(shape_tuple, ()), **_Generated.params}
    fill = 0

    def validate(self):
        super().validate()
        if any(d < -1 for d in self.shape):
            raise MXNetValueError(
                f"{self.where}: shape={self.shape} has a negative size; give "
                "sizes >= 1 (0 or -1 means unknown: inference fills it in)"
            )

    def infer_shape(self, in_shape, out_shape):
        """() -> ``shape``; an unknown size (0 or -1, or no shape at all) can come from the
        consumer (MXNet's ones(shape=(2, -1)) + x takes x's second size)."""
        mine = tuple(0 if d == -1 else d for d in self.shape) or None
        try:
            return [], [merge_shape(mine, out_shape[0])], []
        except ShapeConflict:
            raise MXNetValueError(
                f"{self.where}: it makes an array of shape {fmt(mine)}, but the operator that "
                f"reads it needs {fmt(out_shape[0])}; change shape=... to {fmt(out_shape[0])}"
            ) from None

    def forward(self, is_train, req, in_data, out_data, aux):
        """() -> ``fill`` everywhere, of the inferred shape."""
        assign(out_data[0], req[0], self.fill)


@register("_zeros")
class Zeros(_Fill):
    """An array of zeros: ``mx.sym.zeros(shape, dtype)``."""


@register("_ones")
class Ones(_Fill):
    """An array of ones: ``mx.sym.ones(shape, dtype)``."""

    fill = 1


@register("_eye")
class Eye(_Generated):
    """An N x M matrix (M = N when 0) of ones on diagonal ``k``: ``mx.sym.eye(N, M, k)``."""

    params = {
        "N": Param(int),
        "M": Param(int, 0),
        "k": Param(int, 0),
        **_Generated.params,
    }

    def result_shape(self):
        return (self.N, self.M or self.N)

    def values(self):
        return np.eye(self.N, self.M or self.N, self.k)


@register("_linspace")
class Linspace(_Generated):
    """``num`` evenly spaced values from start to stop (stop left out unless ``endpoint``)."""

    params = {
        "start": Param(float),
        "stop": Param(float),
        "num": Param(int),
        "endpoint": Param(boolean, True),
        **_Generated.params,
    }

    def result_shape(self):
        return (self.num,)

    def values(self):
        return np.linspace(self.start, self.stop, self.num, endpoint=self.endpoint)


def arange_values(start, stop, step, repeat, dtype):
    """MXNet's range: ceil((stop - start) / step) values start + i * step, each ``repeat``
    times, computed in ``dtype`` after casting start and step to it (int32: 1.3 is 1)."""
    if stop is None:  # arange(5): 0 up to 5
        start, stop = 0.0, start
    count = _range_count(start, stop, step)
    dtype = np.dtype(dtype)
    first, stride = (np.array(v).astype(dtype) for v in (start, step))
    with np.errstate(over="ignore"):  # uint8 counts around as MXNet's does
        values = first + np.arange(count).astype(dtype) * stride
    return np.repeat(values.astype(dtype), repeat)


def _range_count(start, stop, step):
    """How many values arange makes (stop None: from 0 up to start)."""
    if stop is None:
        start, stop = 0.0, start
    return max(int(np.ceil((stop - start) / step)), 0)


@register("_arange")
class Arange(_Generated):
    """``start, start + step, ...`` below ``stop``, each ``repeat`` times: ``mx.sym.arange``;
    with ``infer_range`` the length comes from the operator that reads it."""

    params = {
        "start": Param(float),
        "stop": Param(optional(float), None),
        "step": Param(float, 1.0),
        "repeat": Param(int, 1),
        "infer_range": Param(boolean, False),
        **_Generated.params,
    }

    def validate(self):
        super().validate()
        if self.step == 0:
            raise MXNetValueError(
                f"{self.where}: step=0 never reaches stop={self.stop}; give a "
                "step that is not 0, e.g. step=1"
            )

    def result_shape(self):
        return (_range_count(self.start, self.stop, self.step) * self.repeat,)

    def infer_shape(self, in_shape, out_shape):
        """() -> (count * repeat,); with infer_range the consumer gives the length."""
        if self.infer_range:
            return [], [out_shape[0]], []
        return super().infer_shape(in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """() -> the values, as many as the output holds."""
        count = out_data[0].size // self.repeat
        stop = self.start + count * self.step if self.infer_range else self.stop
        values = arange_values(self.start, stop, self.step, self.repeat, out_data[0].dtype)
        assign(out_data[0], req[0], values)


@register("_contrib_arange_like")
class ArangeLike(Operator):
    """Counting values in data's shape (or along one ``axis``): ``mx.nd.contrib.arange_like``;
    data lends its shape and dtype, never its values."""

    params = {
        "start": Param(float, 0.0),
        "step": Param(float, 1.0),
        "repeat": Param(int, 1),
        "ctx": Param(str, ""),
        "axis": Param(optional(int), None),
    }
    backward_needs = ()

    def infer_shape(self, in_shape, out_shape):
        """data (d0, d1, ..) -> the same shape, or (d_axis,) along ``axis``."""
        data = in_shape[0]
        if not known(data):
            return [data], [out_shape[0]], []
        if self.axis is None:
            return [data], [data], []
        if not -len(data) <= self.axis < len(data):
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data "
                f"{fmt(data)}; give an axis in -{len(data)}..{len(data) - 1}"
            )
        return [data], [(data[self.axis],)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> start + (i // repeat) * step for each output element i, in data's dtype."""
        out = out_data[0]
        count = -(-out.size // self.repeat)
        values = arange_values(
            self.start, self.start + count * self.step, self.step, self.repeat, out.dtype
        )[: out.size]
        assign(out, req[0], values.reshape(out.shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 0: only data's shape is read."""
        assign(in_grad[0], req[0], 0)
