"""sum / mean / max / min with axis int and tuple, keepdims and exclude; stored attrs."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    out = {}
    for op in ["sum", "mean", "max", "min"]:
        f = getattr(mx.sym, op)
        cases = [
            f(data),
            f(data, axis=1),
            f(data, axis=(1, 2)),
            f(data, axis=-1, keepdims=True),
            f(data, axis=(0, 2), keepdims=True),
            f(data, axis=1, exclude=True),
            f(data, axis=(0, 3), exclude=True, keepdims=True),
        ]
        out[op] = [[s.name, s.list_attr(), s.infer_shape(data=(2, 3, 4, 5))] for s in cases]
    s = mx.sym.sum(data, axis=[1, 2], name="sl")
    out["list_axis_attr"] = s.list_attr()
    out["list_axis_shape"] = s.infer_shape(data=(2, 3, 4))
    out["names"] = names(s)
    out["tojson"] = mx.sym.mean(data, axis=(1, 2), keepdims=True, name="m").tojson()
    out["types"] = types(mx.sym.sum(data, axis=0).infer_type(data="float64"))
    out["axis_out_of_range"] = err(mx, mx.sym.sum(data, axis=3).infer_shape, data=(2, 3))
    return out
