"""Reshape special codes 0, -1, -2, -3, -4 and reverse (the spec's examples): stored attrs
and inferred shapes.  Only size-preserving targets: MXNet infers a size-changing target
silently (e.g. (-3, 0) on (2, 3, 4, 5) gives (6, 4)), which minisym deliberately rejects."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    examples = [(0, -1), (-3, -2), (-3, 0, 0), (-4, 1, 2, -2), (-4, -1, 2, -2), (4, 0, -1),
                (0, 0, -1), (-1,), (2, -1, 5), (0, -4, 3, 1, -2), (-2,), (-2, 1, 1)]
    out = {"examples": []}
    for shp in examples:
        s = mx.sym.Reshape(data, shape=shp)
        out["examples"].append([list(shp), s.list_attr(), s.infer_shape(data=(2, 3, 4, 5))])
    rev = mx.sym.Reshape(data, shape=(-1, 0), reverse=True, name="rev")
    fwd = mx.sym.Reshape(data, shape=(-1, 0), name="fwd")
    out["reverse"] = [rev.list_attr(), rev.infer_shape(data=(10, 5, 4))]
    out["no_reverse"] = [fwd.list_attr(), fwd.infer_shape(data=(10, 5, 4))]
    out["lowercase_reshape"] = mx.sym.reshape(data, shape=[3, -1]).infer_shape(data=(6, 2))
    out["names"] = names(rev)
    out["tojson"] = rev.tojson()
    out["bad_shape_param"] = err(mx, mx.sym.Reshape, data, shape="abc")
    out["two_minus_one"] = err(mx, mx.sym.Reshape(data, shape=(-1, -1)).infer_shape, data=(2, 3))
    return out
