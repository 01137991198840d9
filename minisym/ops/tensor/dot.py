"""Matrix products: dot and batch_dot (BLAS through NumPy).

MXNet's ``dot`` is not NumPy's for N-D arrays: it sums over the LAST axis of lhs and the FIRST
axis of rhs (``transpose_a`` makes it lhs's first axis, ``transpose_b`` rhs's last one), so
(2, 3, 4) x (4, 5, 6) is (2, 3, 5, 6). It is a matrix product of lhs and rhs seen as 2-D.

Mirrors MXNet 1.9.1's src/operator/tensor/dot.cc.
"""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..operator_base import Operator, register
from ..params import Param, boolean
from ..rules import fmt

__all__ = []


def _storage_type(text):
    """forward_stype: None or 'default' (minisym's arrays are dense)."""
    value = text.strip()
    if value in ("None", "default"):
        return None if value == "None" else value
    if value in ("csr", "row_sparse"):
        raise ValueError(
            f"forward_stype={value!r} asks for a sparse result, and minisym's "
            "arrays are dense; leave forward_stype out"
        )
    raise ValueError(f"expected None, 'csr', 'default' or 'row_sparse', got {text!r}")


_storage_type.__name__ = "{None, 'csr', 'default', 'row_sparse'}"


_PARAMS = {
    "transpose_a": Param(boolean, False),
    "transpose_b": Param(boolean, False),
    "forward_stype": Param(_storage_type, None),
}


class _Product(Operator):
    """What dot and batch_dot share: inputs lhs, rhs and reading both in backward."""

    params = _PARAMS
    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["lhs", "rhs"]

    def _flags(self):
        shown = [
            f"transpose_{s}=True"
            for s, t in (("a", self.transpose_a), ("b", self.transpose_b))
            if t
        ]
        return f" ({', '.join(shown)})" if shown else ""


