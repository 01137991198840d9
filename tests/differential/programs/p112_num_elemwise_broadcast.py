"""elemwise_add/sub/mul/div and broadcast_add/sub/mul/div numerics, plus the overloaded
symbol operators: forward and the input gradients (random head gradient).  With real
broadcasting ((2,1,3) with (1,4,3), (2,3) with (1,1), rank difference (3,4) with (4,)) the
gradients are reduced back to each input's shape."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(112)
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    same = {"a": f32(rs.randn(3, 4)), "b": f32(rs.uniform(0.5, 2.0, size=(3, 4))
                                                   * np.sign(rs.randn(3, 4)))}
    bc = {"a": f32(rs.randn(2, 1, 3)), "b": f32(rs.uniform(0.5, 2.0, size=(1, 4, 3)))}
    bc_scalar = {"a": f32(rs.randn(2, 3)), "b": f32(rs.uniform(0.5, 2.0, size=(1, 1)))}
    res = {}
    for op in ("add", "sub", "mul", "div"):
        res["elemwise_" + op] = fwd_bwd(mx, getattr(mx.sym, "elemwise_" + op)(a, b), same, rs)
        res["broadcast_" + op + "_213_143"] = fwd_bwd(
            mx, getattr(mx.sym, "broadcast_" + op)(a, b), bc, rs)
        res["broadcast_" + op + "_23_11"] = fwd_bwd(
            mx, getattr(mx.sym, "broadcast_" + op)(a, b), bc_scalar, rs)
    res["overload_add"] = fwd_bwd(mx, a + b, same, rs)
    res["overload_sub"] = fwd_bwd(mx, a - b, same, rs)
    res["overload_mul"] = fwd_bwd(mx, a * b, same, rs)
    res["overload_div"] = fwd_bwd(mx, a / b, same, rs)
    res["overload_pow"] = fwd_bwd(mx, b ** a, {"a": same["a"], "b": np.abs(same["b"])}, rs)
    res["broadcast_rank_difference"] = fwd_bwd(
        mx, mx.sym.broadcast_add(a, b), {"a": f32(rs.randn(3, 4)), "b": f32(rs.randn(4))}, rs)
    res["broadcast_both_sides_mul"] = fwd_bwd(
        mx, mx.sym.broadcast_mul(a, b), {"a": f32(rs.randn(3, 1)), "b": f32(rs.randn(1, 4))},
        rs)
    return res
