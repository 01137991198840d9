"""Comparison operators build symbols (never identity checks), with scalars and symbols."""
from _common import node_ops


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    exprs = [a == b, a != b, a > b, a >= b, a < b, a <= b,
             a == 1, a != 1, a > 1, a >= 1, a < 1, a <= 1,
             1 < a, 1 >= a, 2.5 == a]
    out = []
    for s in exprs:
        ops = node_ops(s)
        out.append([s.name, ops[-1][0], ops[-1][2], s.list_arguments()])
    return {"exprs": out,
            "infer_shape": (a > b).infer_shape(a=(3, 2)),
            "infer_type": [[str(t.__name__) for t in part]
                           for part in (a > b).infer_type(a="float32")]}
