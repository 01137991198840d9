"""The Faster R-CNN of example/rcnn/symnet/symbol_vgg.py at VGG-16's full widths (programs/_rcnn.py)
as a symbol: list_arguments / list_outputs / list_auxiliary_states of the training and the
inference network, the internals around MultiProposal and proposal_target, shape inference for a
1 x 3 x 160 x 224 image (whole and partial), types, every node's op and name, and the stored
attributes of the nodes that are not plain VGG layers."""
from _common import node_ops, types
from _rcnn import IMAGE, faster_rcnn_test, faster_rcnn_train, register_proposal_target

PLAIN = ("null", "Convolution", "Activation", "Pooling", "FullyConnected", "Dropout")


def _nodes(sym):
    """[op, name] of every operator node, with its attributes unless it is a plain VGG layer."""
    return [[op, name] + ([] if op in PLAIN else [attrs])
            for op, name, attrs in node_ops(sym) if op != "null"]


def run(mx):
    register_proposal_target(mx)
    train, test = faster_rcnn_train(mx), faster_rcnn_test(mx)
    shapes = {"data": IMAGE, "im_info": (1, 3), "gt_boxes": (1, 3, 5), "label": (1, 1260),
              "bbox_target": (1, 36, 10, 14), "bbox_weight": (1, 36, 10, 14)}
    internals = train.get_internals().list_outputs()
    around = [n for n in internals if n.startswith(("rois", "custom", "roi_pool", "rpn_cls"))]
    return {
        "train": {"arguments": train.list_arguments(), "outputs": train.list_outputs(),
                  "aux": train.list_auxiliary_states(), "inputs": train.list_inputs(),
                  "shapes": train.infer_shape(**shapes),
                  "partial_without_gt_boxes": train.infer_shape_partial(
                      data=IMAGE, im_info=(1, 3)),
                  "types": types(train.infer_type(data="float32")),
                  "internals_around_the_proposals": around,
                  "internal_count": len(internals), "nodes": _nodes(train)},
        "test": {"arguments": test.list_arguments(), "outputs": test.list_outputs(),
                 "shapes": test.infer_shape(data=IMAGE, im_info=(1, 3)),
                 "nodes": _nodes(test)},
    }
