"""Load MXNet-written JSON (a net with SliceChannel, Concat, Reshape (-4 code), sum, make_loss/BlockGrad heads in a Group) with mx.sym.load and record what was read."""
from _common import describe_mxnet_json


def run(mx):
    return describe_mxnet_json(mx, "concat_split_reshape.json", data=(2, 6, 5))
