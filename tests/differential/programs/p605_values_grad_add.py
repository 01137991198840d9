"""grad_req='add': backward adds its gradient to what the gradient arrays held (10 here) for
identity, Cast, where (condition gets 0 added), add_n, hard_sigmoid, smooth_l1, softsign,
sign / round / zeros_like (0 added), softmin, softmax_cross_entropy and maximum."""
import numpy as np

from _common import f32


def _add_once(mx, sym, inputs, head, null=()):
    reqs = {k: ("null" if k in null else "add") for k in sym.list_arguments()}
    ex = sym.simple_bind(mx.cpu(), grad_req=reqs, **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    for k, g in ex.grad_dict.items():
        if g is not None:
            g[:] = 10
    ex.forward(is_train=True)
    ex.backward([mx.nd.array(head)])
    return {k: None if g is None else g.asnumpy() for k, g in ex.grad_dict.items()}


def run(mx):
    rs = np.random.RandomState(605)
    x, y, c = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("c")
    data = f32([[-2.5, -1.0, -0.5, 0.0], [0.5, 1.0, 1.5, 2.5]])
    head = f32(rs.randn(2, 4))
    one = {"x": data}
    cases = {
        "identity": (mx.sym.identity(x), one),
        "cast": (mx.sym.cast(x, dtype="float64"), one),
        "where": (mx.sym.where(c, x, y), {"c": data, "x": data, "y": data * 2}),
        "add_n": (mx.sym.add_n(x, y), {"x": data, "y": data}),
        "hard_sigmoid": (mx.sym.hard_sigmoid(x), one),
        "smooth_l1": (mx.sym.smooth_l1(x), one),
        "softsign": (mx.sym.softsign(x), one),
        "sign": (mx.sym.sign(x), one),
        "round": (mx.sym.round(x), one),
        "zeros_like": (mx.sym.zeros_like(x), one),
        "softmin": (mx.sym.softmin(x), one),
        "maximum": (mx.sym.maximum(x, y), {"x": data, "y": data[::-1].copy()}),
    }
    res = {k: _add_once(mx, s, ins, head) for k, (s, ins) in cases.items()}
    res["sce"] = _add_once(mx, mx.sym.softmax_cross_entropy(x, y),
                           {"x": data, "y": f32([1, 3])}, f32([1.0]), null=("y",))
    return res
