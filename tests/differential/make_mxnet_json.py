"""Write the MXNet-produced network JSON files under tests/fixtures/mxnet_json/.

Run once under a real MXNet 1.9.1 installation (from the project root):

    python tests/differential/make_mxnet_json.py

The files are committed; the programs p070-p072 load them with ``mx.sym.load``.  Each net is
built inside a fresh NameManager, so auto-generated names are reproducible.
"""

import os
import sys

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "fixtures", "mxnet_json"))


def resnet_block(mx):
    data = mx.sym.Variable("data")
    body = mx.sym.Convolution(
        data, kernel=(3, 3), pad=(1, 1), num_filter=16, no_bias=True, name="stage1_conv1"
    )
    body = mx.sym.BatchNorm(body, fix_gamma=False, eps=2e-5, momentum=0.9, name="stage1_bn1")
    body = mx.sym.Activation(body, act_type="relu", name="stage1_relu1")
    body = mx.sym.Convolution(
        body,
        kernel=(3, 3),
        stride=(2, 2),
        pad=(1, 1),
        num_filter=32,
        no_bias=True,
        name="stage1_conv2",
    )
    body = mx.sym.BatchNorm(body, fix_gamma=False, eps=2e-5, name="stage1_bn2")
    short = mx.sym.Convolution(
        data, kernel=(1, 1), stride=(2, 2), num_filter=32, no_bias=True, name="stage1_sc"
    )
    short = mx.sym.BatchNorm(short, fix_gamma=False, eps=2e-5, name="stage1_sc_bn")
    net = mx.sym.Activation(body + short, act_type="relu", name="stage1_relu2")
    net = mx.sym.Pooling(net, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def mlp(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Flatten(data)
    net = mx.sym.FullyConnected(net, num_hidden=128)
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.Dropout(net, p=0.25)
    net = mx.sym.FullyConnected(net, num_hidden=64, name="fc2")
    net = mx.sym.LeakyReLU(net, act_type="leaky", slope=0.2)
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc3")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def concat_split_reshape(mx):
    data = mx.sym.Variable("data")
    parts = mx.sym.SliceChannel(data, num_outputs=3, axis=1, name="parts")
    a = mx.sym.FullyConnected(parts[0], num_hidden=4, flatten=False, name="fa")
    b = mx.sym.Activation(parts[1], act_type="tanh", name="tb")
    c = parts[2] * 2
    cat = mx.sym.Concat(a, b, c, dim=2, name="cat")
    r = mx.sym.Reshape(cat, shape=(0, -1), name="flat")
    r2 = mx.sym.Reshape(r, shape=(-4, 2, -1, -2), name="unflat")
    s = mx.sym.sum(r2, axis=(1,), keepdims=True, name="red")
    return mx.sym.Group(
        [mx.sym.make_loss(mx.sym.mean(s), name="loss"), mx.sym.BlockGrad(r2, name="feat")]
    )


NETS = {"resnet_block": resnet_block, "mlp": mlp, "concat_split_reshape": concat_split_reshape}


def main():
    if not mx.__version__.startswith("1.9.1"):
        sys.exit("these files must be written by MXNet 1.9.1, not %s" % mx.__version__)
    os.makedirs(OUT, exist_ok=True)
    for name, build in sorted(NETS.items()):
        with mx.name.NameManager():
            sym = build(mx)
        path = os.path.join(OUT, name + ".json")
        sym.save(path)
        print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
