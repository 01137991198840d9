"""take, batch_take, one_hot and Embedding. Mirrors MXNet 1.9.1's
src/operator/tensor/indexing_op.cc.

Indices arrive as float arrays (MXNet's default dtype) and are read as MXNet reads them:
truncated toward zero (1.7 is 1, -0.5 is 0), then clipped or wrapped as ``mode`` says.
"""

import warnings

import numpy as np

from ...assign import assign
from ...base import MXNetError, MXNetValueError
from ..common import NoGradient, as_indices, at_least, axis_in, index_dtype_known, wrap_or_clip
from ..operator_base import Operator, register
from ..params import Param, boolean, dtype_str
from ..rules import fmt, known, merge_value, prod

__all__ = []


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
                "the shape of the variable that feeds 'a' (unknown sizes may be 0, e.g. (10, 0))"
            )
        axis = axis_in(self, self.axis, len(a))
        return [a, indices], [a[:axis] + indices + a[axis + 1 :]], []

    def infer_type(self, in_type, out_type):
        """The output has a's dtype; indices keep their own, which must be known."""
        index_dtype_known(self, in_type, 1)
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, in_type[1]], [dtype], []

    def _rows(self, a, indices):
        """(axis, indices as ints inside [0, n)) after clip / wrap, or the raise check."""
        axis = self.axis % a.ndim
        size = a.shape[axis]
        if self.mode != "raise":
            return axis, wrap_or_clip(indices, size, self.mode)
        bad = (indices < 0) | (indices > size - 1)
        if bad.any():
            value = indices[bad].ravel()[0]
            raise MXNetValueError(
                f"{self.where}: indices contain {value:g}, outside [0, {size - 1}] (axis {axis} "
                f"of a has size {size}) and mode='raise' refuses it. Use mode='clip' (clamp into "
                "range, the default) or mode='wrap' (count around), or fix the indices"
            )
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
                "'idx': 'null'}"
            )
        if req[0] != "null":
            axis, rows = self._rows(a, indices)
            flat = rows.reshape(-1)
            head = out_grad[0].reshape(a.shape[:axis] + (flat.size,) + a.shape[axis + 1 :])
            grad = np.zeros(
                (a.shape[axis],) + a.shape[:axis] + a.shape[axis + 1 :], out_grad[0].dtype
            )
            np.add.at(grad, flat, np.moveaxis(head, axis, 0))
            assign(in_grad[0], req[0], np.moveaxis(grad, 0, axis))
        assign(in_grad[1], req[1], 0)


@register("batch_take")
class BatchTake(NoGradient):
    """a (N, M), indices (N,) int32 -> out[i] = a[i, indices[i]], each index clipped into
    [0, M-1]; deprecated in MXNet for pick(a, indices, axis=1), and without a gradient."""

    no_gradient_inputs = ("indices",)
    instead = "mx.sym.pick(a, indices, axis=1)"

    def list_arguments(self):
        return ["a", "indices"]

    def infer_shape(self, in_shape, out_shape):
        """a (N, M), indices (any shape of N elements) -> indices's shape. As in MXNet, a's
        shape and both shapes' sizes must be known whenever the rule runs (no partial
        inference), and the output is never given back to indices."""
        warnings.warn(
            "batch_take is deprecated. Please use pick instead.", FutureWarning, stacklevel=2
        )
        a, indices = in_shape
        out = indices if indices is not None else out_shape[0]
        if a is None or len(a) < 2:
            raise MXNetValueError(
                f"{self.where}: input 0 'a' must have at least 2 dimensions, but its shape is "
                f"{fmt(a)}; MXNet's batch_take needs it whenever shapes are inferred, even "
                "partially. Give the shape of the variable that feeds 'a', e.g. (N, M)"
            )
        if not (known(a) and known(out)):
            raise MXNetValueError(
                f"{self.where}: a {fmt(a)} and indices {fmt(indices)} must both be wholly known "
                "whenever shapes are inferred (MXNet's batch_take infers nothing partially); "
                "give every size of both"
            )
        if prod(a) // a[-1] != prod(out):
            raise MXNetValueError(
                f"{self.where}: indices {fmt(out)} has {prod(out)} elements but a {fmt(a)} has "
                f"{prod(a) // a[-1]} rows; give one index per row of a"
            )
        return [a, indices], [out], []

    def infer_type(self, in_type, out_type):
        """The output has a's dtype; indices are int32 (MXNet refuses any other dtype)."""
        if in_type[1] is not None and np.dtype(in_type[1]) != np.int32:
            raise MXNetValueError(
                f"{self.where}: input 1 'indices' has dtype {np.dtype(in_type[1]).name}, but "
                "batch_take reads int32 indices only (MXNet: Type inconsistent, Provided = "
                f"{np.dtype(in_type[1]).name}, inferred type = int32). Make them int32: "
                "mx.nd.array(idx, dtype='int32'), mx.sym.var('idx', dtype='int32') or "
                "simple_bind(..., type_dict={'idx': 'int32'})"
            )
        dtype = merge_value(in_type[0], out_type[0])
        return [dtype, np.dtype(np.int32)], [dtype], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """a, indices -> a[i, clip(indices[i], 0, M-1)] for every row i."""
        a, indices = in_data
        if a.ndim != 2:
            raise MXNetValueError(
                f"{self.where}: a has shape {a.shape}; batch_take computes 2-D a only (MXNet "
                "1.9.1 reads outside the array for more dimensions). Reshape it to (-1, M) "
                f"first: mx.sym.reshape(a, shape=(-1, {a.shape[-1]}))"
            )
        columns = np.clip(indices.reshape(-1).astype(np.int64), 0, a.shape[1] - 1)
        taken = a[np.arange(a.shape[0]), columns]
        assign(out_data[0], req[0], taken.reshape(out_data[0].shape))


