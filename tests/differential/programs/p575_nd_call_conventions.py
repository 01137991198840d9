"""mx.nd.<op> with positional parameters, None inputs and a positional out, and what MXNet
1.9.1 raises for the mistakes (classes only)."""
import numpy as np

from _common import err


def run(mx):
    nd = mx.nd
    x = nd.array(np.arange(12).reshape(3, 4) - 5.5)
    w, b = nd.ones((2, 4)), nd.array([10, 20])
    x4, w4 = nd.ones((1, 1, 4, 4)), nd.ones((2, 1, 3, 3))
    res = {
        "activation_positional": nd.Activation(x, "relu").asnumpy(),
        "fc_positional": nd.FullyConnected(x, w, b, 2).asnumpy(),
        "fc_no_bias_positional": nd.FullyConnected(x, w, None, 2, True).asnumpy(),
        "fc_keyword_inputs": nd.FullyConnected(data=x, weight=w, bias=b, num_hidden=2).asnumpy(),
        "sum_positional": nd.sum(x, 1, True).asnumpy(),
        "softmax_axis_positional": nd.softmax(x, None, 0).asnumpy(),
        "leaky_slope_positional": nd.LeakyReLU(x, None, "leaky", 0.1).asnumpy(),
        "prelu_gamma_positional": nd.LeakyReLU(x, nd.array([0.5]), "prelu").asnumpy(),
        "conv_bias_none": nd.Convolution(x4, w4, None, kernel=(3, 3), num_filter=2,
                                         no_bias=True).asnumpy(),
        "reshape_positional": nd.Reshape(x, (2, -1)).shape,
        "concat_keyword_dim": nd.Concat(x, x, dim=0).shape,
    }
    out = nd.zeros((3, 4))
    returned = nd.Activation(x, "relu", out)
    res["out_positional"] = {"out": out.asnumpy(), "returned_is_out": returned is out}
    res["errors"] = {
        "too_many_positional": err(mx, nd.Activation, x, "relu", None, "nm", 5),
        "param_twice": err(mx, nd.Dropout, x, 0.5, p=0.2),
        "input_twice": err(mx, nd.Activation, x, data=x, act_type="relu"),
        "number_in_weight_slot": err(mx, nd.FullyConnected, x, 2),
        "numpy_weight": err(mx, nd.FullyConnected, x, np.ones((2, 4)), b, 2),
        "numpy_data": err(mx, nd.relu, np.ones(2)),
        "missing_bias": err(mx, nd.FullyConnected, x, w, None, 2),
        "missing_weight": err(mx, nd.FullyConnected, x, None, b, 2),
        "missing_gamma": err(mx, nd.LeakyReLU, x, None, "prelu"),
        "concat_positional_param": err(mx, nd.Concat, x, x, 0),
        "concat_none": err(mx, nd.Concat, x, None),
        "scalar_as_rhs": err(mx, nd.elemwise_add, x, 1),
    }
    return res
