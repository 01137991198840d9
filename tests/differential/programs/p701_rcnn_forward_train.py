"""The small Faster R-CNN (programs/_rcnn.py: VGG's layers and names, narrow widths, dropout 0)
forward in training mode on a seeded image, parameters and RPN targets: the five heads
(RPN softmax, RPN box loss, the detector's class probabilities and box loss, the sampled
labels) and, through get_internals, the rois and the proposal_target outputs."""
from _rcnn import (SMALL_FC, SMALL_WIDTHS, bind_network, faster_rcnn_train,
                   register_proposal_target, summary, train_inputs, vgg)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    register_proposal_target(mx)
    net = faster_rcnn_train(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC, dropout=0.0), seed=7)
    ex = bind_network(mx, net, train_inputs(), grad_req="null")
    rpn_cls_prob, rpn_bbox_loss, cls_prob, bbox_loss, label = [
        o.asnumpy() for o in ex.forward(is_train=True)]
    internals = net.get_internals()
    targets = mx.sym.Group([internals["rois_output"], internals["custom0_rois_output"],
                            internals["custom0_bbox_target"], internals["custom0_bbox_weight"]])
    tex = bind_network(mx, targets, {k: v for k, v in train_inputs().items()
                                     if k in targets.list_arguments()}, grad_req="null")
    rois, sampled, bbox_target, bbox_weight = [o.asnumpy() for o in tex.forward(is_train=True)]
    return {"rpn_cls_prob": summary(rpn_cls_prob), "rpn_cls_prob_rows": rpn_cls_prob[0, :, :3],
            "rpn_bbox_loss": summary(rpn_bbox_loss), "cls_prob": cls_prob,
            "bbox_loss": bbox_loss, "label": label, "rois": rois, "sampled_rois": sampled,
            "bbox_target": bbox_target, "bbox_weight": bbox_weight}
