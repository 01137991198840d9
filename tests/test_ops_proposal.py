"""Forward/backward of minisym/ops/contrib/ (_contrib_Proposal, _contrib_MultiProposal), the
NMS kernel (minisym/kernels/nms.py) against its NumPy twin, and the mx.sym.contrib / mx.nd.contrib
namespaces they are reached through. MXNet's own values are in tests/differential (p690-p692)."""

import numpy as np
import pytest

import minisym as mx
from minisym.kernels.nms import nms
from minisym.ops.contrib.proposal import anchors, nms_reference
from opcheck import check_backward_dependency, check_req, make_op, output_shapes, run_forward

TWO_SCALES = {"scales": (2, 4), "ratios": (0.5, 1, 2)}  # 6 anchors per cell

# (op name, params, input shapes, expected output shapes: output and the hidden score)
CASES = [
    ("_contrib_Proposal", {}, [(1, 24, 3, 4)], [(300, 5), (300, 1)]),
    (
        "_contrib_Proposal",
        {**TWO_SCALES, "rpn_post_nms_top_n": 10},
        [(1, 12, 4, 5)],
        [(10, 5), (10, 1)],
    ),
    (
        "_contrib_Proposal",
        {
            "scales": (8,),
            "ratios": (1,),
            "rpn_post_nms_top_n": 6,
            "output_score": True,
            "iou_loss": True,
        },
        [(1, 2, 3, 3)],
        [(6, 5), (6, 1)],
    ),
    (
        "_contrib_MultiProposal",
        {**TWO_SCALES, "rpn_post_nms_top_n": 7},
        [(3, 12, 4, 5)],
        [(21, 5), (21, 1)],
    ),
    (
        "_contrib_MultiProposal",
        {
            "scales": (2,),
            "ratios": (1,),
            "rpn_post_nms_top_n": 4,
            "rpn_pre_nms_top_n": 0,
            "threshold": 0.3,
        },
        [(2, 2, 4, 4)],
        [(8, 5), (8, 1)],
    ),
]
IDS = [f"{name}-{i}" for i, (name, *_rest) in enumerate(CASES)]

# (op name, params, in_shape given, expected in_shape, expected out_shape): MXNet infers
# everything from a wholly known cls_prob, and nothing from anything else (observed, p692).
PARTIAL_CASES = [
    (
        "_contrib_Proposal",
        TWO_SCALES,
        [(1, 12, 0, 5), None, None],
        [(1, 12, 0, 5), None, None],
        [None, None],
    ),
    (
        "_contrib_Proposal",
        TWO_SCALES,
        [None, (1, 24, 4, 5), (1, 3)],
        [None, (1, 24, 4, 5), (1, 3)],
        [None, None],
    ),
    (
        "_contrib_Proposal",
        TWO_SCALES,
        [(1, 12, 4, 5), (0, 24, 4, 0), None],
        [(1, 12, 4, 5), (1, 24, 4, 5), (1, 3)],
        [(300, 5), (300, 1)],
    ),
    (
        "_contrib_MultiProposal",
        TWO_SCALES,
        [(0, 12, 4, 5), None, None],
        [(0, 12, 4, 5), None, None],
        [None, None],
    ),
]


def _inputs(shape, seed=0, spread=0.3, image=None):
    """cls_prob in [0, 1), bbox_pred deltas ~ N(0, spread), im_info of a whole feature map."""
    rng = np.random.default_rng(seed)
    batch, channels, height, width = shape
    cls_prob = rng.random(shape).astype(np.float32)
    bbox_pred = (rng.standard_normal((batch, 2 * channels, height, width)) * spread).astype(
        np.float32
    )
    im_info = np.tile(np.array(image or [height * 16, width * 16, 1.0], np.float32), (batch, 1))
    return [cls_prob, bbox_pred, im_info]


def _proposals(op_name="_contrib_Proposal", inputs=None, **params):
    op = make_op(op_name, **params)
    return op, run_forward(op, inputs)


