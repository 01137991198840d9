"""Operators that pick elements by index: slice, pick, take, one_hot.

Indices arrive as float arrays (MXNet's default dtype) and are read as MXNet reads them:
truncated toward zero (1.7 is 1, -0.5 is 0), then clipped or wrapped as ``mode`` says.
"""
import ast

import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .params import Param, boolean, dtype_str, optional
from .registry import Operator, register
from .rules import fmt, known, merge_value

__all__ = ["index_tuple", "as_indices"]


def index_tuple(text):
    """'(0, None, -1)', '[1, 2]' or '1' -> a tuple of ints and Nones (slice's begin/end/step)."""
    try:
        value = ast.literal_eval(text.strip()) if text.strip() else ()
    except (ValueError, SyntaxError):
        value = "?"
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return (value,)
    if isinstance(value, (tuple, list)) and all(
            v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in value):
        return tuple(value)
    raise ValueError(f"expected a tuple of ints or None such as (0, None), got {text!r}")


def as_indices(values):
    """Index values as MXNet reads them: truncated toward zero, as int64."""
    return np.trunc(values).astype(np.int64)


def _check_axis(op, axis, ndim, what="axis"):
    """``axis`` as a non-negative int, or a teaching error naming the range."""
    if not -ndim <= axis < ndim:
        raise MXNetValueError(f"{op.where}: {what}={axis} is out of range for data with {ndim} "
                              f"dimensions; use an axis in [{-ndim}, {ndim - 1}]")
    return axis % ndim


def _index_dtype_known(op, in_type, slot):
    """MXNet needs the dtype of the index input to be known (it chooses the kernel by it)."""
    if in_type[slot] is None:
        name = op.list_arguments()[slot]
        raise MXNetValueError(
            f"{op.where}: the dtype of input {slot} '{name}' is unknown, and {op.op_name} needs "
            f"it (MXNet: 'Index type must be set'). Give the dtype of the variable that feeds "
            f"'{name}' (infer_type(<its name>='float32')), or bind it to an array")


