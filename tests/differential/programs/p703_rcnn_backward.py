"""The small Faster R-CNN's backward (programs/_rcnn.py, dropout 0) with no head gradients
(backward(): every head is a loss, BlockGrad or a Reshape of one): the gradient of every
argument, summarized (shape, sum, sum of absolute values, first values), zero for im_info,
gt_boxes and the RPN targets."""
from _rcnn import (SMALL_FC, SMALL_WIDTHS, bind_network, faster_rcnn_train,
                   register_proposal_target, summary, train_inputs, vgg)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    register_proposal_target(mx)
    net = faster_rcnn_train(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC, dropout=0.0), seed=11)
    ex = bind_network(mx, net, train_inputs())
    ex.forward(is_train=True)
    ex.backward()
    return {name: summary(ex.grad_dict[name].asnumpy()) for name in net.list_arguments()}
