"""Forward/backward of the image operators: Deconvolution (minisym/ops/nn/deconvolution.py),
UpSampling (ops/nn/upsampling.py), Pad (ops/pad.py), LRN (ops/nn/lrn.py), SpatialTransformer,
GridGenerator and BilinearSampler (ops/spatial_transformer.py, ops/grid_generator.py,
ops/bilinear_sampler.py, kernels/sampler.py)."""

import itertools

import numpy as np
import pytest

import minisym as mx
from minisym.kernels import sampler as ksampler
from minisym.ops import bilinear_sampler as st
from opcheck import (
    check_backward_dependency,
    check_gradients,
    check_req,
    make_op,
    output_shapes,
    run_backward,
    run_forward,
)

ST = {"transform_type": "affine", "sampler_type": "bilinear"}
UP = {"sample_type": "nearest"}

# (op name, params, input shapes, expected output shapes, hidden ones included)
CASES = [
    (
        "Deconvolution",
        {"kernel": (3, 3), "num_filter": 2},
        [(1, 3, 3, 4), (3, 2, 3, 3)],
        [(1, 2, 5, 6)],
    ),
    (
        "Deconvolution",
        {"kernel": (3, 3), "num_filter": 2, "stride": (2, 2), "pad": (1, 1), "adj": (1, 0)},
        [(2, 2, 3, 3), (2, 2, 3, 3)],
        [(2, 2, 6, 5)],
    ),
    (
        "Deconvolution",
        {"kernel": (2, 3), "num_filter": 3, "dilate": (2, 1), "no_bias": False},
        [(1, 2, 3, 3), (2, 3, 2, 3), (3,)],
        [(1, 3, 5, 5)],
    ),
    (
        "Deconvolution",
        {"kernel": (2, 2), "num_filter": 4, "num_group": 2, "stride": (2, 1)},
        [(1, 4, 2, 3), (4, 2, 2, 2)],
        [(1, 4, 4, 4)],
    ),
    (
        "Deconvolution",
        {"kernel": (4, 4), "num_filter": 2, "stride": (2, 2), "target_shape": (7, 8)},
        [(1, 2, 4, 4), (2, 2, 4, 4)],
        [(1, 2, 7, 8)],
    ),
    (
        "Deconvolution",
        {"kernel": (3,), "num_filter": 2, "stride": (2,), "pad": (1,), "no_bias": False},
        [(2, 3, 5), (3, 2, 3), (2,)],
        [(2, 2, 9)],
    ),
    (
        "Deconvolution",
        {"kernel": (2, 2, 2), "num_filter": 2, "stride": (2, 1, 1)},
        [(1, 2, 2, 2, 3), (2, 2, 2, 2, 2)],
        [(1, 2, 4, 3, 4)],
    ),
    ("UpSampling", {"scale": 2, "num_args": 1, **UP}, [(2, 2, 2, 3)], [(2, 2, 4, 6)]),
    (
        "UpSampling",
        {"scale": 2, "num_args": 3, **UP},
        [(1, 2, 2, 2), (1, 1, 4, 4), (1, 2, 1, 1)],
        [(1, 5, 4, 4)],
    ),
    (
        "UpSampling",
        {"scale": 3, "num_args": 2, "multi_input_mode": "sum", **UP},
        [(1, 2, 1, 2), (1, 2, 3, 6)],
        [(1, 2, 3, 6)],
    ),
    (
        "UpSampling",
        {"scale": 2, "num_args": 1, "sample_type": "bilinear", "num_filter": 2},
        [(1, 2, 3, 3), (2, 1, 4, 4)],
        [(1, 2, 6, 6)],
    ),
    (
        "UpSampling",
        {"scale": 3, "num_args": 2, "sample_type": "bilinear", "num_filter": 1},
        [(2, 1, 2, 3), (1, 1, 5, 5)],
        [(2, 1, 6, 9)],
    ),
    (
        "Pad",
        {"mode": "constant", "pad_width": (0, 0, 0, 0, 1, 2, 2, 1), "constant_value": 1.5},
        [(1, 2, 3, 3)],
        [(1, 2, 6, 6)],
    ),
    (
        "Pad",
        {"mode": "edge", "pad_width": (0, 0, 0, 0, 2, 1, 1, 3)},
        [(1, 2, 3, 4)],
        [(1, 2, 6, 8)],
    ),
    (
        "Pad",
        {"mode": "reflect", "pad_width": (0, 0, 0, 0, 2, 1, 1, 3)},
        [(1, 2, 3, 4)],
        [(1, 2, 6, 8)],
    ),
    (
        "Pad",
        {"mode": "reflect", "pad_width": (0, 0, 0, 0, 1, 1, 1, 0, 0, 1)},
        [(1, 2, 2, 3, 2)],
        [(1, 2, 4, 4, 3)],
    ),
    (
        "Pad",
        {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 0, 0, 2, 1, 1)},
        [(1, 1, 2, 3, 2)],
        [(1, 1, 3, 5, 4)],
    ),
    ("LRN", {"nsize": 3, "alpha": 0.1}, [(2, 5, 2, 2)], [(2, 5, 2, 2)] * 2),
    (
        "LRN",
        {"nsize": 5, "alpha": 0.5, "beta": 0.6, "knorm": 1.0},
        [(1, 4, 2, 3)],
        [(1, 4, 2, 3)] * 2,
    ),
    ("LRN", {"nsize": 4, "alpha": 2.0, "beta": 0.5}, [(1, 5, 1, 2)], [(1, 5, 1, 2)] * 2),
    (
        "SpatialTransformer",
        {"target_shape": (4, 3), **ST},
        [(2, 3, 5, 6), (2, 6)],
        [(2, 3, 4, 3), (3, 12), (2, 2, 12)],
    ),
    (
        "SpatialTransformer",
        {"target_shape": (6, 7), **ST},
        [(1, 2, 4, 4), (1, 6)],
        [(1, 2, 6, 7), (3, 42), (1, 2, 42)],
    ),
    (
        "GridGenerator",
        {"transform_type": "affine", "target_shape": (3, 4)},
        [(2, 6)],
        [(2, 2, 3, 4), (3, 12)],
    ),
    ("GridGenerator", {"transform_type": "warp"}, [(2, 2, 3, 4)], [(2, 2, 3, 4), (2, 3, 4)]),
    ("BilinearSampler", {}, [(2, 3, 5, 6), (2, 2, 3, 4)], [(2, 3, 3, 4), (2, 3, 4, 2)]),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params, _, _ in CASES]