@register("slice")
class Slice(Operator):
    """data[begin[0]:end[0]:step[0], begin[1]:end[1]:step[1], ...]; None means the default."""

    params = {"begin": Param(index_tuple), "end": Param(index_tuple),
              "step": Param(index_tuple, ())}
    backward_needs = ("out_grad",)

    def validate(self):
        """begin, end (and step, when given) have one entry per sliced axis; no step is 0."""
        if len(self.begin) != len(self.end):
            raise MXNetValueError(
                f"{self.where}: begin={self.begin} and end={self.end} must have the same length "
                "(one entry per sliced axis; use None for 'from the start' / 'to the end')")
        if self.step and len(self.step) != len(self.begin):
            raise MXNetValueError(f"{self.where}: step={self.step} must have one entry per "
                                  f"entry of begin={self.begin} (or be left out)")
        if 0 in self.step:
            raise MXNetValueError(f"{self.where}: step={self.step}: a step cannot be 0; use 1 "
                                  "(or None) to take every element")

    def _ranges(self, dshape):
        """(begin, end, step) per sliced axis after MXNet's clamping; begin -1 means empty."""
        if len(self.begin) > len(dshape):
            raise MXNetValueError(
                f"{self.where}: begin={self.begin} slices {len(self.begin)} axes but data "
                f"{fmt(dshape)} has only {len(dshape)}")
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
        data, = in_data
        assign(out_data[0], req[0], data[self._index(data.shape)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient placed where the slice took its elements, zeros elsewhere."""
        grad = np.zeros(in_grad[0].shape, out_grad[0].dtype)
        grad[self._index(grad.shape)] = out_grad[0]
        assign(in_grad[0], req[0], grad)


def _reduce_axis_shape(shape, axis, keepdims):
    """MXNet's ReduceAxisShapeImpl: ``shape`` without ``axis`` ((1,) for 1-D data)."""
    if len(shape) == 1:
        return (1,)
    if keepdims:
        return shape[:axis] + (1,) + shape[axis + 1:]
    return shape[:axis] + shape[axis + 1:]


def _wrap_or_clip(indices, size, mode):
    """Truncated indices, clipped into [0, size) or wrapped around it."""
    idx = as_indices(indices)
    return np.mod(idx, size) if mode == "wrap" else np.clip(idx, 0, size - 1)


@register("pick")
class Pick(Operator):
    """out[i, ..] = data[i, .., index[i, ..], ..]: one element along ``axis`` per position."""

    params = {"axis": Param(optional(int), -1), "keepdims": Param(boolean, False),
              "mode": Param(str, "clip", choices=("clip", "wrap"))}
    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("index",)

    def validate(self):
        """pick needs an axis (MXNet: 'axis=None is not supported by pick yet')."""
        if self.axis is None:
            raise MXNetValueError(f"{self.where}: axis=None is not supported by pick; give the "
                                  "axis to pick along, e.g. axis=-1 (the default) or axis=1")

    def list_arguments(self):
        return ["data", "index"]

    def infer_shape(self, in_shape, out_shape):
        """data (.., n at axis, ..) -> index and output without that axis (keepdims: a 1
        there); an index with data's number of dimensions must have the 1 (as in MXNet)."""
        data, index = in_shape
        if data is None:
            return [data, index], [None], []
        axis = _check_axis(self, self.axis, len(data))
        keep = index is not None and len(index) == len(data)
        return ([data, _reduce_axis_shape(data, axis, keep)],
                [_reduce_axis_shape(data, axis, self.keepdims)], [])

    def infer_type(self, in_type, out_type):
        """The output has data's dtype; the index keeps its own, which must be known."""
        _index_dtype_known(self, in_type, 1)
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, in_type[1]], [dtype], []

    def _positions(self, data, index):
        """(axis, the index as an int array shaped like data with a 1 at axis)."""
        axis = self.axis % data.ndim
        kept = data.shape[:axis] + (1,) + data.shape[axis + 1:]
        return axis, _wrap_or_clip(index, data.shape[axis], self.mode).reshape(kept)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data, index -> data's element at index along axis, for every other position."""
        data, index = in_data
        axis, idx = self._positions(data, index)
        picked = np.take_along_axis(data, idx, axis=axis)
        assign(out_data[0], req[0], picked.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient goes to the picked element; the index gets a zero gradient."""
        data, index = in_data
        if req[0] != "null":
            axis, idx = self._positions(data, index)
            grad = np.zeros(data.shape, out_grad[0].dtype)
            np.put_along_axis(grad, idx, out_grad[0].reshape(idx.shape), axis=axis)
            assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)


@register("take")
class Take(Operator):
    """Rows (slices along ``axis``) of ``a`` at ``indices``: out shape a[:axis] + indices +
    a[axis+1:]."""

    params = {"axis": Param(int, 0), "mode": Param(str, "clip", choices=("clip", "raise", "wrap"))}
    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("indices",)

    def list_arguments(self):
        return ["a", "indices"]

    def infer_shape(self, in_shape, out_shape):
        """a (.., n at axis, ..), indices (i0, i1, ..) -> a[:axis] + indices + a[axis+1:];
        nothing until indices is wholly known, and then a's number of dimensions must be."""
        a, indices = in_shape
        if not known(indices):
            return [a, indices], [None], []
        if a is None:
            raise MXNetValueError(
                f"{self.where}: the shape of input 0 'a' is unknown while indices {fmt(indices)} "
                "is known; MXNet's take needs a's shape here (it checks axis against it). Give "
                "the shape of the variable that feeds 'a' (unknown sizes may be 0, e.g. (10, 0))")
        axis = _check_axis(self, self.axis, len(a))
        return [a, indices], [a[:axis] + indices + a[axis + 1:]], []

    def infer_type(self, in_type, out_type):
        """The output has a's dtype; indices keep their own, which must be known."""
        _index_dtype_known(self, in_type, 1)
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, in_type[1]], [dtype], []

    def _rows(self, a, indices):
        """(axis, indices as ints inside [0, n)) after clip / wrap, or the raise check."""
        axis = self.axis % a.ndim
        size = a.shape[axis]
        if self.mode != "raise":
            return axis, _wrap_or_clip(indices, size, self.mode)
        bad = (indices < 0) | (indices > size - 1)
        if bad.any():
            value = indices[bad].ravel()[0]
            raise MXNetValueError(
                f"{self.where}: indices contain {value:g}, outside [0, {size - 1}] (axis {axis} "
                f"of a has size {size}) and mode='raise' refuses it. Use mode='clip' (clamp into "
                "range, the default) or mode='wrap' (count around), or fix the indices")
        return axis, as_indices(indices)

    def forward(self, is_train, req, in_data, out_data, aux):
        """a, indices -> np.take(a, indices, axis)."""
        a, indices = in_data
        axis, rows = self._rows(a, indices)
        assign(out_data[0], req[0], np.take(a, rows, axis=axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each taken row's head gradient is added to that row of a (a row taken twice gets
        both); indices get a zero gradient."""
        a, indices = in_data
        if req[1] == "add":
            raise MXNetValueError(
                f"{self.where}: grad_req 'add' for input 1 'indices': take cannot add a gradient "
                "to its indices (they have none; MXNet refuses this too). Give grad_req as a "
                "dict with 'null' for the indices' variable, e.g. grad_req={'weight': 'add', "
                "'idx': 'null'}")
        if req[0] != "null":
            axis, rows = self._rows(a, indices)
            flat = rows.reshape(-1)
            head = out_grad[0].reshape(a.shape[:axis] + (flat.size,) + a.shape[axis + 1:])
            grad = np.zeros((a.shape[axis],) + a.shape[:axis] + a.shape[axis + 1:],
                            out_grad[0].dtype)
            np.add.at(grad, flat, np.moveaxis(head, axis, 0))
            assign(in_grad[0], req[0], np.moveaxis(grad, 0, axis))
        assign(in_grad[1], req[1], 0)


@register("one_hot")
class OneHot(Operator):
    """indices (any shape) -> indices.shape + (depth,): on_value at each index, off_value
    elsewhere (an index outside [0, depth) gives a row of off_value)."""

    params = {"depth": Param(int, check=lambda v: None if v >= 0 else "depth must be >= 0"),
              "on_value": Param(float, 1.0), "off_value": Param(float, 0.0),
              "dtype": Param(dtype_str, "float32")}
    backward_needs = ()
    no_gradient_inputs = ("indices",)

    def list_arguments(self):
        return ["indices"]

    def infer_shape(self, in_shape, out_shape):
        """indices (d0, d1, ..) -> (d0, d1, .., depth), once indices is wholly known."""
        indices = in_shape[0]
        if not known(indices):
            return [indices], [None], []
        return [indices], [indices + (self.depth,)], []

    def infer_type(self, in_type, out_type):
        """The output has ``dtype``; indices keep their own, which must be known."""
        _index_dtype_known(self, in_type, 0)
        return [in_type[0]], [np.dtype(self.dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """indices -> one row of depth values per index."""
        indices, = in_data
        idx = as_indices(indices)[..., None]
        hot = idx == np.arange(self.depth)
        assign(out_data[0], req[0], np.where(hot, self.on_value, self.off_value))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """No gradient: the indices get zeros (as MXNet writes them)."""
        assign(in_grad[0], req[0], 0)
