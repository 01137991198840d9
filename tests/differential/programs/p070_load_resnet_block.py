"""Load MXNet-written JSON (a small ResNet-style block with BatchNorm (aux states), a shortcut, global pooling) with mx.sym.load and record what was read."""
from _common import describe_mxnet_json


def run(mx):
    return describe_mxnet_json(mx, "resnet_block.json", data=(2, 3, 14, 14))
