"""UpSampling (nearest, or bilinear as a fixed Deconvolution). Mirrors MXNet 1.9.1's
src/operator/nn/upsampling.cc."""

import math

import numpy as np

from ...assign import assign
from ...base import MXNetValueError
from ..common import at_least
from ..operator_base import Operator, register
from ..params import Param
from ..rules import fmt, known
from .deconvolution import deconv_backward, deconv_forward

__all__ = ["UpSampling"]


@register("UpSampling")
class UpSampling(Operator):
    """Upsample NCHW maps by ``scale``: nearest repeats pixels (several inputs are upsampled to
    the first one's size times scale, then concatenated or summed); bilinear is a Deconvolution
    with one (kernel, kernel) filter per channel: its ``weight`` argument."""

    params = {
        "scale": Param(int, check=at_least(1)),
        "num_filter": Param(int, 0),
        "sample_type": Param(str, choices=("nearest", "bilinear")),
        "multi_input_mode": Param(str, "concat", choices=("concat", "sum")),
        "num_args": Param(int, check=at_least(1)),
        "workspace": Param(int, 512),
    }
    key_var_num_args = "num_args"

    @property
    def bilinear(self):
        return self.sample_type == "bilinear"

    @property
    def backward_needs(self):
        """nearest sums the head gradient back; bilinear is a Deconvolution's backward."""
        return ("out_grad", "in_data") if self.bilinear else ("out_grad",)

    def validate(self):
        """bilinear takes data and weight only (multi_input_mode is ignored, as in MXNet)."""
        if self.bilinear and self.num_args > 2:
            raise MXNetValueError(
                f"{self.where}: sample_type='bilinear' takes 2 inputs, data and weight, got "
                f"{self.num_args}. Pass only the data (the weight becomes the variable "
                f"{self.node_name}_weight, initialised as a bilinear filter) or both: "
                "mx.sym.UpSampling(data, weight, scale=2, sample_type='bilinear', num_filter=C)"
            )

    def list_arguments(self):
        if self.bilinear:
            return ["data", "weight"]
        return [f"arg{i}" for i in range(self.num_args)]

    def input_var_attrs(self, index):
        """MXNet initialises input 1 as a bilinear filter (meant for bilinear's weight)."""
        return {"__init__": '["bilinear", {}]'} if index == 1 else {}

    @property
    def kernel(self):
        """Bilinear's deconvolution kernel size, as MXNet derives it from scale."""
        return 2 * self.scale - self.scale % 2

    def _deconv_geometry(self):
        """(kernel, stride, dilate, pad) of bilinear's deconvolution, as MXNet derives them."""
        k, s = self.kernel, self.scale
        pad = math.ceil((s - 1) / 2)
        return (k, k), (s, s), (1, 1), (pad, pad)

    def infer_shape(self, in_shape, out_shape):
        """nearest: arg_i (N, C_i, h_i, w_i) -> (N, sum of C_i (or C for 'sum'), h_0*scale,
        w_0*scale); bilinear: data (N, C, H, W) -> weight (C, 1, k, k), output (N, C, sH, sW)."""
        if self.bilinear:
            return self._bilinear_shape(in_shape)
        names = self.list_arguments()
        for name, shape in zip(names, in_shape):
            if shape is not None and len(shape) != 4:
                raise MXNetValueError(
                    f"{self.where}: input {name!r} {fmt(shape)} must be 4-D "
                    "(batch, channel, height, width)"
                )
        first = in_shape[0]
        if first is None or any(s is None for s in in_shape):
            return list(in_shape), [None], []
        oh, ow = first[2] * self.scale, first[3] * self.scale
        for name, shape in zip(names, in_shape):
            self._check_divides(name, shape, oh, ow)
            if first[0] and shape[0] and shape[0] != first[0]:
                raise MXNetValueError(
                    f"{self.where}: input {name!r} {fmt(shape)} has batch size "
                    f"{shape[0]} but {names[0]!r} has {first[0]}"
                )
        return list(in_shape), [(first[0], self._out_channels(names, in_shape), oh, ow)], []

    def _out_channels(self, names, in_shape):
        """concat: the sum of the inputs' channels; sum: the count they share (0: unknown)."""
        sizes = [shape[1] for shape in in_shape]
        if self.multi_input_mode == "concat":
            return sum(sizes) if all(sizes) else 0
        given = [(name, size) for name, size in zip(names, sizes) if size]
        for name, size in given[1:]:
            if size != given[0][1]:
                raise MXNetValueError(
                    f"{self.where}: with multi_input_mode='sum' every input needs the same "
                    f"channels, but {name!r} has {size} and {given[0][0]!r} has {given[0][1]}; "
                    "use multi_input_mode='concat' to stack them instead"
                )
        return given[0][1] if given else 0

    def _check_divides(self, name, shape, oh, ow):
        """Input ``name`` is upsampled by one whole factor on both axes to (oh, ow)."""
        h, w = shape[2], shape[3]
        if not (h and w and oh and ow):
            return
        if oh % h or ow % w or oh // h != ow // w:
            raise MXNetValueError(
                f"{self.where}: input {name!r} {fmt(shape)} cannot be upsampled to the output "
                f"size ({oh}, {ow}) (the first input's size times scale={self.scale}): its "
                "height and width must divide the output's by one same whole factor"
            )

    def _bilinear_shape(self, in_shape):
        data = in_shape[0]
        if data is not None and len(data) != 4:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} must be 4-D (batch, channel, height, width)"
            )
        if not known(data):
            return list(in_shape), [None], []
        if data[1] != self.num_filter:
            raise MXNetValueError(
                f"{self.where}: sample_type='bilinear' filters each channel on its own, so "
                f"num_filter must equal the data's channels: data {fmt(data)} has {data[1]}, "
                f"num_filter={self.num_filter}; pass num_filter={data[1]}"
            )
        weight = (data[1], 1, self.kernel, self.kernel)
        return [data, weight], [(data[0], data[1], data[2] * self.scale, data[3] * self.scale)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """Each input repeated factor x factor times into its channels of the output (or
        summed into all of them); bilinear: the transposed convolution with ``weight``."""
        out = out_data[0]
        if self.bilinear:
            data, weight = in_data
            geometry = self._deconv_geometry()
            assign(out, req[0], deconv_forward(data, weight, out.shape, *geometry, self.num_filter))
            return
        pieces = [_repeat(x, out.shape[2] // x.shape[2]) for x in in_data]
        result = (
            sum(pieces[1:], pieces[0])
            if self.multi_input_mode == "sum"
            else np.concatenate(pieces, axis=1)
        )
        assign(out, req[0], result)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each input's gradient: its part of the head gradient summed over every block of
        factor x factor output pixels it was copied to."""
        dy = out_grad[0]
        if self.bilinear:
            data, weight = in_data
            geometry = self._deconv_geometry()
            dx, dw = deconv_backward(
                dy, data, weight, *geometry, self.num_filter, req[0] != "null", req[1] != "null"
            )
            assign(in_grad[0], req[0], dx)
            assign(in_grad[1], req[1], dw)
            return
        begin = 0
        for i, grad in enumerate(in_grad):
            c = grad.shape[1]
            part = dy if self.multi_input_mode == "sum" else dy[:, begin : begin + c]
            begin += c
            assign(grad, req[i], _block_sum(part, dy.shape[2] // grad.shape[2]))


def _repeat(x, factor):
    """(N, C, h, w) -> (N, C, h*factor, w*factor), each pixel a factor x factor block."""
    return np.repeat(np.repeat(x, factor, axis=2), factor, axis=3)


def _block_sum(dy, factor):
    """(N, C, H, W) -> (N, C, H/factor, W/factor): the sum of each factor x factor block."""
    n, c, h, w = dy.shape
    return dy.reshape(n, c, h // factor, factor, w // factor, factor).sum(axis=(3, 5))
