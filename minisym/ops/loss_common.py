"""What the loss heads and the softmax family share: softmax and its gradient along an
axis, float32 gradient scales, class indices read from labels (MXNet keeps these in headers:
nn/softmax-inl.h, softmax_output-inl.h)."""

import numpy as np

__all__ = ["softmax_along", "softmax_backward", "f32_scale", "class_index"]


def softmax_along(x, axis):
    """softmax of ``x`` along ``axis`` (the max is subtracted first); same shape and dtype."""
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def softmax_backward(y, dy, axis):
    """dL/dx of y = softmax(x) along ``axis``: y * (dy - sum(dy * y))."""
    return y * (dy - (dy * y).sum(axis=axis, keepdims=True))


def f32_scale(scale, *divisors):
    """scale / d1 / d2 ... in 32-bit floats: MXNet stores grad_scale as a float32 and forms its
    gradient factors in float32 arithmetic (visible in float64 results from the 8th digit)."""
    value = np.float32(scale)
    for divisor in divisors:
        value = np.float32(value / np.float32(divisor))
    return float(value)


def class_index(values):
    """MXNet reads a float label (or ignore_label) as an int, truncating toward zero."""
    return np.trunc(values).astype(np.int64)
