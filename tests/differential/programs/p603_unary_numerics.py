"""Forward and backward values of sign, round (halves away from zero), trunc, rsqrt, sin, cos,
softsign, logical_not, hard_sigmoid (alpha, beta; 0 gradient at the corners), smooth_l1
(sigma; the quadratic part includes its bounds), and maximum / minimum / pow dispatched on
Symbols and numbers."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(603)
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    halves = {"x": f32([[-2.5, -1.5, -0.5, 0.0], [0.5, 1.5, 2.5, -0.49]])}
    signed = {"x": f32(rs.uniform(0.1, 3.0, size=(3, 4)) * np.sign(rs.randn(3, 4)))}
    positive = {"x": f32(rs.uniform(0.2, 4.0, size=(3, 4)))}
    res = {}
    for op in ("sign", "round", "trunc", "logical_not"):
        res[op] = fwd_bwd(mx, getattr(mx.sym, op)(x), halves, rs)
    for op in ("sin", "cos", "softsign"):
        res[op] = fwd_bwd(mx, getattr(mx.sym, op)(x), signed, rs)
    res["rsqrt"] = fwd_bwd(mx, mx.sym.rsqrt(x), positive, rs)
    res["hard_sigmoid"] = fwd_bwd(mx, mx.sym.hard_sigmoid(x), signed, rs)
    res["hard_sigmoid_params"] = fwd_bwd(mx, mx.sym.hard_sigmoid(x, alpha=0.4, beta=0.2),
                                         signed, rs)
    res["hard_sigmoid_corners"] = fwd_bwd(mx, mx.sym.hard_sigmoid(x, alpha=0.5, beta=0.5),
                                          {"x": f32([-1.0, 1.0, 0.0, 2.0, -3.0])}, rs)
    res["smooth_l1"] = fwd_bwd(mx, mx.sym.smooth_l1(x), signed, rs)
    res["smooth_l1_sigma2"] = fwd_bwd(mx, mx.sym.smooth_l1(x, scalar=2.0), signed, rs)
    res["smooth_l1_bounds"] = fwd_bwd(mx, mx.sym.smooth_l1(x, scalar=2.0),
                                      {"x": f32([-0.25, 0.25, 1.0, -1.0, 0.1])}, rs)
    two = {"x": signed["x"], "y": f32(rs.randn(3, 4))}
    two["y"][0, :2] = two["x"][0, :2]  # ties: the left side takes the gradient
    res["maximum"] = fwd_bwd(mx, mx.sym.maximum(x, y), two, rs)
    res["minimum"] = fwd_bwd(mx, mx.sym.minimum(x, y), two, rs)
    res["maximum_scalar"] = fwd_bwd(mx, mx.sym.maximum(x, 0.5), signed, rs)
    res["maximum_rscalar"] = fwd_bwd(mx, mx.sym.maximum(0.5, x), signed, rs)
    res["minimum_rscalar"] = fwd_bwd(mx, mx.sym.minimum(-0.5, x), signed, rs)
    res["pow"] = fwd_bwd(mx, mx.sym.pow(x, y), {"x": positive["x"], "y": two["y"]}, rs)
    res["pow_scalar"] = fwd_bwd(mx, mx.sym.pow(x, 3), signed, rs)
    res["power_rscalar"] = fwd_bwd(mx, mx.sym.power(2, x), signed, rs)
    res["nd"] = {
        "round": mx.nd.round(mx.nd.array(halves["x"])).asnumpy(),
        "sign_int": mx.nd.sign(mx.nd.array([-3, 0, 2], dtype="int32")).asnumpy(),
        "logical_not_int": mx.nd.logical_not(mx.nd.array([0, 2], dtype="int32")).asnumpy(),
        "smooth_l1": mx.nd.smooth_l1(mx.nd.array(signed["x"]), scalar=0.5).asnumpy(),
        "hard_sigmoid": mx.nd.hard_sigmoid(mx.nd.array(signed["x"]), 0.3).asnumpy(),
    }
    return res
