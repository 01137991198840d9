"""One training step of the small Faster R-CNN (programs/_rcnn.py, dropout 0): forward,
backward, an SGD update of every parameter (mx.optimizer.SGD through get_updater, momentum 0,
weight decay 0.0005), then a second forward (proposal_target draws its next sample): the heads
before and after, and the updated parameters, summarized."""
from _rcnn import (SMALL_FC, SMALL_WIDTHS, bind_network, faster_rcnn_train,
                   register_proposal_target, summary, train_inputs, vgg)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    register_proposal_target(mx)
    inputs = train_inputs(seed=4)
    net = faster_rcnn_train(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC, dropout=0.0), seed=5)
    ex = bind_network(mx, net, inputs, seed=6)
    before = [summary(o.asnumpy()) for o in ex.forward(is_train=True)]
    ex.backward()
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.01, wd=0.0005))
    params = [n for n in net.list_arguments() if n not in inputs]
    for index, name in enumerate(params):
        updater(index, ex.grad_dict[name], ex.arg_dict[name])
    after = [summary(o.asnumpy()) for o in ex.forward(is_train=True)]
    return {"before": before, "after": after,
            "updated": {name: summary(ex.arg_dict[name].asnumpy()) for name in params}}
