"""Load MXNet-written JSON (a Custom-free MLP (Flatten, FC, Activation, Dropout, LeakyReLU, SoftmaxOutput) with auto-generated names) with mx.sym.load and record what was read."""
from _common import describe_mxnet_json


def run(mx):
    return describe_mxnet_json(mx, "mlp.json", data=(5, 1, 28, 28))
