"""Exact tojson() of a conv/BN/pool net: multi-key attrs, aux inputs (version field),
node_row_ptr counting BatchNorm's hidden outputs, arg_nodes listing aux variables."""


def run(mx):
    data = mx.sym.Variable("data", shape=(1, 3, 8, 8))
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), stride=(2, 2),
                             no_bias=True, name="conv")
    net = mx.sym.BatchNorm(net, fix_gamma=False, eps=2e-5, momentum=0.95, name="bn")
    net = mx.sym.Activation(net, act_type="relu", name="relu")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool")
    bn_all = mx.sym.BatchNorm(data, output_mean_var=True, name="bnall")
    return {"tojson": net.tojson(), "bn_output_mean_var": bn_all.tojson(),
            "group": mx.sym.Group([net, bn_all]).tojson()}
