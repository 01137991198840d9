"""2-D convolution as im2col + GEMM; 1x1 stride-1 convolutions skip im2col; many small groups
(depthwise) run as direct loops (grouped_conv.py), and stride-1 3x3 convolutions as Winograd
F(2x2, 3x3) when asked for (winograd.py).

Layouts: x (N, C, H, W); weight (F, C/g, kh, kw). The forward and the data gradient use columns
image by image, (N, C*kh*kw, OH*OW): one ``np.matmul`` runs a GEMM per image and group and lands
in NCHW without a transpose. The weight gradient sums over images: small images run a GEMM
each in one call and are summed; larger ones take the columns of the whole batch side by side,
(C*kh*kw, N*OH*OW), and one GEMM per group (that BLAS can thread). A batch of images each too
small for BLAS to thread runs forward and backward image by image on numba's threads
(``_forward_by_image``, ``_backward_by_image``): columns, GEMM and col2im while the image is in
cache.
"""

import numpy as np
from numba import njit, prange, uint64

from . import fast_algorithms_enabled, grouped_conv, winograd
from .epilogue import no_epilogue, shift_and_limit
from .jit import CACHE, parallel_kernel

__all__ = ["conv2d_forward", "conv2d_backward", "im2col", "col2im"]


@njit(cache=CACHE, inline="always")
def _valid_range(out_size, stride, offset, size):
    """The output positions o in [lo, hi) whose input o * stride + offset lies in [0, size)."""
    lo = 0 if offset >= 0 else (-offset + stride - 1) // stride
    hi = 0 if size - offset <= 0 else (size - offset + stride - 1) // stride
    return lo, max(lo, min(hi, out_size))


