"""Implicit inputs become Variables named '{op}_{arg}'; outputs are named '{op}_{output}'."""
from _common import names


def run(mx):
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    bn = mx.sym.BatchNorm(fc1, name="bn")
    sm = mx.sym.SoftmaxOutput(bn, name="softmax")
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4)
    lrelu0 = mx.sym.LeakyReLU(data, act_type="leaky")
    lrelu1 = mx.sym.LeakyReLU(data, act_type="prelu")
    emb = mx.sym.Embedding(data, input_dim=10, output_dim=4)
    fc_nodata = mx.sym.FullyConnected(num_hidden=5, name="fc")
    lro = mx.sym.LinearRegressionOutput(data, name="lro")
    ml = mx.sym.make_loss(data, name="ml")
    return {
        "softmax_net": names(sm),
        "conv": names(conv),
        "lrelu_names": [lrelu0.name, lrelu1.name],
        "prelu": names(lrelu1),
        "embedding": names(emb),
        "fc_without_data": names(fc_nodata),
        "linear_regression": names(lro),
        "make_loss": names(ml),
        "internals": sm.get_internals().list_outputs(),
    }
