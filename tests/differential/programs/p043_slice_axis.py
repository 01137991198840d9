"""slice_axis with positive, negative and None ends."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    cases = [(1, 0, 2), (1, 1, None), (2, -3, -1), (-1, 2, None), (0, 0, 1), (2, 1, 3)]
    out = {"cases": []}
    for axis, begin, end in cases:
        s = mx.sym.slice_axis(data, axis=axis, begin=begin, end=end)
        out["cases"].append([s.name, s.list_attr(), s.infer_shape(data=(4, 5, 6))])
    s = mx.sym.slice_axis(data, axis=1, begin=-2, end=None, name="sl")
    out["names"] = names(s)
    out["tojson"] = s.tojson()
    out["missing_begin"] = err(mx, mx.sym.slice_axis, data, axis=0, end=2)
    out["begin_after_end"] = err(mx, mx.sym.slice_axis(data, axis=0, begin=3, end=1).infer_shape,
                                 data=(4, 5))
    return out