def _inputs(name, shapes, dtype=np.float64, seed=0):
    """Random inputs; affine matrices near the identity and grids in [-1.2, 1.2], so that
    sampling points fall inside the map and (almost surely) off the pixel grid, where bilinear
    sampling has kinks that finite differences cannot cross."""
    rng = np.random.default_rng(seed)
    ins = [rng.standard_normal(s) for s in shapes]
    if name in ("SpatialTransformer", "GridGenerator") and shapes[-1][-1] == 6:
        ins[-1] = np.tile([0.9, 0.1, 0.05, -0.1, 0.85, 0.07], (shapes[-1][0], 1)) + rng.uniform(
            -0.1, 0.1, shapes[-1]
        )
    if name == "BilinearSampler":
        ins[1] = rng.uniform(-1.2, 1.2, shapes[1])
    return [x.astype(dtype) for x in ins]


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_shape_rule(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    assert output_shapes(op, in_shapes)[0] == out_shapes
    ins, _, _ = op.infer_shape(
        [in_shapes[0]] + [None] * (len(in_shapes) - 1), [None] * len(out_shapes)
    )
    if op.list_arguments()[1:2] == ["weight"]:
        assert ins[1] == in_shapes[1]  # the weight's shape comes from data's
    outs = run_forward(op, _inputs(name, in_shapes))
    assert [o.shape for o in outs] == out_shapes


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_gradients(name, params, in_shapes, out_shapes):
    check_gradients(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_req(name, params, in_shapes, out_shapes):
    check_req(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_backward_dependency(name, params, in_shapes, out_shapes):
    check_backward_dependency(make_op(name, **params), _inputs(name, in_shapes))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_float32_matches_float64(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    ins64 = _inputs(name, in_shapes)
    ins32 = [x.astype(np.float32) for x in ins64]
    outs32, outs64 = run_forward(op, ins32), run_forward(op, ins64)
    heads = [np.linspace(-1, 1, o.size).reshape(o.shape) for o in outs64]
    grads32 = run_backward(op, ins32, outs32, [h.astype(np.float32) for h in heads])
    grads64 = run_backward(op, ins64, outs64, heads)
    for got, want in zip(outs32[:1] + grads32, outs64[:1] + grads64):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_reference_kernels_agree(name, params, in_shapes, out_shapes, monkeypatch):
    """MINISYM_KERNELS=reference (plain NumPy) gives the fast path's values."""
    op = make_op(name, **params)
    ins = _inputs(name, in_shapes)
    fast = run_forward(op, ins)
    heads = [np.linspace(-1, 1, o.size).reshape(o.shape) for o in fast]
    fast_grads = run_backward(op, ins, fast, heads)
    monkeypatch.setenv("MINISYM_KERNELS", "reference")
    slow = run_forward(op, ins)
    for got, want in zip(slow + run_backward(op, ins, slow, heads), fast + fast_grads):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


# --- partial inference, as MXNet 1.9.1 does it (tests/differential/p660-p665) ------------------
PARTIAL = [
    (
        "Deconvolution",
        {"kernel": (3, 3), "num_filter": 4, "stride": (2, 2), "pad": (1, 1), "adj": (1, 1)},
        [(0, 3, 5, 5), None],
        [(0, 3, 5, 5), (3, 4, 3, 3)],
        [(0, 4, 10, 10)],
    ),
    (
        "Deconvolution",
        {"kernel": (3, 3), "num_filter": 4, "stride": (2, 2)},
        [(2, 3, 0, 5), None],
        [(2, 3, 0, 5), (3, 4, 3, 3)],
        [(2, 4, 0, 11)],
    ),
    (
        "Deconvolution",
        {"kernel": (3, 3), "num_filter": 4},
        [None, (3, 4, 3, 3)],
        [None, (3, 4, 3, 3)],
        [None],
    ),  # nothing comes back from the weight
    (
        "UpSampling",
        {"scale": 2, "num_args": 1, **UP},
        [(0, 3, 4, 5)],
        [(0, 3, 4, 5)],
        [(0, 3, 8, 10)],
    ),
    (
        "UpSampling",
        {"scale": 2, "num_args": 1, "sample_type": "bilinear", "num_filter": 3},
        [(0, 3, 4, 4), None],
        [(0, 3, 4, 4), None],
        [None],
    ),
    (
        "Pad",
        {"mode": "constant", "pad_width": (0, 0, 0, 0, 1, 2, 3, 4)},
        [(0, 2, 3, 4)],
        [(0, 2, 3, 4)],
        [(0, 2, 6, 11)],
    ),
    ("LRN", {"nsize": 3}, [(0, 5, 3, 3)], [(0, 5, 3, 3)], [None, None]),
    (
        "SpatialTransformer",
        {"target_shape": (5, 6), **ST},
        [(2, 3, 8, 8), None],
        [(2, 3, 8, 8), None],
        [None, None, None],
    ),
    (
        "SpatialTransformer",
        {"target_shape": (5, 6), **ST},
        [None, (2, 6)],
        [None, (2, 6)],
        [None, None, None],
    ),
]


@pytest.mark.parametrize(
    "name, params, given, ins, outs", PARTIAL, ids=[f"{c[0]}-{i}" for i, c in enumerate(PARTIAL)]
)
def test_partial_inference(name, params, given, ins, outs):
    op = make_op(name, **params)
    got_ins, got_outs, _ = op.infer_shape(list(given), [None] * len(op.list_outputs()))
    assert got_ins == ins and got_outs == outs


# --- values against independent computations ---------------------------------------------------


def _deconv_by_scatter(x, w, stride, pad, dilate, adj, groups):
    """Every input pixel times the kernel, added at stride * position, the border cut off."""
    n, c = x.shape[:2]
    f = w.shape[1] * groups
    kernel = w.shape[2:]
    full = [
        s * (a - 1) + d * (k - 1) + 1 + j
        for a, k, s, d, j in zip(x.shape[2:], kernel, stride, dilate, adj)
    ]
    canvas = np.zeros((n, f) + tuple(full))
    cg, fg = c // groups, f // groups
    for pos in itertools.product(*map(range, x.shape[2:])):
        for tap in itertools.product(*map(range, kernel)):
            at = tuple(i * s + t * d for i, t, s, d in zip(pos, tap, stride, dilate))
            for ch in range(c):
                g = ch // cg
                canvas[(slice(None), slice(g * fg, (g + 1) * fg)) + at] += (
                    x[(slice(None), ch) + pos][:, None] * w[(ch, slice(None)) + tap][None]
                )
    return canvas[(slice(None), slice(None)) + tuple(slice(p, s - p) for p, s in zip(pad, full))]


@pytest.mark.parametrize(
    "params, shape",
    [
        ({"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "adj": (1, 1)}, (2, 4, 3, 4)),
        ({"kernel": (3,), "stride": (2,), "pad": (1,), "dilate": (2,), "num_group": 2}, (2, 4, 5)),
        (
            {"kernel": (2, 3), "stride": (1, 2), "pad": (0, 1), "adj": (0, 1), "num_group": 2},
            (1, 2, 3, 3),
        ),
        (
            {"kernel": (2, 2, 2), "stride": (2, 1, 1), "pad": (0, 0, 1), "adj": (1, 0, 0)},
            (1, 2, 2, 3, 3),
        ),
    ],
)
def test_deconvolution_is_a_scatter_of_kernels(params, shape):
    rng = np.random.default_rng(4)
    groups = params.get("num_group", 1)
    op = make_op("Deconvolution", num_filter=4, no_bias=False, **params)
    x = rng.standard_normal(shape)
    w = rng.standard_normal((shape[1], 4 // groups) + params["kernel"])
    b = rng.standard_normal(4)
    (out,) = run_forward(op, [x, w, b])
    nd = len(params["kernel"])
    want = _deconv_by_scatter(
        x,
        w,
        params["stride"],
        params["pad"],
        params.get("dilate", (1,) * nd),
        params.get("adj", (0,) * nd),
        groups,
    ) + b.reshape((-1,) + (1,) * nd)
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-12)


def test_deconvolution_is_the_gradient_of_convolution():
    """Deconvolution(x, W) equals the data gradient of Convolution with the same weight."""
    rng = np.random.default_rng(5)
    conv = make_op(
        "Convolution", kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=3, no_bias=True
    )
    deconv = make_op(
        "Deconvolution", kernel=(3, 3), stride=(2, 2), pad=(1, 1), adj=(1, 1), num_filter=2
    )
    data, w = rng.standard_normal((1, 2, 6, 6)), rng.standard_normal((3, 2, 3, 3))
    dy = rng.standard_normal((1, 3, 3, 3))
    outs = run_forward(conv, [data, w])
    dx, _ = run_backward(conv, [data, w], outs, [dy])
    (out,) = run_forward(deconv, [dy, w])
    np.testing.assert_allclose(out, dx, rtol=1e-12, atol=1e-12)


def test_deconvolution_target_shape_pads_as_mxnet():
    """target_shape (7, 8) from 4x4 with kernel 4, stride 2: the full 10x10 result less
    pad (2, 1) on both sides and adj (1, 0) at the end (MXNet's InferPad)."""
    op = make_op("Deconvolution", kernel=(4, 4), stride=(2, 2), num_filter=1, target_shape=(7, 8))
    assert op.geometry((4, 4))[2:] == ((2, 1), (1, 0))
    rng = np.random.default_rng(6)
    x, w = rng.standard_normal((1, 1, 4, 4)), rng.standard_normal((1, 1, 4, 4))
    (out,) = run_forward(op, [x, w])
    full = _deconv_by_scatter(x, w, (2, 2), (0, 0), (1, 1), (0, 0), 1)
    np.testing.assert_allclose(out, full[:, :, 2:9, 1:9], rtol=1e-12)


def test_upsampling_nearest_values_by_hand():
    op = make_op("UpSampling", scale=2, num_args=2, **UP)
    a, b = np.array([[[[1.0, 2], [3, 4]]]]), np.array([[[[5.0]]]])
    (out,) = run_forward(op, [a, b])
    np.testing.assert_array_equal(
        out[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]
    )
    np.testing.assert_array_equal(out[0, 1], np.full((4, 4), 5.0))
    da, db = run_backward(op, [a, b], [out], [np.arange(32.0).reshape(1, 2, 4, 4)])
    np.testing.assert_array_equal(
        da, [[[[0 + 1 + 4 + 5, 2 + 3 + 6 + 7], [8 + 9 + 12 + 13, 10 + 11 + 14 + 15]]]]
    )
    np.testing.assert_array_equal(db, [[[[sum(range(16, 32))]]]])


def test_upsampling_bilinear_is_mxnets_documented_example():
    """MXNet's docs: 3x3 ones and a 4x4 ones kernel at scale 2 give 1 2 2 2 2 1 borders."""
    op = make_op("UpSampling", scale=2, num_args=2, sample_type="bilinear", num_filter=1)
    (out,) = run_forward(op, [np.ones((1, 1, 3, 3)), np.ones((1, 1, 4, 4))])
    edge = [1, 2, 2, 2, 2, 1]
    np.testing.assert_array_equal(out[0, 0], np.outer(edge, edge))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
def test_pad_is_numpy_pad_and_its_adjoint(mode):
    rng = np.random.default_rng(7)
    widths = (0, 0, 0, 0, 2, 1, 1, 3)
    op = make_op("Pad", mode=mode, pad_width=widths, constant_value=0.5)
    x = rng.standard_normal((1, 2, 3, 4))
    (out,) = run_forward(op, [x])
    pairs = list(zip(widths[0::2], widths[1::2]))
    want = np.pad(x, pairs, mode=mode, **({"constant_values": 0.5} if mode == "constant" else {}))
    np.testing.assert_array_equal(out, want)
    # the gradient is the adjoint: <pad(x), dy> == <x, grad(dy)> for the linear part
    dy = rng.standard_normal(out.shape)
    (grad,) = run_backward(op, [x], [out], [dy])
    linear = out - (run_forward(op, [np.zeros_like(x)])[0])
    assert np.sum(linear * dy) == pytest.approx(np.sum(x * grad), rel=1e-12)


def test_lrn_by_the_formula():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((2, 5, 2, 3))
    for nsize in (1, 3, 4, 5):
        out, norm = run_forward(make_op("LRN", nsize=nsize, alpha=0.7, beta=0.6, knorm=1.5), [x])
        half = (nsize - 1) // 2
        for c in range(5):
            window = x[:, max(c - half, 0) : c + half + 1]
            want = 1.5 + 0.7 / nsize * (window**2).sum(axis=1)
            np.testing.assert_allclose(norm[:, c], want, rtol=1e-12)
            np.testing.assert_allclose(out[:, c], x[:, c] * want**-0.6, rtol=1e-12)


def test_spatial_transformer_identity_copies_the_image():
    op = make_op("SpatialTransformer", target_shape=(4, 5), **ST)
    x = np.random.default_rng(9).standard_normal((2, 3, 4, 5))
    out, grid_dst, grid_src = run_forward(op, [x, np.tile([1.0, 0, 0, 0, 1, 0], (2, 1))])
    np.testing.assert_allclose(out, x, atol=1e-12)
    np.testing.assert_allclose(grid_dst[:, :5], [[-1, -0.5, 0, 0.5, 1], [-1] * 5, [1] * 5])
    np.testing.assert_allclose(grid_src, np.stack([grid_dst[:2]] * 2))


def test_spatial_transformer_backward_leaves_grid_src():
    """MXNet overwrites out_data grid_src with its gradient; minisym's backward reads it only."""
    op = make_op("SpatialTransformer", target_shape=(3, 3), **ST)
    ins = _inputs("SpatialTransformer", [(1, 2, 4, 4), (1, 6)])
    outs = run_forward(op, ins)
    kept = outs[2].copy()
    run_backward(op, ins, outs, [np.ones_like(o) for o in outs])
    np.testing.assert_array_equal(outs[2], kept)


def test_sampler_kernel_matches_reference():
    rng = np.random.default_rng(10)
    data = rng.standard_normal((2, 3, 5, 7))
    grid = rng.uniform(-1.3, 1.3, (2, 2, 11))
    points = st.sampling_points(grid, 5, 7)
    np.testing.assert_allclose(
        ksampler.sample_forward(data, points, data.dtype),
        st.sample_reference(data, points),
        rtol=1e-12,
        atol=1e-12,
    )
    dy = rng.standard_normal((2, 3, 11))
    for got, want in zip(
        ksampler.sample_backward(dy, data, points, True),
        st.sample_backward_reference(dy, data, points, True),
    ):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_points_outside_the_map_read_zero():
    op = make_op("BilinearSampler")
    data = np.ones((1, 1, 3, 3))
    grid = np.array([[[[-3.0, 0.0, 1.0]], [[0.0, 0.0, 1.5]]]])  # x, y of 3 points
    out, _ = run_forward(op, [data, grid])
    np.testing.assert_allclose(out[0, 0, 0], [0.0, 1.0, 0.5])  # off, inside, half off


# --- symbols, names and the teaching errors -----------------------------------------------------


def test_symbol_listings_and_implicit_variables():
    x = mx.sym.Variable("x")
    d = mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4)
    assert d.name == "deconvolution0" and d.list_arguments() == ["x", "deconvolution0_weight"]
    b = mx.sym.UpSampling(x, scale=2, sample_type="bilinear", num_filter=3, name="up")
    assert b.list_arguments() == ["x", "up_weight"]
    assert b.attr_dict()["up_weight"]["__init__"] == '["bilinear", {}]'
    lrn = mx.sym.LRN(x, nsize=3, name="n")
    assert lrn.list_outputs() == ["n_output"]
    assert lrn.get_internals().list_outputs() == ["x", "n_output"]
    s = mx.sym.SpatialTransformer(x, mx.sym.Variable("loc"), target_shape=(2, 2), **ST)
    assert s.list_outputs() == ["spatialtransformer0_output"]
    assert mx.sym.pad(x, mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)).name == "pad0"


def test_ndarray_functions_run():
    x = mx.nd.array(np.arange(4.0).reshape(1, 1, 2, 2))
    up = mx.nd.UpSampling(x, scale=2, sample_type="nearest")
    assert up.shape == (1, 1, 4, 4) and up.asnumpy()[0, 0, 3, 3] == 3.0
    padded = mx.nd.Pad(x, mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=9)
    assert padded.asnumpy()[0, 0, 0, 0] == 9 and padded.shape == (1, 1, 4, 4)
    out = mx.nd.Deconvolution(
        x, mx.nd.ones((1, 1, 2, 2)), kernel=(2, 2), num_filter=1, stride=(2, 2)
    )
    np.testing.assert_array_equal(out.asnumpy()[0, 0, :2, :2], [[0, 0], [0, 0]])
    assert mx.nd.LRN(x, nsize=1).shape == x.shape


@pytest.mark.parametrize(
    "build, shapes, words",
    [
        (
            lambda x: mx.sym.Deconvolution(
                x, kernel=(4, 4), num_filter=2, stride=(2, 2), target_shape=(10, 10), name="up1"
            ),
            {"x": (1, 3, 3, 3)},
            [
                "Deconvolution 'up1'",
                "target_shape=(10, 10) is too big",
                "reaches at most 8",
                "raise stride",
            ],
        ),
        (
            lambda x: mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4, adj=(1, 1), name="d"),
            {"x": (1, 3, 5, 5)},
            ["Deconvolution 'd'", "adj 1", "smaller than the stride 1"],
        ),
        (
            lambda x: mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4, num_group=2, name="d"),
            {"x": (1, 3, 5, 5)},
            ["3 channels, not divisible by num_group=2", "pick a num_group that divides 3"],
        ),
        (
            lambda x: mx.sym.UpSampling(
                x, mx.sym.Variable("y"), scale=2, sample_type="nearest", name="u"
            ),
            {"x": (1, 3, 4, 4), "y": (1, 2, 3, 3)},
            ["UpSampling 'u'", "input 'arg1' (1, 2, 3, 3)", "(8, 8)", "one same whole factor"],
        ),
        (
            lambda x: mx.sym.UpSampling(
                x,
                mx.sym.Variable("y"),
                scale=2,
                sample_type="nearest",
                multi_input_mode="sum",
                name="u",
            ),
            {"x": (1, 3, 4, 4), "y": (1, 2, 2, 2)},
            ["'arg1' has 2 and 'arg0' has 3", "multi_input_mode='concat'"],
        ),
        (
            lambda x: mx.sym.UpSampling(x, scale=2, sample_type="bilinear", num_filter=2, name="u"),
            {"x": (1, 3, 4, 4)},
            ["num_filter must equal the data's channels", "pass num_filter=3"],
        ),
        (
            lambda x: mx.sym.Pad(x, mode="constant", pad_width=(0, 0, 1, 0, 1, 1, 1, 1), name="p"),
            {"x": (1, 2, 3, 3)},
            ["Pad 'p'", "pads the batch or channel axis", "first four values must be 0"],
        ),
        (
            lambda x: mx.sym.Pad(x, mode="constant", pad_width=(0, 0, 0, 0, 1, 1), name="p"),
            {"x": (1, 2, 3)},
            ["3 dimensions", "only 4-D (N, C, H, W) or 5-D", "expand_dims"],
        ),
        (
            lambda x: mx.sym.Pad(x, mode="reflect", pad_width=(0, 0, 0, 0, 3, 1, 1, 1), name="p"),
            {"x": (1, 2, 3, 3)},
            ["at most size - 1 = 2 cells", "mode='edge'"],
        ),
        (
            lambda x: mx.sym.SpatialTransformer(x, mx.sym.Variable("loc"), name="stn", **ST),
            {"x": (2, 3, 8, 8), "loc": (2, 6)},
            ["SpatialTransformer 'stn'", "target_shape (0, 0)", "target_shape=(28, 28)"],
        ),
        (
            lambda x: mx.sym.SpatialTransformer(
                x, mx.sym.Variable("loc"), target_shape=(2, 2), name="stn", **ST
            ),
            {"x": (2, 3, 8, 8), "loc": (2, 5)},
            ["loc (2, 5) must be (batch, 6)", "FullyConnected(num_hidden=6)"],
        ),
        (
            lambda x: mx.sym.SpatialTransformer(
                x, mx.sym.Variable("loc"), target_shape=(2, 2), name="stn", **ST
            ),
            {"x": (2, 3, 8, 8), "loc": (3, 6)},
            ["loc (3, 6) has batch size 3", "one loc per image"],
        ),
    ],
)
def test_teaching_errors(build, shapes, words):
    with pytest.raises(mx.base.MXNetError) as info:
        build(mx.sym.Variable("x")).infer_shape(**shapes)
    for word in words:
        assert word in str(info.value)


def test_parameter_errors_when_created():
    x = mx.sym.Variable("x")
    with pytest.raises(mx.base.MXNetError, match="stride=.2,. has 1 values but kernel"):
        mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4, stride=(2,))
    with pytest.raises(mx.base.MXNetError, match="adj=.1,. has 1 values"):
        mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4, adj=(1,))
    with pytest.raises(mx.base.MXNetError, match="scale=0 is invalid"):
        mx.sym.UpSampling(x, scale=0, sample_type="nearest")
    with pytest.raises(mx.base.MXNetError, match="required parameter 'sample_type'"):
        mx.sym.UpSampling(x, scale=2)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
# test_shape_rule, test_gradients and test_req are each parametrized over every case of CASES.
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
