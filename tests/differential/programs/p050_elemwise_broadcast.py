"""elemwise_add/sub/mul/div need identical shapes; broadcast_add/sub/mul/div broadcast."""
from _common import err, names, node_ops, types


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    out = {}
    for op in ["add", "sub", "mul", "div"]:
        e = getattr(mx.sym, "elemwise_" + op)(a, b)
        br = getattr(mx.sym, "broadcast_" + op)(a, b)
        out[op] = {
            "elemwise": [names(e), node_ops(e)[-1], e.infer_shape(a=(2, 3))],
            "elemwise_backward": e.infer_shape(b=(4, 1)),
            "broadcast": [names(br), node_ops(br)[-1],
                          br.infer_shape(a=(2, 1, 3), b=(1, 4, 3))],
            "broadcast_scalar_like": br.infer_shape(a=(2, 3), b=(1, 1)),
            "elemwise_mismatch": err(mx, e.infer_shape, a=(2, 3), b=(3, 2)),
            "broadcast_mismatch": err(mx, br.infer_shape, a=(2, 3), b=(4, 3)),
        }
    bc = mx.sym.broadcast_add(a, b, name="bc")
    out["broadcast_rank_diff"] = bc.infer_shape(a=(5, 4, 3), b=(4, 1))
    out["broadcast_partial"] = bc.infer_shape_partial(a=(2, 1, 3))
    out["broadcast_tojson"] = bc.tojson()
    out["elemwise_types"] = types(mx.sym.elemwise_mul(a, b).infer_type(a="float16"))
    out["broadcast_types"] = types(bc.infer_type(a="int32", b="int32"))
    out["elemwise_type_mismatch"] = err(mx, mx.sym.elemwise_add(a, b).infer_type,
                                        a="float32", b="float64")
    return out