# --- shape and type rules --------------------------------------------------------------------
@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_shape_rule(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    batch, channels, height, width = in_shapes[0]
    ins, outs, aux = op.infer_shape([in_shapes[0], None, None], [None, None])
    assert ins == [in_shapes[0], (batch, 2 * channels, height, width), (batch, 3)]
    assert (outs, aux) == (out_shapes, [])


@pytest.mark.parametrize("name, params, given, ins, outs", PARTIAL_CASES)
def test_partial_inference_only_from_a_whole_cls_prob(name, params, given, ins, outs):
    op = make_op(name, **params)
    assert op.infer_shape(list(given), [None, None]) == (ins, outs, [])


def test_the_symbol_infers_as_the_operator_does():
    a, b, c = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c")
    p = mx.sym.contrib.Proposal(a, b, c, rpn_post_nms_top_n=10, **TWO_SCALES)
    assert p.infer_shape(a=(1, 12, 5, 7)) == ([(1, 12, 5, 7), (1, 24, 5, 7), (1, 3)], [(10, 5)], [])
    assert p.infer_shape_partial(b=(1, 24, 5, 7)) == ([(), (1, 24, 5, 7), ()], [()], [])


@pytest.mark.parametrize(
    "name, shape, words",
    [
        ("_contrib_Proposal", (1, 12, 5), ["'cls_prob' has shape (1, 12, 5)", "must be 4-D"]),
        (
            "_contrib_Proposal",
            (1, 10, 4, 5),
            [
                "'cls_prob' has 10 channels",
                "scales=(2, 4)",
                "ratios=(0.5, 1, 2)",
                "6 anchors per cell",
                "2 x 6 = 12",
                "num_filter=12",
            ],
        ),
        (
            "_contrib_Proposal",
            (2, 12, 4, 5),
            ["a batch of 2 images", "one image at a time", "mx.sym.contrib.MultiProposal"],
        ),
    ],
)
def test_shape_errors_name_the_input_and_the_fix(name, shape, words):
    op = make_op(name, node_name="rois", **TWO_SCALES)
    with pytest.raises(mx.base.MXNetError) as info:
        op.infer_shape([shape, None, None], [None, None])
    assert str(info.value).startswith(f"{name} 'rois': input 0 ")
    for word in words:
        assert word in str(info.value)


def test_a_bbox_pred_that_does_not_match_says_what_cls_prob_needs():
    op = make_op("_contrib_MultiProposal", node_name="rois", **TWO_SCALES)
    with pytest.raises(ValueError) as info:
        op.infer_shape([(2, 12, 4, 5), (2, 12, 4, 5), None], [None, None])
    assert str(info.value).startswith(
        "_contrib_MultiProposal 'rois': input 1 'bbox_pred' has shape (2, 12, 4, 5), but "
        "cls_prob (2, 12, 4, 5) needs (2, 24, 4, 5) (bbox_pred: 4 deltas per anchor"
    )


def test_types_are_float32_only():
    op = make_op("_contrib_Proposal", node_name="rois")
    f32 = np.dtype(np.float32)
    assert op.infer_type([None, None, None], [None, None]) == ([f32] * 3, [f32] * 2, [])
    with pytest.raises(TypeError) as info:
        op.infer_type([None, None, np.float64], [None, None])
    assert str(info.value).startswith(
        "_contrib_Proposal 'rois': input 2 'im_info' is float64, "
        "but _contrib_Proposal computes in float32 only"
    )
    assert (
        "mx.sym.cast(x, dtype='float32') for a symbol, x.astype('float32') for an NDArray"
        in str(info.value)
    )


@pytest.mark.parametrize(
    "params, words",
    [
        ({"feature_stride": 0}, "feature_stride=0 is invalid: must be at least 1"),
        ({"rpn_post_nms_top_n": 0}, "rpn_post_nms_top_n=0 is invalid: must be at least 1"),
        ({"scales": ()}, "scales=() is invalid: give at least one value"),
        ({"ratios": (1, -2)}, "ratios=(1, -2) is invalid: every value must be > 0"),
        ({"scales": "(1, 'a')"}, "cannot be read as tuple of floats"),
    ],
)
def test_parameters_are_checked_when_the_symbol_is_created(params, words):
    with pytest.raises(mx.base.MXNetError) as info:
        mx.sym.contrib.Proposal(mx.sym.var("a"), name="rois", **params)
    assert words in str(info.value)
    assert "_contrib_Proposal 'rois'" in str(info.value)


# --- values ----------------------------------------------------------------------------------
def test_anchors_are_faster_rcnn_s_classic_nine():
    """stride 16, scales (8, 16, 32), ratios (0.5, 1, 2): the table every Faster R-CNN has."""
    expected = [
        [-84, -40, 99, 55],
        [-176, -88, 191, 103],
        [-360, -184, 375, 199],
        [-56, -56, 71, 71],
        [-120, -120, 135, 135],
        [-248, -248, 263, 263],
        [-36, -80, 51, 95],
        [-80, -168, 95, 183],
        [-168, -344, 183, 359],
    ]
    np.testing.assert_array_equal(anchors(16, (8, 16, 32), (0.5, 1, 2)), expected)


def test_zero_deltas_give_the_anchors_clipped_best_score_first():
    """One 16 x 16 anchor per cell of a 2 x 2 map, deltas 0: the boxes are the cells. The image
    is 28 wide: the right column is clipped at x = 27 and, being outside the image's 1 whole
    column of cells, scored -1 (it comes last, in anchor order)."""
    cls_prob = np.zeros((1, 2, 2, 2), np.float32)
    cls_prob[0, 1] = [[0.1, 0.4], [0.3, 0.2]]  # foreground scores
    inputs = [cls_prob, np.zeros((1, 4, 2, 2), np.float32), np.array([[32, 28, 1.0]], np.float32)]
    _, (rois, score) = _proposals(
        inputs=inputs, scales=(1,), ratios=(1,), rpn_min_size=1, rpn_post_nms_top_n=4
    )
    np.testing.assert_array_equal(
        rois, [[0, 0, 16, 15, 31], [0, 0, 0, 15, 15], [0, 16, 0, 27, 15], [0, 16, 16, 27, 31]]
    )
    np.testing.assert_allclose(score[:, 0], [0.3, 0.1, -1, -1])


def test_deltas_move_and_scale_the_box_or_offset_its_corners():
    cls_prob = np.full((1, 2, 1, 1), 0.5, np.float32)
    info = np.array([[60, 60, 1.0]], np.float32)
    deltas = np.array([0.25, -0.125, np.log(2), 0.0], np.float32).reshape(1, 4, 1, 1)
    params = dict(scales=(1,), ratios=(1,), feature_stride=32, rpn_min_size=1, rpn_post_nms_top_n=1)
    # the anchor is [0, 0, 31, 31]: centre (15.5, 15.5) moves by (+8, -4), the width doubles
    _, (rois, _) = _proposals(inputs=[cls_prob, deltas, info], **params)
    np.testing.assert_allclose(rois, [[0, 0, 0, 55, 27]])  # x1 = -8 and y1 = -4 clipped to 0
    _, (rois, _) = _proposals(inputs=[cls_prob, deltas + 20, info], iou_loss=True, **params)
    np.testing.assert_allclose(rois, [[0, 20.25, 19.875, 51.693147, 51]], rtol=1e-6)


def test_nms_keeps_the_best_and_pads_by_repeating_the_survivors():
    """Three boxes on one cell, two of them almost equal: NMS drops the weaker twin, and the
    5 rows asked for repeat the 2 survivors in order."""
    cls_prob = np.zeros((1, 6, 1, 1), np.float32)
    cls_prob[0, 3:, 0, 0] = [0.9, 0.8, 0.7]
    deltas = np.zeros((1, 12, 1, 1), np.float32)
    deltas[0, 4:8, 0, 0] = [0.01, 0, 0, 0]  # anchor 1: the twin of anchor 0, moved slightly
    deltas[0, 8:12, 0, 0] = [0.5, 0.5, 0, 0]  # anchor 2: half a box away (IoU 0.14)
    _, (rois, score) = _proposals(
        inputs=[cls_prob, deltas, np.array([[100, 100, 1.0]], np.float32)],
        scales=(1, 1, 1),
        ratios=(1,),
        feature_stride=64,
        rpn_min_size=1,
        rpn_post_nms_top_n=5,
    )
    np.testing.assert_allclose(score[:, 0], [0.9, 0.7, 0.9, 0.7, 0.9])
    np.testing.assert_array_equal(rois[:2], [[0, 0, 0, 63, 63], [0, 32, 32, 95, 95]])
    np.testing.assert_array_equal(rois[2:], rois[[0, 1, 0]])


def test_cells_outside_the_image_and_small_boxes_score_minus_one():
    cls_prob = np.full((1, 2, 2, 2), 0.5, np.float32)
    cls_prob[0, 1, 0, 0] = 0.9
    inputs = [cls_prob, np.zeros((1, 4, 2, 2), np.float32), np.array([[16, 32, 1.0]], np.float32)]
    # the image is 1 x 2 cells: the second row of cells is outside; nothing is small
    _, (_, score) = _proposals(
        inputs=inputs, scales=(1,), ratios=(1,), rpn_min_size=1, rpn_post_nms_top_n=4, threshold=1.0
    )
    np.testing.assert_allclose(score[:, 0], [0.9, 0.5, -1, -1])
    # rpn_min_size 20 x scale 1: every 16-pixel box is small, grows by 10 on each side
    _, (rois, score) = _proposals(
        inputs=inputs, scales=(1,), ratios=(1,), rpn_min_size=20, rpn_post_nms_top_n=1
    )
    np.testing.assert_allclose(score[:, 0], [-1])
    np.testing.assert_allclose(rois, [[0, -10, -10, 25, 25]])


def test_an_image_larger_than_the_feature_map_is_refused_with_the_sizes():
    inputs = _inputs((1, 12, 4, 5), image=[128, 80, 1.0])
    op = make_op("_contrib_Proposal", node_name="rois", **TWO_SCALES)
    with pytest.raises(ValueError) as info:
        run_forward(op, inputs)
    assert str(info.value).startswith(
        "_contrib_Proposal 'rois': im_info[0] says the image is 128 x 80 pixels, which is 8 x 5 "
        "cells of feature_stride=16, but the feature map (cls_prob) has only 4 x 5 cells."
    )
    assert "(height, width, scale)" in str(info.value)


def test_multiproposal_is_proposal_image_by_image():
    inputs = _inputs((3, 12, 4, 5), seed=4)
    inputs[2][1] = [50, 70, 1.5]
    params = dict(rpn_pre_nms_top_n=30, rpn_post_nms_top_n=9, **TWO_SCALES)
    _, (rois, score) = _proposals("_contrib_MultiProposal", inputs, **params)
    for b in range(3):
        _, (one, one_score) = _proposals(inputs=[x[b : b + 1] for x in inputs], **params)
        np.testing.assert_array_equal(rois[9 * b : 9 * (b + 1), 1:], one[:, 1:])
        np.testing.assert_array_equal(rois[9 * b : 9 * (b + 1), 0], b)
        np.testing.assert_array_equal(score[9 * b : 9 * (b + 1)], one_score)


def test_the_reference_nms_gives_the_same_proposals(monkeypatch):
    inputs = _inputs((2, 12, 6, 7), seed=5)
    params = dict(rpn_pre_nms_top_n=60, rpn_post_nms_top_n=25, threshold=0.5, **TWO_SCALES)
    fast = _proposals("_contrib_MultiProposal", inputs, **params)[1]
    monkeypatch.setenv("MINISYM_KERNELS", "reference")
    reference = _proposals("_contrib_MultiProposal", inputs, **params)[1]
    for f, r in zip(fast, reference):
        np.testing.assert_array_equal(f, r)


# --- the NMS kernel and its NumPy twin ------------------------------------------------------
def _random_boxes(rng, n):
    corner = rng.random((n, 2)) * 60
    size = rng.random((n, 2)) * 30
    return np.hstack([corner, corner + size]).astype(np.float32)


@pytest.mark.parametrize(
    "threshold, limit", [(0.7, 1000), (0.3, 1000), (0.5, 7), (0.0, 50), (-1.0, 50), (1.0, 1000)]
)
def test_the_nms_kernel_agrees_with_its_reference(threshold, limit):
    boxes = _random_boxes(np.random.default_rng(int(threshold * 10) + limit), 300)
    kept = nms(boxes, threshold, limit)
    np.testing.assert_array_equal(kept, nms_reference(boxes, threshold, limit))
    assert 1 <= len(kept) <= limit and kept[0] == 0 and np.all(np.diff(kept) > 0)


def test_nms_by_hand():
    boxes = np.array([[0, 0, 9, 9], [1, 1, 10, 10], [20, 20, 29, 29], [0, 0, 9, 4]], np.float32)
    # IoU(0, 1) = 81 / 119 = 0.68; IoU(0, 3) = 50 / 100 = 0.5 (not above 0.5: kept)
    np.testing.assert_array_equal(nms(boxes, 0.5, 10), [0, 2, 3])
    np.testing.assert_array_equal(nms(boxes, 0.7, 10), [0, 1, 2, 3])
    np.testing.assert_array_equal(nms(boxes, 0.7, 2), [0, 1])


# --- req, backward --------------------------------------------------------------------------
@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_req(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    check_req(op, _inputs(in_shapes[0]))


@pytest.mark.parametrize("name, params, in_shapes, out_shapes", CASES, ids=IDS)
def test_backward_reads_nothing_and_writes_zero(name, params, in_shapes, out_shapes):
    op = make_op(name, **params)
    inputs = _inputs(in_shapes[0])
    check_backward_dependency(op, inputs)
    assert op.backward_reads() == {
        "out_grad": [False, False],
        "in_data": [False] * 3,
        "out_data": [False, False],
    }
    grads = [np.full(x.shape, 7.0, np.float32) for x in inputs]
    outs = run_forward(op, inputs)
    op.backward(["write", "add", "write"], [np.ones_like(o) for o in outs], inputs, outs, grads, [])
    assert [float(np.abs(g - v).max()) for g, v in zip(grads, (0, 7, 0))] == [0, 0, 0]


def test_an_executor_gives_zero_gradients_under_write_and_keeps_them_under_add():
    a, b, c = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c")
    p = mx.sym.contrib.Proposal(a, b, c, rpn_post_nms_top_n=5, **TWO_SCALES)
    inputs = dict(zip("abc", _inputs((1, 12, 3, 4))))
    for req, expected in (("write", 0.0), ("add", 3.0)):
        ex = p.simple_bind(mx.cpu(), grad_req=req, **{k: v.shape for k, v in inputs.items()})
        for k, v in inputs.items():
            ex.arg_dict[k][:] = v
            ex.grad_dict[k][:] = 3.0
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((5, 5)))
        for k in "abc":
            np.testing.assert_array_equal(ex.grad_dict[k].asnumpy(), expected)


# --- where learners find them --------------------------------------------------------------
def test_they_live_in_contrib_only_with_mxnet_s_names():
    for space in (
        mx.sym.contrib,
        mx.symbol.contrib,
        mx.nd.contrib,
        mx.ndarray.contrib,
        mx.contrib.sym,
        mx.contrib.symbol,
        mx.contrib.nd,
        mx.contrib.ndarray,
    ):
        assert space.Proposal.__name__ == "Proposal"
        assert space.MultiProposal.__name__ == "MultiProposal"
    for space in (mx.sym, mx.nd):
        assert not [n for n in dir(space) if "roposal" in n]
    with mx.name.NameManager():
        names = [
            mx.sym.contrib.Proposal().name,
            mx.sym.contrib.MultiProposal().name,
            mx.sym.contrib.Proposal().name,
        ]
    assert names == ["proposal0", "multiproposal0", "proposal1"]


def test_messages_name_the_contrib_function():
    with pytest.raises(TypeError) as info:
        mx.nd.contrib.Proposal(mx.nd.ones((1, 24, 2, 2)), mx.nd.ones((1, 48, 2, 2)))
    assert "mx.nd.contrib.Proposal: give every input as an NDArray; missing 'im_info'" in str(
        info.value
    )


def test_nd_returns_the_rois_or_with_output_score_both():
    inputs = [mx.nd.array(x) for x in _inputs((1, 12, 3, 4))]
    rois = mx.nd.contrib.Proposal(*inputs, rpn_post_nms_top_n=6, **TWO_SCALES)
    assert isinstance(rois, mx.nd.NDArray) and rois.shape == (6, 5)
    both = mx.nd.contrib.Proposal(*inputs, rpn_post_nms_top_n=6, output_score=True, **TWO_SCALES)
    assert [x.shape for x in both] == [(6, 5), (6, 1)]
    np.testing.assert_array_equal(both[0].asnumpy(), rois.asnumpy())


def test_shapes_of_a_case_come_from_output_shapes():
    name, params, in_shapes, out_shapes = CASES[1]
    op = make_op(name, **params)
    assert output_shapes(op, [in_shapes[0], None, None])[0] == out_shapes


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
# test_shape_rule and test_req are parametrized over every case of CASES.
SHAPE_TESTED = REQ_TESTED = frozenset(case[0] for case in CASES)
GRADIENT_TESTED = frozenset()
NO_GRADIENT = {
    "_contrib_Proposal": "MXNet writes zeros into every input's gradient: the proposals are "
    "not differentiated (test_backward_reads_nothing_and_writes_zero)",
    "_contrib_MultiProposal": "as _contrib_Proposal: zero gradients, checked by "
    "test_backward_reads_nothing_and_writes_zero",
}
