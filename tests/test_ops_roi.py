"""Forward/backward of ROIPooling (minisym/ops/roi_pooling.py) and its kernel
(minisym/kernels/roi.py): MXNet's box rounding, the hidden maxidx, gradients to data only,
the kernel against the NumPy reference."""

import numpy as np
import pytest

import minisym as mx
from minisym.kernels import roi as kroi
from minisym.ops.roi_pooling import roi_bins, roi_pool_reference, roi_unpool_reference
from opcheck import (
    case_tests,
    make_op,
    run_backward,
    run_forward,
)

ROIS = np.array(
    [
        [0, 0, 0, 7, 5],  # the whole map at scale 1
        [1, 1, 1, 5, 6],  # .5 corners at scale 0.5
        [0, 3, 3, 3, 3],  # a single point
        [1, -3, -5, 2.5, 1.5],  # starts before the map
        [0, 6, 4, 30, 40],  # runs past the map
        [1, 5, 5, 2, 2],  # x2 < x1
        [2, 0, 0, 4, 4],  # batch index past the batch
        [-1, 0, 0, 4, 4],  # negative batch index
    ]
)

# (op name, params, input shapes, expected output shapes: output and the hidden maxidx)
CASES = [
    (
        "ROIPooling",
        {"pooled_size": (2, 2), "spatial_scale": 1.0},
        [(2, 3, 6, 8), (8, 5)],
        [(8, 3, 2, 2)] * 2,
    ),
    (
        "ROIPooling",
        {"pooled_size": (3, 2), "spatial_scale": 0.5},
        [(2, 3, 6, 8), (8, 5)],
        [(8, 3, 3, 2)] * 2,
    ),
    (
        "ROIPooling",
        {"pooled_size": (4, 5), "spatial_scale": 0.7},
        [(2, 2, 6, 8), (8, 5)],
        [(8, 2, 4, 5)] * 2,
    ),
    (
        "ROIPooling",
        {"pooled_size": (1, 1), "spatial_scale": 0.25},
        [(2, 1, 6, 8), (8, 5)],
        [(8, 1, 1, 1)] * 2,
    ),
]
IDS = [f"pooled={c[1]['pooled_size']}-scale={c[1]['spatial_scale']}" for c in CASES]


def _inputs(shapes, dtype=np.float64, seed=0):
    """Distinct values (so that every max is unique and finite differences see no tie)."""
    data = np.random.default_rng(seed).permutation(np.prod(shapes[0])).reshape(shapes[0])
    return [(data / data.size - 0.5).astype(dtype), ROIS[: shapes[1][0]].astype(dtype)]


test_shape_rule, test_gradients, test_req, test_backward_dependency = case_tests(
    CASES, IDS, _inputs
)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_kernel_matches_reference(name, params, in_shapes, out_shapes, dtype):
    data, rois = _inputs(in_shapes, dtype)
    bins = roi_bins(rois, params["spatial_scale"], params["pooled_size"], data.shape, dtype)
    want, want_idx = roi_pool_reference(data, bins, params["pooled_size"])
    out = np.empty(want.shape, dtype)
    idx = np.empty(want.shape, np.int64)
    kroi.roi_pool_forward(data, bins, out, idx)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(idx, want_idx)
    dy = np.linspace(-1, 1, out.size).reshape(out.shape).astype(dtype)
    np.testing.assert_allclose(
        kroi.roi_pool_backward(dy, idx, data.shape),
        roi_unpool_reference(dy, idx, data.shape),
        rtol=1e-6,
    )


def test_reference_path_gives_the_same_values(monkeypatch):
    op = make_op("ROIPooling", pooled_size=(3, 2), spatial_scale=0.5)
    ins = _inputs([(2, 3, 6, 8), (8, 5)])
    fast = run_forward(op, ins)
    monkeypatch.setenv("MINISYM_KERNELS", "reference")
    slow = run_forward(op, ins)
    for got, want in zip(slow, fast):
        np.testing.assert_array_equal(got, want)


def test_mxnet_documented_example():
    """MXNet's docs: a 4x4 box of the 8x6 map 0..47 at scales 1.0 and 0.7."""
    x = np.arange(48.0).reshape(1, 1, 8, 6)
    rois = np.array([[0, 0, 0, 4, 4]], float)
    for scale, want in ((1.0, [[14, 16], [26, 28]]), (0.7, [[7, 9], [19, 21]])):
        out, _ = run_forward(
            make_op("ROIPooling", pooled_size=(2, 2), spatial_scale=scale), [x, rois]
        )
        np.testing.assert_array_equal(out[0, 0], want)


