"""FullyConnected numerics: forward and the gradients of data, weight and bias (random head
gradient), for the default, no_bias=True, and flatten=False on 3-D data (with and without bias)."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(100)
    data = mx.sym.Variable("data")
    weight = mx.sym.Variable("weight")
    bias = mx.sym.Variable("bias")
    res = {}

    x4 = f32(rs.randn(2, 3, 2, 2))
    res["default_4d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=5),
        {"data": x4, "weight": f32(rs.randn(5, 12)), "bias": f32(rs.randn(5))}, rs)

    x2 = f32(rs.randn(4, 6))
    res["no_bias"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, num_hidden=3, no_bias=True),
        {"data": x2, "weight": f32(rs.randn(3, 6))}, rs)

    x3 = f32(rs.randn(2, 3, 4))
    res["flatten_false_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=5, flatten=False),
        {"data": x3, "weight": f32(rs.randn(5, 4)), "bias": f32(rs.randn(5))}, rs)

    res["flatten_false_no_bias_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, num_hidden=2, flatten=False, no_bias=True),
        {"data": x3, "weight": f32(rs.randn(2, 4))}, rs)

    res["flatten_true_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=3),
        {"data": x3, "weight": f32(rs.randn(3, 12)), "bias": f32(rs.randn(3))}, rs)
    return res
