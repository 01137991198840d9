"""Scalar ops built by operator overloading: shapes and dtypes pass through unchanged, with
float and int scalars, on float16/float64/int32 inputs."""
from _common import node_ops, types


def run(mx):
    a = mx.sym.Variable("a")
    exprs = {
        "plus": a + 3, "rminus": 3 - a, "mul": a * 0.5, "rdiv": 1 / a,
        "pow": a ** 3, "rpow": 2 ** a, "mod": a % 2, "greater": a > 0.5, "neg": -a,
    }
    out = {}
    for key in sorted(exprs):
        s = exprs[key]
        out[key] = {
            "node": node_ops(s)[-1],
            "shape": s.infer_shape(a=(3, 1, 2)),
            "f16": types(s.infer_type(a="float16")),
            "f64": types(s.infer_type(a="float64")),
            "i32": types(s.infer_type(a="int32")),
        }
    chain = ((a * 2 + 1) / 3 - 0.5) ** 2
    out["chain_nodes"] = node_ops(chain)
    out["chain_shape"] = chain.infer_shape(a=(4,))
    return out
