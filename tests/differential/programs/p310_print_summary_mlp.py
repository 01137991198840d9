"""mx.viz.print_summary of an MLP: the printed table, exactly (default and custom widths)."""
from _common import printed


def mlp(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Dropout(net, p=0.5, name="drop1")
    net = mx.sym.FullyConnected(net, num_hidden=8, no_bias=True, name="fc2")
    net = mx.sym.Activation(net, act_type="tanh", name="tanh2")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc3")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def summary(mx, *args, **kwargs):
    """The table print_summary prints, and what it returns."""
    text, returned = printed(mx.viz.print_summary, *args, **kwargs)
    return {"text": text, "returned": returned}


def run(mx):
    net = mlp(mx)
    return {
        "default": summary(mx, net, shape={"data": (32, 20)}),
        "narrow": summary(mx, net, shape={"data": (1, 20)}, line_length=70),
        "absolute_positions": summary(mx, net, {"data": (4, 20)}, 90, [30, 50, 62, 90]),
        "flattened_input": summary(mx, net, shape={"data": (2, 4, 5)}),
        "visualization_alias": mx.visualization.print_summary is mx.viz.print_summary,
    }
