"""_contrib_Proposal's values (mx.nd.contrib.Proposal, one image) on small seeded inputs:
anchors from scales x ratios, deltas decoded (and iou_loss corner offsets), clipping, cells
outside im_info and small boxes scored -1, stable sort, NMS, the output padded cyclically to
rpn_post_nms_top_n rows; output_score on and off; default parameters."""
import numpy as np


def _inputs(rng, anchors, height, width, spread=0.3, ties=False):
    cls_prob = rng.random((1, 2 * anchors, height, width)).astype(np.float32)
    if ties:  # many equal scores: the stable sort keeps anchor order among them
        cls_prob = np.round(cls_prob * 4) / 4
    bbox_pred = (rng.standard_normal((1, 4 * anchors, height, width)) * spread).astype(np.float32)
    return cls_prob, bbox_pred


def run(mx):
    rng = np.random.default_rng(690)
    nd = mx.nd
    res = {}
    cls_prob, bbox_pred = _inputs(rng, 6, 6, 8)
    info = np.array([[90, 120, 1.0]], np.float32)  # 5 x 7 real cells of the 6 x 8 map
    settings = {
        "basic": dict(scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=50,
                      rpn_post_nms_top_n=20, threshold=0.7, rpn_min_size=16),
        "iou_loss": dict(scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=50,
                         rpn_post_nms_top_n=20, iou_loss=True, rpn_min_size=4),
        "few_survivors": dict(scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=10,
                              rpn_post_nms_top_n=30, threshold=0.1, rpn_min_size=8),
        "all_before_nms": dict(scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=-1,
                               rpn_post_nms_top_n=40, threshold=0.5, rpn_min_size=0),
        "strict_nms": dict(scales=(1, 3), ratios=(1, 2, 0.25), rpn_pre_nms_top_n=0,
                           rpn_post_nms_top_n=25, threshold=0.3, feature_stride=16,
                           rpn_min_size=10),
    }
    for key, params in settings.items():
        rois, scores = nd.contrib.Proposal(nd.array(cls_prob), nd.array(bbox_pred),
                                           nd.array(info), output_score=True, **params)
        res[key] = {"rois": rois.asnumpy(), "scores": scores.asnumpy()}
    scaled = np.array([[96, 128, 2.0]], np.float32)  # scale 2: rpn_min_size counts double
    res["scaled_image"] = nd.contrib.Proposal(
        nd.array(cls_prob), nd.array(bbox_pred), nd.array(scaled), scales=(2, 4),
        ratios=(0.5, 1, 2), rpn_post_nms_top_n=15, rpn_min_size=12).asnumpy()
    ties_prob, ties_pred = _inputs(rng, 3, 4, 5, spread=0.1, ties=True)
    tie_rois, tie_scores = nd.contrib.Proposal(
        nd.array(ties_prob), nd.array(ties_pred), nd.array([[64, 80, 1.0]]), scales=(2,),
        ratios=(0.5, 1, 2), rpn_pre_nms_top_n=30, rpn_post_nms_top_n=12, threshold=0.9,
        rpn_min_size=1, output_score=True)
    res["ties"] = {"rois": tie_rois.asnumpy(), "scores": tie_scores.asnumpy()}
    default_prob, default_pred = _inputs(rng, 12, 3, 4, spread=0.2)
    default = nd.contrib.Proposal(nd.array(default_prob), nd.array(default_pred),
                                  nd.array([[48, 64, 1.0]]))
    res["defaults"] = {"type": type(default).__name__, "shape": list(default.shape),
                       "first_rows": default.asnumpy()[:40], "last_rows": default.asnumpy()[-5:]}
    return res
