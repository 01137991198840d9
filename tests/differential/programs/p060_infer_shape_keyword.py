"""infer_shape by keyword on an MLP; the Variable __shape__ hint and its override."""
from _common import names


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=128, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    hinted = mx.sym.FullyConnected(mx.sym.Variable("x", shape=(4, 6)), num_hidden=3, name="h")
    zero_hint = mx.sym.FullyConnected(mx.sym.Variable("z", shape=(0, 6)), num_hidden=3, name="zh")
    return {
        "names": names(net),
        "mlp": net.infer_shape(data=(32, 784)),
        "mlp_with_label": net.infer_shape(data=(32, 784), softmax_label=(32,)),
        "mlp_3d_data": net.infer_shape(data=(8, 2, 5)),
        "hint_only": hinted.infer_shape(),
        "hint_overridden": hinted.infer_shape(x=(7, 2)),
        "zero_hint_partial": zero_hint.infer_shape_partial(),
        "zero_hint_filled": zero_hint.infer_shape(z=(5, 6)),
        "result_types": [type(x).__name__ for x in net.infer_shape(data=(1, 1))],
        "shape_entry_type": type(net.infer_shape(data=(1, 1))[0][0]).__name__,
    }
