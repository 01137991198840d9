"""Greedy non-maximum suppression of boxes sorted by score, as MXNet's CPU Proposal runs it.

The loop is sequential (each kept box decides which later boxes survive), so it is one serial
numba kernel; ``minisym.ops.contrib.proposal.nms_reference`` is its plain-NumPy twin.
"""

import numpy as np
from numba import njit

from .jit import CACHE

__all__ = ["nms"]


@njit(cache=CACHE)
def _nms(boxes, threshold, limit, keep):
    count = boxes.shape[0]
    one = np.float32(1.0)
    zero = np.float32(0.0)
    area = np.empty(count, np.float32)
    for i in range(count):
        area[i] = (boxes[i, 2] - boxes[i, 0] + one) * (boxes[i, 3] - boxes[i, 1] + one)
    suppressed = np.zeros(count, np.bool_)
    kept = 0
    for i in range(count):
        if kept >= limit:
            break
        if suppressed[i]:
            continue
        keep[kept] = i
        kept += 1
        for j in range(i + 1, count):
            if suppressed[j]:
                continue
            width = max(zero, min(boxes[i, 2], boxes[j, 2]) - max(boxes[i, 0], boxes[j, 0]) + one)
            height = max(zero, min(boxes[i, 3], boxes[j, 3]) - max(boxes[i, 1], boxes[j, 1]) + one)
            inter = width * height
            if inter / (area[i] + area[j] - inter) > threshold:
                suppressed[j] = True
    return kept


def nms(boxes, threshold, limit):
    """boxes (n, >=4) float32, sorted by score -> the indices of at most ``limit`` kept boxes:
    each box suppresses the later ones whose overlap (IoU, sizes counted +1) exceeds
    ``threshold``."""
    boxes = np.ascontiguousarray(boxes[:, :4], dtype=np.float32)
    keep = np.empty(max(min(limit, boxes.shape[0]), 0), np.int64)
    kept = _nms(boxes, np.float32(threshold), limit, keep)
    return keep[:kept]
