"""SwapAxis / swapaxes (dim1, dim2, negative, the default 0, 0) and reshape_like (whole
shapes, lhs_begin / lhs_end / rhs_begin / rhs_end, negative ones): names, attrs, JSON, shapes,
forward and gradients (write and add; rhs gets zeros); partial inference (SwapAxis keeps
unknown sizes, nothing back; reshape_like needs both shapes and raises otherwise); dtypes;
errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _layout_common import add_twice
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(636)
    x, y, z = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("z")
    d3 = {"x": f32(rs.randn(2, 3, 4))}
    res = {"swap": {}, "reshape_like": {}}
    for key, s in [("0_2", mx.sym.SwapAxis(x, dim1=0, dim2=2)),
                   ("neg", mx.sym.swapaxes(x, dim1=-1, dim2=1)),
                   ("default", mx.sym.SwapAxis(x))]:
        res["swap"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                            "shape": s.infer_shape(x=(2, 3, 4)), "run": fwd_bwd(mx, s, d3, rs)}
    s = mx.sym.SwapAxis(x, dim1=1, dim2=0, name="sw")
    res["swap_add"] = add_twice(mx, s, d3, [f32(rs.randn(3, 2, 4))])
    res["swap_names"] = names(s)
    for key, params, l, r in [("whole", {}, (2, 6), (3, 4)),
                              ("ranges", {"lhs_begin": 1, "lhs_end": 2, "rhs_begin": 0,
                                          "rhs_end": 2}, (5, 6, 7), (2, 3, 9)),
                              ("negative", {"lhs_begin": -2, "rhs_end": -1}, (2, 3, 4), (12, 5))]:
        s = mx.sym.reshape_like(x, y, **params)
        inputs = {"x": f32(rs.randn(*l)), "y": f32(rs.randn(*r))}
        res["reshape_like"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                                    "shape": s.infer_shape(x=l, y=r),
                                    "run": fwd_bwd(mx, s, inputs, rs)}
    s = mx.sym.reshape_like(x, y, name="rl")
    res["reshape_like_add"] = add_twice(mx, s, {"x": f32(rs.randn(2, 6)),
                                                "y": f32(rs.randn(3, 4))}, [f32(rs.randn(3, 4))])
    res["reshape_like_names"] = names(mx.sym.reshape_like(x, name="rl2"))
    res["partial"] = {
        "swap_unknown": inferred(mx, mx.sym.SwapAxis(x, dim1=0, dim2=1), x=(0, 3, 4)),
        "swap_nothing_back": inferred(mx, mx.sym.SwapAxis(x, dim1=0, dim2=1) + z, z=(3, 2)),
        "rl_lhs_unknown": inferred(mx, mx.sym.reshape_like(x, y), y=(3, 4)),
        "rl_lhs_partial": inferred(mx, mx.sym.reshape_like(x, y), x=(0, 6), y=(3, 4)),
        "rl_rhs_partial": inferred(mx, mx.sym.reshape_like(x, y), x=(2, 6), y=(0, 4)),
    }
    res["types"] = {"swap": types(mx.sym.SwapAxis(x).infer_type(x="float64")),
                    "rl": types(mx.sym.reshape_like(x, y).infer_type(x="float64", y="int32"))}
    res["errors"] = {
        "swap_dim_out_of_range": err(mx, mx.sym.SwapAxis(x, dim1=3).infer_shape, x=(2, 3, 4)),
        "rl_sizes": err(mx, mx.sym.reshape_like(x, y).infer_shape, x=(2, 6), y=(3, 5)),
        "rl_range": err(mx, mx.sym.reshape_like(x, y, lhs_begin=2, lhs_end=1).infer_shape,
                        x=(2, 6), y=(3, 4)),
        "rl_end_past": err(mx, mx.sym.reshape_like(x, y, rhs_end=3).infer_shape, x=(2, 6),
                           y=(3, 4)),
    }
    return res
