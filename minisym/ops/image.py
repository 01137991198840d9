"""The image layers of MXNet's example networks: UpSampling (nearest, or bilinear as a fixed
Deconvolution), Pad (constant / edge / reflect on the spatial axes) and LRN (local response
normalization across channels)."""
import math

import numpy as np

from ..base import MXNetValueError
from .assign import assign
from .common import at_least
from .deconvolution import deconv_backward, deconv_forward
from .params import Param, shape_tuple
from .registry import Operator, register
from .rules import fmt, known

__all__ = ["UpSampling", "Pad", "LRN"]


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
                "mx.sym.UpSampling(data, weight, scale=2, sample_type='bilinear', num_filter=C)")

    def list_arguments(self):
        if self.bilinear:
            return ["data", "weight"]
        return [f"arg{i}" for i in range(self.num_args)]

    def input_var_attrs(self, index):
        """MXNet initialises input 1 as a bilinear filter (meant for bilinear's weight)."""
        return {"__init__": '["bilinear", {}]'} if index == 1 else {}

    @property
    def kernel(self):
        """Bilinear's deconvolution kernel, stride and pad, as MXNet derives them from scale."""
        return 2 * self.scale - self.scale % 2

    def _deconv_geometry(self):
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
                raise MXNetValueError(f"{self.where}: input {name!r} {fmt(shape)} must be 4-D "
                                      "(batch, channel, height, width)")
        first = in_shape[0]
        if first is None or any(s is None for s in in_shape):
            return list(in_shape), [None], []
        oh, ow = first[2] * self.scale, first[3] * self.scale
        for name, shape in zip(names, in_shape):
            self._check_divides(name, shape, oh, ow)
            if first[0] and shape[0] and shape[0] != first[0]:
                raise MXNetValueError(f"{self.where}: input {name!r} {fmt(shape)} has batch size "
                                      f"{shape[0]} but {names[0]!r} has {first[0]}")
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
                    "use multi_input_mode='concat' to stack them instead")
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
                "height and width must divide the output's by one same whole factor")

    def _bilinear_shape(self, in_shape):
        data = in_shape[0]
        if data is not None and len(data) != 4:
            raise MXNetValueError(f"{self.where}: data {fmt(data)} must be 4-D (batch, channel, "
                                  "height, width)")
        if not known(data):
            return list(in_shape), [None], []
        if data[1] != self.num_filter:
            raise MXNetValueError(
                f"{self.where}: sample_type='bilinear' filters each channel on its own, so "
                f"num_filter must equal the data's channels: data {fmt(data)} has {data[1]}, "
                f"num_filter={self.num_filter}; pass num_filter={data[1]}")
        weight = (data[1], 1, self.kernel, self.kernel)
        return [data, weight], [(data[0], data[1], data[2] * self.scale,
                                 data[3] * self.scale)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """Each input repeated factor x factor times into its channels of the output (or
        summed into all of them); bilinear: the transposed convolution with ``weight``."""
        out = out_data[0]
        if self.bilinear:
            data, weight = in_data
            kernel, stride, dilate, pad = self._deconv_geometry()
            assign(out, req[0], deconv_forward(data, weight, out.shape, kernel, stride, dilate,
                                               pad, self.num_filter))
            return
        pieces = [_repeat(x, out.shape[2] // x.shape[2]) for x in in_data]
        result = sum(pieces[1:], pieces[0]) if self.multi_input_mode == "sum" else \
            np.concatenate(pieces, axis=1)
        assign(out, req[0], result)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each input's gradient: its part of the head gradient summed over every block of
        factor x factor output pixels it was copied to."""
        dy = out_grad[0]
        if self.bilinear:
            data, weight = in_data
            kernel, stride, dilate, pad = self._deconv_geometry()
            dx, dw = deconv_backward(dy, data, weight, kernel, stride, dilate, pad,
                                     self.num_filter, req[0] != "null", req[1] != "null")
            assign(in_grad[0], req[0], dx)
            assign(in_grad[1], req[1], dw)
            return
        begin = 0
        for i, grad in enumerate(in_grad):
            c = grad.shape[1]
            part = dy if self.multi_input_mode == "sum" else dy[:, begin:begin + c]
            begin += c
            assign(grad, req[i], _block_sum(part, dy.shape[2] // grad.shape[2]))


def _repeat(x, factor):
    """(N, C, h, w) -> (N, C, h*factor, w*factor), each pixel a factor x factor block."""
    return np.repeat(np.repeat(x, factor, axis=2), factor, axis=3)


def _block_sum(dy, factor):
    """(N, C, H, W) -> (N, C, H/factor, W/factor): the sum of each factor x factor block."""
    n, c, h, w = dy.shape
    return dy.reshape(n, c, h // factor, factor, w // factor, factor).sum(axis=(3, 5))


@register("Pad", "pad")
class Pad(Operator):
    """Pad the spatial axes of 4-D or 5-D data: with ``constant_value``, the edge values, or
    the reflection about the edge; ``pad_width`` is (before, after) per axis, flattened."""

    params = {
        "mode": Param(str, choices=("constant", "edge", "reflect")),
        "pad_width": Param(shape_tuple),
        "constant_value": Param(float, 0.0),
    }
    backward_needs = ("out_grad",)

    def validate(self):
        if any(p < 0 for p in self.pad_width):
            raise MXNetValueError(f"{self.where}: pad_width={self.pad_width} has a negative "
                                  "width; each width is a number of cells to add (0 or more)")

    def _widths(self):
        return list(zip(self.pad_width[0::2], self.pad_width[1::2]))

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, *x) with 2 or 3 spatial axes -> (N, C, *x + before + after)."""
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        rank = len(data)
        example = "(0, 0, 0, 0, 1, 1, 1, 1)" if rank != 5 else "(0, 0, 0, 0, 1, 1, 1, 1, 1, 1)"
        if rank not in (4, 5):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {rank} dimensions; Pad pads only 4-D "
                "(N, C, H, W) or 5-D (N, C, D, H, W) data. Reshape it (e.g. mx.sym.expand_dims) "
                "to 4-D first")
        if len(self.pad_width) != 2 * rank:
            raise MXNetValueError(
                f"{self.where}: pad_width={self.pad_width} has {len(self.pad_width)} values but "
                f"{rank}-D data {fmt(data)} needs {2 * rank}: (before, after) for every axis, "
                f"e.g. pad_width={example}")
        if any(self.pad_width[:4]):
            raise MXNetValueError(
                f"{self.where}: pad_width={self.pad_width} pads the batch or channel axis; Pad "
                "pads only the spatial axes, so its first four values must be 0, e.g. "
                f"pad_width={example}")
        if self.mode == "reflect":
            for axis, ((before, after), size) in enumerate(zip(self._widths(), data)):
                if size and max(before, after) >= size:
                    raise MXNetValueError(
                        f"{self.where}: mode='reflect' pads axis {axis} of size {size} by "
                        f"{max(before, after)}, but a reflection can add at most size - 1 = "
                        f"{size - 1} cells per side; pad less or use mode='edge'")
        out = tuple(size + before + after if size else 0
                    for size, (before, after) in zip(data, self._widths()))
        return [data], [out], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x) -> (N, C, *x padded) as numpy.pad with ``mode``."""
        (data,) = in_data
        if self.mode == "constant":
            out = np.pad(data, self._widths(), constant_values=self.constant_value)
        else:
            out = np.pad(data, self._widths(), mode=self.mode)
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Each input cell gets the head gradient of every output cell that copies it."""
        grad = out_grad[0]
        for axis, (before, after) in enumerate(self._widths()):
            if not before and not after:
                continue
            size = grad.shape[axis] - before - after
            if self.mode == "constant":
                grad = np.take(grad, np.arange(before, before + size), axis=axis)
                continue
            source = np.pad(np.arange(size), (before, after), mode=self.mode)
            summed = np.zeros(grad.shape[:axis] + (size,) + grad.shape[axis + 1:], grad.dtype)
            np.add.at(np.moveaxis(summed, axis, 0), source, np.moveaxis(grad, axis, 0))
            grad = summed
        assign(in_grad[0], req[0], grad)


@register("LRN")
class LRN(Operator):
    """Local response normalization across channels:
    out = data / (knorm + alpha / nsize * (sum of data^2 over nsize neighbouring channels))^beta.
    The denominator's base is kept as the hidden output ``tmp_norm`` for backward."""

    params = {
        "alpha": Param(float, 1e-4),
        "beta": Param(float, 0.75),
        "knorm": Param(float, 2.0),
        "nsize": Param(int, check=at_least(1)),
    }

    def list_outputs(self):
        return ["output", "tmp_norm"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The head gradient, data and tmp_norm (MXNet's _backward_LRN inputs)."""
        return [out_grad[0], in_data[0], out_data[1]]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output and tmp_norm like data; nothing while data has an
        unknown size (as in MXNet)."""
        data = in_shape[0]
        if data is not None and len(data) < 2:
            raise MXNetValueError(f"{self.where}: data {fmt(data)} needs a channel axis: "
                                  "(batch, channel, ...)")
        if not known(data):
            return [data], [None, None], []
        return [data], [data, data], []

    def _window_sum(self, values):
        """values (N, C, ...) summed over the channels c - h .. c + h, h = (nsize - 1) // 2,
        clipped to [0, C). (So an even nsize sums nsize - 1 channels but still divides alpha by
        nsize, as MXNet 1.9.1's CPU kernel does.)"""
        half = (self.nsize - 1) // 2
        c = values.shape[1]
        cum = np.concatenate([np.zeros_like(values[:, :1]), np.cumsum(values, axis=1)], axis=1)
        hi = np.minimum(np.arange(c) + half + 1, c)  # cum[:, j] = sum of channels below j
        lo = np.maximum(np.arange(c) - half, 0)
        return cum[:, hi] - cum[:, lo]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> data * tmp_norm^-beta, tmp_norm = knorm + alpha/nsize * window sum of data^2."""
        (data,) = in_data
        norm = self.knorm + (self.alpha / self.nsize) * self._window_sum(data * data)
        assign(out_data[0], req[0], data * norm ** -self.beta)
        assign(out_data[1], req[1], norm)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * n^-beta - 2 beta alpha/nsize * x * window sum of (dy * x * n^(-beta-1))."""
        (data,), dy, norm = in_data, out_grad[0], out_data[1]
        scale = -2.0 * self.beta * self.alpha / self.nsize
        grad = dy * norm ** -self.beta + scale * data * self._window_sum(
            dy * data * norm ** (-self.beta - 1))
        assign(in_grad[0], req[0], grad)
