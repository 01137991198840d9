"""Dropout. Mirrors MXNet 1.9.1's src/operator/nn/dropout.cc."""

import numpy as np

from ...assign import assign
from ...random import generator
from ..common import in_range
from ..operator_base import Operator, register
from ..params import Param, boolean, optional, shape_tuple

__all__ = []


@register("Dropout")
class Dropout(Operator):
    """Training: keep each value with probability 1-p and scale by 1/(1-p). Testing: identity."""

    params = {
        "p": Param(float, 0.5, check=in_range(0, 1)),
        "mode": Param(str, "training", choices=("always", "training")),
        "axes": Param(shape_tuple, ()),
        "cudnn_off": Param(optional(boolean), False),
    }
    backward_needs = ("out_grad", "out_data")
    train_mode_matters = True

    def list_outputs(self):
        return ["output", "mask"]

    def num_visible_outputs(self):
        return 1

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output like data, and the mask (1 along ``axes``)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        # size 1 along ``axes``: one draw is shared along them (variational dropout)
        mask = tuple(1 if i in self.axes else d for i, d in enumerate(data))
        return [data], [data, mask], []

    def is_train_note(self, is_train, phase):
        """Whether this forward drops values: only in training, unless mode='always' or p=0."""
        if phase != "forward":
            return ""
        if self.p == 0:
            return "p=0: Dropout passes data through unchanged, whatever is_train is"
        drops = (
            f"Dropout zeroes each value with probability p={self.p:g} and multiplies the "
            "others by 1/(1-p)"
            + (f" = {1 / (1 - self.p):.4g}" if self.p < 1 else "")
            + "; the mask output holds those factors"
        )
        if self.mode == "always":
            return f"mode='always': {drops}, whatever is_train is"
        if is_train:
            return f"is_train=True: {drops}"
        return (
            "is_train=False: Dropout passes data through unchanged (the mask is all ones); "
            "forward(is_train=True) drops values"
        )

    def forward(self, is_train, req, in_data, out_data, aux):
        """output = data * mask; mask (1 along ``axes``) holds 0 or 1/(1-p). Identity when off."""
        (data,) = in_data
        mask_shape = out_data[1].shape
        if self.p > 0 and (is_train or self.mode == "always"):
            keep = generator().random(mask_shape) < 1 - self.p
            with np.errstate(divide="ignore", invalid="ignore"):  # p=1 gives NaN, like MXNet
                mask = keep.astype(data.dtype) / data.dtype.type(1 - self.p)
        else:
            mask = np.ones(mask_shape, data.dtype)
        assign(out_data[1], req[1], mask)
        assign(out_data[0], req[0], data * mask)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * mask (the mask broadcast along ``axes``)."""
        _, mask = out_data
        assign(in_grad[0], req[0], out_grad[0] * mask)
