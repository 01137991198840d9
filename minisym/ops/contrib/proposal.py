"""Region proposals of Faster R-CNN: _contrib_Proposal and _contrib_MultiProposal
(``mx.sym.contrib.Proposal`` / ``MultiProposal``).

Per image, as MXNet 1.9.1's CPU code does it, in float32: one anchor box per (ratio, scale) at
every cell of the feature map; each moved and resized by its ``bbox_pred`` deltas and clipped
to the image; boxes on cells outside the real image (``im_info``) and boxes smaller than
``rpn_min_size`` get the score -1; the ``rpn_pre_nms_top_n`` best by foreground score go through
non-maximum suppression; the survivors, repeated cyclically when there are too few, fill exactly
``rpn_post_nms_top_n`` rows ``[image index, x1, y1, x2, y2]``. The proposals are not
differentiated: the gradient of every input is zero.

Mirrors MXNet 1.9.1's src/operator/contrib/proposal.cc: _contrib_Proposal and what
multi_proposal.py's _contrib_MultiProposal shares with it (``Proposals``).
"""

import ast

import numpy as np

from ...assign import assign
from ...base import MXNetTypeError, MXNetValueError
from ...kernels import fast_kernels_enabled
from ...kernels.nms import nms
from ..operator_base import Operator, register
from ..params import Param, boolean
from ..rules import ShapeConflict, fmt, known, merge_shape

__all__ = ["Proposals", "anchors", "decode_boxes", "nms_reference", "propose"]


F32 = np.float32


def float_tuple(text):
    """'(0.5, 1, 2)', '[8, 16]' or '8' -> a tuple of floats (MXNet's Tuple<float>)."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        value = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = (value,)
    if isinstance(value, (tuple, list)) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        return tuple(float(v) for v in value)
    raise ValueError(f"expected a tuple of numbers such as (8, 16, 32), got {text!r}")


float_tuple.__name__ = "tuple of floats"


def _at_least(low):
    return lambda v: None if v >= low else f"must be at least {low}"


def _positive_sizes(values):
    if not values:
        return "give at least one value"
    if any(v <= 0 for v in values):
        return "every value must be > 0 (anchors of size 0 or less are not boxes)"
    return None


# --- the computation, step by step (plain NumPy, float32 as MXNet) ---------------------------
def anchors(feature_stride, scales, ratios):
    """(len(ratios) * len(scales), 4) float32 anchors [x1, y1, x2, y2] centred on the first
    cell, ratio-major: MXNet's rounding of widths and heights to whole pixels included."""
    side = F32(feature_stride - 1.0)
    w = h = F32(side + F32(1.0))
    centre = F32(0.5 * (np.float64(w) - 1.0))
    rows = []
    for ratio in map(F32, ratios):
        for scale in map(F32, scales):
            size_ratio = np.floor(F32(w * h) / ratio)
            new_w = F32(np.floor(F32(np.sqrt(size_ratio)) + F32(0.5)) * scale)
            new_h = F32(np.floor(F32(new_w / scale * ratio) + F32(0.5)) * scale)
            half_w, half_h = F32(0.5) * (new_w - F32(1.0)), F32(0.5) * (new_h - F32(1.0))
            rows.append([centre - half_w, centre - half_h, centre + half_w, centre + half_h])
    return np.array(rows, F32)


def shifted_anchors(base, height, width, feature_stride):
    """(height * width * A, 4): the anchors moved to every cell, ordered (row, column, anchor)."""
    ys, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    shifts = np.stack([xs, ys, xs, ys], axis=-1).reshape(-1, 1, 4) * feature_stride
    return (base[None, :, :] + shifts.astype(F32)).reshape(-1, 4)


