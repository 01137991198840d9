"""broadcast_axis / broadcast_axes (one and several axes, int or tuple) and broadcast_to (0
keeps data's size): names, attrs, JSON, shapes, forward and gradients summed over the stretched
axes (write and add); partial inference (broadcast_axis needs the whole shape, broadcast_to
keeps an unknown size under a 0, nothing back); errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops
from _layout_common import add_twice
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(637)
    x, z = mx.sym.Variable("x"), mx.sym.Variable("z")
    res = {"cases": {}}
    for key, s, shape in [
            ("axis_tuple", mx.sym.broadcast_axis(x, axis=(0, 2), size=(3, 5)), (1, 4, 1)),
            ("axis_int", mx.sym.broadcast_axes(x, axis=1, size=3), (2, 1)),
            ("to", mx.sym.broadcast_to(x, shape=(3, 4)), (1, 4)),
            ("to_keep", mx.sym.broadcast_to(x, shape=(2, 0, 3)), (1, 4, 1)),
            ("axis_empty", mx.sym.broadcast_axis(x), (1, 2))]:
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                             "shape": s.infer_shape(x=shape),
                             "run": fwd_bwd(mx, s, {"x": f32(rs.randn(*shape))}, rs)}
    s = mx.sym.broadcast_to(x, shape=(3, 0, 2), name="bt")
    res["add"] = add_twice(mx, s, {"x": f32(rs.randn(1, 2, 1))}, [f32(rs.randn(3, 2, 2))])
    res["names"] = names(s)
    res["partial"] = {
        "axis_unknown": inferred(mx, mx.sym.broadcast_axis(x, axis=0, size=3), x=(1, 0)),
        "axis_nothing_back": inferred(mx, mx.sym.broadcast_axis(x, axis=0, size=3) + z, z=(3, 2)),
        "to_keep_unknown": inferred(mx, mx.sym.broadcast_to(x, shape=(3, 0)), x=(1, 0)),
        "to_nothing_back": inferred(mx, mx.sym.broadcast_to(x, shape=(3, 4)) + z, z=(3, 4)),
        "to_unknown_under_size": inferred(mx, mx.sym.broadcast_to(x, shape=(3, 4)), x=(0, 4)),
    }
    res["errors"] = {
        "axis_not_1": err(mx, mx.sym.broadcast_axis(x, axis=0, size=3).infer_shape, x=(2, 1)),
        "axis_negative": err(mx, mx.sym.broadcast_axis(x, axis=-1, size=3).infer_shape, x=(2, 1)),
        "axis_out_of_range": err(mx, mx.sym.broadcast_axis(x, axis=2, size=3).infer_shape,
                                 x=(2, 1)),
        "axis_size_lengths": err(mx, lambda: mx.sym.broadcast_axis(x, axis=(0, 1), size=(3,))
                                 .infer_shape(x=(1, 1))),
        "to_not_1": err(mx, mx.sym.broadcast_to(x, shape=(3, 5)).infer_shape, x=(2, 4)),
        "to_ndim": err(mx, mx.sym.broadcast_to(x, shape=(2, 3, 4)).infer_shape, x=(3, 4)),
        "to_no_shape": err(mx, mx.sym.broadcast_to(x).infer_shape, x=(1, 4)),
    }
    return res
