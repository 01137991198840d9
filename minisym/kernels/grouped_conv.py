"""Depthwise 2-D convolution as direct loops, one numba kernel for every group.

conv.py runs every group of a layer as one batched GEMM; with one input channel per group
(MobileNet's depthwise layers) each of those GEMMs is a 1 x 9 row times a 9-row matrix, and
direct loops are faster. These kernels give each thread whole output planes: forward and the
data gradient loop over (image, channel), the weight gradient over filters, so no two threads
ever write the same element. The forward splits each padded input plane by stride phase, so
that every tap is one contiguous run over the plane at any stride. They take any number of
channels per group (the tests run them so); ``prefers_direct`` sends them only the one-channel
groups.

Layouts as in conv.py: x (N, C, H, W), weight (F, C/g, kh, kw), y (N, F, OH, OW).
"""

import numba
import numpy as np
from numba import njit, prange, uint64

from .epilogue import no_epilogue, shifted_copy_at
from .jit import CACHE, parallel_kernel

__all__ = ["prefers_direct", "forward_prefers_direct", "grouped_forward", "grouped_backward"]

# channels per group up to which direct loops beat the batched GEMM: measured at batch 1, the GEMM
# ran ResNeXt-50 (4 to 32 channels per group) twice as fast, the direct loops MobileNet (1) 10 %
_MAX_DIRECT_CHANNELS = 1
_PLANES_A_CHUNK = 16  # output planes a thread takes at once (sharing its scratch arrays), at most


def prefers_direct(groups, channels_per_group):
    """Whether the direct kernels should run instead of one im2col + GEMM per group."""
    return groups > 1 and channels_per_group <= _MAX_DIRECT_CHANNELS


# Where the forward of wider groups (ResNeXt's 4 to 64 channels) runs direct loops too, group by
# group: measured at batch 1, 0.3-0.7x the GEMMs' time at stride 2 (im2col's strided copies)
# and on planes of 28x28 or more; 1.3-2x on 7x7 and 14x14 at stride 1 (the GEMMs stay there)
_DIRECT_FROM_POSITIONS = 784


def forward_prefers_direct(groups, channels_per_group, stride, positions):
    """Whether the forward should run the direct kernels (``grouped_forward``) rather than
    im2col + a GEMM per group: one-channel groups always, wider ones strided or on output
    planes of ``_DIRECT_FROM_POSITIONS`` or more."""
    wide = groups > 1 and (tuple(stride) != (1, 1) or positions >= _DIRECT_FROM_POSITIONS)
    return prefers_direct(groups, channels_per_group) or wide


@njit(cache=CACHE, inline="always")
def _padded(plane, ph, pw):
    """A copy of the 2-D ``plane`` with ``ph`` / ``pw`` zeros around it, so the tap loops
    below need no bounds tests (short rows made those tests cost more than the arithmetic)."""
    height, width = plane.shape
    out = np.zeros((height + 2 * ph, width + 2 * pw), plane.dtype)
    out[ph : ph + height, pw : pw + width] = plane
    return out


@njit(cache=CACHE, inline="always")
def _add_scaled(out, src, scale):
    """out += scale * src, elementwise (1-D)."""
    for k in range(out.size):
        out[k] += scale * src[k]


@njit(cache=CACHE, inline="always")
def _phase_runs(height, width, sh, sw, ph, pw, rows, cols):
    """(height * sw, 3) ints, one row per input row y and column phase q: where the run of
    that row's phase-q columns lands in the phase planes, where it starts in the input plane,
    and its length (0: none). The phase planes, (sh*sw, rows, cols) flat, hold
    padded[a * sh + p, m * sw + q] at [p * sw + q, a, m]: then every tap of a strided
    convolution reads one contiguous run of one phase, as at stride 1. The same for every
    plane, so computed once a call (it divides)."""
    runs = np.zeros((height * sw, 3), np.int64)
    for y in range(height):
        p, a = (y + ph) % sh, (y + ph) // sh
        for q in range(sw):
            x0 = (q - pw) % sw  # the first input column of phase q
            if x0 < width:
                runs[y * sw + q, 0] = ((p * sw + q) * rows + a) * cols + (x0 + pw) // sw
                runs[y * sw + q, 1] = y * width + x0
                runs[y * sw + q, 2] = (width - x0 + sw - 1) // sw
    return runs


@njit(cache=CACHE, inline="always")
def _tap_starts(kh, kw, sh, sw, dh, dw, rows, cols):
    """Where tap (i, j)'s run starts in the phase planes, at [i * kw + j]."""
    starts = np.empty(kh * kw, np.int64)
    for i in range(kh):
        p, a = (i * dh) % sh, (i * dh) // sh
        for j in range(kw):
            q, m = (j * dw) % sw, (j * dw) // sw
            starts[i * kw + j] = ((p * sw + q) * rows + a) * cols + m
    return starts


