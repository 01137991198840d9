"""SVMOutput. Mirrors MXNet 1.9.1's src/operator/svm_output.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetTypeError, MXNetValueError
from .loss_common import class_index
from .operator_base import Operator, register
from .params import Param, boolean
from .rules import fmt, merge_known_shape, same_dtype

__all__ = []


@register("SVMOutput")
class SVMOutput(Operator):
    """Forward: identity. Backward: the hinge (L1) or squared hinge (L2) gradient of the
    labels' one-vs-rest margins, whatever the head gradient."""

    params = {
        "margin": Param(float, 1.0),
        "regularization_coefficient": Param(float, 1.0),
        "use_linear": Param(boolean, False),
    }

    def list_arguments(self):
        return ["data", "label"]

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The label and the output only (as MXNet's SVMOutput): no head gradient."""
        return [in_data[1], out_data[0]]

    def infer_shape(self, in_shape, out_shape):
        """data (..., C) -> output like data, label data.shape[:-1] (one class per row)."""
        data, label = in_shape
        if data is None:
            return [None, label], [out_shape[0]], []
        if len(data) < 2:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} needs at least 2 dimensions (batch, classes)"
            )
        try:
            label = merge_known_shape(label, data[:-1])
        except ValueError:
            raise MXNetValueError(
                f"{self.where}: label has shape {fmt(label)} but data {fmt(data)} needs "
                f"{fmt(data[:-1])}: one class index per row (data's shape without its last "
                "axis)"
            ) from None
        return [data, label], [data], []

    def infer_type(self, in_type, out_type):
        """Every input and the output take data's dtype, which must be known first (MXNet)."""
        if in_type[0] is None:
            if any(t is not None for t in list(in_type) + list(out_type)):
                raise MXNetTypeError(
                    f"{self.where}: First input must have specified type: give data's dtype "
                    "(the label's follows from it)"
                )
            return list(in_type), list(out_type), []
        return same_dtype(self, in_type, out_type)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., C) -> the same values (the scores)."""
        assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Per row with label k, on the scores s (the output): L1 gives -c at k where s_k <
        margin and c elsewhere where s_x > -margin; L2 gives -2c (margin - s_k) and
        2c (margin + s_x) there (c = regularization_coefficient); 0 otherwise."""
        out = out_data[0]
        dtype = out.dtype.type
        scores = out.reshape(-1, out.shape[-1])
        k = class_index(in_data[1].reshape(-1))
        is_label = np.arange(scores.shape[1])[None, :] == k[:, None]
        margin, coef = dtype(self.margin), dtype(self.regularization_coefficient)
        if self.use_linear:
            grad = np.where(
                is_label, np.where(margin > scores, -coef, 0), np.where(margin > -scores, coef, 0)
            )
        else:
            grad = -coef * np.where(
                is_label,
                np.where(margin > scores, 2 * (margin - scores), 0),
                np.where(margin > -scores, -2 * (margin + scores), 0),
            )
        assign(in_grad[0], req[0], grad.astype(out.dtype).reshape(out.shape))
        assign(in_grad[1], req[1], 0)