def test_box_corners_round_half_away_from_zero():
    """Observed in MXNet: x1 = 1 * 0.5 = 0.5 rounds to 1, -2.5 to -3, 2.5 to 3 (std::round),
    not to even as NumPy's round does; the roi is end - start + 1 cells, at least 1."""
    rois = np.array([[0, 1, -5, 5, 5], [0, 5, 5, 2, 2]], np.float32)
    batch, hstart, hend, wstart, wend = roi_bins(rois, 0.5, (1, 1), (1, 1, 10, 10), np.float32)
    assert (wstart[0, 0], wend[0, 0]) == (1, 4)  # x 0.5 -> 1, 2.5 -> 3: cells 1..3
    assert (hstart[0, 0], hend[0, 0]) == (0, 4)  # y -2.5 -> -3 (clipped to 0), 2.5 -> 3
    assert (wstart[1, 0], wend[1, 0]) == (3, 4)  # x2 < x1: one cell at the start
    assert batch.tolist() == [0, 0]


def test_empty_bins_and_bad_batch_index_give_zero_and_no_argmax():
    x = np.full((1, 1, 4, 4), -5.0)
    rois = np.array([[3, 0, 0, 3, 3], [0, 8, 8, 9, 9], [0, 0, 0, 3, 3]], float)
    out, idx = run_forward(make_op("ROIPooling", pooled_size=(2, 2), spatial_scale=1.0), [x, rois])
    np.testing.assert_array_equal(out[:2], 0)
    np.testing.assert_array_equal(idx[:2], -1)
    np.testing.assert_array_equal(out[2], -5.0)


def test_ties_go_to_the_first_cell_in_row_major_order():
    x = np.ones((2, 1, 4, 4))
    op = make_op("ROIPooling", pooled_size=(2, 2), spatial_scale=1.0)
    out, idx = run_forward(op, [x, np.array([[1, 0, 0, 3, 3]], float)])
    np.testing.assert_array_equal(idx[0, 0], [[16, 18], [24, 26]])  # image 1 starts at 16
    grad, rois_grad = run_backward(
        op, [x, np.zeros((1, 5))], [out, idx], [np.ones_like(out), np.zeros_like(idx)]
    )
    assert grad[1, 0].sum() == 4 and grad[1, 0, 0, 0] == 1 and grad[0].sum() == 0
    np.testing.assert_array_equal(rois_grad, 0)  # MXNet: zeros for the rois under 'write'


def test_symbol_names_types_and_errors():
    data, rois = mx.sym.Variable("data"), mx.sym.Variable("rois")
    pool = mx.sym.ROIPooling(data, rois, pooled_size=(7, 7), spatial_scale=0.0625)
    assert pool.name == "roipooling0" and pool.list_arguments() == ["data", "rois"]
    assert pool.list_outputs() == ["roipooling0_output"]
    assert pool.infer_shape(data=(1, 512, 38, 50), rois=(128, 5))[1] == [(128, 512, 7, 7)]
    assert pool.infer_type(data="float32", rois="float32")[1] == [np.float32]
    with pytest.raises(
        mx.base.MXNetError,
        match=r"rois \(4, 4\) must be 2-D of shape "
        r"\(number of rois, 5\)",
    ):
        pool.infer_shape(data=(1, 3, 8, 8), rois=(4, 4))
    with pytest.raises(
        mx.base.MXNetError, match="spatial_scale=2.0 is invalid: must be between 0 and 1"
    ):
        mx.sym.ROIPooling(data, rois, pooled_size=(2, 2), spatial_scale=2.0)
    with pytest.raises(mx.base.MXNetError, match=r"pooled_size=\(2,\) is invalid: give two"):
        mx.sym.ROIPooling(data, rois, pooled_size=(2,), spatial_scale=0.5)
    with pytest.raises(mx.base.MXNetError, match="cast the rois"):
        pool.infer_type(data="float32", rois="float64")


def test_ndarray_function():
    out = mx.nd.ROIPooling(
        mx.nd.array(np.arange(16.0).reshape(1, 1, 4, 4)),
        mx.nd.array([[0, 0, 0, 3, 3]]),
        pooled_size=(2, 2),
        spatial_scale=1,
    )
    np.testing.assert_array_equal(out.asnumpy()[0, 0], [[5, 7], [13, 15]])


def test_executor_binds_the_int32_maxidx():
    data, rois = mx.sym.Variable("data"), mx.sym.Variable("rois")
    pool = mx.sym.ROIPooling(data, rois, pooled_size=(2, 2), spatial_scale=1.0)
    ex = pool.simple_bind(mx.cpu(), data=(1, 2, 4, 4), rois=(3, 5))
    ex.arg_dict["data"][:] = np.arange(32.0).reshape(1, 2, 4, 4)
    ex.arg_dict["rois"][:] = np.array([[0, 0, 0, 3, 3], [0, 1, 1, 2, 2], [0, 0, 0, 0, 0]])
    ex.forward(is_train=True)
    ex.backward([mx.nd.ones((3, 2, 2, 2))])
    assert ex.outputs[0].asnumpy()[0, 1, 1, 1] == 31
    assert ex.grad_dict["data"].asnumpy().sum() == 24
    np.testing.assert_array_equal(ex.grad_dict["rois"].asnumpy(), 0)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
# test_shape_rule, test_gradients and test_req are each parametrized over every case of CASES.
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
