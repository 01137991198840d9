"""batch_dot: every transpose pair, 4-D batches; gradients under write and add; names, JSON;
partial inference (nothing until lhs's last and rhs's second-to-last sizes are known, unknown
batch sizes raise); errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(635)
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    res = {"cases": []}
    for ta, tb, l, r in [(0, 0, (2, 3, 4), (2, 4, 5)), (1, 0, (2, 4, 3), (2, 4, 5)),
                         (0, 1, (2, 3, 4), (2, 5, 4)), (1, 1, (2, 4, 3), (2, 5, 4)),
                         (0, 0, (2, 2, 3, 4), (2, 2, 4, 1))]:
        s = mx.sym.batch_dot(x, y, transpose_a=bool(ta), transpose_b=bool(tb))
        inputs = {"x": f32(rs.randn(*l)), "y": f32(rs.randn(*r))}
        res["cases"].append({"attrs": s.list_attr(), "shape": s.infer_shape(x=l, y=r),
                             "run": fwd_bwd(mx, s, inputs, rs)})
    s = mx.sym.batch_dot(x, y, transpose_a=True, name="bd")
    ex = s.simple_bind(mx.cpu(), grad_req="add", x=(2, 4, 3), y=(2, 4, 5))
    ex.arg_dict["x"][:] = f32(rs.randn(2, 4, 3))
    ex.arg_dict["y"][:] = f32(rs.randn(2, 4, 5))
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(f32(rs.randn(2, 3, 5))))
    res["add"] = {k: ex.grad_dict[k].asnumpy() for k in ("x", "y")}
    res["names"] = names(s)
    res["json"] = node_ops(s)
    res["auto_name"] = mx.sym.batch_dot(x, y).name
    res["partial"] = {
        "unknown_m_n": inferred(mx, mx.sym.batch_dot(x, y), x=(2, 0, 4), y=(2, 4, 0)),
        "unknown_lhs_last": inferred(mx, mx.sym.batch_dot(x, y), x=(2, 3, 0), y=(2, 4, 5)),
        "unknown_rhs_rows": inferred(mx, mx.sym.batch_dot(x, y), x=(2, 3, 4), y=(2, 0, 5)),
        "transposed_unknown_last": inferred(mx, mx.sym.batch_dot(x, y, transpose_a=True),
                                            x=(2, 4, 0), y=(2, 4, 5)),
        "rhs_unknown": inferred(mx, mx.sym.batch_dot(x, y), x=(2, 3, 4)),
        "unknown_batch": inferred(mx, mx.sym.batch_dot(x, y), x=(0, 3, 4), y=(2, 4, 5)),
    }
    res["types"] = types(mx.sym.batch_dot(x, y).infer_type(x="float64"))
    res["errors"] = {
        "two_d": err(mx, mx.sym.batch_dot(x, y).infer_shape, x=(3, 4), y=(4, 5)),
        "ndim_differ": err(mx, mx.sym.batch_dot(x, y).infer_shape, x=(2, 3, 4), y=(2, 4)),
        "batch_differ": err(mx, mx.sym.batch_dot(x, y).infer_shape, x=(2, 3, 4), y=(3, 4, 5)),
        "sizes": err(mx, mx.sym.batch_dot(x, y).infer_shape, x=(2, 3, 4), y=(2, 5, 5)),
    }
    return res
