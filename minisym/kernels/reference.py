"""Plain-NumPy references of the kernels: im2col / col2im (Convolution, Deconvolution), window
pooling (Pooling) and the elementwise activation formulas (Activation, LeakyReLU). The
operators compute with them where no fast kernel takes over (3-D data, float16,
MINISYM_KERNELS=reference; the activations other than relu always).

Plain, readable NumPy: faster kernels are checked against these. Spatial functions work on arrays
laid out (N, C, *spatial) with 1, 2 or 3 spatial axes; they loop over the kernel taps and
handle every batch, channel and output position at once inside each tap.
"""

import itertools
import math

import numpy as np

__all__ = [
    "kernel_taps",
    "tap_slices",
    "pad_spatial",
    "crop_spatial",
    "im2col",
    "col2im",
    "pool_forward",
    "pool_backward",
    "activation",
    "activation_grad",
    "SELU_ALPHA",
    "SELU_LAMBDA",
]

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_LAMBDA = 1.0507009873554804934193349852946
SOFTRELU_THRESHOLD = 20.0  # above it MXNet's softrelu returns x itself (log1p(exp(x)) == x)


# --- windows ---------------------------------------------------------------------------------
def kernel_taps(kernel):
    """Every kernel tap (i, j, ...) in row-major order (the order MXNet scans a window in)."""
    return itertools.product(*(range(k) for k in kernel))


def tap_slices(tap, stride, dilate, out_shape):
    """Index of padded (N, C, *spatial) picking tap ``tap`` of every window -> (N, C, *out)."""
    return (slice(None), slice(None)) + tuple(
        slice(t * d, t * d + (n - 1) * s + 1, s)
        for t, s, d, n in zip(tap, stride, dilate, out_shape)
    )


def pad_spatial(x, before, after, value=0):
    """x (N, C, *spatial) with before[i] / after[i] cells of ``value`` added on spatial axis i."""
    widths = [(0, 0), (0, 0)] + list(zip(before, after))
    return np.pad(x, widths, constant_values=value)


def crop_spatial(xp, before, shape):
    """The inverse of pad_spatial: xp (N, C, *padded) -> (N, C, *shape) starting at ``before``."""
    return xp[(slice(None), slice(None)) + tuple(slice(b, b + n) for b, n in zip(before, shape))]


def _after_pad(spatial, kernel, stride, dilate, pad, out_shape):
    """Cells to add after each spatial axis so that every window fits ('full' overhangs)."""
    return tuple(
        max(p, (n - 1) * s + d * (k - 1) + 1 - x - p)
        for x, k, s, d, p, n in zip(spatial, kernel, stride, dilate, pad, out_shape)
    )


# --- convolution -----------------------------------------------------------------------------
def im2col(x, kernel, stride, dilate, pad, out_shape):
    """x (N, C, *spatial) -> cols (N, C, *kernel, *out_shape): the input under each kernel tap."""
    after = _after_pad(x.shape[2:], kernel, stride, dilate, pad, out_shape)
    xp = pad_spatial(x, pad, after)
    cols = np.empty(x.shape[:2] + tuple(kernel) + tuple(out_shape), x.dtype)
    for tap in kernel_taps(kernel):
        cols[(slice(None), slice(None)) + tap] = xp[tap_slices(tap, stride, dilate, out_shape)]
    return cols


def col2im(cols, x_shape, kernel, stride, dilate, pad):
    """cols (N, C, *kernel, *out) -> (N, C, *spatial): adds every tap back where it was read."""
    out_shape = cols.shape[2 + len(kernel) :]
    after = _after_pad(x_shape[2:], kernel, stride, dilate, pad, out_shape)
    padded = tuple(x + p + a for x, p, a in zip(x_shape[2:], pad, after))
    grad = np.zeros(tuple(x_shape[:2]) + padded, cols.dtype)
    for tap in kernel_taps(kernel):
        grad[tap_slices(tap, stride, dilate, out_shape)] += cols[(slice(None), slice(None)) + tap]
    return crop_spatial(grad, pad, x_shape[2:])


# --- pooling ---------------------------------------------------------------------------------
def _lowest(dtype):
    """MXNet's max-pool start value and padding: the lowest finite number, not -inf."""
    return np.finfo(dtype).min


def _avg_divisor(spatial, kernel, stride, pad, out_shape, count_include_pad):
    """(*out_shape) cells each average divides by (MXNet's rule, see pool_forward)."""
    divisor = np.ones((), np.int64)
    for x, k, s, p, n in zip(spatial, kernel, stride, pad, out_shape):
        start = np.arange(n) * s - p
        end = np.minimum(start + k, x + p)  # a window may overhang the padding ('full'): clip
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, x)
        divisor = np.multiply.outer(divisor, np.maximum(end - start, 0))
    # A 'full' window may lie wholly past the input and its padding: it sums nothing and gives
    # 0, as in MXNet and the fast kernel (not 0 / 0 = NaN).
    return np.maximum(divisor, 1)


