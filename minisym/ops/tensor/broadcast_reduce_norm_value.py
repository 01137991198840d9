"""norm. Mirrors MXNet 1.9.1's src/operator/tensor/broadcast_reduce_norm_value.cc."""

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..operator_base import register
from ..params import Param, boolean, optional, shape_tuple
from ..rules import known
from .broadcast_reduce_op import Reduce

__all__ = []


def _norm_dtype(text):
    """norm's out_dtype: None or a dtype name MXNet allows there."""
    value = text.strip()
    if value == "None":
        return None
    if value not in _NORM_DTYPES:
        raise ValueError(f"expected None or one of {', '.join(_NORM_DTYPES)}, got {text!r}")
    return value


_NORM_DTYPES = ("float16", "float32", "float64", "int32", "int64", "int8")


_norm_dtype.__name__ = "{None, " + ", ".join(repr(t) for t in _NORM_DTYPES) + "}"


@register("norm")
class Norm(Reduce):
    """The L1 (ord=1) or L2 (ord=2) norm over ``axis`` (all axes when None)."""

    params = {
        "ord": Param(
            int,
            2,
            check=lambda v: (
                None
                if v in (1, 2)
                else "norm supports only ord=1 (sum of |x|) and ord=2 (Euclidean)"
            ),
        ),
        "axis": Param(optional(shape_tuple), None),
        "out_dtype": Param(_norm_dtype, None),
        "keepdims": Param(boolean, False),
    }
    exclude = False

    def validate(self):
        """ord=1 reads only the data in backward; ord=2 also its own output (x / norm)."""
        self.backward_needs = (
            ("out_grad", "in_data") if self.ord == 1 else ("out_grad", "in_data", "out_data")
        )

    def infer_shape(self, in_shape, out_shape):
        """data -> data without the reduced axes ((1,) for all); as in MXNet, nothing until
        data is wholly known."""
        if not known(in_shape[0]):
            return [in_shape[0]], [None], []
        return super().infer_shape(in_shape, out_shape)

    def infer_type(self, in_type, out_type):
        """The output has out_dtype (data's dtype must then be known) or data's dtype."""
        if self.out_dtype is None:
            return super().infer_type(in_type, out_type)
        if in_type[0] is None:
            raise MXNetValueError(
                f"{self.where}: out_dtype={self.out_dtype} is given, so the "
                "data's dtype must be known too (as MXNet requires); give it"
            )
        return [in_type[0]], [np.dtype(self.out_dtype)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> the norm over the reduced axes, in the inferred output shape."""
        (data,) = in_data
        if out_data[0].dtype != data.dtype:
            raise MXNetValueError(
                f"{self.where}: out_dtype={self.out_dtype} differs from the data's dtype "
                f"{data.dtype.name}, and MXNet 1.9.1 cannot compute that (its forward fails: "
                "'data type do not match'). Cast first: mx.sym.norm(mx.sym.cast(x, "
                f"dtype='{self.out_dtype}'))"
            )
        axes = self.reduced_axes(data.ndim)
        if self.ord == 1:
            result = np.sum(np.abs(data), axis=axes, keepdims=True)
        else:
            result = np.sqrt(np.sum(np.square(data), axis=axes, keepdims=True))
        assign(out_data[0], req[0], result.reshape(out_data[0].shape))

    def local_gradient(self, grad, data, out):
        """d|x|/dx = sign(x) (0 at 0); d||x||/dx = x / ||x|| (NaN where the norm is 0, as
        MXNet gives)."""
        if self.ord == 1:
            return grad * np.sign(data)
        with np.errstate(invalid="ignore", divide="ignore"):
            return grad * data / out
