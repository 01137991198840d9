"""transpose with explicit axes and with the default (reverse all axes)."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    t = mx.sym.transpose(data, axes=(0, 2, 3, 1), name="t")
    t_default = mx.sym.transpose(data, name="td")
    return {
        "names": names(t),
        "attrs": t.list_attr(),
        "default_attrs": t_default.list_attr(),
        "tojson": t.tojson(),
        "default_tojson": t_default.tojson(),
        "shape": t.infer_shape(data=(2, 3, 4, 5)),
        "default_shape": t_default.infer_shape(data=(2, 3, 4, 5)),
        "default_shape_2d": t_default.infer_shape(data=(6, 7)),
        "wrong_axes_len": err(mx, t.infer_shape, data=(2, 3)),
    }
