"""Forward and backward values of identity, Cast, clip (bounds included in the gradient, and
a_min > a_max), where (same-shape and 1-D row condition), add_n (an input used twice),
zeros_like / ones_like, and zeros / ones in a graph without variables."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(602)
    x, y, c = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("c")
    data = f32([[-2.5, -1.0, -0.5, 0.0], [0.5, 1.0, 1.5, 2.5]])
    other = f32(rs.randn(2, 4))
    res = {
        "identity": fwd_bwd(mx, mx.sym.identity(x), {"x": data}, rs),
        "cast_int32": fwd_bwd(mx, mx.sym.cast(x, dtype="int32"), {"x": data},
                              [np.arange(8, dtype=np.int32).reshape(2, 4)]),
        "cast_float16": fwd_bwd(mx, mx.sym.Cast(x, dtype="float16"), {"x": data}, rs),
        "clip": fwd_bwd(mx, mx.sym.clip(x, -1, 1.5), {"x": data}, rs),
        "clip_inverted": fwd_bwd(mx, mx.sym.clip(x, 1, -1), {"x": data}, rs),
        "where": fwd_bwd(mx, mx.sym.where(c, x, y),
                         {"c": f32([[1, 0, -1, 0], [0, 0, 2, 1]]), "x": data, "y": other}, rs),
        "where_rows": fwd_bwd(mx, mx.sym.where(c, x, y),
                              {"c": f32([0, 3]), "x": data, "y": other}, rs),
        "add_n_twice": fwd_bwd(mx, mx.sym.add_n(x, y, x), {"x": data, "y": other}, rs),
        "elementwisesum": fwd_bwd(mx, mx.sym.ElementWiseSum(x, y, c),
                                  {"x": data, "y": other, "c": data * 2}, rs),
        "zeros_like": fwd_bwd(mx, mx.sym.zeros_like(x) + x, {"x": data}, rs),
        "ones_like": fwd_bwd(mx, mx.sym.ones_like(x) * x, {"x": data}, rs),
    }
    # a graph without variables binds with no arrays and runs
    alone = mx.sym.zeros((2, 3)) + mx.sym.ones((2, 3), dtype="float32") * 2
    ex = alone.bind(mx.cpu(), {})
    res["no_variables"] = ex.forward()[0].asnumpy()
    res["no_variables_simple_bind"] = alone.simple_bind(mx.cpu()).forward()[0].asnumpy()
    res["eval"] = [a.asnumpy() for a in mx.sym.ones((3,), dtype="int32").eval()]
    res["zeros_from_consumer"] = fwd_bwd(mx, mx.sym.zeros((0, 4)) + x, {"x": data}, rs)
    res["nd"] = {
        "identity": mx.nd.identity(mx.nd.array(data)).asnumpy(),
        "cast": mx.nd.cast(mx.nd.array(data), dtype="int32").asnumpy(),
        "clip": mx.nd.clip(mx.nd.array(data), -1, 1).asnumpy(),
        "clip_int": mx.nd.clip(mx.nd.array([-3, 0, 5], dtype="int32"), -1.5, 2.7).asnumpy(),
        "where": mx.nd.where(mx.nd.array([1, 0]), mx.nd.array(data),
                             mx.nd.array(other)).asnumpy(),
        "add_n": mx.nd.add_n(mx.nd.array(data), mx.nd.array(other)).asnumpy(),
        "zeros_like": mx.nd.zeros_like(mx.nd.array(data)).asnumpy(),
        "ones_like": mx.nd.ones_like(mx.nd.array(data, dtype="int32")).asnumpy(),
    }
    return res
