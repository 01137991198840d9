"""mx.test_utils.check_symbolic_backward: what it returns ({argument: gradient NDArray} for the
arguments in expected), expected as list or dict, out_grads as list / dict / NDArrays / None
(loss heads), grad_req 'write' / 'add' / 'null' / per argument, and which exception each wrong
expectation or bad input raises."""
import numpy as np
from _common import err


def run(mx):
    tu = mx.test_utils
    rng = np.random.RandomState(0)
    x, og = rng.randn(3, 4), rng.randn(3, 4)
    w, b = rng.randn(2, 4), rng.randn(2)
    data = mx.sym.Variable("data")
    t = mx.sym.tanh(data, name="t")
    dx = og * (1 - np.tanh(x) ** 2)
    res = {}
    out = tu.check_symbolic_backward(t, [x], [og], [dx])
    res["returned"] = [type(out).__name__, sorted(out), type(out["data"]).__name__,
                       np.dtype(out["data"].dtype).name, out["data"].asnumpy()]
    res["add"] = err(mx, tu.check_symbolic_backward, t, [x], [og], [dx], grad_req="add")
    res["null"] = err(mx, tu.check_symbolic_backward, t, [x], [og], [dx], grad_req="null")
    res["out_grads_dict"] = err(mx, tu.check_symbolic_backward, t, [x], {"t_output": og}, [dx])
    res["out_grads_ndarray"] = err(mx, tu.check_symbolic_backward, t, [x], [mx.nd.array(og)],
                                   [dx])
    res["asnumpy"] = np.dtype(tu.check_symbolic_backward(
        t, [x], [og], [dx], dtype="asnumpy")["data"].dtype).name
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    ones = np.ones((3, 2))
    grads = [ones.dot(w), ones.T.dot(x), np.full(2, 3.0)]
    out = tu.check_symbolic_backward(fc, [x, w, b], [ones], grads)
    res["fc"] = {k: v.asnumpy() for k, v in sorted(out.items())}
    out = tu.check_symbolic_backward(fc, [x, w, b], [ones], {"fc_weight": grads[1]})
    res["fc_dict_one"] = sorted(out)
    res["fc_req_list"] = err(mx, tu.check_symbolic_backward, fc, [x, w, b], [ones], grads,
                             grad_req=["write", "add", "null"])
    res["fc_req_dict"] = err(mx, tu.check_symbolic_backward, fc, [x, w, b], [ones], grads,
                             grad_req={"data": "add", "fc_weight": "write", "fc_bias": "write"})
    label = np.array([0, 1, 3.0])
    so = mx.sym.SoftmaxOutput(data, mx.sym.Variable("label"), name="so")
    p = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    res["loss_none"] = err(mx, tu.check_symbolic_backward, so, [x, label], None,
                           [p - np.eye(4)[[0, 1, 3]]])
    res["errors"] = {
        "sign": err(mx, tu.check_symbolic_backward, t, [x], [og], [-dx]),
        "factor": err(mx, tu.check_symbolic_backward, t, [x], [og], [2 * dx]),
        "add_sign": err(mx, tu.check_symbolic_backward, t, [x], [og], [-dx], grad_req="add"),
        "loss_wrong": err(mx, tu.check_symbolic_backward, so, [x, label], None, [p]),
        "no_out_grads": err(mx, tu.check_symbolic_backward, t, [x], None, [dx]),
        "expected_unknown": err(mx, tu.check_symbolic_backward, t, [x], [og], {"nope": dx}),
        "expected_wrong_shape": err(mx, tu.check_symbolic_backward, t, [x], [og],
                                    [np.ones(5)]),
        "location_short": err(mx, tu.check_symbolic_backward, fc, [x], [ones], [x]),
        "bad_req": err(mx, tu.check_symbolic_backward, t, [x], [og], [dx], grad_req="bogus"),
        "dtype_str": err(mx, tu.check_symbolic_backward, t, [x], [og], [dx], dtype="float64"),
    }
    return res
