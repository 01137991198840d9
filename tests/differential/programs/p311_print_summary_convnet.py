"""mx.viz.print_summary of a small conv net (Convolution, BatchNorm, Pooling, Flatten, FC): the table, exactly."""
from _common import summary_text


def convnet(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv1")
    net = mx.sym.BatchNorm(net, fix_gamma=False, name="bn1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    net = mx.sym.Convolution(net, kernel=(3, 3), num_filter=16, no_bias=True, name="conv2")
    net = mx.sym.BatchNorm(net, name="bn2")
    net = mx.sym.Activation(net, act_type="relu", name="relu2")
    net = mx.sym.Pooling(net, global_pool=True, kernel=(1, 1), pool_type="avg", name="gpool")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def run(mx):
    net = convnet(mx)
    return {
        "rgb_32": summary_text(mx, net, shape={"data": (8, 3, 32, 32)}),
        "gray_12": summary_text(mx, net, shape={"data": (1, 1, 12, 12)}),
        "with_label_shape": summary_text(mx, net, shape={"data": (2, 3, 16, 16),
                                                         "softmax_label": (2,)}),
    }
