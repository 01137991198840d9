"""Flatten / flatten: (N, d1, d2, ...) -> (N, d1*d2*...), both names give op 'Flatten'."""
from _common import names, node_ops


def run(mx):
    data = mx.sym.Variable("data")
    f = mx.sym.Flatten(data, name="flat")
    g = mx.sym.flatten(data)
    return {
        "names": names(f),
        "nodes": node_ops(g),
        "tojson": f.tojson(),
        "shape_4d": f.infer_shape(data=(2, 3, 4, 5)),
        "shape_2d": f.infer_shape(data=(7, 3)),
        "shape_3d": g.infer_shape(data=(2, 1, 9)),
        "backward": (f + mx.sym.Variable("y")).infer_shape_partial(y=(2, 60)),
    }
