"""Which value / elementwise operators run backward as the network's head without a head
gradient (round, trunc, logical_not, zeros_like, SVMOutput, a graph of zeros: their gradients
need none) and which raise (identity, sign, clip, where, softmin, softmax_cross_entropy)."""
import numpy as np

from _common import err, f32


def _backward_without_head(mx, sym, inputs, null=()):
    reqs = {k: ("null" if k in null else "write") for k in sym.list_arguments()}
    ex = sym.simple_bind(mx.cpu(), grad_req=reqs, **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    ex.forward(is_train=True)
    ex.backward()
    return {k: None if g is None else g.asnumpy() for k, g in ex.grad_dict.items()}


def run(mx):
    x, y, c = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("c")
    data = f32([[-2.5, -1.0, 0.0], [0.5, 1.5, 2.5]])
    one = {"x": data}
    heads = {
        "round": (mx.sym.round(x), one, ()), "trunc": (mx.sym.trunc(x), one, ()),
        "logical_not": (mx.sym.logical_not(x), one, ()),
        "zeros_like": (mx.sym.zeros_like(x), one, ()),
        "ones_like": (mx.sym.ones_like(x), one, ()),
        "svm": (mx.sym.SVMOutput(x, y), {"x": data, "y": f32([0, 2])}, ()),
        "identity": (mx.sym.identity(x), one, ()), "sign": (mx.sym.sign(x), one, ()),
        "clip": (mx.sym.clip(x, 0, 1), one, ()),
        "where": (mx.sym.where(c, x, y), {"c": data, "x": data, "y": data}, ()),
        "softmin": (mx.sym.softmin(x), one, ()),
        "hard_sigmoid": (mx.sym.hard_sigmoid(x), one, ()),
        "sce": (mx.sym.softmax_cross_entropy(x, y), {"x": data, "y": f32([0, 2])}, ("y",)),
    }
    res = {}
    for key, (sym, inputs, null) in heads.items():
        res[key] = err(mx, _backward_without_head, mx, sym, inputs, null)
        if "returned" in res[key]:
            res[key + "_grads"] = _backward_without_head(mx, sym, inputs, null)
    zeros = mx.sym.zeros((2, 2)) * 3
    ex = zeros.simple_bind(mx.cpu())
    ex.forward(is_train=True)
    res["zeros_graph"] = err(mx, ex.backward)
    res["zeros_graph_out"] = ex.outputs[0].asnumpy()
    res["dtype"] = np.dtype(ex.outputs[0].dtype).name
    return res
