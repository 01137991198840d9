"""A tiny pre-activation ResNet with bottleneck units (1x1, 3x3, 1x1 convolutions, inner width
num_filter/4), built by _nets.resnet in the style of MXNet's example symbol: data (2,3,8,8),
filters 8/16/16 (inner 4), 2 stages of 2 units, 3 classes.  Forward in test mode, then forward
in train mode and backward; records the probabilities, the gradients of data and of five
weights, bn_data's gamma after forward (fix_gamma), and moving_mean / moving_var of two
BatchNorms after the train step."""
import numpy as np

from _nets import resnet, resnet_steps

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    rs = np.random.RandomState(121)
    net = resnet(mx, units=[2, 2], filter_list=[8, 16, 16], num_classes=3, bottle_neck=True)
    aux = ["stage1_unit2_bn3_moving_mean", "stage1_unit2_bn3_moving_var", "bn1_moving_mean",
           "bn1_moving_var"]
    grads = ["data", "conv0_weight", "stage2_unit1_sc_weight", "stage1_unit2_conv3_weight",
             "stage2_unit2_conv2_weight", "fc1_weight", "fc1_bias", "bn1_gamma"]
    return resnet_steps(mx, net, rs, watched_aux=aux, watched_grads=grads)
