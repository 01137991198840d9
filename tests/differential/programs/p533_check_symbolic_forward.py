"""mx.test_utils.check_symbolic_forward: what it returns (the executor's outputs), location and
expected as lists or dicts, aux_states, dtype (np.float64, 'asnumpy'), equal_nan, and which
exception a wrong expectation or a bad location raises."""
import numpy as np
from _common import err


def run(mx):
    tu = mx.test_utils
    rng = np.random.RandomState(0)
    x = rng.randn(3, 4)
    w, b = rng.randn(2, 4), rng.randn(2)
    data = mx.sym.Variable("data")
    t = mx.sym.tanh(data, name="t")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    res = {}
    out = tu.check_symbolic_forward(t, [x], [np.tanh(x)])
    res["returned"] = [type(out).__name__, len(out), type(out[0]).__name__,
                       np.dtype(out[0].dtype).name, out[0].asnumpy()]
    out = tu.check_symbolic_forward(fc, {"data": x, "fc_weight": w, "fc_bias": b},
                                    {"fc_output": x.dot(w.T) + b})
    res["dicts"] = out[0].asnumpy()
    res["float64"] = np.dtype(tu.check_symbolic_forward(t, [x], [np.tanh(x)],
                                                        dtype=np.float64)[0].dtype).name
    res["asnumpy"] = np.dtype(tu.check_symbolic_forward(t, [x], [np.tanh(x)],
                                                        dtype="asnumpy")[0].dtype).name
    res["ndarray_location"] = err(mx, tu.check_symbolic_forward, t, [mx.nd.array(x)],
                                  [np.tanh(x)])
    group = mx.sym.Group([t, mx.sym.sigmoid(data, name="s")])
    res["group"] = [o.asnumpy() for o in tu.check_symbolic_forward(
        group, [x], [np.tanh(x), 1 / (1 + np.exp(-x))])]
    res["group_short_expected"] = err(mx, tu.check_symbolic_forward, group, [x], [np.tanh(x)])
    bn = mx.sym.BatchNorm(data, name="bn", fix_gamma=False)
    g, beta = rng.rand(4) + 0.5, rng.randn(4)
    mean, var = rng.randn(4), rng.rand(4) + 0.5
    out = tu.check_symbolic_forward(bn, [x, g, beta], [(x - mean) / np.sqrt(var + 1e-3) * g + beta],
                                    aux_states=[mean, var])
    res["aux_list"] = out[0].asnumpy()
    res["aux_dict"] = err(mx, tu.check_symbolic_forward, bn, [x, g, beta],
                          [(x - mean) / np.sqrt(var + 1e-3) * g + beta],
                          aux_states={"bn_moving_mean": mean, "bn_moving_var": var})
    sq = mx.sym.sqrt(data, name="sq")
    neg = [np.array([-1.0, 4.0])]
    res["nan"] = err(mx, tu.check_symbolic_forward, sq, neg, [np.array([np.nan, 2.0])])
    res["nan_equal_nan"] = err(mx, tu.check_symbolic_forward, sq, neg,
                               [np.array([np.nan, 2.0])], equal_nan=True)
    res["errors"] = {
        "off": err(mx, tu.check_symbolic_forward, t, [x], [np.tanh(x) * 1.1]),
        "sign": err(mx, tu.check_symbolic_forward, t, [x], [-np.tanh(x)]),
        "loose_tolerance": err(mx, tu.check_symbolic_forward, t, [x], [np.tanh(x) * 1.01],
                               rtol=0.1, atol=0.1),
        "location_dict_missing": err(mx, tu.check_symbolic_forward, fc, {"data": x}, [x]),
        "location_list_short": err(mx, tu.check_symbolic_forward, fc, [x], [x]),
        "expected_dict_missing": err(mx, tu.check_symbolic_forward, t, [x], {"nope": x}),
        "expected_wrong_shape": err(mx, tu.check_symbolic_forward, t, [x], [np.ones(5)]),
        "expected_broadcast": err(mx, tu.check_symbolic_forward, t, [np.zeros((3, 4))],
                                  [np.zeros(4)]),
        "aux_dict_missing": err(mx, tu.check_symbolic_forward, bn, [x, g, beta], [x],
                                aux_states={"bn_moving_mean": mean}),
        "dtype_str": err(mx, tu.check_symbolic_forward, t, [x], [np.tanh(x)], dtype="float32"),
    }
    return res
