"""The small Faster R-CNN's inference network (programs/_rcnn.py, dropout 0.5: off in
inference) forward on a seeded image: MultiProposal's rois, the class probabilities and the
box deltas of every roi; and the training network's heads with is_train=False."""
from _rcnn import (SMALL_FC, SMALL_WIDTHS, bind_network, faster_rcnn_test, faster_rcnn_train,
                   register_proposal_target, summary, train_inputs, vgg)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    register_proposal_target(mx)
    inputs = train_inputs()
    test = faster_rcnn_test(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC))
    ex = bind_network(mx, test, {k: inputs[k] for k in ("data", "im_info")}, grad_req="null")
    rois, cls_prob, bbox_pred = [o.asnumpy() for o in ex.forward(is_train=False)]
    train = faster_rcnn_train(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC), seed=3)
    tex = bind_network(mx, train, inputs, grad_req="null")
    heads = [o.asnumpy() for o in tex.forward(is_train=False)]
    return {"rois": rois, "cls_prob": cls_prob, "bbox_pred": bbox_pred,
            "train_heads_in_inference": [summary(h) for h in heads]}
