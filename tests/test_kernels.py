"""The numba kernels against the plain-NumPy references in minisym.kernels.reference, in
float32 and float64, with odd shapes, strides, padding, dilation and groups."""

import numpy as np
import pytest

from minisym.kernels import batchnorm, conv, conv_folded, elementwise, grouped_conv, jit, pool
from minisym.kernels import reference as ref


@pytest.fixture(autouse=True, params=["parallel", "serial"])
def twin(request):
    """Each test runs both twins of every parallel kernel: arrays this small would otherwise
    reach only the serial one (jit.SERIAL_BELOW)."""
    with jit.twins_forced(request.param):
        yield request.param


CONV_CASES = [  # (x shape, filters, kernel, stride, pad, dilate, groups)
    ((1, 3, 7, 7), 4, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((2, 4, 9, 8), 6, (3, 2), (2, 1), (1, 0), (1, 1), 2),
    ((3, 2, 6, 5), 3, (2, 2), (1, 2), (0, 1), (2, 1), 1),
    ((2, 6, 5, 5), 4, (1, 1), (1, 1), (0, 0), (1, 1), 2),
    ((2, 3, 6, 6), 5, (1, 1), (2, 2), (0, 0), (1, 1), 1),
    ((1, 2, 1, 9), 2, (1, 3), (1, 2), (0, 1), (1, 2), 1),
    # depthwise (one channel per group: the direct kernels), with a multiplier of 2, strided
    ((2, 5, 7, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1), 5),
    ((1, 4, 9, 7), 8, (3, 3), (2, 2), (1, 1), (1, 1), 4),
    ((2, 3, 6, 6), 3, (3, 3), (1, 1), (2, 2), (2, 2), 3),
    # depthwise planes in chunks (39 planes: the last chunk short), stride 3 by 2, dilated
    ((3, 13, 11, 10), 13, (3, 3), (3, 2), (2, 1), (2, 1), 13),
    # depthwise at stride 2 with phase rows of 16 columns or more (each input row's even and
    # odd columns copied in one loop): an odd width, no padding, 5x5 taps with a multiplier of 2
    ((1, 3, 5, 35), 3, (3, 3), (2, 2), (1, 1), (1, 1), 3),
    ((2, 2, 4, 40), 2, (3, 3), (2, 2), (0, 0), (1, 1), 2),
    ((1, 2, 6, 33), 4, (5, 5), (2, 2), (2, 2), (1, 1), 2),
    # wider groups, strided or on planes of 784 positions or more: direct loops group by group
    ((2, 8, 9, 9), 6, (3, 3), (2, 2), (1, 1), (1, 1), 2),
    ((1, 6, 28, 29), 4, (3, 3), (1, 1), (1, 1), (1, 1), 2),
    ((1, 6, 9, 9), 6, (2, 3), (2, 1), (0, 1), (1, 2), 3),
    # wide groups: im2col and one batched GEMM for every group (and image)
    ((1, 34, 5, 5), 4, (3, 3), (1, 1), (1, 1), (1, 1), 2),
    ((2, 34, 4, 5), 4, (3, 3), (1, 1), (1, 1), (1, 1), 2),
    # output rows as long as the input's (one contiguous copy per tap), dilated, a 1x1 image
    ((3, 2, 6, 20), 3, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((2, 3, 8, 8), 3, (3, 3), (1, 1), (2, 2), (2, 2), 1),
    ((2, 2, 1, 1), 2, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    # rows narrower than the input, row by row; strided and dilated rows; taps wholly in the
    # padding
    ((2, 2, 5, 40), 3, (3, 3), (1, 1), (0, 0), (1, 1), 1),
    ((2, 3, 9, 11), 4, (3, 3), (2, 3), (2, 1), (2, 1), 1),
    ((2, 2, 3, 3), 2, (3, 3), (1, 1), (3, 3), (1, 1), 1),
    # strided rows of 8 columns or more: copied from each plane's column phases
    ((1, 2, 9, 20), 3, (3, 3), (2, 2), (1, 1), (1, 1), 1),
    ((2, 2, 7, 23), 2, (2, 3), (1, 3), (0, 2), (1, 2), 1),
    # images whose GEMMs are large enough for BLAS to thread: the weight gradient over the
    # batch's columns side by side (smaller ones: a GEMM per image, then the sum)
    ((2, 8, 20, 20), 32, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    # pointwise on several images: no columns at all
    ((3, 5, 4, 6), 4, (1, 1), (1, 1), (0, 0), (1, 1), 1),
]


def _reference_conv(x, w, stride, pad, dilate, groups):
    n, c = x.shape[:2]
    f, cg, kh, kw = w.shape
    out = [
        (s + 2 * p - d * (k - 1) - 1) // st + 1
        for s, p, d, k, st in zip(x.shape[2:], pad, dilate, (kh, kw), stride)
    ]
    cols = ref.im2col(x, (kh, kw), stride, dilate, pad, out)
    fg = f // groups
    parts = [
        np.einsum("nckloq,fckl->nfoq", cols[:, g * cg : (g + 1) * cg], w[g * fg : (g + 1) * fg])
        for g in range(groups)
    ]
    return np.concatenate(parts, axis=1), cols, out


@pytest.mark.parametrize("direct_up_to", [1, 16])  # grouped: direct loops from 1 or 16 channels
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_forward_and_backward_match_reference(case, dtype, direct_up_to, monkeypatch):
    monkeypatch.setattr(grouped_conv, "_MAX_DIRECT_CHANNELS", direct_up_to)
    shape, f, kernel, stride, pad, dilate, groups = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    w = rng.standard_normal((f, shape[1] // groups) + kernel).astype(dtype)
    b = rng.standard_normal(f).astype(dtype)
    expected, cols, out = _reference_conv(x, w, stride, pad, dilate, groups)
    y = conv.conv2d_forward(x, w, b, stride, pad, dilate, groups)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, expected + b.reshape(1, -1, 1, 1), **tol)
    dy = rng.standard_normal(y.shape).astype(dtype)
    dx, dw = conv.conv2d_backward(dy, x, w, stride, pad, dilate, groups)
    in_place = (np.full_like(x, 9), np.full_like(w, 9))  # written over, not added to
    conv.conv2d_backward(
        dy, x, w, stride, pad, dilate, groups, dx_out=in_place[0], dw_out=in_place[1]
    )
    fg, cg = f // groups, shape[1] // groups
    dw_ref = np.concatenate(
        [
            np.einsum(
                "nfoq,nckloq->fckl", dy[:, g * fg : (g + 1) * fg], cols[:, g * cg : (g + 1) * cg]
            )
            for g in range(groups)
        ]
    )
    dcols = np.concatenate(
        [
            np.einsum("nfoq,fckl->nckloq", dy[:, g * fg : (g + 1) * fg], w[g * fg : (g + 1) * fg])
            for g in range(groups)
        ],
        axis=1,
    )
    dx_ref = ref.col2im(dcols, x.shape, kernel, stride, dilate, pad)
    np.testing.assert_allclose(dw, dw_ref, **tol)
    np.testing.assert_allclose(dx, dx_ref, **tol)
    np.testing.assert_allclose(in_place[0], dx_ref, **tol)
    np.testing.assert_allclose(in_place[1], dw_ref, **tol)


@pytest.mark.parametrize("per_image", [False, True])
@pytest.mark.parametrize("case", CONV_CASES)
def test_im2col_and_col2im_match_reference_in_both_layouts(case, per_image):
    """Columns of the whole batch side by side (C*K, N*P) or image by image (N, C*K, P)."""
    shape, _, kernel, stride, pad, dilate, _ = case
    x = np.random.default_rng(1).standard_normal(shape)
    out = [
        (s + 2 * p - d * (k - 1) - 1) // st + 1
        for s, p, d, k, st in zip(shape[2:], pad, dilate, kernel, stride)
    ]
    expected = ref.im2col(x, kernel, stride, dilate, pad, out)  # (N, C, kh, kw, OH, OW)
    n, c = shape[:2]
    as_rows = expected.reshape(n, c * kernel[0] * kernel[1], -1)
    if not per_image:
        as_rows = as_rows.transpose(1, 0, 2).reshape(as_rows.shape[1], -1)
    cols = conv.im2col(x, kernel, stride, pad, dilate, out, per_image=per_image)
    np.testing.assert_array_equal(cols, as_rows)
    dx = conv.col2im(cols, shape, kernel, stride, pad, dilate, out)
    np.testing.assert_allclose(dx, ref.col2im(expected, shape, kernel, stride, dilate, pad))


POOL_CASES = [  # (x shape, kernel, stride, pad, convention)
    ((2, 3, 7, 7), (3, 3), (2, 2), (1, 1), "valid"),
    ((1, 2, 5, 6), (2, 2), (2, 2), (0, 0), "full"),
    ((2, 1, 4, 4), (3, 3), (2, 2), (1, 1), "full"),
    ((1, 2, 6, 5), (2, 3), (1, 2), (1, 1), "valid"),
    # Inception's 3x3 stride-1 pooling inside its modules, a global pool, 'full' overhanging
    ((2, 3, 9, 20), (3, 3), (1, 1), (1, 1), "valid"),
    ((1, 2, 7, 7), (7, 7), (1, 1), (0, 0), "valid"),
    ((1, 2, 11, 10), (3, 3), (2, 2), (0, 0), "full"),
    # planes in chunks (39: the last chunk short), stride 3 by 2, 'full' overhanging
    ((3, 13, 10, 9), (3, 2), (3, 2), (1, 1), "full"),
    # stride 2 on rows of 32 columns or more (even and odd columns in one loop): an odd
    # width without padding, an even one padded
    ((1, 2, 5, 35), (3, 3), (2, 2), (0, 0), "full"),
    ((1, 2, 6, 40), (3, 2), (2, 2), (1, 1), "valid"),
]


def _out(shape, kernel, stride, pad, convention):
    size = lambda x, k, s, p: (
        (x + 2 * p - k) // s + 1 if convention == "valid" else -(-(x + 2 * p - k) // s) + 1
    )
    return [size(x, k, s, p) for x, k, s, p in zip(shape[2:], kernel, stride, pad)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "pool_type, include_pad", [("max", True), ("avg", True), ("avg", False), ("sum", True)]
)
@pytest.mark.parametrize("case", POOL_CASES)
def test_pooling_matches_reference(case, pool_type, include_pad, dtype):
    shape, kernel, stride, pad, convention = case
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, shape).astype(dtype)  # small integers: many ties for max
    out = _out(shape, kernel, stride, pad, convention)
    y = pool.pool2d_forward(x, pool_type, kernel, stride, pad, out, include_pad)
    y_ref = ref.pool_forward(x, pool_type, kernel, stride, pad, out, include_pad)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-6)
    dy = rng.standard_normal(y.shape).astype(dtype)
    dx = pool.pool2d_backward(dy, x, y, pool_type, kernel, stride, pad, include_pad)
    dx_ref = ref.pool_backward(dy, x, y_ref, pool_type, kernel, stride, pad, include_pad)
    np.testing.assert_allclose(dx, dx_ref, rtol=1e-5, atol=1e-5)


def _reference_bn(x, gamma, beta, eps, axis):
    axes = tuple(i for i in range(x.ndim) if i != axis)
    mean, var = x.mean(axis=axes), x.var(axis=axes)
    shape = [1] * x.ndim
    shape[axis] = -1
    xhat = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    return xhat * gamma.reshape(shape) + beta.reshape(shape), mean, var, xhat


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shape, axis", [((4, 3, 5, 5), 1), ((6, 4), 1), ((2, 3, 5), 2), ((3, 5, 2, 2), 1)]
)
@pytest.mark.parametrize("relu", [False, True])
def test_batchnorm_train_matches_reference(shape, axis, dtype, relu):
    rng = np.random.default_rng(2)
    x = rng.standard_normal(shape).astype(dtype) * 3 + 1
    c = shape[axis]
    gamma, beta = rng.standard_normal(c).astype(dtype), rng.standard_normal(c).astype(dtype)
    y, mean, invstd, var = batchnorm.bn_forward_train(x, gamma, beta, 1e-3, axis, relu)
    y_ref, mean_ref, var_ref, xhat = _reference_bn(x.astype(np.float64), gamma, beta, 1e-3, axis)
    if relu:
        y_ref = np.maximum(y_ref, 0)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(y, y_ref, **tol)
    np.testing.assert_allclose(mean, mean_ref, **tol)
    np.testing.assert_allclose(var, var_ref, **tol)
    np.testing.assert_allclose(invstd, 1 / np.sqrt(var_ref + 1e-3), **tol)
    assert y.dtype == mean.dtype == invstd.dtype == dtype
    dy = rng.standard_normal(shape).astype(dtype)
    dx, dgamma, dbeta = batchnorm.bn_backward(dy, x, mean, invstd, gamma, True, axis)
    axes = tuple(i for i in range(x.ndim) if i != axis)
    bshape = [1] * x.ndim
    bshape[axis] = -1
    m = x.size // c
    dbeta_ref = dy.sum(axis=axes)
    dgamma_ref = (dy * xhat).sum(axis=axes)
    dx_ref = (
        gamma.reshape(bshape)
        / np.sqrt(var_ref.reshape(bshape) + 1e-3)
        / m
        * (m * dy - dbeta_ref.reshape(bshape) - xhat * dgamma_ref.reshape(bshape))
    )
    np.testing.assert_allclose(dbeta, dbeta_ref, **tol)
    np.testing.assert_allclose(dgamma, dgamma_ref, **tol)
    np.testing.assert_allclose(dx, dx_ref, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batchnorm_backward_with_a_fused_relu_masks_the_head_gradient(dtype):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4, 5)).astype(dtype)
    gamma, beta = np.ones(4, dtype), rng.standard_normal(4).astype(dtype)
    y, mean, invstd, _ = batchnorm.bn_forward_train(x, gamma, beta, 1e-3, relu=True)
    dy = rng.standard_normal(x.shape).astype(dtype)
    fused = batchnorm.bn_backward(dy, x, mean, invstd, gamma, True, relu_y=y)
    separate = batchnorm.bn_backward(dy * (y > 0), x, mean, invstd, gamma, True)
    for a, b in zip(fused, separate):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, axis", [((4, 3, 5, 5), 1), ((6, 4), 1), ((2, 3, 5), 2)])
@pytest.mark.parametrize("relu", [False, True])
def test_batchnorm_with_given_statistics_matches_reference(shape, axis, dtype, relu):
    """The test-mode kernels: bn_normalize, and bn_backward with train=False (the statistics
    are constants, so dx = dy * gamma * invstd per channel)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(shape).astype(dtype) * 2 + 0.5
    c = shape[axis]
    gamma, beta, mean = (rng.standard_normal(c).astype(dtype) for _ in range(3))
    invstd = rng.uniform(0.5, 2.0, c).astype(dtype)
    bshape = [1] * x.ndim
    bshape[axis] = -1
    per = lambda v: v.astype(np.float64).reshape(bshape)
    xhat = (x - per(mean)) * per(invstd)
    y_ref = xhat * per(gamma) + per(beta)
    if relu:
        y_ref = np.maximum(y_ref, 0)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    y = batchnorm.bn_normalize(x, mean, invstd, gamma, beta, axis, relu=relu)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, y_ref, **tol)
    dy = rng.standard_normal(shape).astype(dtype)
    dx, dgamma, dbeta = batchnorm.bn_backward(dy, x, mean, invstd, gamma, False, axis)
    axes = tuple(i for i in range(x.ndim) if i != axis)
    np.testing.assert_allclose(dx, dy * per(gamma) * per(invstd), **tol)
    np.testing.assert_allclose(dgamma, (dy * xhat).sum(axis=axes), **tol)
    np.testing.assert_allclose(dbeta, dy.sum(axis=axes), **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("clip", [(0.0, 6.0), (-0.3, 0.1), (1.0, 1.0)])
def test_batchnorm_with_a_clip_is_the_clip_of_its_output(dtype, clip):
    """The fused ReLU6 pass equals BatchNorm, then np.clip to the bounds in data's dtype, to
    the bit (NaN passes, infinities clip)."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 4, 6, 5)).astype(dtype) * 4
    x[0, 0, 0, :3] = [np.nan, np.inf, -np.inf]
    gamma, beta, mean = (rng.standard_normal(4).astype(dtype) for _ in range(3))
    invstd = rng.uniform(0.5, 2.0, 4).astype(dtype)
    plain = batchnorm.bn_normalize(x, mean, invstd, gamma, beta)
    low, high = (dtype(v) for v in clip)
    fused = batchnorm.bn_normalize(x, mean, invstd, gamma, beta, clip=clip)
    np.testing.assert_array_equal(fused, np.minimum(np.maximum(plain, low), high))


BY_IMAGE_CASES = [  # (x shape, filters, kernel, stride, pad, dilate): batches of small images
    ((4, 3, 6, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1)),
    ((3, 2, 9, 20), 4, (3, 3), (2, 2), (1, 1), (1, 1)),
    ((2, 3, 9, 11), 4, (3, 2), (2, 3), (2, 1), (2, 1)),
    # a wholly padded tap; a dilated same-width one
    ((2, 2, 3, 3), 2, (3, 3), (1, 1), (3, 3), (1, 1)),
    ((3, 3, 8, 8), 3, (3, 3), (1, 1), (2, 2), (2, 2)),
]
FOLD_CASES = [case + (1,) for case in BY_IMAGE_CASES] + [  # ... and groups
    ((1, 3, 9, 9), 5, (3, 3), (1, 1), (1, 1), (1, 1), 1),  # one image: the shift after the GEMM
    ((2, 6, 5, 5), 4, (1, 1), (1, 1), (0, 0), (1, 1), 1),  # pointwise: no columns
    ((2, 34, 4, 5), 4, (3, 3), (1, 1), (1, 1), (1, 1), 2),  # wide groups
    ((2, 8, 20, 20), 32, (3, 3), (1, 1), (1, 1), (1, 1), 1),  # images BLAS threads
    ((2, 5, 7, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1), 5),  # depthwise: the direct loops
    ((1, 4, 9, 7), 8, (3, 3), (2, 2), (1, 1), (1, 1), 4),  # ... strided, a multiplier of 2
    ((2, 8, 9, 9), 6, (3, 3), (2, 2), (1, 1), (1, 1), 2),  # wider groups, strided: direct
]


@pytest.mark.parametrize("act", [None, "relu", (-0.5, 0.75)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", FOLD_CASES)
def test_convolution_with_a_folded_batchnorm_is_within_rounding_of_the_two(case, dtype, act):
    """conv2d_forward_folded (the scale in the weights, the shift and ReLU / Clip after each
    image's GEMM) against conv2d_forward, then bn_normalize: the same up to rounding."""
    shape, f, kernel, stride, pad, dilate, groups = case
    rng = np.random.default_rng(9)
    x = rng.standard_normal(shape).astype(dtype)
    w = rng.standard_normal((f, shape[1] // groups) + kernel).astype(dtype)
    bias, gamma, beta, mean = (rng.standard_normal(f).astype(dtype) for _ in range(4))
    invstd = rng.uniform(0.5, 2.0, f).astype(dtype)
    assert conv_folded.folds_batchnorm(x.shape, w.shape, stride, pad, dilate, groups)
    y = conv.conv2d_forward(x, w, bias, stride, pad, dilate, groups)
    clip = act if isinstance(act, tuple) else None
    plain = batchnorm.bn_normalize(y, mean, invstd, gamma, beta, relu=act == "relu", clip=clip)
    scale = invstd * gamma
    shift = beta - mean * scale
    folded = np.full_like(y, 9)
    conv_folded.conv2d_forward_folded(
        x, w, bias, stride, pad, dilate, groups, scale, shift, act, folded
    )
    tol = 1e-5 if dtype == np.float32 else 1e-12
    # rounding goes with the values before ReLU / Clip, which a Clip's bounds do not show
    before_act = batchnorm.bn_normalize(y, mean, invstd, gamma, beta, relu=False)
    np.testing.assert_allclose(folded, plain, rtol=tol, atol=tol * np.abs(before_act).max())


RUNNER_CASES = [  # one per path of folded_runner (FOLD_CASES' indices are not stable)
    ((3, 4, 6, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1), 1),  # a batch of small images
    ((1, 3, 9, 9), 5, (3, 3), (1, 1), (1, 1), (1, 1), 1),  # columns, then one GEMM
    ((1, 6, 5, 5), 4, (1, 1), (1, 1), (0, 0), (1, 1), 2),  # pointwise: x's own view
    ((1, 4, 9, 7), 8, (3, 3), (2, 2), (1, 1), (1, 1), 4),  # depthwise
]


@pytest.mark.parametrize("contiguous", [True, False])
@pytest.mark.parametrize("case", RUNNER_CASES)
def test_a_folded_runner_reads_each_calls_values(case, contiguous):
    """folded_runner keeps views of x, weight and y made once: a second call, after x, the
    weights and the statistics changed in place, gives what a fresh conv2d_forward_folded
    gives, bit for bit (a view made of a copy would keep the old values)."""
    shape, f, kernel, stride, pad, dilate, groups = case
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal((f, shape[1] // groups) + kernel).astype(np.float32)
    if not contiguous:  # a transposed copy: the same values, another memory order
        w = np.asfortranarray(w)
    bias = rng.standard_normal(f).astype(np.float32)
    y = np.empty((shape[0], f) + _out_hw(shape, kernel, stride, pad, dilate), np.float32)
    run = conv_folded.folded_runner(x, w, bias, stride, pad, dilate, groups, "relu", y)
    run(*(rng.uniform(0.5, 2, f).astype(np.float32) for _ in range(2)))
    x[...] = rng.standard_normal(x.shape)
    w[...] = rng.standard_normal(w.shape)
    scale, shift = rng.uniform(0.5, 2, f).astype(np.float32), rng.standard_normal(f)
    run(scale, shift.astype(np.float32))
    fresh = np.empty_like(y)
    geometry = (stride, pad, dilate, groups, scale, shift.astype(np.float32), "relu")
    conv_folded.conv2d_forward_folded(x, w, bias, *geometry, fresh)
    np.testing.assert_array_equal(y, fresh)


def _out_hw(shape, kernel, stride, pad, dilate):
    return tuple(
        (size + 2 * p - d * (k - 1) - 1) // st + 1
        for size, k, st, p, d in zip(shape[2:], kernel, stride, pad, dilate)
    )


@pytest.mark.parametrize("wanted", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", BY_IMAGE_CASES)
def test_backward_image_by_image_is_within_rounding_of_the_batched_one(
    case, dtype, wanted, monkeypatch
):
    """A batch of small images runs its backward image by image (columns, both GEMMs and
    col2im while the image is in cache): against the batched path, only what is asked for."""
    shape, f, kernel, stride, pad, dilate = case
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape).astype(dtype)
    w = rng.standard_normal((f, shape[1]) + kernel).astype(dtype)
    dy = rng.standard_normal(conv.conv2d_forward(x, w, None, stride, pad, dilate, 1).shape)
    dy = dy.astype(dtype)
    calls = []
    run = conv._run_backward_by_image
    monkeypatch.setattr(conv, "_run_backward_by_image", lambda *a: calls.append(run(*a)))
    fast = conv.conv2d_backward(dy, x, w, stride, pad, dilate, 1, *wanted)
    assert len(calls) == 1
    monkeypatch.setattr(conv, "_by_image", lambda *a: False)
    plain = conv.conv2d_backward(dy, x, w, stride, pad, dilate, 1, *wanted)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for got, expected, asked in zip(fast, plain, wanted):
        assert (got is not None) == asked
        if asked:
            np.testing.assert_allclose(got, expected, rtol=tol, atol=tol * np.abs(expected).max())


SPECIAL = [np.nan, -0.0, 0.0, -1.0, 2.5, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_kernels_match_the_reference_to_the_bit(dtype):
    """relu and its gradient against reference.activation / activation_grad, special values
    included: NaN and -0 give +0 forward (MXNet's relu), dy's NaN and inf give NaN where y is 0."""
    rng = np.random.default_rng(8)
    x = np.concatenate([SPECIAL, rng.standard_normal(994)]).astype(dtype).reshape(-1, 7)
    y = np.full_like(x, 9)
    assert elementwise.relu(x, y)
    expected = ref.activation("relu", x)
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(np.signbit(y), np.signbit(expected))  # no -0 left
    dy = np.concatenate([SPECIAL[::-1], rng.standard_normal(994)]).astype(dtype).reshape(x.shape)
    dx = np.full_like(x, 9)
    assert elementwise.relu_grad(dy, y, dx)
    with np.errstate(invalid="ignore"):  # inf * 0 is NaN, on purpose
        np.testing.assert_array_equal(dx, dy * ref.activation_grad("relu", x, y))


def test_relu_kernels_decline_what_they_cannot_take():
    """A strided view, a float16 array or mixed dtypes: False and nothing written (the caller
    takes NumPy's path)."""
    x = np.arange(-6.0, 6.0).reshape(3, 4)
    for args in (
        (x[:, ::2], np.zeros((3, 2))),
        (x.astype(np.float16), np.zeros((3, 4), np.float16)),
        (x, np.zeros((3, 4), np.float32)),
    ):
        out = args[-1].copy()
        assert not elementwise.relu(*args[:-1], out)
        np.testing.assert_array_equal(out, args[-1])


# --- the operators' fast paths against their NumPy paths (MINISYM_KERNELS=reference) ----------
OP_CASES = [  # (op name, params, input shapes, is_train)
    (
        "Convolution",
        {
            "kernel": (3, 2),
            "stride": (2, 1),
            "pad": (1, 1),
            "dilate": (1, 2),
            "num_group": 2,
            "num_filter": 4,
        },
        [(2, 4, 7, 6), (4, 2, 3, 2), (4,)],
        True,
    ),
    (
        "Convolution",
        {"kernel": (3,), "stride": (2,), "pad": (1,), "num_filter": 3, "no_bias": True},
        [(2, 2, 9), (3, 2, 3)],
        True,
    ),
    ("Convolution", {"kernel": (1, 1), "num_filter": 3}, [(1, 4, 3, 5), (3, 4, 1, 1), (3,)], True),
    ("Convolution", {"kernel": (1, 1), "num_filter": 3}, [(2, 4, 3, 5), (3, 4, 1, 1), (3,)], True),
    ("Pooling", {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1)}, [(2, 3, 7, 6)], True),
    (
        "Pooling",
        {
            "kernel": (3, 2),
            "stride": (2, 2),
            "pad": (1, 1),
            "pool_type": "avg",
            "pooling_convention": "full",
            "count_include_pad": False,
        },
        [(2, 2, 5, 6)],
        True,
    ),
    (
        "Pooling",
        {"kernel": (3, 3), "stride": (2, 1), "pad": (1, 1), "pool_type": "avg"},
        [(1, 2, 6, 5)],
        True,
    ),
    (
        "Pooling",
        {"kernel": (3,), "stride": (2,), "pad": (1,), "pool_type": "sum"},
        [(2, 3, 8)],
        True,
    ),
    ("Pooling", {"pool_type": "avg", "global_pool": True}, [(2, 3, 4, 5)], True),
    ("BatchNorm", {"fix_gamma": False}, [(4, 3, 2, 2), (3,), (3,)], True),
    ("BatchNorm", {"fix_gamma": True, "axis": -1}, [(3, 2, 4), (4,), (4,)], True),
    ("BatchNorm", {"fix_gamma": False}, [(5, 3), (3,), (3,)], False),
    ("BatchNorm", {"fix_gamma": False, "use_global_stats": True}, [(4, 3, 2), (3,), (3,)], True),
    ("Activation", {"act_type": "relu"}, [(3, 4, 5)], True),
]


def _fast_and_reference(monkeypatch, op_name, params, in_shapes, is_train, dtype, req):
    """{path: outputs + input gradients + aux states after forward and backward}."""
    from opcheck import make_op, output_shapes

    results = {}
    for path in ("fast", "reference"):
        monkeypatch.setenv("MINISYM_KERNELS", path)
        op = make_op(op_name, **params)
        rng = np.random.default_rng(6)
        ins = [rng.standard_normal(s).astype(dtype) for s in in_shapes]
        out_shapes, aux_shapes = output_shapes(op, in_shapes)
        aux = [rng.uniform(0.5, 1.5, s).astype(dtype) for s in aux_shapes]
        outs = [np.full(s, 0.5, dtype) for s in out_shapes]  # 'add' adds to these
        op.forward(is_train, [req] * len(outs), ins, outs, aux)
        heads = [rng.standard_normal(s).astype(dtype) for s in out_shapes]
        grads = [np.full_like(x, 0.5) for x in ins]
        op.backward([req] * len(ins), heads, ins, outs, grads, aux)
        results[path] = outs + grads + aux
    return results


@pytest.mark.parametrize("req", ["write", "add"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "op_name, params, in_shapes, is_train",
    OP_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(OP_CASES)],
)
def test_operator_fast_path_matches_its_numpy_path(
    monkeypatch, op_name, params, in_shapes, is_train, dtype, req
):
    results = _fast_and_reference(monkeypatch, op_name, params, in_shapes, is_train, dtype, req)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    for i, (fast, reference) in enumerate(zip(results["fast"], results["reference"])):
        assert fast.dtype == reference.dtype == dtype
        np.testing.assert_allclose(fast, reference, **tol, err_msg=f"array {i}")


WINOGRAD_CASES = [  # (x shape, filters, pad): stride-1 3x3, enough channels for F(2x2, 3x3)
    ((2, 16, 13, 11), 20, (1, 1)),
    ((1, 24, 16, 16), 16, (0, 0)),
    ((1, 16, 15, 14), 16, (2, 1)),
]


@pytest.mark.parametrize("case", WINOGRAD_CASES)
def test_winograd_matches_the_direct_convolution_in_float32(case, monkeypatch):
    """F(2x2, 3x3) (MINISYM_KERNELS=winograd) forward and data gradient stay within float32
    rounding of the float64 direct sum (relative to the output's scale); exact_kernels() and
    the default kernels do not use it."""
    from minisym.kernels import exact_kernels, winograd

    monkeypatch.setenv("MINISYM_KERNELS", "winograd")
    shape, f, pad = case
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal((f, shape[1], 3, 3)).astype(np.float32)
    assert winograd.applies(w.shape, (1, 1), (1, 1), 1)
    assert not winograd.applies(w.shape, (1, 1), (1, 1), 1, (1, f, 7, 7))  # too few tiles
    expected, cols, out = _reference_conv(
        x.astype(np.float64), w.astype(np.float64), (1, 1), pad, (1, 1), 1
    )
    calls = []
    monkeypatch.setattr(winograd, "_output_transform", _counting(winograd._output_transform, calls))
    y = conv.conv2d_forward(x, w, None, (1, 1), pad, (1, 1), 1)
    assert len(calls) == 1
    scale = np.abs(expected).max()
    assert np.abs(y - expected).max() <= 2e-6 * scale * np.sqrt(shape[1] * 9)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    dx, _ = conv.conv2d_backward(dy, x, w, (1, 1), pad, (1, 1), 1, need_dw=False)
    dcols = np.einsum("nfoq,fckl->nckloq", dy.astype(np.float64), w.astype(np.float64))
    dx_ref = ref.col2im(dcols, x.shape, (3, 3), (1, 1), (1, 1), pad)
    assert len(calls) == 2
    assert np.abs(dx - dx_ref).max() <= 2e-6 * np.abs(dx_ref).max() * np.sqrt(f * 9)
    with exact_kernels():
        direct = conv.conv2d_forward(x, w, None, (1, 1), pad, (1, 1), 1)
    assert len(calls) == 2
    np.testing.assert_allclose(direct, expected, rtol=1e-4, atol=1e-4)
    monkeypatch.setenv("MINISYM_KERNELS", "fast")
    conv.conv2d_forward(x, w, None, (1, 1), pad, (1, 1), 1)
    assert len(calls) == 2


def _counting(kernel, calls):
    def counted(*args):
        calls.append(1)
        return kernel(*args)

    return counted
