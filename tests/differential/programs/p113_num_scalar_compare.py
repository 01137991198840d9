"""Scalar operators (symbol with a Python number on either side, including the reversed
forms 2 - x, 2 / x, 2 ** x, 5 % x) numerics: forward and the gradient of x (random head
gradient); comparison operators (symbol-symbol and symbol-scalar, reversed too): values only."""
import numpy as np

from _common import bind_inputs, f32, fwd_bwd


def forward_only(mx, sym, inputs):
    """The output of an inference forward, without gradient arrays."""
    return bind_inputs(mx, sym, inputs, grad_req="null").forward()[0].asnumpy()


def run(mx):
    rs = np.random.RandomState(113)
    x = mx.sym.Variable("x")
    y = mx.sym.Variable("y")
    signed = f32(rs.uniform(0.5, 2.0, size=(3, 4)) * np.sign(rs.randn(3, 4)))
    positive = f32(rs.uniform(0.5, 2.0, size=(3, 4)))
    wide = f32(rs.uniform(-7, 7, size=(3, 4)))
    cases = {
        "plus_2": (x + 2, signed),
        "rplus_2": (2 + x, signed),
        "minus_2": (x - 2, signed),
        "rminus_2": (2 - x, signed),
        "mul_2_5": (x * 2.5, signed),
        "rmul_2_5": (2.5 * x, signed),
        "div_2": (x / 2, signed),
        "rdiv_2": (2 / x, signed),
        "pow_2": (x ** 2, signed),
        "pow_3": (x ** 3, signed),
        "pow_0_5": (x ** 0.5, positive),
        "rpow_2": (2 ** x, signed),
        "rpow_1_5": (1.5 ** x, signed),
        "mod_3": (x % 3, wide),
        "rmod_5": (5 % x, positive),
        "negative": (-x, signed),
        "chain": ((2 - x) * 3 / (x ** 2 + 1), signed),
    }
    res = {key: fwd_bwd(mx, sym, {"x": xv}, rs) for key, (sym, xv) in cases.items()}

    xv = f32([[0.5, -1.0, 2.0, 0.0], [3.0, 0.5, -0.5, 1.0]])
    yv = f32([[0.5, 1.0, -2.0, 0.0], [2.0, 0.5, 0.5, 1.5]])
    both = {"x": xv, "y": yv}
    res["compare"] = {
        "x_eq_y": forward_only(mx, x == y, both),
        "x_ne_y": forward_only(mx, x != y, both),
        "x_gt_y": forward_only(mx, x > y, both),
        "x_ge_y": forward_only(mx, x >= y, both),
        "x_lt_y": forward_only(mx, x < y, both),
        "x_le_y": forward_only(mx, x <= y, both),
        "x_gt_0": forward_only(mx, x > 0, {"x": xv}),
        "x_ge_0_5": forward_only(mx, x >= 0.5, {"x": xv}),
        "x_lt_1": forward_only(mx, x < 1, {"x": xv}),
        "x_le_0": forward_only(mx, x <= 0, {"x": xv}),
        "x_eq_0_5": forward_only(mx, x == 0.5, {"x": xv}),
        "x_ne_0_5": forward_only(mx, x != 0.5, {"x": xv}),
        "r_1_lt_x": forward_only(mx, 1 < x, {"x": xv}),
        "r_0_ge_x": forward_only(mx, 0 >= x, {"x": xv}),
        "r_0_5_eq_x": forward_only(mx, 0.5 == x, {"x": xv}),
    }
    return res