@njit(cache=CACHE, inline="always")
def _split_by_phase(x_flat, plane_at, runs, sw, phases):
    """Copy the plane at x_flat[plane_at:] into its phase planes, as ``runs`` says (what lies
    outside them, the padding, stays as it is: zero)."""
    if sw == 2 and runs[0, 2] >= _PAIRED_FROM:
        for r in range(0, runs.shape[0], 2):
            _split_row_in_two(x_flat, plane_at, runs, r, phases)
        return
    for r in range(runs.shape[0]):
        start, source, count = runs[r, 0], runs[r, 1], runs[r, 2]
        if sw == 1:
            _copy_at(phases, uint64(start), x_flat, uint64(plane_at + source), count)
        else:
            _copy_every_at(phases, uint64(start), x_flat, uint64(plane_at + source), sw, count)


_PAIRED_FROM = 16  # columns a phase row from which the paired copy pays (8 ran 1.4x slower)


@njit(cache=CACHE, inline="always")
def _split_row_in_two(x_flat, plane_at, runs, r, phases):
    """At stride 2, one input row's even and odd columns (``runs`` rows r and r + 1, in either
    order) into their phase planes in one loop: LLVM vectorises the pair of strided reads as
    one interleaved load (a 112x112 plane 3.7x as fast as two strided copies)."""
    even, odd = (r, r + 1) if runs[r, 1] <= runs[r + 1, 1] else (r + 1, r)
    to_even, to_odd = uint64(runs[even, 0]), uint64(runs[odd, 0])
    source, pairs = uint64(plane_at + runs[even, 1]), uint64(runs[odd, 2])
    if runs[even, 2] == 0 or runs[odd, 1] != runs[even, 1] + 1:  # a row too short for both
        _copy_every_at(phases, to_even, x_flat, source, 2, runs[even, 2])
        _copy_every_at(phases, to_odd, x_flat, uint64(plane_at + runs[odd, 1]), 2, pairs)
        return
    for m in range(pairs):
        phases[to_even + m] = x_flat[source + uint64(2) * m]
        phases[to_odd + m] = x_flat[source + uint64(2) * m + uint64(1)]
    if runs[even, 2] > runs[odd, 2]:  # an odd width: one even column more
        phases[to_even + pairs] = x_flat[source + uint64(2) * pairs]


# Unsigned offsets into flat arrays: numba wraps a negative signed index, and that test per
# element keeps LLVM from vectorising; a view per short row costs more than the row itself


@njit(cache=CACHE, inline="always")
def _copy_at(out, start, src, src_start, count):
    """out[start + k] = src[src_start + k] for k < count (starts unsigned)."""
    for k in range(uint64(count)):
        out[start + k] = src[src_start + k]


@njit(cache=CACHE, inline="always")
def _copy_every_at(out, start, src, src_start, step, count):
    """out[start + k] = src[src_start + k * step] for k < count (starts unsigned)."""
    for k in range(uint64(count)):
        out[start + k] = src[src_start + k * uint64(step)]


@njit(cache=CACHE, inline="always")
def _add_nine_taps(wide, phases, starts, w, at):
    """wide[k] += the sum over taps t < 9 of w[at + t] * phases[starts[t] + k], added in tap
    order: a 3x3 kernel's taps in one pass over ``wide`` instead of nine ``_add_scaled`` (one
    store a position, not nine; the same sums, bit for bit, where ``wide`` starts at 0)."""
    w0, w1, w2, w3, w4 = w[at], w[at + 1], w[at + 2], w[at + 3], w[at + 4]
    w5, w6, w7, w8 = w[at + 5], w[at + 6], w[at + 7], w[at + 8]
    s0, s1, s2 = uint64(starts[0]), uint64(starts[1]), uint64(starts[2])
    s3, s4, s5 = uint64(starts[3]), uint64(starts[4]), uint64(starts[5])
    s6, s7, s8 = uint64(starts[6]), uint64(starts[7]), uint64(starts[8])
    for k in range(uint64(wide.size)):
        wide[k] += (
            w0 * phases[s0 + k]
            + w1 * phases[s1 + k]
            + w2 * phases[s2 + k]
            + w3 * phases[s3 + k]
            + w4 * phases[s4 + k]
            + w5 * phases[s5 + k]
            + w6 * phases[s6 + k]
            + w7 * phases[s7 + k]
            + w8 * phases[s8 + k]
        )


