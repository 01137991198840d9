"""dot: 2-D with every transpose pair, 1-D x 1-D, 1-D with 2-D (either side, with transposes),
N-D (last axis of lhs against the first of rhs, unlike numpy.dot) with transposes; gradients
under write and add; names, attrs, JSON; partial inference (nothing back, unknown kept sizes,
an unknown summed size raises); dtype rule; errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(634)
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    res = {"cases": []}
    for ta, tb, l, r in [(0, 0, (2, 3), (3, 4)), (1, 0, (3, 2), (3, 4)), (0, 1, (2, 3), (4, 3)),
                         (1, 1, (3, 2), (4, 3)), (0, 0, (3,), (3,)), (0, 0, (3,), (3, 4)),
                         (0, 0, (2, 3), (3,)), (1, 0, (3,), (3, 4)), (0, 1, (3,), (4, 3)),
                         (1, 0, (3, 2), (3,)), (0, 0, (2, 3, 4), (4, 5, 2)),
                         (1, 0, (4, 2, 3), (4, 5)), (0, 1, (2, 3, 4), (5, 2, 4)),
                         (1, 1, (4, 2, 3), (5, 2, 4))]:
        s = mx.sym.dot(x, y, transpose_a=bool(ta), transpose_b=bool(tb))
        inputs = {"x": f32(rs.randn(*l)), "y": f32(rs.randn(*r))}
        res["cases"].append({"attrs": s.list_attr(), "shape": s.infer_shape(x=l, y=r),
                             "run": fwd_bwd(mx, s, inputs, rs)})
    s = mx.sym.dot(x, y, transpose_b=True, name="d")
    ex = s.simple_bind(mx.cpu(), grad_req="add", x=(2, 3), y=(4, 3))
    ex.arg_dict["x"][:] = f32(rs.randn(2, 3))
    ex.arg_dict["y"][:] = f32(rs.randn(4, 3))
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(f32(rs.randn(2, 4))))
    res["add"] = {k: ex.grad_dict[k].asnumpy() for k in ("x", "y")}
    res["names"] = names(s)
    res["json"] = node_ops(s)
    res["auto"] = {"name": mx.sym.dot(x, y).name, "implicit": names(mx.sym.dot(x, name="d2"))}
    res["nd_2d"] = mx.nd.dot(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[5], [6]])).asnumpy()
    lhs, rhs = mx.nd.array(rs.randn(4, 2, 3)), mx.nd.array(rs.randn(4, 5, 2))
    res["nd_3d"] = {"plain": mx.nd.dot(lhs.reshape((2, 3, 4)), rhs).asnumpy(),
                    "transpose_a": mx.nd.dot(lhs, rhs, transpose_a=True).asnumpy()}
    res["partial"] = {
        "unknown_rows": inferred(mx, mx.sym.dot(x, y), x=(0, 3), y=(3, 4)),
        "unknown_columns": inferred(mx, mx.sym.dot(x, y), x=(2, 3), y=(3, 0)),
        "rhs_unknown": inferred(mx, mx.sym.dot(x, y), x=(2, 3)),
        "unknown_summed": inferred(mx, mx.sym.dot(x, y), x=(2, 0), y=(3, 4)),
    }
    res["types"] = types(mx.sym.dot(x, y).infer_type(x="float64"))
    res["errors"] = {
        "sizes": err(mx, mx.sym.dot(x, y).infer_shape, x=(2, 3), y=(4, 5)),
        "nd_sizes": err(mx, mx.sym.dot(x, y).infer_shape, x=(2, 12), y=(3, 4, 5)),
        "transpose_vectors": err(mx, mx.sym.dot(x, y, transpose_a=True).infer_shape, x=(3,),
                                 y=(3,)),
        "dtypes_differ": err(mx, mx.sym.dot(x, y).infer_type, x="float64", y="float32"),
        "nd_mismatch": err(mx, lambda: mx.nd.dot(mx.nd.ones((2, 6)), mx.nd.ones((2, 6)))),
    }
    return res
