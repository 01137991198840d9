"""softmin: softmax of -data. Mirrors MXNet 1.9.1's src/operator/nn/softmin.cc."""

import numpy as np

from ...base import MXNetTypeError, MXNetValueError
from ..operator_base import register
from .softmax import softmax

__all__ = []


@register("softmin")
class softmin(softmax):  # named as the MXNet operator
    """softmax(-data / temperature) along axis: the smallest value gets the largest share."""

    infers_data_from_output = True  # MXNet's softmin uses ElemwiseShape: both ways
    call_inputs = ("data",)

    def validate(self):
        """softmin has one input: use_length=True has no length to read (MXNet fails later)."""
        if self.use_length:
            raise MXNetValueError(
                f"{self.where}: use_length=True is not supported by softmin (it takes only "
                "data; MXNet 1.9.1 fails at inference); mask with softmax(-data, "
                "use_length=True) instead"
            )

    def list_arguments(self):
        return ["data"]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> softmin along axis (same shape); floating-point data only."""
        if not np.issubdtype(in_data[0].dtype, np.floating):  # MXNet's kernel has floats only
            raise MXNetTypeError(
                f"{self.where}: data is {in_data[0].dtype.name}, but softmin computes in "
                "floating point (MXNet 1.9.1 fails here too); cast it first: "
                "mx.sym.cast(x, dtype='float32')"
            )
        super().forward(is_train, req, in_data, out_data, aux)

    def _scaled(self, data):
        """-data / temperature."""
        return -super()._scaled(data)

    def _unscale(self, grad):
        """The chain rule through -data / temperature."""
        return -super()._unscale(grad)
