"""ROIPooling: max pooling of each region of interest of a feature map into a fixed grid (the
Fast / Faster R-CNN layer). The bin geometry is MXNet's, rounding included; the max loops run
in minisym/kernels/roi.py, with the NumPy reference below. Mirrors MXNet 1.9.1's
src/operator/roi_pooling.cc."""

import numpy as np

from ..assign import assign
from ..base import MXNetValueError
from ..kernels import roi as kroi
from .common import fast_path
from .operator_base import Operator, register
from .params import Param, shape_tuple
from .rules import ShapeConflict, fmt, merge_value

__all__ = ["ROIPooling", "roi_bins", "roi_pool_reference", "roi_unpool_reference"]


def _pooled_size(value):
    if len(value) != 2 or min(value) < 1:
        return "give two sizes of at least 1: (height, width) of every pooled roi"
    return None


def _scale(value):
    if 0.0 <= value <= 1.0:
        return None
    return (
        "must be between 0 and 1: the feature map's size over the image's, e.g. 1/16 = 0.0625 "
        "after four stride-2 layers"
    )


@register("ROIPooling")
class ROIPooling(Operator):
    """data (N, C, H, W), rois (R, 5) rows [batch_index, x1, y1, x2, y2] in image pixels ->
    (R, C, pooled_h, pooled_w): the max of each bin of each roi scaled by spatial_scale."""

    params = {
        "pooled_size": Param(shape_tuple, check=_pooled_size),
        "spatial_scale": Param(float, check=_scale),
    }
    no_gradient_inputs = ("rois",)

    def list_arguments(self):
        return ["data", "rois"]

    def list_outputs(self):
        return ["output", "maxidx"]

    def num_visible_outputs(self):
        return 1

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The head gradient, the rois and maxidx (MXNet's declaration; data is not read)."""
        return [out_grad[0], in_data[1], out_data[1]]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, H, W), rois (R, 5) -> output and maxidx (R, C, pooled_h, pooled_w)."""
        data, rois = in_shape
        if data is not None and len(data) != 4:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} must be a 4-D feature map "
                "(batch, channel, height, width), such as a Convolution's "
                "output"
            )
        if rois is not None and (len(rois) != 2 or rois[1] not in (0, 5)):
            raise MXNetValueError(
                f"{self.where}: rois {fmt(rois)} must be 2-D of shape (number of rois, 5), one "
                "row [batch_index, x1, y1, x2, y2] per roi"
            )
        if data is None or rois is None:
            return [data, rois], [None, None], []
        out = (rois[0], data[1]) + tuple(self.pooled_size)
        return [data, rois], [out, out], []

    def infer_type(self, in_type, out_type):
        """rois share data's dtype; maxidx holds int32 indices (as in MXNet)."""
        try:
            dtype = merge_value(in_type[0], in_type[1])
        except ShapeConflict:
            raise MXNetValueError(
                f"{self.where}: rois have dtype {np.dtype(in_type[1]).name} but data "
                f"{np.dtype(in_type[0]).name}; cast the rois with mx.sym.cast(rois, "
                f"dtype='{np.dtype(in_type[0]).name}')"
            ) from None
        return [dtype, dtype], [dtype, np.dtype(np.int32)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """The max of every bin of every roi, and where it was (maxidx, -1 for none)."""
        data, rois = in_data
        bins = roi_bins(rois, self.spatial_scale, self.pooled_size, data.shape, data.dtype)
        if fast_path(data, 2):
            out = np.empty(out_data[0].shape, data.dtype)
            argmax = np.empty(out.shape, np.int64)
            kroi.roi_pool_forward(data, bins, out, argmax)
        else:
            out, argmax = roi_pool_reference(data, bins, self.pooled_size)
        assign(out_data[0], req[0], out)
        assign(out_data[1], req[1], argmax)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """d data: each head gradient added at its maximum; the rois get none (zeros under
        'write', as in MXNet)."""
        rois = in_data[1]
        dy, argmax = out_grad[0], out_data[1].astype(np.int64)
        if argmax.shape[0] != rois.shape[0]:
            raise MXNetValueError(
                f"{self.where}: maxidx has {argmax.shape[0]} rows but rois {rois.shape[0]}"
            )
        if req[0] != "null":
            if fast_path(dy, 2):
                grad = kroi.roi_pool_backward(dy, argmax, in_grad[0].shape)
            else:
                grad = roi_unpool_reference(dy, argmax, in_grad[0].shape)
            assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)


