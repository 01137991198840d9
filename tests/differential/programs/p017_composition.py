"""Composition: calling a symbol with keyword symbols replaces its free variables."""
from _common import err


def run(mx):
    net1 = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=4, name="fc1")
    net2 = mx.sym.FullyConnected(num_hidden=2, name="fc3")
    before = net2.list_arguments()
    composed = net2(fc3_data=net1, name="composed")
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    expr = a * 2 + b
    y = mx.sym.Variable("y")
    replaced = expr(a=y + 1, b=mx.sym.Variable("z"))
    return {
        "before": before,
        "net2_after": net2.list_arguments(),
        "composed_name": composed.name,
        "composed_arguments": composed.list_arguments(),
        "composed_outputs": composed.list_outputs(),
        "composed_tojson": composed.tojson(),
        "composed_infer_shape": composed.infer_shape(x=(5, 7)),
        "replaced_arguments": replaced.list_arguments(),
        "replaced_outputs": replaced.list_outputs(),
        "replaced_tojson": replaced.tojson(),
        "expr_unchanged": expr.list_arguments(),
        "compose_no_name": net2(fc3_weight=mx.sym.Variable("W")).list_arguments(),
        "compose_no_name_keeps_name": net2(fc3_weight=mx.sym.Variable("W")).name,
        "positional": err(mx, lambda: net2(net1)),
        "unknown_keyword": err(mx, lambda: net2(nope=net1)),
        "non_symbol": err(mx, lambda: net2(fc3_data=3)),
    }