@njit(cache=CACHE, inline="always")
def _tap_windows(kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, height, width):
    """(taps, 7) ints, one row per kernel tap: (oi, oj, y_lo, y_hi, x_lo, x_hi, one_run), its
    offset into the input, the output rows and columns whose input lies inside the image, and
    whether those inputs are one contiguous run of the plane (stride 1, rows as long as the
    input's). The same for every plane: computed once a call (it divides)."""
    windows = np.empty((kh * kw, 7), np.int64)
    for tap in range(kh * kw):
        oi, oj = (tap // kw) * dh - ph, (tap % kw) * dw - pw
        y_lo, y_hi = _valid_range(oh, sh, oi, height)
        x_lo, x_hi = _valid_range(ow, sw, oj, width)
        one_run = sh == 1 and sw == 1 and ow == width and y_lo < y_hi and x_lo < x_hi
        for i, value in enumerate((oi, oj, y_lo, y_hi, x_lo, x_hi, int(one_run))):
            windows[tap, i] = value
    return windows


# The loops below index views from 0 up, so numba drops its negative-index check and LLVM
# vectorises them: faster than numba's slice assignment, which costs more than a short row.


@njit(cache=CACHE, inline="always")
def _copy(dst, src):
    """dst[k] = src[k] for every k of dst."""
    for k in range(dst.size):
        dst[k] = src[k]


@njit(cache=CACHE, inline="always")
def _copy_rows(dst, dst_row, src, src_row, step, rows, count):
    """dst[y*dst_row + k] = src[y*src_row + k*step] for y < rows, k < count."""
    for y in range(rows):
        for k in range(count):
            dst[y * dst_row + k] = src[y * src_row + k * step]


@njit(cache=CACHE, inline="always")
def _copy_runs(dst, dst_row, src, src_row, rows, count):
    """dst[y*dst_row + k] = src[y*src_row + k] for y < rows, k < count."""
    for y in range(rows):
        _copy(dst[y * dst_row : y * dst_row + count], src[y * src_row :])


@njit(cache=CACHE, inline="always")
def _split_columns(plane, height, width, sw, phase_width, phases):
    """phases[(q*height + r)*phase_width + m] = plane[r*width + m*sw + q]: a flat plane's
    columns by phase q = column mod sw, each phase's rows contiguous."""
    for q in range(sw):
        count = (width - q + sw - 1) // sw
        for r in range(height):
            dst = phases[(q * height + r) * phase_width :]
            src = plane[r * width + q :]
            for m in range(count):
                dst[m] = src[m * sw]


@njit(cache=CACHE, inline="always")
def _add_rows(dst, dst_row, step, src, src_row, rows, count):
    """dst[y*dst_row + k*step] += src[y*src_row + k] for y < rows, k < count."""
    for y in range(rows):
        for k in range(count):
            dst[y * dst_row + k * step] += src[y * src_row + k]


@njit(cache=CACHE, inline="always")
def _zero(dst):
    for k in range(dst.size):
        dst[k] = 0


@njit(cache=CACHE, inline="always")
def _zero_padding_columns(plane_cols, y_lo, y_hi, x_lo, x_hi, ow):
    """plane_cols[y*ow + k] = 0 for the rows y_lo..y_hi and the columns k outside x_lo..x_hi;
    column by column, as there are few of them (the padding) and many rows."""
    rows = plane_cols[y_lo * ow : y_hi * ow]
    for k in range(ow):
        if x_lo <= k < x_hi:
            continue
        for y in range(y_hi - y_lo):
            rows[y * ow + k] = 0


# Unsigned offsets into flat arrays: numba wraps a negative signed index, and that test per
# element keeps LLVM from vectorising a run that starts mid-array; a view per run costs more
# than the run itself on small planes (8x8: 9 runs of ~60 a plane)


@njit(cache=CACHE, inline="always")
def _zero_at(dst, start, count):
    """dst[start + k] = 0 for k < count (start unsigned)."""
    for k in range(uint64(count)):
        dst[start + k] = 0


@njit(cache=CACHE, inline="always")
def _copy_at(dst, start, src, src_start, count):
    """dst[start + k] = src[src_start + k] for k < count (starts unsigned)."""
    for k in range(uint64(count)):
        dst[start + k] = src[src_start + k]


@njit(cache=CACHE, inline="always")
def _add_at(dst, start, src, src_start, count):
    """dst[start + k] += src[src_start + k] for k < count (starts unsigned)."""
    for k in range(uint64(count)):
        dst[start + k] += src[src_start + k]


@njit(cache=CACHE, inline="always")
def _zero_padding_columns_at(cols, start, y_lo, y_hi, x_lo, x_hi, ow):
    """cols[start + y*ow + k] = 0 for the rows y_lo..y_hi and the columns k outside
    x_lo..x_hi (start unsigned)."""
    for k in range(ow):
        if x_lo <= k < x_hi:
            continue
        for y in range(y_lo, y_hi):
            cols[start + uint64(y * ow + k)] = 0


@njit(cache=CACHE, inline="always")
def _plane_of_task(task, n_img, channels, row_step):
    """(n, c) of a task: image by image when each image has its own rows; channel by channel
    when the images sit side by side (row_step 0), so that consecutive tasks fill consecutive
    columns of the same rows (image by image they would jump a whole row, 3x slower at 8x8)."""
    if row_step == 0:
        return task % n_img, task // n_img
    return task // channels, task % channels


_PHASED_FROM = 8  # output columns


@njit(cache=CACHE, inline="always")
def _same_width_columns(flat_x, plane_at, width, windows, ow, positions, flat_cols, start, step):
    """A plane's columns when every tap is one run (stride 1, output rows as wide as the
    input's): the plane at flat_x[plane_at:], tap t's row at flat_cols[start + t * step:]."""
    for tap in range(windows.shape[0]):
        oi, oj, y_lo, y_hi, x_lo, x_hi, one_run = windows[tap]
        at = start + uint64(tap * step)
        if not one_run:  # the tap sees only padding
            _zero_at(flat_cols, at, positions)
            continue
        # one shifted copy, then the columns in the padding are zeroed
        lo, hi = y_lo * ow + x_lo, (y_hi - 1) * ow + x_hi
        source = uint64(plane_at + lo + oi * width + oj)
        _zero_at(flat_cols, at, lo)
        _copy_at(flat_cols, at + uint64(lo), flat_x, source, hi - lo)
        _zero_at(flat_cols, at + uint64(hi), positions - hi)
        _zero_padding_columns_at(flat_cols, at, y_lo, y_hi, x_lo, x_hi, ow)


@njit(cache=CACHE, inline="always")
def _strided_columns(plane, width, windows, sh, sw, ow, positions, phases, cols, row, at):
    """A plane's columns in general (``plane`` flat): tap t's row is cols[row + t, at:]. With
    ``phases`` (non-empty) every row is copied from the plane's column phase (see _im2col)."""
    height = plane.size // width
    phase_width = (width + sw - 1) // sw
    phased = phases.size > 0
    if phased:
        _split_columns(plane, height, width, sw, phase_width, phases)
    for tap in range(windows.shape[0]):
        oi, oj, y_lo, y_hi, x_lo, x_hi, one_run = windows[tap]
        out = cols[row + tap, at : at + positions]
        if y_lo >= y_hi or x_lo >= x_hi:  # the tap sees only padding
            _zero(out)
            continue
        if phased:  # row by row from the tap's column phase
            column = x_lo * sw + oj
            start = ((column % sw) * height + y_lo * sh + oi) * phase_width + column // sw
            dst = out[y_lo * ow + x_lo :]
            _copy_runs(dst, ow, phases[start:], sh * phase_width, y_hi - y_lo, x_hi - x_lo)
        else:  # row by row, from one view of each side (a view per row costs more)
            start = (y_lo * sh + oi) * width + x_lo * sw + oj
            dst = out[y_lo * ow + x_lo :]
            _copy_rows(dst, ow, plane[start:], sh * width, sw, y_hi - y_lo, x_hi - x_lo)
        _zero(out[: y_lo * ow])
        _zero(out[y_hi * ow :])
        _zero_padding_columns(out, y_lo, y_hi, x_lo, x_hi, ow)


# Copies at a tenth of a nanosecond an element: a sleeping worker's wake-up (~70 us) is
# worth it only from a few million elements
@parallel_kernel(light=16)
def _im2col(x, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, row_step, col_step, cols):
    """x (N, C, H, W) -> cols: image n's (C*kh*kw, oh*ow) block starts at row n*row_step,
    column n*col_step of the 2-D ``cols`` (see ``im2col``); padding reads as 0."""
    n_img, channels, height, width = x.shape
    flat = x.reshape(n_img, channels, height * width)
    flat_x, flat_cols, row_length = x.reshape(x.size), cols.reshape(cols.size), cols.shape[1]
    taps, positions = kh * kw, oh * ow
    windows = _tap_windows(kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, height, width)
    if sh == 1 and sw == 1 and ow == width:  # every tap one run: a loop of its own runs faster
        for task in prange(n_img * channels):
            n, c = _plane_of_task(task, n_img, channels, row_step)
            start = uint64((n * row_step + c * taps) * row_length + n * col_step)
            plane_at = (n * channels + c) * height * width
            _same_width_columns(
                flat_x, plane_at, width, windows, ow, positions, flat_cols, start, row_length
            )
        return
    phase_size = _phase_size(sw, ow, height, width)
    no_phases = np.empty(0, x.dtype)
    for task in prange(n_img * channels):
        n, c = _plane_of_task(task, n_img, channels, row_step)
        phases = np.empty(phase_size, x.dtype) if phase_size else no_phases
        row, at = n * row_step + c * taps, n * col_step
        _strided_columns(flat[n, c], width, windows, sh, sw, ow, positions, phases, cols, row, at)


@njit(cache=CACHE, inline="always")
def _phase_size(sw, ow, height, width):
    """The scratch a plane's column phases take, or 0 where the rows are copied as they are:
    strided columns are split by phase once, then every row is a contiguous run of one phase
    (a gather with a step does not vectorise: 7x7 stride 2 at 224 ran 5x slower); rows
    shorter than _PHASED_FROM gain less than the split costs."""
    if sw > 1 and ow >= _PHASED_FROM:
        return sw * height * ((width + sw - 1) // sw)
    return 0


@njit(cache=CACHE, inline="always")
def _columns_of_image(x, n, windows, sh, sw, ow, phases, cols):
    """cols (C*kh*kw, OH*OW) = the columns of image n of x (N, C, H, W), C-contiguous; phases:
    scratch of ``_phase_size`` (size 0 where rows are copied as they are)."""
    n_img, channels, height, width = x.shape
    taps, positions = windows.shape[0], cols.shape[1]
    flat, flat_x = x.reshape(n_img, channels, height * width), x.reshape(x.size)
    flat_cols = cols.reshape(cols.size)
    for c in range(channels):
        if sh == 1 and sw == 1 and ow == width:
            start = uint64(c * taps * positions)
            plane_at = (n * channels + c) * height * width
            _same_width_columns(
                flat_x, plane_at, width, windows, ow, positions, flat_cols, start, positions
            )
        else:
            _strided_columns(
                flat[n, c], width, windows, sh, sw, ow, positions, phases, cols, c * taps, 0
            )


@njit(cache=CACHE, inline="always")
def _add_columns_of_image(cols, windows, sh, sw, ow, dx, n):
    """Add cols (C*kh*kw, OH*OW), as ``_columns_of_image`` writes them, back into image n of dx
    (N, C, H, W); the entries of cols read from the padding are set to 0."""
    n_img, channels, height, width = dx.shape
    taps, positions = windows.shape[0], cols.shape[1]
    flat, flat_dx = dx.reshape(n_img, channels, height * width), dx.reshape(dx.size)
    flat_cols = cols.reshape(cols.size)
    for c in range(channels):
        if sh == 1 and sw == 1 and ow == width:
            start = uint64(c * taps * positions)
            plane_at = (n * channels + c) * height * width
            _add_same_width_columns(
                flat_cols, start, positions, windows, ow, flat_dx, plane_at, width
            )
        else:
            _add_strided_columns(
                cols, c * taps, 0, positions, windows, sh, sw, ow, flat[n, c], width
            )


@njit(cache=CACHE, inline="always")
def _image_geometry(x, kh, kw, sh, sw, ph, pw, dh, dw):
    """(windows, oh, ow, phase_size) of a convolution of x (N, C, H, W), once a call."""
    height, width = x.shape[2], x.shape[3]
    oh, ow = _out_size(height, kh, sh, ph, dh), _out_size(width, kw, sw, pw, dw)
    windows = _tap_windows(kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, height, width)
    same_width = sh == 1 and sw == 1 and ow == width
    return windows, oh, ow, 0 if same_width else _phase_size(sw, ow, height, width)


# An image's GEMM is small (fewer multiply-adds than _THREADED_GEMM): BLAS runs it on the
# calling thread, so images go to numba's threads, each writing its columns into scratch of
# its own and multiplying them while they are in cache. Called ``sized`` by its multiply-adds
# / 8: worth a sleeping worker's wake-up from about a million (a batch of 32 16x8x8 images
# through 3x3 filters: 4.7 million).
@parallel_kernel
def _forward_by_image(x, w2, kh, kw, sh, sw, ph, pw, dh, dw, epilogue, y):
    """y (N, F, OH*OW) = w2 (F, C*kh*kw) @ the columns of each image of x (N, C, H, W); then,
    with an ``epilogue`` (shift (F,), relu, low, high; a size-0 shift: none), shifted per
    filter, through max(., 0) and limited to [low, high] while the image is in cache."""
    windows, oh, ow, phase_size = _image_geometry(x, kh, kw, sh, sw, ph, pw, dh, dw)
    for n in prange(x.shape[0]):
        cols = np.empty((w2.shape[1], oh * ow), x.dtype)
        _columns_of_image(x, n, windows, sh, sw, ow, np.empty(phase_size, x.dtype), cols)
        np.dot(w2, cols, y[n])
        shift, relu, low, high = epilogue
        if shift.size:
            shift_and_limit(y[n], shift, relu, low, high)


# The backward of the same small images, image by image on numba's threads: the columns are
# written again (cheaper than keeping them from the forward) and used at once for the weight
# gradient; the data gradient's columns go back into the image while in cache.
@parallel_kernel
def _backward_by_image(dy, x, w2t, kh, kw, sh, sw, ph, pw, dh, dw, dx, dw_images):
    """dx (N, C, H, W) = col2im(w2t (C*kh*kw, F) @ dy[n]) and dw_images (N, F, C*kh*kw) =
    dy[n] @ columns(x[n])ᵀ for each image n, dy (N, F, OH*OW); either output of size 0 is
    not computed."""
    windows, oh, ow, phase_size = _image_geometry(x, kh, kw, sh, sw, ph, pw, dh, dw)
    rows = w2t.shape[0]
    for n in prange(x.shape[0]):
        if dw_images.size:
            cols = np.empty((rows, oh * ow), x.dtype)
            _columns_of_image(x, n, windows, sh, sw, ow, np.empty(phase_size, x.dtype), cols)
            np.dot(dy[n], cols.T, dw_images[n])
        if dx.size:
            _zero(dx[n].reshape(dx[n].size))
            _add_columns_of_image(np.dot(w2t, dy[n]), windows, sh, sw, ow, dx, n)


@njit(cache=CACHE, inline="always")
def _out_size(size, k, stride, pad, dilate):
    return (size + 2 * pad - dilate * (k - 1) - 1) // stride + 1


@njit(cache=CACHE, inline="always")
def _add_same_width_columns(flat_cols, start, step, windows, ow, flat_dx, plane_at, width):
    """Add a plane's columns back when every tap is one run (see ``_same_width_columns``):
    tap t's row at flat_cols[start + t * step:], the plane at flat_dx[plane_at:]."""
    for tap in range(windows.shape[0]):
        oi, oj, y_lo, y_hi, x_lo, x_hi, one_run = windows[tap]
        if not one_run:
            continue
        # one shifted add per tap: the entries im2col read from the padding are zeroed first,
        # so the run adds 0 where nothing belongs
        at = start + uint64(tap * step)
        lo, hi = y_lo * ow + x_lo, (y_hi - 1) * ow + x_hi
        target = uint64(plane_at + lo + oi * width + oj)
        _zero_padding_columns_at(flat_cols, at, y_lo, y_hi, x_lo, x_hi, ow)
        _add_at(flat_dx, target, flat_cols, at + uint64(lo), hi - lo)


@njit(cache=CACHE, inline="always")
def _add_strided_columns(cols, row, at, positions, windows, sh, sw, ow, plane, width):
    """Add a plane's columns back in general: tap t's row is cols[row + t, at:], the plane
    ``plane`` flat."""
    for tap in range(windows.shape[0]):
        oi, oj, y_lo, y_hi, x_lo, x_hi, one_run = windows[tap]
        if y_lo >= y_hi or x_lo >= x_hi:
            continue
        tap_cols = cols[row + tap, at : at + positions]
        start = (y_lo * sh + oi) * width + x_lo * sw + oj
        _add_rows(
            plane[start:],
            sh * width,
            sw,
            tap_cols[y_lo * ow + x_lo :],
            ow,
            y_hi - y_lo,
            x_hi - x_lo,
        )


@parallel_kernel(light=16)
def _col2im(cols, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, row_step, col_step, dx):
    """Add cols (laid out as ``_im2col`` writes them) back into dx (N, C, H, W) where im2col
    read them; the entries of cols that im2col filled from the padding are set to 0."""
    n_img, channels, height, width = dx.shape
    flat = dx.reshape(n_img, channels, height * width)
    flat_dx, flat_cols, row_length = dx.reshape(dx.size), cols.reshape(cols.size), cols.shape[1]
    taps, positions = kh * kw, oh * ow
    windows = _tap_windows(kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, height, width)
    # one plane per thread: no two threads write one cell
    if sh == 1 and sw == 1 and ow == width:  # every tap one run: a loop of its own (see _im2col)
        for task in prange(n_img * channels):
            n, c = _plane_of_task(task, n_img, channels, row_step)
            start = uint64((n * row_step + c * taps) * row_length + n * col_step)
            plane_at = (n * channels + c) * height * width
            _add_same_width_columns(
                flat_cols, start, row_length, windows, ow, flat_dx, plane_at, width
            )
        return
    for task in prange(n_img * channels):
        n, c = _plane_of_task(task, n_img, channels, row_step)
        row, at = n * row_step + c * taps, n * col_step
        _add_strided_columns(cols, row, at, positions, windows, sh, sw, ow, flat[n, c], width)


def im2col(x, kernel, stride, pad, dilate, out_hw, per_image=False):
    """x (N, C, H, W) -> columns (C*kh*kw, N*OH*OW), or (N, C*kh*kw, OH*OW) ``per_image``."""
    n, c = x.shape[:2]
    rows, positions = c * kernel[0] * kernel[1], out_hw[0] * out_hw[1]
    if per_image:
        cols = np.empty((n, rows, positions), x.dtype)
        steps = (rows, 0)
    else:
        cols = np.empty((rows, n * positions), x.dtype)
        steps = (0, positions)
    flat = cols.reshape(-1, cols.shape[-1])
    _im2col(np.ascontiguousarray(x), *kernel, *stride, *pad, *dilate, *out_hw, *steps, flat)
    return cols


def col2im(cols, x_shape, kernel, stride, pad, dilate, out_hw, out=None):
    """Columns (C*kh*kw, N*OH*OW), or (N, C*kh*kw, OH*OW) when 3-D, -> dx (N, C, H, W),
    summing overlapping taps; into ``out`` (C-contiguous, zeroed here) when given. Scratch:
    the entries of ``cols`` that im2col would fill from the padding become 0."""
    dx = np.zeros(x_shape, cols.dtype) if out is None else _zeroed(out)
    steps = (cols.shape[1], 0) if cols.ndim == 3 else (0, out_hw[0] * out_hw[1])
    flat = np.ascontiguousarray(cols).reshape(-1, cols.shape[-1])
    _col2im(flat, *kernel, *stride, *pad, *dilate, *out_hw, *steps, dx)
    return dx


def _is_pointwise(kernel, stride, pad):
    return tuple(kernel) == (1, 1) and tuple(stride) == (1, 1) and tuple(pad) == (0, 0)


def _columns(x, kernel, stride, pad, dilate, out_hw):
    """(C*kh*kw, N*OH*OW) columns of x; a free reshape for 1x1 stride-1 on one image."""
    if _is_pointwise(kernel, stride, pad):
        n, c = x.shape[:2]
        if n == 1:
            return x.reshape(c, -1)
        return np.ascontiguousarray(x.reshape(n, c, -1).transpose(1, 0, 2)).reshape(c, -1)
    return im2col(x, kernel, stride, pad, dilate, out_hw)


def _image_columns(x, kernel, stride, pad, dilate, out_hw):
    """(N, C*kh*kw, OH*OW) columns of x, image by image; a free reshape for 1x1 stride-1."""
    if _is_pointwise(kernel, stride, pad):
        return x.reshape(x.shape[0], x.shape[1], -1)
    return im2col(x, kernel, stride, pad, dilate, out_hw, per_image=True)


def _by_group(array, groups):
    """(N, rows, P) -> (N, groups, rows per group, P): a view."""
    n, rows, positions = array.shape
    return array.reshape(n, groups, rows // groups, positions)


# OpenBLAS runs a GEMM of fewer multiply-adds than this on one thread: smaller images' weight
# gradients may run a GEMM each (in one call) and be summed, larger ones one GEMM over the batch
_THREADED_GEMM = 1 << 18


def _by_image(n, groups, weight_shape, stride, pad, positions):
    """Whether the forward runs ``_forward_by_image``: a batch of small images (each GEMM on
    one thread in BLAS), one group, columns to write (not 1x1 at stride 1)."""
    f, c, kh, kw = weight_shape
    small = f * c * kh * kw * positions < _THREADED_GEMM
    return n > 1 and groups == 1 and small and not _is_pointwise((kh, kw), stride, pad)


def _run_by_image(x, rows, geometry, epilogue, y):
    """``_forward_by_image`` into y (N, F, OH, OW), called by its multiply-adds / 8."""
    n, f = y.shape[:2]
    rows = np.ascontiguousarray(rows, dtype=x.dtype)
    work = n * rows.size * y.shape[2] * y.shape[3] // 8
    flat_y = y.reshape(n, f, -1)
    _forward_by_image.sized(work, np.ascontiguousarray(x), rows, *geometry, epilogue, flat_y)


def conv2d_forward(x, weight, bias, stride, pad, dilate, groups, out=None):
    """x (N, C, H, W), weight (F, C/g, kh, kw), bias (F,) or None -> y (N, F, OH, OW).

    ``out`` (C-contiguous, the right shape) receives the result when given.
    """
    n, c, h, w = x.shape
    f, cg, kh, kw = weight.shape
    oh = (h + 2 * pad[0] - dilate[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + 2 * pad[1] - dilate[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.empty((n, f, oh, ow), x.dtype) if out is None else out
    if grouped_conv.forward_prefers_direct(groups, cg, stride, oh * ow):
        grouped_conv.grouped_forward(x, weight, stride, pad, dilate, groups, y)
    elif _use_winograd(weight.shape, stride, dilate, groups, y.shape):
        winograd.winograd_forward(x, weight, pad, y)
    elif _by_image(n, groups, weight.shape, stride, pad, oh * ow):
        geometry = (kh, kw, *stride, *pad, *dilate)
        _run_by_image(x, weight.reshape(f, -1), geometry, no_epilogue(x.dtype), y)
    else:
        # one GEMM per image and group, all in one call, straight into NCHW (no transpose); on
        # this machine faster than one GEMM over the batch at every size, however small
        # (benchmarks/RESULTS.md), and the same bits
        cols = _by_group(_image_columns(x, (kh, kw), stride, pad, dilate, (oh, ow)), groups)
        w_g = weight.reshape(groups, f // groups, -1)
        np.matmul(w_g, cols, out=_by_group(y.reshape(n, f, -1), groups))
    if bias is not None:
        y += bias.reshape(1, f, 1, 1)
    return y


def conv2d_backward(
    dy, x, weight, stride, pad, dilate, groups, need_dx=True, need_dw=True, dx_out=None, dw_out=None
):
    """(dx or None, dweight or None) for y = conv2d_forward(x, weight, ...): x (N, C, H, W),
    weight (F, C/g, kh, kw), dy (N, F, OH, OW).

    ``dx_out`` / ``dw_out`` (C-contiguous, the right shapes) receive the gradients when given,
    saving a copy; the bias gradient is left to the caller (``dy`` summed over N, H, W).
    """
    n, c, h, w = x.shape
    f, cg, kh, kw = weight.shape
    oh, ow = dy.shape[2:]
    fg = f // groups
    if grouped_conv.prefers_direct(groups, cg):
        dx = (np.empty_like(x) if dx_out is None else dx_out) if need_dx else None
        dw = (np.empty_like(weight) if dw_out is None else dw_out) if need_dw else None
        return grouped_conv.grouped_backward(dy, x, weight, stride, pad, dilate, groups, dx, dw)
    geometry = (kh, kw), stride, pad, dilate
    if _by_image(n, groups, weight.shape, stride, pad, oh * ow) and not (
        need_dx and _dx_by_winograd(weight.shape, stride, pad, dilate, groups, x.shape)
    ):
        dx = (np.empty_like(x) if dx_out is None else dx_out) if need_dx else None
        dw = (np.empty_like(weight) if dw_out is None else dw_out) if need_dw else None
        _run_backward_by_image(dy, x, weight, (kh, kw, *stride, *pad, *dilate), dx, dw)
        return dx, dw
    dx = dw = None
    if need_dx:
        dx = np.empty_like(x) if dx_out is None else dx_out
        _data_gradient(dy, weight, geometry, groups, dx)
    if need_dw:
        dw = np.empty_like(weight) if dw_out is None else dw_out
        if n > 1 and cg * kh * kw < oh * ow and fg * cg * kh * kw * oh * ow < _THREADED_GEMM:
            # small images with more positions than taps: a GEMM per image in one call (no
            # transpose of dy, whose size goes with the positions), then their sum (which goes
            # with the taps); with fewer positions the one GEMM below is faster (lesson 8's
            # 4x4 and 2x2 layers: 26-38 % less)
            cols = _by_group(_image_columns(x, *geometry, (oh, ow)), groups)
            per_image = np.matmul(_by_group(dy.reshape(n, f, -1), groups), cols.swapaxes(2, 3))
            per_image.sum(axis=0, out=dw.reshape(groups, fg, -1))
            return dx, dw
        # the weight gradient sums over images: one GEMM per group over every image's columns
        cols = _columns(x, *geometry, (oh, ow)).reshape(groups, cg * kh * kw, -1)
        dy_rows = dy.reshape(n, f, -1)
        if n > 1:
            dy_rows = np.ascontiguousarray(dy_rows.transpose(1, 0, 2))
        dy_rows = dy_rows.reshape(groups, fg, -1)
        np.matmul(dy_rows, cols.transpose(0, 2, 1), out=dw.reshape(groups, fg, -1))
    return dx, dw


def _data_gradient(dy, weight, geometry, groups, dx):
    """dx (N, C, H, W) of the convolution for dy (N, F, OH, OW): Wᵀ.dy per image and group
    (one call, no transpose of dy), then col2im."""
    (kh, kw), stride, pad, dilate = geometry
    n, c, h, w = dx.shape
    f, cg = weight.shape[:2]
    oh, ow = dy.shape[2:]
    # dx of a stride-1 3x3 convolution is the convolution of dy with the flipped, transposed
    # filters and the complementary padding: Winograd applies to it as well
    if _dx_by_winograd(weight.shape, stride, pad, dilate, groups, dx.shape):
        rotated = np.ascontiguousarray(weight[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        winograd.winograd_forward(dy, rotated, (2 - pad[0], 2 - pad[1]), dx)
        return
    w_t = weight.reshape(groups, f // groups, -1).transpose(0, 2, 1)  # (g, C/g*K, F/g)
    dy_g = _by_group(dy.reshape(n, f, -1), groups)
    if _is_pointwise((kh, kw), stride, pad):
        np.matmul(w_t, dy_g, out=_by_group(dx.reshape(n, c, -1), groups))
        return
    dcols = np.matmul(w_t, dy_g).reshape(n, c * kh * kw, -1)
    col2im(dcols, dx.shape, (kh, kw), stride, pad, dilate, (oh, ow), out=dx)


def _dx_by_winograd(weight_shape, stride, pad, dilate, groups, x_shape):
    """Whether the data gradient runs as Winograd (see ``_data_gradient``)."""
    f, cg, kh, kw = weight_shape
    flipped = (cg * groups, f, kh, kw)  # the data gradient's filters: C -> F
    return pad[0] <= 2 and pad[1] <= 2 and _use_winograd(flipped, stride, dilate, groups, x_shape)


def _run_backward_by_image(dy, x, weight, geometry, dx, dw):
    """``_backward_by_image`` into dx (N, C, H, W) and dw (F, C, kh, kw), either None (not
    computed); called by its multiply-adds / 8."""
    n, f = dy.shape[:2]
    dtype = x.dtype
    rows = np.ascontiguousarray(weight.reshape(f, -1).T, dtype=dtype)
    positions = dy.shape[2] * dy.shape[3]
    images = np.empty((n, f, rows.shape[0]) if dw is not None else (0, 0, 0), dtype)
    target = dx if dx is not None else np.empty((0, *x.shape[1:]), dtype)
    work = n * rows.size * positions * ((dx is not None) + (dw is not None)) // 8
    dy_rows = np.ascontiguousarray(dy, dtype=dtype).reshape(n, f, positions)
    _backward_by_image.sized(
        work, dy_rows, np.ascontiguousarray(x), rows, *geometry, target, images
    )
    if dw is not None:
        images.sum(axis=0, out=dw.reshape(f, -1))


def _zeroed(array):
    array[...] = 0
    return array


def _use_winograd(weight_shape, stride, dilate, groups, out_shape):
    """Whether this convolution runs as Winograd F(2x2, 3x3) now (see winograd.py)."""
    return fast_algorithms_enabled() and winograd.applies(
        weight_shape, stride, dilate, groups, out_shape
    )
