"""mx.test_utils.check_numeric_gradient on built-in operators: it passes (returns None) on
correct gradients in float32 and float64, with location as list / tuple / dict, grad_nodes as
list or {name: req}, aux_states; it fails with AssertionError on a loss head (SoftmaxOutput's
gradient is not the derivative of its output) and on BatchNorm checked with
use_forward_train=False; the exception of each bad input; and its side effects (numpy's global
random draws, the auto-name counters its make_loss graph uses)."""
import numpy as np
from _common import err


def run(mx):
    tu = mx.test_utils
    cng = tu.check_numeric_gradient
    rng = np.random.RandomState(0)
    x, w, b = rng.randn(3, 4), rng.randn(2, 4), rng.randn(2)
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    t = mx.sym.tanh(data, name="t")
    res = {}
    np.random.seed(0)
    res["fc"] = err(mx, cng, fc, [x, w, b])
    res["draws_after_fc"] = np.random.rand(3)
    res["name_after"] = (data * data).name
    res["fc_float64"] = err(mx, cng, fc, [x, w, b], dtype=np.float64)
    res["fc_dict"] = err(mx, cng, fc, {"data": x, "fc_weight": w, "fc_bias": b})
    res["fc_tuple"] = err(mx, cng, fc, (x, w, b))
    res["fc_grad_nodes_list"] = err(mx, cng, fc, [x, w, b], grad_nodes=["fc_weight"])
    res["fc_grad_nodes_reqs"] = err(mx, cng, fc, [x, w, b],
                                    grad_nodes={"data": "add", "fc_weight": "write",
                                                "fc_bias": "null"})
    res["tanh"] = err(mx, cng, t, [x])
    res["tanh_eps"] = err(mx, cng, t, [x], numeric_eps=1e-3, rtol=1e-3, atol=1e-4)
    res["tanh_eps_dict"] = err(mx, cng, t, [x], numeric_eps={np.dtype(np.float32): 1e-3})
    res["tanh_no_train"] = err(mx, cng, t, [x], use_forward_train=False)
    res["sigmoid_float64_tight"] = err(mx, cng, mx.sym.sigmoid(data), [x], dtype=np.float64,
                                       rtol=1e-7, atol=1e-9)
    bn = mx.sym.BatchNorm(data, name="bn", fix_gamma=False)
    g, beta = rng.rand(4) + 0.5, rng.randn(4)
    mean, var = np.zeros(4), np.ones(4)
    res["batchnorm_train"] = err(mx, cng, bn, [x, g, beta], aux_states=[mean, var],
                                 numeric_eps=1e-2, rtol=0.16, atol=1e-2)
    res["batchnorm_no_train"] = err(mx, cng, bn, [x, g, beta],
                                    aux_states={"bn_moving_mean": mean, "bn_moving_var": var},
                                    use_forward_train=False, dtype=np.float64)
    label = np.array([0, 1, 3.0])
    so = mx.sym.SoftmaxOutput(data, mx.sym.Variable("label"), name="so")
    res["softmax_output_loss_head"] = err(mx, cng, so, [x, label], grad_nodes=["data"])
    res["errors"] = {
        "location_list_short": err(mx, cng, fc, [x]),
        "location_dict_missing": err(mx, cng, fc, {"data": x}),
        "grad_nodes_str": err(mx, cng, fc, [x, w, b], grad_nodes="data"),
        "grad_nodes_unknown": err(mx, cng, fc, [x, w, b], grad_nodes=["nope"]),
        "grad_nodes_bad_req": err(mx, cng, fc, [x, w, b], grad_nodes={"data": "bogus"}),
        "eps_too_small": err(mx, cng, fc, [x, w, b], numeric_eps=1e-6),
        "eps_small_float64": err(mx, cng, fc, [x, w, b], numeric_eps=1e-6, dtype=np.float64),
        "two_outputs": err(mx, cng, mx.sym.Group([t, mx.sym.sigmoid(data)]), [x]),
        "dtype_str": err(mx, cng, t, [x], dtype="float32"),
        "aux_missing": err(mx, cng, bn, [x, g, beta], numeric_eps=1e-2, rtol=0.16, atol=1e-2),
        "aux_dict_missing": err(mx, cng, bn, [x, g, beta], aux_states={"bn_moving_mean": mean}),
    }
    return res
