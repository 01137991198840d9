"""A small Faster R-CNN on ResNet (programs/_rcnn.py: symbol_resnet.py's layers and names, one
bottleneck unit per stage, narrow) with seeded parameters and moving statistics: the training
heads, every argument's gradient (summarized) after backward(), and the inference network's
rois, class probabilities and box deltas."""
from _rcnn import (SMALL_RESNET, bind_network, faster_rcnn_test, faster_rcnn_train,
                   register_proposal_target, resnet, summary, train_inputs)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    register_proposal_target(mx)
    inputs = train_inputs(seed=8)
    small = dict(rcnn_pooled_size=(14, 14))
    train = faster_rcnn_train(mx, resnet(mx, rpn_width=16, **SMALL_RESNET), seed=13, **small)
    ex = bind_network(mx, train, inputs, seed=14)
    heads = [summary(o.asnumpy()) for o in ex.forward(is_train=True)]
    ex.backward()
    grads = {name: summary(ex.grad_dict[name].asnumpy()) for name in train.list_arguments()}
    test = faster_rcnn_test(mx, resnet(mx, rpn_width=16, **SMALL_RESNET), **small)
    tex = bind_network(mx, test, {k: inputs[k] for k in ("data", "im_info")}, grad_req="null",
                       seed=14)
    rois, cls_prob, bbox_pred = [o.asnumpy() for o in tex.forward(is_train=False)]
    return {"heads": heads, "grads": grads, "rois": rois, "cls_prob": cls_prob,
            "bbox_pred": bbox_pred}
