"""Operators that pick elements by index: slice (and _slice_assign / _slice_assign_scalar),
pick, take, batch_take, one_hot.

Indices arrive as float arrays (MXNet's default dtype) and are read as MXNet reads them:
truncated toward zero (1.7 is 1, -0.5 is 0), then clipped or wrapped as ``mode`` says.
"""
import ast
import warnings

import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .params import Param, boolean, dtype_str, optional
from .registry import Operator, register
from .rules import fmt, known, merge_value, prod

__all__ = ["index_tuple", "as_indices", "no_gradient"]


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


def no_gradient(op, req, out_grad, in_grad):
    """The backward of an operator MXNet 1.9.1 gives no gradient (no FGradient): a zero head
    gradient (below a BlockGrad) passes as zeros, any other raises MXNet's error."""
    if all(r == "null" for r in req):
        return
    if any(np.any(g != 0) for g in out_grad):
        raise MXNetValueError(
            f"Operator {op.op_name} is non-differentiable because it didn't register FGradient "
            f"attribute. ({op.where} has no gradient in MXNet 1.9.1: bind its inputs with "
            "grad_req='null', compute it outside autograd.record(), or put mx.sym.BlockGrad "
            "after it" + (f"; for a gradient use {op.instead}" if op.instead else "") + ")")
    for grad, r in zip(in_grad, req):
        assign(grad, r, 0)


@register("_slice_assign", "_crop_assign")
class SliceAssign(Slice):
    """lhs with the slice lhs[begin:end:step] replaced by rhs (which has the slice's shape);
    no gradient. NDArray.slice_assign(rhs, begin, end, step) writes into the array itself."""

    backward_needs = ("out_grad",)
    has_gradient = False
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

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """None in MXNet 1.9.1: refused (zeros below a BlockGrad)."""
        no_gradient(self, req, out_grad, in_grad)


@register("_slice_assign_scalar", "_crop_assign_scalar")
class SliceAssignScalar(Slice):
    """data with every element of the slice data[begin:end:step] set to ``scalar`` (in data's
    dtype: 2.7 is 2 for int32); no gradient."""

    params = {"scalar": Param(float, 0.0), **Slice.params}
    backward_needs = ("out_grad",)
    has_gradient = False
    instead = "mx.sym.where or a multiplication by a mask"

    def infer_shape(self, in_shape, out_shape):
        """data -> the same shape, once data is wholly known (MXNet checks begin / end only when
        it runs)."""
        data = in_shape[0]
        if not known(data):
            return [data], [None], []
        return [data], [data], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> a copy of data with the slice set to scalar."""
        data, = in_data
        result = data.copy()
        result[self._index(data.shape)] = np.array(self.scalar).astype(data.dtype)
        assign(out_data[0], req[0], result)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """None in MXNet 1.9.1: refused (zeros below a BlockGrad)."""
        no_gradient(self, req, out_grad, in_grad)


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


@register("batch_take")
class BatchTake(Operator):
    """a (N, M), indices (N,) int32 -> out[i] = a[i, indices[i]], each index clipped into
    [0, M-1]; deprecated in MXNet for pick(a, indices, axis=1), and without a gradient."""

    backward_needs = ("out_grad",)
    has_gradient = False
    no_gradient_inputs = ("indices",)
    instead = "mx.sym.pick(a, indices, axis=1)"

    def list_arguments(self):
        return ["a", "indices"]

    def infer_shape(self, in_shape, out_shape):
        """a (N, M), indices (any shape of N elements) -> indices's shape. As in MXNet, a's
        shape and both shapes' sizes must be known whenever the rule runs (no partial
        inference), and the output is never given back to indices."""
        warnings.warn("batch_take is deprecated. Please use pick instead.", FutureWarning,
                      stacklevel=2)
        a, indices = in_shape
        out = indices if indices is not None else out_shape[0]
        if a is None or len(a) < 2:
            raise MXNetValueError(
                f"{self.where}: input 0 'a' must have at least 2 dimensions, but its shape is "
                f"{fmt(a)}; MXNet's batch_take needs it whenever shapes are inferred, even "
                "partially. Give the shape of the variable that feeds 'a', e.g. (N, M)")
        if not (known(a) and known(out)):
            raise MXNetValueError(
                f"{self.where}: a {fmt(a)} and indices {fmt(indices)} must both be wholly known "
                "whenever shapes are inferred (MXNet's batch_take infers nothing partially); "
                "give every size of both")
        if prod(a) // a[-1] != prod(out):
            raise MXNetValueError(
                f"{self.where}: indices {fmt(out)} has {prod(out)} elements but a {fmt(a)} has "
                f"{prod(a) // a[-1]} rows; give one index per row of a")
        return [a, indices], [out], []

    def infer_type(self, in_type, out_type):
        """The output has a's dtype; indices are int32 (MXNet refuses any other dtype)."""
        if in_type[1] is not None and np.dtype(in_type[1]) != np.int32:
            raise MXNetValueError(
                f"{self.where}: input 1 'indices' has dtype {np.dtype(in_type[1]).name}, but "
                "batch_take reads int32 indices only (MXNet: Type inconsistent, Provided = "
                f"{np.dtype(in_type[1]).name}, inferred type = int32). Make them int32: "
                "mx.nd.array(idx, dtype='int32'), mx.sym.var('idx', dtype='int32') or "
                "simple_bind(..., type_dict={'idx': 'int32'})")
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, np.dtype(np.int32)], [dtype], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """a, indices -> a[i, clip(indices[i], 0, M-1)] for every row i."""
        a, indices = in_data
        if a.ndim != 2:
            raise MXNetValueError(
                f"{self.where}: a has shape {a.shape}; batch_take computes 2-D a only (MXNet "
                "1.9.1 reads outside the array for more dimensions). Reshape it to (-1, M) "
                f"first: mx.sym.reshape(a, shape=(-1, {a.shape[-1]}))")
        columns = np.clip(indices.reshape(-1).astype(np.int64), 0, a.shape[1] - 1)
        taken = a[np.arange(a.shape[0]), columns]
        assign(out_data[0], req[0], taken.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """None in MXNet 1.9.1: refused (zeros below a BlockGrad)."""
        no_gradient(self, req, out_grad, in_grad)


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
