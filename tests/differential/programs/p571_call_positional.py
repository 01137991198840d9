"""Symbols made with positional parameters and None inputs, as MXNet 1.9.1 makes them: names,
arguments, stored parameters (JSON) and the shapes they infer."""
import numpy as np

from _common import names, node_ops


def _made(sym, **shapes):
    out = {"names": names(sym), "nodes": node_ops(sym), "name": sym.name}
    if shapes:
        out["shapes"] = sym.infer_shape(**shapes)
    return out


def run(mx):
    x, w, b, g = (mx.sym.Variable(n) for n in ("x", "w", "b", "g"))
    res = {
        "dropout_p": _made(mx.sym.Dropout(x, 0.5)),
        "dropout_all_and_name": _made(mx.sym.Dropout(x, 0.25, "always", (), False, "drop")),
        "activation_name_positional": _made(mx.sym.Activation(x, "relu", "act")),
        "activation_attr_positional": _made(mx.sym.Activation(x, "relu", "act2",
                                                              {"__mood__": "calm"})),
        "conv_no_bias_none": _made(mx.sym.Convolution(x, w, None, kernel=(3, 3), num_filter=4,
                                                      no_bias=True), x=(1, 2, 5, 5)),
        "conv_kernel_positional": _made(mx.sym.Convolution(x, None, None, (3, 3), (2, 2),
                                                           num_filter=4), x=(1, 2, 7, 7)),
        "fc_num_hidden_positional": _made(mx.sym.FullyConnected(x, None, None, 10),
                                          x=(2, 5)),
        "fc_no_bias_positional": _made(mx.sym.FullyConnected(x, w, None, 3, True), x=(2, 5)),
        "fc_data_none": _made(mx.sym.FullyConnected(None, w, b, 10, name="fc")),
        "fc_weight_none": _made(mx.sym.FullyConnected(x, None, b, 10, name="fc3")),
        "batchnorm_eps_positional": _made(mx.sym.BatchNorm(x, None, None, None, None, 1e-5,
                                                           0.8, False, name="bn"),
                                          x=(2, 3)),
        "leakyrelu_prelu_positional": _made(mx.sym.LeakyReLU(x, None, "prelu", name="lr1"),
                                            x=(2, 3, 4)),
        "leakyrelu_gamma_positional": _made(mx.sym.LeakyReLU(x, g, "prelu", name="lr2")),
        "leakyrelu_slope_positional": _made(mx.sym.LeakyReLU(x, None, "leaky", 0.1)),
        "softmax_axis_positional": _made(mx.sym.softmax(x, None, 0, name="sm")),
        "softmax_output_grad_scale": _made(mx.sym.SoftmaxOutput(x, None, 2.0, name="so"),
                                           x=(4, 3)),
        "pooling_positional": _made(mx.sym.Pooling(x, (2, 2), "avg"), x=(1, 1, 4, 4)),
        "reshape_positional": _made(mx.sym.Reshape(x, (0, -1)), x=(2, 3, 4)),
        "sum_positional": _made(mx.sym.sum(x, 1, True), x=(2, 3)),
        "slice_axis_positional": _made(mx.sym.slice_axis(x, 1, 0, None), x=(2, 3)),
        "transpose_positional": _made(mx.sym.transpose(x, (1, 0)), x=(2, 3)),
        "expand_dims_positional": _made(mx.sym.expand_dims(x, 1), x=(2, 3)),
        "split_positional": _made(mx.sym.split(x, 3, 1), x=(2, 3)),
        "embedding_dtype_positional": _made(mx.sym.Embedding(x, None, 10, 4, np.float16,
                                                             name="emb")),
        "elemwise_rhs_none": _made(mx.sym.elemwise_add(x, None, name="ea")),
        "scalar_positional": _made(mx.sym._internal._plus_scalar(x, 3)),
        "concat_keyword_params": _made(mx.sym.Concat(x, w, dim=0)),
        "make_loss_keyword_params": _made(mx.sym.make_loss(x, grad_scale=2)),
        "fc_keyword_weight": _made(mx.sym.FullyConnected(x, weight=w, num_hidden=3, name="fc5")),
    }
    return res
