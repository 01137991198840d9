"""norm: ord 1 and 2, axis None / int / tuple / negative, keepdims; forward and gradients
(write and add), MXNet's gradient at 0 (0 for ord=1, NaN for ord=2); names, attrs, JSON;
partial inference (nothing until data is wholly known); out_dtype (MXNet 1.9.1 computes only
its data's own dtype); errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _layout_common import add_twice
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(640)
    x = mx.sym.Variable("x")
    d = f32(rs.randn(2, 3, 4))
    res = {"cases": {}}
    for key, params in [("default", {}), ("ord1_axis1", {"ord": 1, "axis": 1}),
                        ("axes_keepdims", {"axis": (0, 2), "keepdims": True}),
                        ("negative_axis", {"axis": -1}), ("keepdims_all", {"keepdims": True}),
                        ("ord1_all", {"ord": 1})]:
        s = mx.sym.norm(x, **params)
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                             "shape": s.infer_shape(x=(2, 3, 4)),
                             "run": fwd_bwd(mx, s, {"x": d}, rs)}
    zeros = f32([[3, -4, 0], [0, 0, 0]])
    res["at_zero"] = {}
    for o in (1, 2):
        for axis in (None, 1):
            s = mx.sym.norm(x, ord=o, axis=axis)
            heads = None if axis is None else [f32([2, 2])]
            res["at_zero"][f"ord{o}_axis{axis}"] = fwd_bwd(
                mx, s, {"x": zeros}, heads if heads else [f32([2])])
    res["add"] = add_twice(mx, mx.sym.norm(x, axis=1), {"x": f32(rs.randn(2, 3))},
                           [f32(rs.randn(2))])
    res["names"] = names(mx.sym.norm(x, name="nm"))
    res["partial"] = {"unknown": inferred(mx, mx.sym.norm(x, axis=1), x=(0, 3)),
                      "nothing_back": inferred(mx, mx.sym.norm(x) + mx.sym.Variable("z"),
                                               z=(1,))}
    res["types"] = {"out_dtype": types(mx.sym.norm(x, out_dtype="float64").infer_type(
        x="float32")), "default": types(mx.sym.norm(x).infer_type(x="float64"))}
    res["nd"] = {"fluent": mx.nd.array(d).norm(axis=2).asnumpy(),
                 "out_dtype_same": mx.nd.norm(mx.nd.array([3, 4]), out_dtype="float32")
                 .asnumpy()}
    res["errors"] = {
        "axis_out_of_range": err(mx, mx.sym.norm(x, axis=3).infer_shape, x=(2, 3, 4)),
        "out_dtype_without_data_dtype": err(mx, mx.sym.norm(x, out_dtype="float64").infer_type),
        "nd_ord3": err(mx, lambda: mx.nd.norm(mx.nd.ones((2, 3)), ord=3).asnumpy()),
        "nd_out_dtype_other": err(mx, lambda: mx.nd.norm(mx.nd.array([3, 4]),
                                                         out_dtype="float64").asnumpy()),
    }
    return res