@njit(cache=CACHE, inline="always")
def _phase_layout(x, w, sh, sw, ph, pw, dh, dw):
    """(rows, cols, plane_size, runs, starts): the phase planes' rows and columns, the floats
    they take with the slack past the last tap's run, and ``_phase_runs`` / ``_tap_starts``."""
    height, width = x.shape[2:]
    kh, kw = w.shape[2:]
    rows = (height + 2 * ph + sh - 1) // sh
    cols = (width + 2 * pw + sw - 1) // sw
    plane_size = sh * sw * rows * cols + (kw - 1) * dw // sw + 1
    runs = _phase_runs(height, width, sh, sw, ph, pw, rows, cols)
    starts = _tap_starts(kh, kw, sh, sw, dh, dw, rows, cols)
    return rows, cols, plane_size, runs, starts


@njit(cache=CACHE, inline="always")
def _add_each_tap(wide, phases, starts, w_flat, at, taps, run):
    """wide += the taps of one channel (weights from w_flat[at:]) over its phase planes, one
    pass a tap (any kernel size; ``_add_nine_taps`` for 3x3)."""
    for tap in range(taps):
        start = starts[tap]
        _add_scaled(wide, phases[start : start + run], w_flat[at + tap])


@njit(cache=CACHE, inline="always")
def _write_plane(y_flat, plane, wide, oh, ow, cols, f, epilogue):
    """Output plane ``plane`` of y from ``wide`` (rows ``cols`` long, ``ow`` of them kept),
    the epilogue (filter f's shift, relu and limits) applied as each row is copied out."""
    shift, relu, low, high = epilogue
    for oy in range(oh):
        at, row = uint64((plane * oh + oy) * ow), uint64(oy * cols)
        if shift.size:
            shifted_copy_at(y_flat, at, wide, row, ow, shift[f], relu, low, high)
        else:
            _copy_at(y_flat, at, wide, row, ow)


