"""expand_dims with positive and negative axes."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    out = {}
    for axis in [0, 1, 3, -1, -4]:
        s = mx.sym.expand_dims(data, axis=axis)
        out["axis_%d" % axis] = [s.name, s.list_attr(), s.infer_shape(data=(2, 3, 4))]
    e = mx.sym.expand_dims(data, axis=2, name="ed")
    out["names"] = names(e)
    out["tojson"] = e.tojson()
    out["missing_axis"] = err(mx, mx.sym.expand_dims, data)
    out["axis_too_big"] = err(mx, mx.sym.expand_dims(data, axis=5).infer_shape, data=(2, 3))
    return out