@register("one_hot")
class OneHot(Operator):
    """indices (any shape) -> indices.shape + (depth,): on_value at each index, off_value
    elsewhere (an index outside [0, depth) gives a row of off_value)."""

    params = {
        "depth": Param(int, check=lambda v: None if v >= 0 else "depth must be >= 0"),
        "on_value": Param(float, 1.0),
        "off_value": Param(float, 0.0),
        "dtype": Param(dtype_str, "float32"),
    }
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
        index_dtype_known(self, in_type, 0)
        return [in_type[0]], [np.dtype(self.dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """indices -> one row of depth values per index."""
        (indices,) = in_data
        idx = as_indices(indices)[..., None]
        hot = idx == np.arange(self.depth)
        assign(out_data[0], req[0], np.where(hot, self.on_value, self.off_value))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """No gradient: the indices get zeros (as MXNet writes them)."""
        assign(in_grad[0], req[0], 0)


@register("Embedding")
class Embedding(Operator):
    """Row lookup: data (any shape, integer ids) -> data.shape + (output_dim,)."""

    params = {
        "input_dim": Param(int, check=at_least(1)),
        "output_dim": Param(int, check=at_least(1)),
        "dtype": Param(dtype_str, "float32"),
        "sparse_grad": Param(boolean, False),
    }
    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("data",)

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> weight (input_dim, output_dim), output data.shape + (output_dim,)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        return [data, (self.input_dim, self.output_dim)], [data + (self.output_dim,)], []

    def infer_type(self, in_type, out_type):
        """weight and output take ``dtype``; the ids keep their own (``dtype`` if unknown)."""
        dtype = np.dtype(self.dtype)
        data = in_type[0] if in_type[0] is not None else dtype
        return [data, dtype], [dtype], []

    def _rows(self, data):
        """The weight row of every id: truncated to an integer, clipped to [0, input_dim)."""
        return np.clip(data.astype(np.int64), 0, self.input_dim - 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) of ids, weight (input_dim, output_dim) -> data.shape + (output_dim,)."""
        data, weight = in_data
        assign(out_data[0], req[0], weight[self._rows(data)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dweight[i] = sum of dy over the positions whose id is i; ids have no gradient."""
        data, weight = in_data
        if req[0] != "null":
            raise MXNetError(
                f"{self.where}: Embedding layer doesn't support calculate data "
                f"gradient: the ids have none. Bind with grad_req 'null' for the "
                f"data input (e.g. grad_req={{'{self.node_name}_weight': 'write'}}"
                " or Module's default inputs_need_grad=False)."
            )
        if req[1] != "null":
            dweight = np.zeros_like(weight)
            np.add.at(dweight, self._rows(data), out_grad[0])
            assign(in_grad[1], req[1], dweight)
