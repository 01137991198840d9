"""mx.viz.plot_network of a conv net: nodes, labels, colours, attributes, edges and edge labels
(parsed from the Digraph's DOT source, so the graphviz package version does not matter)."""
from _common import describe_dot


def convnet(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv1")
    net = mx.sym.BatchNorm(net, fix_gamma=False, name="bn1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    net = mx.sym.Convolution(net, kernel=(3, 3), stride=(2, 2), num_filter=16, name="conv2")
    net = mx.sym.LeakyReLU(net, slope=0.1, name="leaky")
    net = mx.sym.Pooling(net, global_pool=True, pool_type="avg", name="gpool")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def described(dot):
    """describe_dot, plus the class name of the Digraph."""
    return dict(describe_dot(dot), type=type(dot).__name__)


def run(mx):
    net = convnet(mx)
    return {
        "plain": described(mx.viz.plot_network(net)),
        "with_shape": described(mx.viz.plot_network(net, shape={"data": (2, 3, 16, 16)})),
    }
