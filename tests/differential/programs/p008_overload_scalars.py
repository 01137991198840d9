"""Operator overloading with scalars on either side, unary minus, and how scalars are
stringified (1 vs 1.5 vs 0.1 vs 1e-07 vs 1e+20 vs -1.0)."""
from _common import node_ops


def run(mx):
    a = mx.sym.Variable("a")
    exprs = [
        a + 1, 1 + a, a + 1.5, a - 1, 1 - a, a * 2, 2 * a, -a, a / 2, 2 / a,
        a ** 2, 2 ** a, a % 3, 3 % a, a * 0.1, a + 1e-7, a + 1e20, a - (-2), a * 2.0,
        a / 4.25, a + 100000000,
    ]
    result = []
    for s in exprs:
        ops = node_ops(s)
        result.append({"name": s.name, "op": ops[-1][0], "attrs": ops[-1][2],
                       "outputs": s.list_outputs()})
    shapes = ((a + 1) * 2 - a / 3).infer_shape(a=(4, 5))
    return {"exprs": result, "infer_shape": shapes,
            "arguments": (2 * a + 1).list_arguments()}
