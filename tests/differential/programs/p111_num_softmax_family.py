"""softmax / log_softmax (axis 0, 1, -1, temperature) and SoftmaxActivation ('instance' on
2-D data, 'channel' on 4-D data) numerics: forward and the data gradient for a random head
gradient (these are ordinary ops, not loss heads)."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(111)
    data = mx.sym.Variable("data")
    x3 = {"data": f32(rs.randn(2, 3, 4) * 2)}
    x2 = {"data": f32(rs.randn(3, 5) * 2)}
    x4 = {"data": f32(rs.randn(2, 3, 2, 2) * 2)}
    res = {}
    for name, fn in (("softmax", mx.sym.softmax), ("log_softmax", mx.sym.log_softmax)):
        res[name + "_default"] = fwd_bwd(mx, fn(data), x3, rs)
        res[name + "_axis0"] = fwd_bwd(mx, fn(data, axis=0), x3, rs)
        res[name + "_axis1"] = fwd_bwd(mx, fn(data, axis=1), x3, rs)
        res[name + "_axis_m1"] = fwd_bwd(mx, fn(data, axis=-1), x3, rs)
        res[name + "_temperature_2"] = fwd_bwd(mx, fn(data, axis=1, temperature=2.0), x3, rs)
        res[name + "_temperature_0_5_2d"] = fwd_bwd(mx, fn(data, temperature=0.5), x2, rs)
    res["softmax_activation_instance_2d"] = fwd_bwd(mx, mx.sym.SoftmaxActivation(data), x2, rs)
    res["softmax_activation_instance_explicit_2d"] = fwd_bwd(
        mx, mx.sym.SoftmaxActivation(data, mode="instance"), x2, rs)
    res["softmax_activation_channel_4d"] = fwd_bwd(
        mx, mx.sym.SoftmaxActivation(data, mode="channel"), x4, rs)
    return res