def decode_boxes(boxes, deltas, im_height, im_width, iou_loss):
    """Anchors (n, 4) moved by deltas (n, 4), clipped to [0, size - 1]. Centre and log-size
    deltas (dx, dy, dw, dh), or with ``iou_loss`` corner offsets; float32 with MXNet's
    double-precision steps."""
    d = deltas.astype(F32)
    if iou_loss:
        pred = boxes + d
    else:
        width = boxes[:, 2] - boxes[:, 0] + F32(1.0)
        height = boxes[:, 3] - boxes[:, 1] + F32(1.0)
        ctr_x = (boxes[:, 0] + 0.5 * (width.astype(np.float64) - 1.0)).astype(F32)
        ctr_y = (boxes[:, 1] + 0.5 * (height.astype(np.float64) - 1.0)).astype(F32)
        pred_ctr_x = (d[:, 0] * width + ctr_x).astype(np.float64)
        pred_ctr_y = (d[:, 1] * height + ctr_y).astype(np.float64)
        pred_w = np.exp(d[:, 2].astype(np.float64)).astype(F32) * width
        pred_h = np.exp(d[:, 3].astype(np.float64)).astype(F32) * height
        half_w = 0.5 * (pred_w.astype(np.float64) - 1.0)
        half_h = 0.5 * (pred_h.astype(np.float64) - 1.0)
        pred = np.stack(
            [pred_ctr_x - half_w, pred_ctr_y - half_h, pred_ctr_x + half_w, pred_ctr_y + half_h],
            axis=1,
        ).astype(F32)
    limits = np.array([im_width, im_height, im_width, im_height], F32) - F32(1.0)
    return np.maximum(np.minimum(pred, limits), F32(0.0)).astype(F32)


def mark_small_boxes(dets, min_size):
    """Boxes narrower or lower than ``min_size`` get the score -1 and grow by min_size / 2
    on each side (MXNet's FilterBox); ``dets`` (n, 5) changes in place."""
    min_size = F32(min_size)
    small = (dets[:, 2] - dets[:, 0] + F32(1.0) < min_size) | (
        dets[:, 3] - dets[:, 1] + F32(1.0) < min_size
    )
    half = min_size / F32(2)
    dets[small, :2] -= half
    dets[small, 2:4] += half
    dets[small, 4] = -1.0


def nms_reference(boxes, threshold, limit):
    """Plain-NumPy twin of ``minisym.kernels.nms.nms``: indices of at most ``limit`` boxes
    kept, each suppressing the later boxes it overlaps by more than ``threshold``."""
    boxes = np.asarray(boxes[:, :4], F32)
    one = F32(1.0)
    area = (boxes[:, 2] - boxes[:, 0] + one) * (boxes[:, 3] - boxes[:, 1] + one)
    suppressed = np.zeros(len(boxes), bool)
    keep = []
    for i in range(len(boxes)):
        if len(keep) >= limit:
            break
        if suppressed[i]:
            continue
        keep.append(i)
        rest = np.arange(i + 1, len(boxes))[~suppressed[i + 1 :]]
        x1, y1 = np.maximum(boxes[i, 0], boxes[rest, 0]), np.maximum(boxes[i, 1], boxes[rest, 1])
        x2, y2 = np.minimum(boxes[i, 2], boxes[rest, 2]), np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.maximum(F32(0), x2 - x1 + one) * np.maximum(F32(0), y2 - y1 + one)
        suppressed[rest[inter / (area[i] + area[rest] - inter) > F32(threshold)]] = True
    return np.array(keep, np.int64)


def _nms(boxes, threshold, limit):
    """The numba kernel, or its NumPy twin under MINISYM_KERNELS=reference."""
    if fast_kernels_enabled():
        return nms(boxes, threshold, limit)
    return nms_reference(boxes, threshold, limit)


