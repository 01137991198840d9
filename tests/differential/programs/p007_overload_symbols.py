"""Operator overloading between two symbols: stored ops, auto names, argument order."""
from _common import node_ops


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    exprs = {
        "add": a + b, "sub": a - b, "mul": a * b, "div": a / b,
        "pow": a ** b, "mod": a % b, "add2": b + a, "sub2": b - a,
    }
    out = {}
    for key in sorted(exprs):
        s = exprs[key]
        out[key] = {"name": s.name, "outputs": s.list_outputs(),
                    "arguments": s.list_arguments(), "nodes": node_ops(s)}
    chain = (a + b) * (a - b) / b
    out["chain"] = {"name": chain.name, "nodes": node_ops(chain),
                    "arguments": chain.list_arguments(),
                    "infer_shape": chain.infer_shape(a=(2, 3))}
    return out