def pool_forward(x, pool_type, kernel, stride, pad, out_shape, count_include_pad=True):
    """x (N, C, *spatial) -> (N, C, *out_shape) by max / sum / avg over each window.

    Padding counts as the lowest float for max and 0 for sum/avg. avg divides by the window
    size clipped to the padded input (count_include_pad) or by the number of real cells.
    """
    ones = (1,) * len(kernel)
    after = _after_pad(x.shape[2:], kernel, stride, ones, pad, out_shape)
    if pool_type == "max":
        xp = pad_spatial(x, pad, after, _lowest(x.dtype))
        out = np.full(x.shape[:2] + tuple(out_shape), _lowest(x.dtype), x.dtype)
        for tap in kernel_taps(kernel):
            np.maximum(out, xp[tap_slices(tap, stride, ones, out_shape)], out=out)
        return out
    xp = pad_spatial(x, pad, after, 0)
    out = np.zeros(x.shape[:2] + tuple(out_shape), x.dtype)
    for tap in kernel_taps(kernel):
        out += xp[tap_slices(tap, stride, ones, out_shape)]
    if pool_type == "avg":
        out /= _avg_divisor(x.shape[2:], kernel, stride, pad, out_shape, count_include_pad).astype(
            x.dtype
        )
    return out


def pool_backward(dy, x, y, pool_type, kernel, stride, pad, count_include_pad=True):
    """dL/dx (N, C, *spatial) from dy, x and y = pool_forward(x) (all (N, C, ...) arrays).

    max sends each window's gradient to the FIRST cell (row-major) equal to the max.
    """
    ones = (1,) * len(kernel)
    out_shape = dy.shape[2:]
    if pool_type == "avg":
        dy = dy / _avg_divisor(
            x.shape[2:], kernel, stride, pad, out_shape, count_include_pad
        ).astype(dy.dtype)
    after = _after_pad(x.shape[2:], kernel, stride, ones, pad, out_shape)
    xp = pad_spatial(x, pad, after, _lowest(x.dtype))
    grad = np.zeros(xp.shape, dy.dtype)
    taken = np.zeros(dy.shape, bool)
    for tap in kernel_taps(kernel):
        window = tap_slices(tap, stride, ones, out_shape)
        if pool_type == "max":
            hit = (xp[window] == y) & ~taken
            taken |= hit
            grad[window] += np.where(hit, dy, 0)
        else:
            grad[window] += dy
    return crop_spatial(grad, pad, x.shape[2:])


# --- elementwise activations -----------------------------------------------------------------
def expit(x):
    """1 / (1 + exp(-x)) without overflow for large |x|, in x's dtype."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def erf(x):
    """The error function (scipy's, imported on first use: importing scipy.special costs
    half a second and 13 MiB that most notebooks never need)."""
    from scipy.special import erf as scipy_erf

    return scipy_erf(x)


def activation(act_type, x, slope=0.25):
    """y = act(x) for Activation's and LeakyReLU's fixed formulas (not prelu / rrelu)."""
    if act_type == "relu":
        return np.where(x > 0, x, 0)  # NaN gives 0, as in MXNet (np.maximum would keep it)
    if act_type == "sigmoid":
        return expit(x)
    if act_type == "tanh":
        return np.tanh(x)
    if act_type == "softrelu":
        return np.where(
            x > SOFTRELU_THRESHOLD, x, np.log1p(np.exp(np.minimum(x, SOFTRELU_THRESHOLD)))
        )
    if act_type == "softsign":
        return x / (1 + np.abs(x))
    if act_type == "leaky":
        return np.where(x > 0, x, slope * x)
    if act_type == "elu":
        return np.where(x > 0, x, slope * np.expm1(np.minimum(x, 0)))
    if act_type == "selu":
        return SELU_LAMBDA * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))
    if act_type == "gelu":
        return 0.5 * x * (1 + erf(x / math.sqrt(2)))
    raise ValueError(f"unknown activation {act_type!r}")


def activation_grad(act_type, x, y, slope=0.25):
    """dy/dx for ``activation`` given its input x and output y (MXNet's formulas)."""
    if act_type == "relu":
        return (y > 0).astype(y.dtype)
    if act_type == "sigmoid":
        return y * (1 - y)
    if act_type == "tanh":
        return 1 - y * y
    if act_type == "softrelu":
        return expit(x)
    if act_type == "softsign":
        return 1 / np.square(1 + np.abs(x))
    if act_type == "leaky":
        return np.where(y > 0, 1, slope).astype(y.dtype)
    if act_type == "elu":
        return np.where(y > 0, 1, slope + y)
    if act_type == "selu":
        # MXNet's selu_grad is lambda * (y + alpha) for y <= 0, which is NOT the derivative
        # (that would be y + lambda * alpha); kept to give the same gradients as MXNet.
        return np.where(y > 0, SELU_LAMBDA, SELU_LAMBDA * (y + SELU_ALPHA))
    if act_type == "gelu":
        density = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        return 0.5 * (1 + erf(x / math.sqrt(2))) + x * density
    raise ValueError(f"unknown activation {act_type!r}")