def _round_half_away(values):
    """C's std::round: halves go away from zero (NumPy's round goes to even)."""
    whole = np.trunc(values)
    return (whole + np.sign(values) * (np.abs(values - whole) >= 0.5)).astype(np.int64)


def roi_bins(rois, spatial_scale, pooled_size, data_shape, dtype):
    """(batch, hstart, hend, wstart, wend): each roi's image index (R,) and the rows
    [hstart, hend) (R, PH) and columns [wstart, wend) (R, PW) of each bin, clipped to the map.

    MXNet's rule, computed in data's dtype as MXNet does: the corners times spatial_scale
    rounded half away from zero; the roi is end - start + 1 cells (at least 1); bin i spans
    floor(i * size / pooled) to ceil((i + 1) * size / pooled) from the roi's start.
    """
    dtype = np.dtype(dtype)
    rois = np.asarray(rois, dtype)
    scale = dtype.type(np.float32(spatial_scale))  # MXNet keeps spatial_scale as a float
    corners = _round_half_away(rois[:, 1:5] * scale)  # x1, y1, x2, y2
    batch = np.trunc(rois[:, 0]).astype(np.int64)
    height, width = data_shape[2], data_shape[3]
    rows = _bins(corners[:, 1], corners[:, 3], pooled_size[0], height, dtype)
    cols = _bins(corners[:, 0], corners[:, 2], pooled_size[1], width, dtype)
    return (batch,) + rows + cols


def _bins(start, end, pooled, size, dtype):
    """[first, last) cells of each of ``pooled`` bins along one axis, per roi."""
    length = np.maximum(end - start + 1, 1).astype(dtype)
    bin_size = length / dtype.type(pooled)
    steps = np.arange(pooled + 1, dtype=dtype)
    edges = steps[None, :] * bin_size[:, None]  # in dtype, as MXNet multiplies
    first = np.floor(edges[:, :-1]).astype(np.int64) + start[:, None]
    last = np.ceil(edges[:, 1:]).astype(np.int64) + start[:, None]
    return np.clip(first, 0, size), np.clip(last, 0, size)


def roi_pool_reference(data, bins, pooled_size):
    """The plain NumPy pooling: (out (R, C, PH, PW), argmax flat indices into data)."""
    batch, hstart, hend, wstart, wend = bins
    n_img, channels, height, width = data.shape
    n_rois = len(batch)
    out = np.zeros((n_rois, channels) + tuple(pooled_size), data.dtype)
    argmax = np.full(out.shape, -1, np.int64)
    lowest = -np.finfo(np.float32).max
    flat = np.arange(data[0].size).reshape(data.shape[1:])
    for r in range(n_rois):
        if not 0 <= batch[r] < n_img:
            continue
        for i in range(pooled_size[0]):
            for j in range(pooled_size[1]):
                window = (
                    slice(None),
                    slice(hstart[r, i], hend[r, i]),
                    slice(wstart[r, j], wend[r, j]),
                )
                values = data[batch[r]][window].reshape(channels, -1)
                if values.shape[1] == 0:
                    continue
                best = values.argmax(axis=1)
                top = values[np.arange(channels), best]
                found = top > lowest
                out[r, :, i, j] = np.where(found, top, lowest)
                where = flat[window].reshape(channels, -1)[np.arange(channels), best]
                argmax[r, :, i, j] = np.where(found, where + batch[r] * data[0].size, -1)
    return out, argmax


def roi_unpool_reference(dy, argmax, data_shape):
    """d data: the head gradient of each output added at its argmax (skipping -1)."""
    hit = argmax >= 0
    summed = np.bincount(argmax[hit], weights=dy[hit], minlength=int(np.prod(data_shape)))
    return summed.astype(dy.dtype).reshape(data_shape)
