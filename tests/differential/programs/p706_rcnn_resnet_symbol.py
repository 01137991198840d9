"""The Faster R-CNN of example/rcnn/symnet/symbol_resnet.py with ResNet-50 (programs/_rcnn.py):
listings (BatchNorm's moving statistics as auxiliary states), shape inference for a
1 x 3 x 160 x 224 image with 14 x 14 ROIPooling, and the inference network's listings."""
from _rcnn import IMAGE, faster_rcnn_test, faster_rcnn_train, register_proposal_target, resnet


def run(mx):
    register_proposal_target(mx)
    train = faster_rcnn_train(mx, resnet(mx), rcnn_pooled_size=(14, 14))
    test = faster_rcnn_test(mx, resnet(mx), rcnn_pooled_size=(14, 14))
    shapes = {"data": IMAGE, "im_info": (1, 3), "gt_boxes": (1, 3, 5), "label": (1, 1260),
              "bbox_target": (1, 36, 10, 14), "bbox_weight": (1, 36, 10, 14)}
    arg_shapes, out_shapes, aux_shapes = train.infer_shape(**shapes)
    return {
        "train": {"arguments": train.list_arguments(), "outputs": train.list_outputs(),
                  "aux": train.list_auxiliary_states(), "arg_shapes": arg_shapes,
                  "out_shapes": out_shapes, "aux_shapes": aux_shapes},
        "test": {"arguments_not_in_train": [n for n in test.list_arguments()
                                            if n not in train.list_arguments()],
                 "train_arguments_not_in_test": [n for n in train.list_arguments()
                                                 if n not in test.list_arguments()],
                 "outputs": test.list_outputs(),
                 "same_aux": test.list_auxiliary_states() == train.list_auxiliary_states(),
                 "shapes": test.infer_shape(data=IMAGE, im_info=(1, 3))[1]},
    }
