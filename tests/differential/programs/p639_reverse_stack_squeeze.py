"""reverse / flip (one axis, several, an axis twice), stack (2 and 3 inputs, axis 0 / 1 / -1,
1-D inputs) and squeeze (all size-1 axes, chosen ones, all ones): names, attrs, JSON, shapes,
forward and gradients (write; add for stack); partial inference (reverse both ways, stack pools its
inputs' sizes without filling them in, squeeze needs the whole shape); errors by category.
(Not recorded: stack of inputs whose shapes differ, which MXNet runs and minisym refuses, and
reverse with a negative axis, which MXNet fails only when it runs, and reverse under
grad_req='add', where MXNet 1.9.1 overwrites the gradient.)"""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops
from _layout_common import add_twice
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(639)
    x, y, w, z = (mx.sym.Variable(n) for n in "xywz")
    res = {"cases": {}}
    d23 = f32(rs.randn(2, 3))
    for key, s, inputs in [
            ("reverse_1", mx.sym.reverse(x, axis=1), {"x": d23}),
            ("flip_0_2", mx.sym.flip(x, axis=(0, 2)), {"x": f32(rs.randn(2, 3, 2))}),
            ("reverse_twice", mx.sym.reverse(x, axis=(1, 1)), {"x": d23}),
            ("stack_2", mx.sym.stack(x, y), {"x": d23, "y": f32(rs.randn(2, 3))}),
            ("stack_3_last", mx.sym.stack(x, y, w, axis=-1),
             {"x": d23, "y": f32(rs.randn(2, 3)), "w": f32(rs.randn(2, 3))}),
            ("stack_1d_axis1", mx.sym.stack(x, y, axis=1), {"x": f32(rs.randn(4)),
                                                            "y": f32(rs.randn(4))}),
            ("squeeze_all", mx.sym.squeeze(x), {"x": f32(rs.randn(1, 3, 1))}),
            ("squeeze_axis", mx.sym.squeeze(x, axis=2), {"x": f32(rs.randn(1, 3, 1))}),
            ("squeeze_tuple", mx.sym.squeeze(x, axis=(0, -1)), {"x": f32(rs.randn(1, 3, 1))}),
            ("squeeze_ones", mx.sym.squeeze(x), {"x": f32(rs.randn(1, 1))})]:
        shapes = {k: v.shape for k, v in inputs.items()}
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                             "names": names(s), "shape": s.infer_shape(**shapes),
                             "run": fwd_bwd(mx, s, inputs, rs)}
    res["stack_add"] = add_twice(mx, mx.sym.stack(x, y, axis=1), {"x": d23, "y": d23 * 2},
                                 [f32(rs.randn(2, 2, 3))])
    res["stack_implicit"] = names(mx.sym.stack(x, num_args=2, name="st"))
    res["partial"] = {
        "reverse_back": inferred(mx, mx.sym.reverse(x, axis=0) + z, z=(4, 3)),
        "reverse_unknown": inferred(mx, mx.sym.reverse(x, axis=0), x=(0, 3)),
        "stack_one_known": inferred(mx, mx.sym.stack(x, y, axis=1), x=(2, 3)),
        "stack_pooled": inferred(mx, mx.sym.stack(x, y), x=(2, 0), y=(0, 3)),
        "stack_partial": inferred(mx, mx.sym.stack(x, y), x=(2, 0)),
        "stack_nothing_back": inferred(mx, mx.sym.stack(x, y) + z, z=(2, 2, 3)),
        "squeeze_unknown": inferred(mx, mx.sym.squeeze(x), x=(1, 0, 1)),
        "squeeze_nothing_back": inferred(mx, mx.sym.squeeze(x) + z, z=(3,)),
    }
    res["errors"] = {
        "stack_axis_out_of_range": err(mx, mx.sym.stack(x, y, axis=3).infer_shape, x=(2, 3),
                                       y=(2, 3)),
        "squeeze_not_1": err(mx, mx.sym.squeeze(x, axis=1).infer_shape, x=(1, 3, 1)),
        "squeeze_twice": err(mx, mx.sym.squeeze(x, axis=(0, 0)).infer_shape, x=(1, 3, 1)),
        "squeeze_out_of_range": err(mx, mx.sym.squeeze(x, axis=3).infer_shape, x=(1, 3, 1)),
        "reverse_missing_axis": err(mx, mx.sym.reverse, x),
        "nd_reverse_negative": err(mx, lambda: mx.nd.reverse(mx.nd.array(d23), axis=-1)
                                   .asnumpy()),
        "nd_reverse_out_of_range": err(mx, lambda: mx.nd.reverse(mx.nd.array(d23), axis=2)
                                       .asnumpy()),
    }
    return res
