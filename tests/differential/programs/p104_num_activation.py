"""Activation (all five act_types) and LeakyReLU (leaky, prelu, elu, selu, gelu) numerics:
forward and the gradients of data (and of prelu's gamma), with a random head gradient.
selu's gradient is left to its own program (MXNet computes it from the scaled output)."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(104)
    data = mx.sym.Variable("data")
    x = f32(rs.randn(3, 4) * 2.0)
    x4 = f32(rs.randn(2, 3, 2, 2) * 2.0)
    res = {}
    for act in ("relu", "sigmoid", "tanh", "softrelu", "softsign"):
        res["activation_" + act] = fwd_bwd(mx, mx.sym.Activation(data, act_type=act),
                                           {"data": x}, rs)
    res["activation_relu_4d"] = fwd_bwd(mx, mx.sym.Activation(data, act_type="relu"),
                                        {"data": x4}, rs)
    res["leaky_default_slope"] = fwd_bwd(mx, mx.sym.LeakyReLU(data), {"data": x}, rs)
    res["leaky_slope_0_1"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, act_type="leaky", slope=0.1),
                                     {"data": x}, rs)
    res["elu_default_slope"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, act_type="elu"),
                                       {"data": x}, rs)
    res["elu_slope_1_5"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, act_type="elu", slope=1.5),
                                   {"data": x}, rs)
    # selu: forward only here; its gradient is recorded on its own in p125_quirk_selu_grad
    res["selu_forward"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, act_type="selu"), {"data": x},
                                  rs)["out"]
    res["gelu"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, act_type="gelu"), {"data": x}, rs)
    gamma = mx.sym.Variable("gamma")
    res["prelu_2d"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, gamma, act_type="prelu"),
                              {"data": x, "gamma": f32(rs.uniform(0.1, 0.5, size=4))}, rs)
    res["prelu_4d"] = fwd_bwd(mx, mx.sym.LeakyReLU(data, gamma, act_type="prelu"),
                              {"data": x4, "gamma": f32(rs.uniform(0.1, 0.5, size=3))}, rs)
    return res
