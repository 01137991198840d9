"""_copy (identity), _identity_with_attr_like_rhs, reshape_like, Cast, hard_sigmoid, make_loss
and BlockGrad (stop_gradient). Mirrors MXNet 1.9.1's
src/operator/tensor/elemwise_unary_op_basic.cc; its math functions (relu, sigmoid, sign, round,
...) are rows of the tables in tensor/elemwise.py."""

import numpy as np

from ...assign import assign
from ...base import MXNetTypeError, MXNetValueError
from ..common import ElemwiseValues, LendsShape, check_dtype, dtype_param
from ..operator_base import register
from ..params import Param, optional
from ..rules import fmt, known, prod

__all__ = []


@register("reshape_like")
class ReshapeLike(LendsShape):
    """lhs's values in the shape of rhs (or lhs's axes lhs_begin:lhs_end replaced by rhs's
    axes rhs_begin:rhs_end); rhs only lends its shape."""

    params = {
        "lhs_begin": Param(optional(int), None),
        "lhs_end": Param(optional(int), None),
        "rhs_begin": Param(optional(int), None),
        "rhs_end": Param(optional(int), None),
    }
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
                "values count from the end)"
            )
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
                    f"{name}'s shape, or use Reshape with 0 / -1 codes"
                )
        lb, le = self._range("lhs", len(lhs))
        rb, re = self._range("rhs", len(rhs))
        out = lhs[:lb] + rhs[rb:re] + lhs[le:]
        if prod(out) != prod(lhs):
            raise MXNetValueError(
                f"{self.where}: cannot reshape lhs {fmt(lhs)} ({prod(lhs)} values) to "
                f"{fmt(out)} ({prod(out)} values) taken from rhs {fmt(rhs)}; the sizes must "
                "multiply to the same number"
            )
        return [lhs, rhs], [out], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs -> lhs's values in the output's shape (row-major order)."""
        assign(out_data[0], req[0], in_data[0].reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """lhs gets the head gradient reshaped back; rhs gets zeros (as MXNet writes them)."""
        assign(in_grad[0], req[0], out_grad[0].reshape(in_grad[0].shape))
        assign(in_grad[1], req[1], 0)


@register("_copy", "identity")
class Copy(ElemwiseValues):
    """The identity: output = data (a copy); the head gradient passes through unchanged."""

    backward_needs = ("out_grad",)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> the same values."""
        assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = dL/dout."""
        assign(in_grad[0], req[0], out_grad[0])


@register("_identity_with_attr_like_rhs")
class IdentityWithAttrLikeRhs(Copy):
    """out = lhs, with lhs, rhs and out constrained to one shape and dtype (rhs only lends
    them: a shape known on either side reaches the other); rhs gets a zero gradient."""

    def list_arguments(self):
        return ["lhs", "rhs"]

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/dlhs = dL/dout; dL/drhs = 0 (its values are never read)."""
        assign(in_grad[0], req[0], out_grad[0])
        assign(in_grad[1], req[1], 0)


@register("Cast", "cast")
class Cast(ElemwiseValues):
    """data converted to ``dtype`` (C's conversion: floats truncate toward zero for ints)."""

    params = {"dtype": dtype_param(None)}
    backward_needs = ("out_grad",)

    def validate(self):
        if self.dtype is None:
            raise MXNetValueError(
                f"{self.where}: required parameter 'dtype' is missing; give "
                "the type to convert to, e.g. mx.sym.cast(x, dtype='float16')"
            )
        check_dtype(self, self.dtype)

    def infer_type(self, in_type, out_type):
        """The output is ``dtype``; data keeps its own (it is not inferred from the output)."""
        return [in_type[0]], [np.dtype(self.dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any dtype) -> the same shape in ``dtype``."""
        with np.errstate(all="ignore"):  # out-of-range values wrap or become inf, as in C
            assign(out_data[0], req[0], in_data[0].astype(out_data[0].dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """The head gradient cast back to data's dtype."""
        assign(in_grad[0], req[0], out_grad[0].astype(in_grad[0].dtype))


@register("hard_sigmoid")
class HardSigmoid(ElemwiseValues):
    """max(0, min(1, alpha * x + beta)), elementwise."""

    params = {"alpha": Param(float, 0.2), "beta": Param(float, 0.5)}
    backward_needs = ("out_grad", "in_data")

    def _line(self, data):
        """alpha * data + beta in data's dtype."""
        return data.dtype.type(self.alpha) * data + data.dtype.type(self.beta)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> alpha * data + beta, limited to [0, 1]."""
        (data,) = in_data
        if not np.issubdtype(data.dtype, np.floating):  # MXNet's kernel has floats only
            raise MXNetTypeError(
                f"{self.where}: data is {data.dtype.name}, but hard_sigmoid computes in "
                "floating point (MXNet 1.9.1 fails here too); cast it first: "
                "mx.sym.cast(x, dtype='float32')"
            )
        assign(out_data[0], req[0], np.clip(self._line(data), 0, 1))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * alpha where 0 < alpha * x + beta < 1 (strictly: 0 at the corners)."""
        (data,) = in_data
        line = self._line(data)
        slope = np.where((line > 0) & (line < 1), data.dtype.type(self.alpha), 0)
        assign(in_grad[0], req[0], out_grad[0] * slope)


@register("make_loss")
class MakeLossNew(Copy):
    """Forward: identity; its output is ``loss``. Backward: ones, whatever the head gradient."""

    # MXNet 1.9.1 accepts MakeLoss's grad_scale and normalization here and ignores them: the
    # gradient stays ones (observed: grad_scale=2, normalization='batch' still gives 1).
    params = {
        "grad_scale": Param(float, 1.0),
        "normalization": Param(str, "null", choices=("batch", "null", "valid")),
    }
    call_params = ()  # mx.sym.make_loss(data, name, attr, out): parameters by keyword only
    backward_needs = ()
    head_loss = "mean"

    def list_outputs(self):
        return ["loss"]

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 1 everywhere (the head gradient is not read)."""
        assign(in_grad[0], req[0], 1)


@register("BlockGrad", "stop_gradient")
class BlockGrad(Copy):
    """Forward: identity. Backward: a zero gradient; needs no head gradient."""

    backward_needs = ()
    passes_gradient = False

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 0."""
        assign(in_grad[0], req[0], 0)