@register("dot")
class Dot(_Product):
    """lhs (.., k) x rhs (k, ..) -> lhs[:-1] + rhs[1:]; 1-D x 1-D is the inner product (1,)."""

    def _contracted(self, lhs, rhs):
        """(lhs axis, rhs axis) that are summed over."""
        return (0 if self.transpose_a else len(lhs) - 1, len(rhs) - 1 if self.transpose_b else 0)

    def infer_shape(self, in_shape, out_shape):
        """lhs, rhs -> the kept axes of lhs then of rhs; nothing comes back to the inputs (as in
        MXNet), and the summed-over size must be known on both sides."""
        lhs, rhs = in_shape
        if lhs is None or rhs is None:
            return [lhs, rhs], [None], []
        if len(lhs) == 1 and len(rhs) == 1:
            if self.transpose_a or self.transpose_b:
                raise MXNetValueError(
                    f"{self.where}: lhs {fmt(lhs)} and rhs {fmt(rhs)} are "
                    "vectors, which cannot be transposed; leave out "
                    "transpose_a / transpose_b"
                )
            self._check_sizes(lhs, rhs, 0, 0)
            return [lhs, rhs], [(1,)], []
        la, ra = self._contracted(lhs, rhs)
        self._check_sizes(lhs, rhs, la, ra)
        kept_l = (lhs[1:] if self.transpose_a else lhs[:-1]) if len(lhs) > 1 else ()
        kept_r = (rhs[:-1] if self.transpose_b else rhs[1:]) if len(rhs) > 1 else ()
        return [lhs, rhs], [kept_l + kept_r], []

    def _check_sizes(self, lhs, rhs, la, ra):
        k_l, k_r = lhs[la], rhs[ra]
        side = lambda name, shape, axis: f"{name} {fmt(shape)} axis {axis}"
        if not k_l or not k_r:
            unknown = side("lhs", lhs, la) if not k_l else side("rhs", rhs, ra)
            raise MXNetValueError(
                f"{self.where}: the size dot sums over is unknown ({unknown} is 0); MXNet "
                "cannot infer dot's shape then. Give that size"
            )
        if k_l != k_r:
            hint = ""
            if not self.transpose_b and len(rhs) > 1 and lhs[la] == rhs[-1]:
                hint = " transpose_b=True multiplies by rhs transposed."
            elif not self.transpose_a and len(lhs) > 1 and lhs[0] == rhs[ra]:
                hint = " transpose_a=True multiplies lhs transposed."
            raise MXNetValueError(
                f"{self.where}: dot shape error: lhs {fmt(lhs)} x rhs {fmt(rhs)}{self._flags()}: "
                f"dot sums lhs axis {la} (size {k_l}) against rhs axis {ra} (size {k_r}), which "
                f"must be equal.{hint} Check which side should be transposed."
            )

    def _matrices(self, lhs, rhs):
        """lhs and rhs as the 2-D matrices MXNet multiplies."""
        a = lhs.reshape(lhs.shape[0], -1).T if self.transpose_a else lhs.reshape(-1, lhs.shape[-1])
        b = rhs.reshape(-1, rhs.shape[-1]).T if self.transpose_b else rhs.reshape(rhs.shape[0], -1)
        return a, b

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs, rhs -> their matrix product in the inferred shape."""
        a, b = self._matrices(*in_data)
        assign(out_data[0], req[0], np.dot(a, b).reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """d lhs = head x rhs^T, d rhs = lhs^T x head (as matrices, transposed back)."""
        lhs, rhs = in_data
        a, b = self._matrices(lhs, rhs)
        head = out_grad[0].reshape(a.shape[0], b.shape[1])
        if req[0] != "null":
            grad = np.dot(head, b.T)
            assign(in_grad[0], req[0], (grad.T if self.transpose_a else grad).reshape(lhs.shape))
        if req[1] != "null":
            grad = np.dot(a.T, head)
            assign(in_grad[1], req[1], (grad.T if self.transpose_b else grad).reshape(rhs.shape))


@register("batch_dot")
class BatchDot(_Product):
    """lhs (B.., m, k) x rhs (B.., k, n) -> (B.., m, n): one matrix product per batch entry."""

    def infer_shape(self, in_shape, out_shape):
        """lhs, rhs (N >= 3 dimensions each, equal leading sizes) -> (B.., m, n); as in MXNet,
        nothing until lhs's last size and rhs's second-to-last are known."""
        lhs, rhs = in_shape
        if lhs is None or rhs is None:
            return [lhs, rhs], [None], []
        if not (len(lhs) >= 3 and len(rhs) == len(lhs)):
            raise MXNetValueError(
                f"{self.where}: batch_dot multiplies batches of matrices: lhs and rhs need the "
                f"same number (>= 3) of dimensions, but lhs is {fmt(lhs)} and rhs {fmt(rhs)}. "
                "For a plain matrix product use mx.sym.dot; for one matrix per example, "
                "reshape to (batch, rows, columns)"
            )
        if not lhs[-1] or not rhs[-2]:
            return [lhs, rhs], [None], []
        if lhs[:-2] != rhs[:-2]:
            raise MXNetValueError(
                f"{self.where}: batch_dot shape error: the leading (batch) sizes of lhs "
                f"{fmt(lhs)} and rhs {fmt(rhs)} must be equal{self._flags()}: "
                f"{fmt(lhs[:-2])} vs {fmt(rhs[:-2])}"
            )
        m, k_l = (lhs[-1], lhs[-2]) if self.transpose_a else (lhs[-2], lhs[-1])
        n, k_r = (rhs[-2], rhs[-1]) if self.transpose_b else (rhs[-1], rhs[-2])
        if k_l != k_r:
            raise MXNetValueError(
                f"{self.where}: batch_dot shape error: lhs {fmt(lhs)} x rhs {fmt(rhs)}"
                f"{self._flags()}: each product sums over {k_l} columns of lhs but {k_r} rows "
                "of rhs; they must be equal. Check transpose_a / transpose_b"
            )
        return [lhs, rhs], [lhs[:-2] + (m, n)], []

    def _operands(self, lhs, rhs):
        return (
            np.swapaxes(lhs, -1, -2) if self.transpose_a else lhs,
            np.swapaxes(rhs, -1, -2) if self.transpose_b else rhs,
        )

    def forward(self, is_train, req, in_data, out_data, aux):
        """lhs, rhs -> np.matmul of each batch entry's matrices."""
        a, b = self._operands(*in_data)
        assign(out_data[0], req[0], np.matmul(a, b))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Per batch entry: d lhs = head x rhs^T, d rhs = lhs^T x head (transposed back)."""
        a, b = self._operands(*in_data)
        head = out_grad[0]
        if req[0] != "null":
            grad = np.matmul(head, np.swapaxes(b, -1, -2))
            assign(in_grad[0], req[0], np.swapaxes(grad, -1, -2) if self.transpose_a else grad)
        if req[1] != "null":
            grad = np.matmul(np.swapaxes(a, -1, -2), head)
            assign(in_grad[1], req[1], np.swapaxes(grad, -1, -2) if self.transpose_b else grad)