def propose(op, fg_scores, deltas, info, image):
    """One image: fg_scores (A, H, W), deltas (4A, H, W), info (height, width, scale) ->
    (rpn_post_nms_top_n, 4) boxes and their (rpn_post_nms_top_n,) scores."""
    num_anchors, height, width = fg_scores.shape
    im_height, im_width, im_scale = (F32(v) for v in info)
    real_height = int(im_height / F32(op.feature_stride))
    real_width = int(im_width / F32(op.feature_stride))
    if real_height > height or real_width > width:
        raise MXNetValueError(
            f"{op.where}: im_info[{image}] says the image is {im_height:g} x {im_width:g} "
            f"pixels, which is {real_height} x {real_width} cells of feature_stride="
            f"{op.feature_stride}, but the feature map (cls_prob) has only {height} x {width} "
            "cells. im_info holds (height, width, scale) of the image the network was given; "
            "check the order (height first) and that feature_stride is the network's total "
            "stride."
        )
    boxes = shifted_anchors(
        anchors(op.feature_stride, op.scales, op.ratios), height, width, op.feature_stride
    )
    cell_deltas = deltas.reshape(num_anchors, 4, height, width).transpose(2, 3, 0, 1)
    dets = np.empty((len(boxes), 5), F32)
    dets[:, :4] = decode_boxes(boxes, cell_deltas.reshape(-1, 4), im_height, im_width, op.iou_loss)
    dets[:, 4] = fg_scores.transpose(1, 2, 0).reshape(-1)
    cell_rows, cell_cols = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    outside = (cell_rows >= real_height) | (cell_cols >= real_width)
    dets[np.repeat(outside.reshape(-1), num_anchors), 4] = -1.0
    mark_small_boxes(dets, F32(op.rpn_min_size) * im_scale)
    count = len(dets)
    pre = op.rpn_pre_nms_top_n if op.rpn_pre_nms_top_n > 0 else count
    pre = min(pre, count)
    order = np.argsort(-dets[:, 4], kind="stable")[:pre]  # best first; ties keep anchor order
    ordered = dets[order]
    keep = _nms(ordered, op.threshold, min(op.rpn_post_nms_top_n, pre))
    picked = keep[np.arange(op.rpn_post_nms_top_n) % len(keep)]  # too few: repeat them
    return ordered[picked, :4], ordered[picked, 4]


def _float32_only(op, in_type, out_type):
    """Every input and output float32: MXNet's CPU implementation knows no other dtype."""
    names = op.list_arguments()
    for label, given in [
        (f"input {i} '{n}'", t) for i, (n, t) in enumerate(zip(names, in_type))
    ] + [(f"output {j}", t) for j, t in enumerate(out_type)]:
        if given is not None and np.dtype(given) != np.float32:
            raise MXNetTypeError(
                f"{op.where}: {label} is {np.dtype(given).name}, but {op.op_name} computes in "
                "float32 only (as MXNet's CPU implementation). Cast it first: "
                "mx.sym.cast(x, dtype='float32') for a symbol, x.astype('float32') for an "
                "NDArray."
            )
    f32 = np.dtype(np.float32)
    return [f32] * len(names), [f32] * len(op.list_outputs()), []


