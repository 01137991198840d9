"""Unary math ops: op names, auto names, shapes and dtypes."""
from _common import names, node_ops, types


def run(mx):
    data = mx.sym.Variable("data")
    out = {}
    for op in ["exp", "log", "sqrt", "square", "abs", "negative", "relu", "sigmoid", "tanh"]:
        s = getattr(mx.sym, op)(data)
        out[op] = {
            "name": s.name,
            "names": names(s),
            "node": node_ops(s)[-1],
            "shape": s.infer_shape(data=(2, 3)),
            "f64": types(s.infer_type(data="float64")),
            "f16": types(s.infer_type(data="float16")),
        }
    chain = mx.sym.sqrt(mx.sym.square(mx.sym.abs(data, name="ab")), name="sq")
    out["chain_tojson"] = chain.tojson()
    out["chain_backward"] = (chain + mx.sym.Variable("y")).infer_shape(y=(7,))
    return out
