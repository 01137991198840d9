"""Exact tojson() of an MLP (auto and explicit names, implicit variables, a loss head)."""


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=16)
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2", no_bias=True)
    net = mx.sym.SoftmaxOutput(net, name="softmax", grad_scale=0.5)
    return {"tojson": net.tojson(), "single_var": data.tojson(),
            "internal": net.get_internals()["fc2_output"].tojson()}
