"""tile (reps longer, shorter, empty) and repeat (flattened, axis, negative axis, repeats 0):
names, attrs, JSON, shapes, forward and gradients summed over the copies (write and add);
partial inference; errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops
from _layout_common import add_twice
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(638)
    x, z = mx.sym.Variable("x"), mx.sym.Variable("z")
    res = {"cases": {}}
    for key, s, shape in [
            ("tile_2d", mx.sym.tile(x, reps=(2, 3)), (2, 3)),
            ("tile_more_reps", mx.sym.tile(x, reps=(2, 1, 3)), (2, 3)),
            ("tile_fewer_reps", mx.sym.tile(x, reps=(3,)), (2, 3, 2)),
            ("tile_empty", mx.sym.tile(x, reps=()), (2, 3)),
            ("repeat_flat", mx.sym.repeat(x, repeats=2), (2, 3)),
            ("repeat_axis", mx.sym.repeat(x, repeats=2, axis=1), (2, 3)),
            ("repeat_negative_axis", mx.sym.repeat(x, repeats=3, axis=-2), (2, 3))]:
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(), "json": node_ops(s),
                             "shape": s.infer_shape(x=shape),
                             "run": fwd_bwd(mx, s, {"x": f32(rs.randn(*shape))}, rs)}
    res["tile_add"] = add_twice(mx, mx.sym.tile(x, reps=(1, 2)), {"x": f32(rs.randn(2, 2))},
                                [f32(rs.randn(2, 4))])
    res["repeat_add"] = add_twice(mx, mx.sym.repeat(x, repeats=2, axis=0),
                                  {"x": f32(rs.randn(2, 2))}, [f32(rs.randn(4, 2))])
    res["names"] = names(mx.sym.tile(x, reps=(2,), name="tl"))
    res["partial"] = {
        "tile_unknown": inferred(mx, mx.sym.tile(x, reps=(2, 2)), x=(0, 3)),
        "tile_zero_reps": inferred(mx, mx.sym.tile(x, reps=(0, 2)), x=(2, 3)),
        "tile_nothing_back": inferred(mx, mx.sym.tile(x, reps=(2, 2)) + z, z=(4, 6)),
        "repeat_other_unknown": inferred(mx, mx.sym.repeat(x, repeats=2, axis=1), x=(0, 3)),
        "repeat_nothing_back": inferred(mx, mx.sym.repeat(x, repeats=2, axis=0) + z, z=(4, 3)),
        "repeat_axis_unknown": inferred(mx, mx.sym.repeat(x, repeats=2, axis=1), x=(2, 0)),
        "repeat_flat_unknown": inferred(mx, mx.sym.repeat(x, repeats=2), x=(0, 3)),
    }
    res["errors"] = {
        "tile_negative": err(mx, lambda: mx.sym.tile(x, reps=(-1, 2)).infer_shape(x=(2, 3))),
        "tile_missing_reps": err(mx, mx.sym.tile, x),
        "repeat_negative": err(mx, lambda: mx.sym.repeat(x, repeats=-1).infer_shape(x=(2, 3))),
        "repeat_axis_out_of_range": err(mx, mx.sym.repeat(x, repeats=2, axis=2).infer_shape,
                                        x=(2, 3)),
        "repeat_missing": err(mx, mx.sym.repeat, x),
    }
    return res