@parallel_kernel
def _forward(x, w, sh, sw, ph, pw, dh, dw, groups, per_chunk, epilogue, y):
    """y[n, f] = sum over the group's channels and taps of w[f, c, i, j] * shifted x[n, c];
    then the ``epilogue`` (see epilogue.py) on each row as it is copied out.

    Each output row is computed as wide as a phase plane's row (``cols``), the columns past
    ``ow`` read the next row and are dropped: one contiguous run per tap and plane, instead of
    one per tap and output row (14x14 planes had nine runs of 14 a row, and their set-up cost
    more than the arithmetic).
    """
    n_img, _, height, width = x.shape
    filters, cg, kh, kw = w.shape
    _, _, oh, ow = y.shape
    fg, tasks, taps = filters // groups, n_img * filters, kh * kw
    rows, cols, plane_size, runs, starts = _phase_layout(x, w, sh, sw, ph, pw, dh, dw)
    x_flat, y_flat, w_flat = x.reshape(x.size), y.reshape(y.size), w.reshape(w.size)
    run = oh * cols
    for chunk in prange((tasks + per_chunk - 1) // per_chunk):
        # once a chunk of planes: every plane fills the same cells, the padding stays zero
        phases = np.empty(plane_size, x.dtype)
        for k in range(phases.size):
            phases[k] = 0
        wide = np.empty(run, y.dtype)
        for task in range(chunk * per_chunk, min(tasks, (chunk + 1) * per_chunk)):
            n, f = task // filters, task % filters
            first = (f // fg) * cg
            for k in range(wide.size):
                wide[k] = 0
            for c in range(cg):
                plane_at = (n * x.shape[1] + first + c) * height * width
                _split_by_phase(x_flat, plane_at, runs, sw, phases)
                if taps == 9:
                    _add_nine_taps(wide, phases, starts, w_flat, (f * cg + c) * taps)
                    continue
                _add_each_tap(wide, phases, starts, w_flat, (f * cg + c) * taps, taps, run)
            _write_plane(y_flat, task, wide, oh, ow, cols, f, epilogue)


@parallel_kernel
def _forward_by_group(x, w, sh, sw, ph, pw, dh, dw, groups, epilogue, y):
    """``_forward`` for groups of several channels: a task per image and group splits each of
    the group's input planes into its phases once, then computes every filter of the group
    from them (``_forward`` splits them again for each filter)."""
    n_img, _, height, width = x.shape
    filters, cg, kh, kw = w.shape
    _, _, oh, ow = y.shape
    fg, taps = filters // groups, kh * kw
    rows, cols, plane_size, runs, starts = _phase_layout(x, w, sh, sw, ph, pw, dh, dw)
    x_flat, y_flat, w_flat = x.reshape(x.size), y.reshape(y.size), w.reshape(w.size)
    run = oh * cols
    for task in prange(n_img * groups):
        n, g = task // groups, task % groups
        phases = np.zeros(cg * plane_size, x.dtype)
        for c in range(cg):
            plane_at = (n * x.shape[1] + g * cg + c) * height * width
            _split_by_phase(x_flat, plane_at, runs, sw, phases[c * plane_size :])
        wide = np.empty(run, y.dtype)
        for f in range(g * fg, (g + 1) * fg):
            for k in range(wide.size):
                wide[k] = 0
            for c in range(cg):
                channel = phases[c * plane_size : (c + 1) * plane_size]
                if taps == 9:
                    _add_nine_taps(wide, channel, starts, w_flat, (f * cg + c) * taps)
                    continue
                _add_each_tap(wide, channel, starts, w_flat, (f * cg + c) * taps, taps, run)
            _write_plane(y_flat, n * filters + f, wide, oh, ow, cols, f, epilogue)


@parallel_kernel
def _data_grad(dy, w, sh, sw, ph, pw, dh, dw, groups, dx):
    """dx[n, ci] = sum over the group's filters and taps of w[f, c, i, j] * dy[n, f] put back."""
    n_img, channels, height, width = dx.shape
    filters, cg, kh, kw = w.shape
    _, _, oh, ow = dy.shape
    fg = filters // groups
    for task in prange(n_img * channels):
        n, ci = task // channels, task % channels
        g, c = ci // cg, ci % cg
        grad = np.zeros((height + 2 * ph, width + 2 * pw), dx.dtype)  # padded, cropped below
        for f in range(g * fg, (g + 1) * fg):
            for oy in range(oh):
                for i in range(kh):
                    r = oy * sh + i * dh
                    for j in range(kw):
                        tap, shift = w[f, c, i, j], j * dw
                        if sw == 1:
                            for ox in range(ow):
                                grad[r, ox + shift] += tap * dy[n, f, oy, ox]
                        else:
                            for ox in range(ow):
                                grad[r, ox * sw + shift] += tap * dy[n, f, oy, ox]
        dx[n, ci] = grad[ph : ph + height, pw : pw + width]


@parallel_kernel
def _weight_grad(dy, x, sh, sw, ph, pw, dh, dw, groups, dweight):
    """dweight[f, c, i, j] = sum over images and positions of dy[n, f] * shifted x[n, c]."""
    n_img = x.shape[0]
    filters, cg, kh, kw = dweight.shape
    _, _, oh, ow = dy.shape
    fg = filters // groups
    for f in prange(filters):
        first = (f // fg) * cg
        for c in range(cg):
            partial = np.zeros((kh, kw, ow), np.float64)  # per-column sums: the loop vectorises
            for n in range(n_img):
                xp = _padded(x[n, first + c], ph, pw)
                for oy in range(oh):
                    for i in range(kh):
                        r = oy * sh + i * dh
                        for j in range(kw):
                            shift = j * dw
                            for ox in range(ow):
                                partial[i, j, ox] += dy[n, f, oy, ox] * xp[r, ox * sw + shift]
            for i in range(kh):
                for j in range(kw):
                    total = 0.0
                    for ox in range(ow):
                        total += partial[i, j, ox]
                    dweight[f, c, i, j] = total


def grouped_forward(x, weight, stride, pad, dilate, groups, y, epilogue=None):
    """x (N, C, H, W), weight (F, C/g, kh, kw) -> y (N, F, OH, OW), written into ``y``; then
    the ``epilogue`` (epilogue.py) when given."""
    planes = y.shape[0] * y.shape[1]
    per_chunk = max(1, min(_PLANES_A_CHUNK, planes // (4 * numba.get_num_threads())))
    x, weight = np.ascontiguousarray(x), np.ascontiguousarray(weight)
    target = y if y.flags.c_contiguous else np.empty(y.shape, y.dtype)
    epilogue = no_epilogue(x.dtype) if epilogue is None else epilogue
    if weight.shape[1] > 1:
        _forward_by_group(x, weight, *stride, *pad, *dilate, groups, epilogue, target)
    else:
        _forward(x, weight, *stride, *pad, *dilate, groups, per_chunk, epilogue, target)
    if target is not y:
        y[...] = target
    return y


def grouped_backward(dy, x, weight, stride, pad, dilate, groups, dx=None, dweight=None):
    """Fill ``dx`` (N, C, H, W) and / or ``dweight`` (F, C/g, kh, kw), either may be None."""
    dy = np.ascontiguousarray(dy)
    geometry = (*stride, *pad, *dilate, groups)
    if dx is not None:
        _data_grad(dy, np.ascontiguousarray(weight), *geometry, dx)
    if dweight is not None:
        _weight_grad(dy, np.ascontiguousarray(x), *geometry, dweight)
    return dx, dweight