class Proposals(Operator):
    """Shared by Proposal and MultiProposal: parameters, names, shape and type rules, backward."""

    params = {
        "rpn_pre_nms_top_n": Param(int, 6000, doc="boxes kept before NMS (<= 0: all)"),
        "rpn_post_nms_top_n": Param(
            int, 300, check=_at_least(1), doc="rows of the output per image"
        ),
        "threshold": Param(
            float, 0.7, doc="NMS: a box overlapping a better one by more than this (IoU) is dropped"
        ),
        "rpn_min_size": Param(
            int, 16, doc="boxes smaller than this (times im_info's scale) get score -1"
        ),
        "scales": Param(float_tuple, (4.0, 8.0, 16.0, 32.0), check=_positive_sizes),
        "ratios": Param(float_tuple, (0.5, 1.0, 2.0), check=_positive_sizes),
        "feature_stride": Param(
            int, 16, check=_at_least(1), doc="pixels of the image per cell of the feature map"
        ),
        "output_score": Param(boolean, False, doc="also show the score output"),
        "iou_loss": Param(boolean, False, doc="deltas are corner offsets (IoU loss)"),
    }
    backward_needs = ()  # the gradient is zero: backward reads nothing
    one_image = False

    def list_arguments(self):
        return ["cls_prob", "bbox_pred", "im_info"]

    def list_outputs(self):
        return ["output", "score"]

    def num_visible_outputs(self):
        return 2 if self.output_score else 1

    @property
    def num_anchors(self):
        """Anchors per cell: one per (ratio, scale)."""
        return len(self.scales) * len(self.ratios)

    def _check_cls_prob(self, shape):
        """cls_prob (N, 2A, H, W), A = len(scales) * len(ratios); N = 1 for Proposal."""
        if len(shape) != 4:
            raise MXNetValueError(
                f"{self.where}: input 0 'cls_prob' has shape {fmt(shape)}, but it must be 4-D "
                "(batch, 2 x anchors, height, width): the RPN's softmax scores, background "
                "then foreground for each anchor."
            )
        channels = 2 * self.num_anchors
        if shape[1] != channels:
            raise MXNetValueError(
                f"{self.where}: input 0 'cls_prob' has {shape[1]} channels, but scales="
                f"{_text(self.scales)} and ratios={_text(self.ratios)} make "
                f"{self.num_anchors} anchors per cell, so it needs 2 x {self.num_anchors} = "
                f"{channels} (a background and a foreground score per anchor). Make the "
                f"RPN's score convolution num_filter={channels}, or change scales / ratios."
            )
        if self.one_image and shape[0] != 1:
            raise MXNetValueError(
                f"{self.where}: input 0 'cls_prob' has a batch of {shape[0]} images, but "
                "Proposal handles one image at a time (MXNet: 'multiple images each device is "
                "not implemented'). Use mx.sym.contrib.MultiProposal for a batch."
            )

    def output_rows(self, batch):
        """Rows of the output for ``batch`` images."""
        return self.rpn_post_nms_top_n * (1 if self.one_image else batch)

    def infer_shape(self, in_shape, out_shape):
        """cls_prob (N, 2A, H, W) -> bbox_pred (N, 4A, H, W), im_info (N, 3); output
        (rows, 5) [image, x1, y1, x2, y2], score (rows, 1), rows = N * rpn_post_nms_top_n
        (rpn_post_nms_top_n for Proposal). As in MXNet, nothing is inferred until cls_prob is
        wholly known, and nothing flows back from the other shapes."""
        cls_prob = in_shape[0]
        if not known(cls_prob):
            return list(in_shape), list(out_shape), []
        self._check_cls_prob(cls_prob)
        batch, channels, height, width = cls_prob
        needed = [cls_prob, (batch, 2 * channels, height, width), (batch, 3)]
        rows = self.output_rows(batch)
        outs = [(rows, 5), (rows, 1)]
        for i, (name, given) in enumerate(zip(self.list_arguments(), in_shape)):
            self._agree(f"input {i} '{name}'", given, needed[i], cls_prob)
        for j, (name, given) in enumerate(zip(self.list_outputs(), out_shape)):
            self._agree(f"output {j} '{name}'", given, outs[j], cls_prob)
        return needed, outs, []

    def _agree(self, label, given, needed, cls_prob):
        try:
            merge_shape(given, needed)
        except ShapeConflict:
            raise MXNetValueError(
                f"{self.where}: {label} has shape {fmt(given)}, but cls_prob {fmt(cls_prob)} "
                f"needs {fmt(needed)} (bbox_pred: 4 deltas per anchor; im_info: (height, width, "
                "scale) per image)."
            ) from None

    def infer_type(self, in_type, out_type):
        return _float32_only(self, in_type, out_type)

    def forward(self, is_train, req, in_data, out_data, aux):
        """cls_prob (N, 2A, H, W), bbox_pred (N, 4A, H, W), im_info (N, 3) -> output (rows, 5)
        [image, x1, y1, x2, y2], score (rows, 1): rpn_post_nms_top_n rows per image."""
        cls_prob, bbox_pred, im_info = in_data
        self._check_cls_prob(cls_prob.shape)
        images = 1 if self.one_image else cls_prob.shape[0]
        post = self.rpn_post_nms_top_n
        output = np.zeros((images * post, 5), F32)
        score = np.zeros((images * post, 1), F32)
        for b in range(images):
            boxes, scores = propose(
                self, cls_prob[b, self.num_anchors :].astype(F32), bbox_pred[b], im_info[b], b
            )
            output[b * post : (b + 1) * post, 0] = b
            output[b * post : (b + 1) * post, 1:] = boxes
            score[b * post : (b + 1) * post, 0] = scores
        assign(out_data[0], req[0], output)
        assign(out_data[1], req[1], score)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Zero for every input, as MXNet writes (the proposals are not differentiated)."""
        for i in range(3):
            assign(in_grad[i], req[i], 0)


def _text(values):
    """(8.0, 16.0) as MXNet prints the tuple back: (8, 16)."""
    shown = ", ".join(f"{v:g}" for v in values)
    return f"({shown},)" if len(values) == 1 else f"({shown})"


@register("_contrib_Proposal")
class Proposal(Proposals):
    """Region proposals for one image (batch 1): (rpn_post_nms_top_n, 5) rows
    [0, x1, y1, x2, y2] from the RPN's scores, box deltas and im_info."""

    one_image = True
