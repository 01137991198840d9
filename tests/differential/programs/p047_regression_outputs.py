"""LinearRegressionOutput / LogisticRegressionOutput / MAERegressionOutput: data + label,
label shape rules, grad_scale attr."""
from _common import err, names, node_ops


def run(mx):
    data = mx.sym.Variable("data")
    out = {}
    for fn in ["LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"]:
        s = getattr(mx.sym, fn)(data, grad_scale=0.5)
        out[fn] = {
            "names": names(s),
            "nodes": node_ops(s),
            "shape_2d": s.infer_shape(data=(4, 3)),
            "shape_col": s.infer_shape(data=(4, 1)),
            "shape_3d": s.infer_shape(data=(2, 3, 4)),
        }
    lro = mx.sym.LinearRegressionOutput(data, name="lro")
    out["lro_tojson"] = lro.tojson()
    out["lro_label_n"] = lro.infer_shape(data=(5, 1), lro_label=(5,))
    out["lro_backward_from_label"] = lro.infer_shape(lro_label=(5, 2))
    out["bad_label"] = err(mx, lro.infer_shape, data=(4, 3), lro_label=(4, 2))
    return out
