"""_contrib_MultiProposal's values (mx.nd.contrib.MultiProposal) on a seeded batch of images
of different sizes: rows [image index, x1, y1, x2, y2], rpn_post_nms_top_n per image, scores;
several settings (iou_loss, few survivors, all boxes before NMS), and a batch of one equal to
Proposal's result."""
import numpy as np


def run(mx):
    rng = np.random.default_rng(691)
    nd = mx.nd
    anchors, height, width = 6, 5, 6
    cls_prob = rng.random((3, 2 * anchors, height, width)).astype(np.float32)
    bbox_pred = (rng.standard_normal((3, 4 * anchors, height, width)) * 0.3).astype(np.float32)
    info = np.array([[80, 96, 1.0], [64, 90, 1.5], [50, 40, 0.5]], np.float32)
    settings = {
        "basic": dict(rpn_pre_nms_top_n=40, rpn_post_nms_top_n=12, threshold=0.7,
                      rpn_min_size=16),
        "iou_loss": dict(rpn_pre_nms_top_n=40, rpn_post_nms_top_n=12, iou_loss=True,
                         rpn_min_size=4),
        "few_survivors": dict(rpn_pre_nms_top_n=6, rpn_post_nms_top_n=10, threshold=0.2,
                              rpn_min_size=8),
        "all_before_nms": dict(rpn_pre_nms_top_n=0, rpn_post_nms_top_n=20, threshold=0.6,
                               rpn_min_size=0, feature_stride=16),
    }
    res = {}
    for key, params in settings.items():
        rois, scores = nd.contrib.MultiProposal(
            nd.array(cls_prob), nd.array(bbox_pred), nd.array(info), scales=(2, 4),
            ratios=(0.5, 1, 2), output_score=True, **params)
        res[key] = {"rois": rois.asnumpy(), "scores": scores.asnumpy()}
    one = dict(scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=40, rpn_post_nms_top_n=12)
    multi = nd.contrib.MultiProposal(nd.array(cls_prob[1:2]), nd.array(bbox_pred[1:2]),
                                     nd.array(info[1:2]), **one).asnumpy()
    single = nd.contrib.Proposal(nd.array(cls_prob[1:2]), nd.array(bbox_pred[1:2]),
                                 nd.array(info[1:2]), **one).asnumpy()
    res["batch_of_one"] = {"multi": multi, "same_as_proposal": bool(np.array_equal(multi, single))}
    return res
