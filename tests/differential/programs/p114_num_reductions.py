"""sum / mean / max / min numerics with axis int, negative, tuple, None, keepdims and exclude:
forward and the data gradient (random head gradient, broadcast back to the input shape);
max / min with ties inside a reduced slice."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(114)
    data = mx.sym.Variable("data")
    x = {"data": f32(rs.randn(2, 3, 4))}
    ties = {"data": f32([[[1, 3, 3, 0], [2, 2, 2, 2], [-1, 5, -1, 5]],
                         [[0, 0, 1, 1], [4, 4, 4, 0], [-3, -3, -2, -3]]])}
    settings = {
        "none": {},
        "axis1": {"axis": 1},
        "axis_m1": {"axis": -1},
        "axis_0_2": {"axis": (0, 2)},
        "axis1_keepdims": {"axis": 1, "keepdims": True},
        "none_keepdims": {"keepdims": True},
        "axis_1_2_keepdims": {"axis": (1, 2), "keepdims": True},
        "exclude_axis1": {"axis": 1, "exclude": True},
        "exclude_axis_0_2_keepdims": {"axis": (0, 2), "exclude": True, "keepdims": True},
    }
    res = {}
    for op in ("sum", "mean", "max", "min"):
        for key, params in settings.items():
            res[op + "_" + key] = fwd_bwd(mx, getattr(mx.sym, op)(data, **params), x, rs)
    res["max_ties_axis2"] = fwd_bwd(mx, mx.sym.max(data, axis=2), ties, rs)
    res["min_ties_axis2"] = fwd_bwd(mx, mx.sym.min(data, axis=2), ties, rs)
    res["max_ties_none"] = fwd_bwd(mx, mx.sym.max(data), ties, rs)
    res["sum_large_axis"] = fwd_bwd(mx, mx.sym.sum(data, axis=1),
                                    {"data": f32(rs.randn(3, 500))}, rs)
    return res
