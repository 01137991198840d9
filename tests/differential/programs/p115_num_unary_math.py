"""Unary math numerics: exp, log and sqrt (positive inputs), square, abs, negative, relu,
sigmoid, tanh: forward and the data gradient (random head gradient)."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(115)
    data = mx.sym.Variable("data")
    signed = {"data": f32(rs.uniform(0.1, 3.0, size=(3, 5)) * np.sign(rs.randn(3, 5)))}
    positive = {"data": f32(rs.uniform(0.2, 4.0, size=(3, 5)))}
    res = {}
    for op in ("exp", "square", "abs", "negative", "relu", "sigmoid", "tanh"):
        res[op] = fwd_bwd(mx, getattr(mx.sym, op)(data), signed, rs)
    for op in ("log", "sqrt"):
        res[op] = fwd_bwd(mx, getattr(mx.sym, op)(data), positive, rs)
    res["composed_tanh_exp_sqrt"] = fwd_bwd(
        mx, mx.sym.tanh(mx.sym.sqrt(mx.sym.exp(data) + 1)) * mx.sym.square(data), signed, rs)
    return res
